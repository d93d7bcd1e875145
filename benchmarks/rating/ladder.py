"""Frozen ladders: a published set of anchor agents whose ratings come from one reference
tournament, shipped with the package, so that any new agent is rated on the same scale.

    python -m meeplezoo.benchmarks.rating.ladder build hansa_v0 \\
        --anchors random greedy mcts:200 mcts:1000 az:default ppo:default --deals 20
    python -m meeplezoo.benchmarks.rating.ladder extend hansa_v0-2p-ladder-v1 --rating-deals 200 \
        --version 2
    python -m meeplezoo.benchmarks.rating.ladder list

A ladder ``<game>-<players>p-ladder-v<version>`` is a JSON file in ``benchmarks/rating/ladders/``
(its anchors with their Bradley-Terry Elo and bootstrap interval, random at 0; its deal
set; the game's version and options; the command that built it) beside the reference
tournament's records (``.jsonl.gz``, every anchor against every other on the deal set in
both seatings).  ``meeplezoo rate`` (``rate.py``) plays a new agent against the anchors on
that deal set and fits only its rating, the anchors held at their frozen values.  A
reference tournament of every anchor against every other is costly, so a ladder may
publish a larger rating deal set (``rating_deals``, seeds following the reference deals):
a new agent then plays the anchors on as many deals as its interval needs, while the
anchors' ratings stay those of the reference games.

The fit of one agent against fixed anchors is Bradley-Terry in one unknown: the Elo ``R``
maximising ``sum_games s log P + (1 - s) log(1 - P)``, ``P = 1 / (1 + 10^((R_a - R) /
400))`` for a game against anchor ``a`` scored ``s`` (1, 1/2, 0), with one virtual drawn
game against each anchor faced (the arena's prior, which keeps a perfect record finite).
Its 95% interval comes from resampling deals (every seating of a deal together), as the
arena's intervals do, widened where needed to the likelihood's own (1.96 over the root of
the Fisher information), which a bootstrap of a few deals would miss; it leaves out the
anchors' own uncertainty.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import sys
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.arena.fingerprints import bot_fingerprint, fingerprints
from meeplezoo.benchmarks.rating.ladder_check import (
    check_fields,
    check_records,
    meaning,
    renamed_anchors,
)
from meeplezoo.benchmarks.rating.ratings import points_over
from meeplezoo.envs.core.files import FileRefused, exists, parse_json, read_gzip, read_json

LADDER_DIR = Path(__file__).parent / "ladders"
FORMAT = 1


def ladder_name(game: str, players: int, version: int) -> str:
    return f"{game}-{players}p-ladder-v{version}"


def game_version(game: str) -> str:
    """The ``_vN`` of a game's name: a ladder is only valid for the rules it was built on."""
    return game.rsplit("_v", 1)[-1]


# ------------------------------------------------------------------------- fixed anchors


def fit_fixed(wins: np.ndarray, games: np.ndarray, anchor_elos: np.ndarray,
              prior: float = 1.0) -> float:
    """The Elo that maximises the likelihood of ``wins`` out of ``games`` against anchors
    rated ``anchor_elos`` (module docstring), by Newton's method on a concave function."""
    met = games > 0
    wins = wins + 0.5 * prior * met
    games = games + prior * met
    if not met.any():
        raise ValueError("no games against the ladder's anchors")
    scale = math.log(10) / 400
    rating = float(np.average(anchor_elos[met], weights=games[met]))
    for _ in range(100):
        p = 1 / (1 + np.exp(-scale * (rating - anchor_elos)))
        gradient = scale * (wins - games * p).sum()
        curvature = scale * scale * (games * p * (1 - p)).sum()
        step = gradient / curvature
        rating += float(np.clip(step, -400, 400))
        if abs(step) < 1e-9:
            break
    return rating


def rate_against(records: Sequence[dict], agent: str, anchors: dict[str, float],
                 resamples: int = 200, seed: int = 0) -> dict:
    """``agent``'s Elo on the anchors' fixed scale from its games against them, with a deal
    bootstrap 95% interval and the games it counted."""
    names = list(anchors)
    elos = np.array([anchors[a] for a in names])
    by_deal: dict[int, np.ndarray] = {}          # deal -> [wins per anchor, games per anchor]
    for record in records:
        seats = record["seats"]
        if agent not in seats or len(seats) != 2:
            continue
        opponent = seats[1 - seats.index(agent)]
        if opponent not in anchors or opponent == agent:
            continue
        score = points_over(record, agent, opponent)
        cell = by_deal.setdefault(record["seed"], np.zeros((2, len(names))))
        cell[0, names.index(opponent)] += score
        cell[1, names.index(opponent)] += 1
    if not by_deal:
        raise ValueError(f"{agent!r} has no games against the anchors {names}")
    deals = np.stack(list(by_deal.values()))
    total = deals.sum(axis=0)
    rating = fit_fixed(total[0], total[1], elos)
    rng = np.random.default_rng(seed)
    samples = np.empty(resamples)
    for b in range(resamples):
        counts = np.bincount(rng.integers(len(deals), size=len(deals)), minlength=len(deals))
        drawn = np.tensordot(counts, deals, axes=1)
        samples[b] = fit_fixed(drawn[0], drawn[1], elos)
    low, high = np.percentile(samples, [2.5, 97.5])
    # A few deals resample into the same few results and a bootstrap interval shrinks to
    # nothing: the interval is at least the likelihood's (1.96 / sqrt(Fisher information)).
    scale = math.log(10) / 400
    p = 1 / (1 + np.exp(-scale * (rating - elos)))
    spread = 1.96 / math.sqrt(max(float((scale * scale * total[1] * p * (1 - p)).sum()), 1e-12))
    low, high = min(low, rating - spread), max(high, rating + spread)
    return {"agent": agent, "rating": rating, "low": float(low), "high": float(high),
            "games": int(total[1].sum()), "deals": len(deals),
            "score": float(total[0].sum() / total[1].sum())}


def rate_against_field(records: Sequence[dict], agent: str, anchors: dict[str, tuple],
                       origin: float, resamples: int = 200, seed: int = 0) -> dict:
    """At 3+ players: ``agent``'s OpenSkill Plackett-Luce mu with the anchors' ``(mu,
    sigma)`` held fixed, its games taken in the arena's fixed order and only its own
    rating updated; reported relative to ``origin`` (the scale anchor's absolute mu), with
    a deal bootstrap interval widened where needed to mu +- 1.96 sigma."""
    from meeplezoo.benchmarks.rating.ratings import deal_clusters, sort_order
    from meeplezoo.envs.core.extras import require

    PlackettLuce = require("openskill.models", "train",
                           "ratings at three or more players").PlackettLuce

    mine = [r for r in records if agent in r["seats"]
            and all(s == agent or s in anchors for s in r["seats"])]
    if not mine:
        raise ValueError(f"{agent!r} has no games against the anchors {list(anchors)}")
    model = PlackettLuce(tau=0.0)

    def sequential(chosen: list[dict]) -> tuple[float, float]:
        mu, sigma = model.mu, model.sigma
        for k in sort_order(chosen):
            record = chosen[k]
            teams = [[model.rating(mu=mu, sigma=sigma) if s == agent else
                      model.rating(mu=anchors[s][0], sigma=anchors[s][1])]
                     for s in record["seats"]]
            updated = model.rate(teams, ranks=list(record["ranks"]))
            seat = record["seats"].index(agent)
            mu, sigma = updated[seat][0].mu, updated[seat][0].sigma
        return mu - origin, sigma

    rating, sigma = sequential(mine)
    clusters = deal_clusters(mine)
    rng = np.random.default_rng(seed)
    samples = [sequential([mine[k] for c in rng.integers(len(clusters), size=len(clusters))
                           for k in clusters[c]])[0] for _ in range(resamples)]
    low, high = np.percentile(samples, [2.5, 97.5])
    first = [r["ranks"][r["seats"].index(agent)] == 1 for r in mine]
    return {"agent": agent, "rating": rating, "sigma": sigma,
            "low": float(min(low, rating - 1.96 * sigma)),
            "high": float(max(high, rating + 1.96 * sigma)), "games": len(mine),
            "deals": len({r["seed"] for r in mine}), "score": float(np.mean(first))}


def fit_on_ladder(frozen: dict, records: Sequence[dict], agent: str,
                  resamples: int = 200) -> dict:
    """``agent``'s rating on ``frozen``'s scale from ``records`` (its games against the
    anchors): Bradley-Terry Elo at 2 players, OpenSkill mu at more (``score``: its share
    of points, or of first places)."""
    rows = [a for a in frozen["anchors"] if a["agent"] != agent]
    if frozen["method"] == "bradley_terry":
        return rate_against(records, agent, {a["agent"]: a["rating"] for a in rows},
                            resamples)
    origin = next(a["mu"] for a in frozen["anchors"] if a["agent"] == frozen["anchor"])
    return rate_against_field(records, agent, {a["agent"]: (a["mu"], a["sigma"])
                                               for a in rows}, origin, resamples)


# ------------------------------------------------------------------------------ ladders


def changed_bots(ladder: dict) -> list[str]:
    """The anchors whose shipped bot is no longer the one the ladder was built with."""
    return [anchor for anchor, digest in ladder.get("bots", {}).items()
            if bot_fingerprint(anchor, ladder["game"]) != digest]


def load_ladder(name_or_path: str, check_bots: bool = True) -> dict:
    """A ladder by name (``hansa_v0-2p-ladder-v1``) or JSON path, checked; ``records``
    holds its reference games.  ``check_bots``: refuse a ladder whose shipped-bot anchors
    have changed since it was built (its ratings are not theirs any more)."""
    path = _ladder_path(name_or_path)
    if not exists(path, "ladder"):
        raise ValueError(f"no ladder {name_or_path!r}; shipped: {', '.join(shipped()) or 'none'}")
    try:
        ladder = read_json(path, "ladder")     # a regular file, bounded, shallow JSON
        # The fields first: a ladder naming code to run is refused before anything is read
        # or built from it (``ladder_check.py``).
        check_fields(ladder, FORMAT)
        if check_bots and renamed_anchors(ladder):
            raise ValueError(f"it was built before the bots were renamed: "
                             f"{meaning(ladder)}; rate with "
                             f"{ladder_for(ladder['game'], ladder['players'])}")
        changed = changed_bots(ladder) if check_bots else []
        if changed:
            raise ValueError(f"{', '.join(changed)} shipped since it was built is another "
                             f"bot now: rate with a newer version of this ladder")
        rating = rating_deals(ladder)
        if not (rating["count"] >= ladder["deals"]["count"]
                and rating["first_seed"] == ladder["deals"]["first_seed"]):
            raise ValueError("its rating deal set must start with the reference deals")
        raw = read_gzip(path.with_name(ladder["records"]), "ladder records")
        if hashlib.sha256(raw).hexdigest() != ladder["records_sha256"]:
            raise ValueError("its records do not match the checksum it was published with")
        ladder["records"] = [parse_json(line, f"{path}'s records")
                             for line in raw.decode().splitlines()]
        check_records(ladder, ladder["records"])
    except (OSError, EOFError, zlib.error, KeyError, TypeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path} is not a readable ladder: {type(err).__name__}: {err}") \
            from None
    except FileRefused as err:             # its message names the path already
        raise ValueError(f"not a readable ladder: {err}") from None
    except ValueError as err:
        raise ValueError(f"{path} is not a valid ladder: {err}") from None
    return ladder


def shipped() -> list[str]:
    return sorted(p.stem for p in LADDER_DIR.glob("*.json"))


def _ladder_path(name_or_path: str) -> Path:
    path = Path(name_or_path)
    return LADDER_DIR / f"{name_or_path}.json" if not path.suffix else path


def rating_deals(ladder: dict) -> dict:
    """The deals ``rate`` plays a new agent on: the reference tournament's deals, and in a
    ladder that publishes more (``extend``), the further deals after them."""
    return ladder.get("rating_deals", ladder["deals"])


def extend(name: str, count: int, version: int) -> Path:
    """A new version of ladder ``name``: the same reference tournament (its records file,
    anchors and ratings unchanged) with a rating deal set of ``count`` deals, so that
    ``rate`` can go on past the reference deals to a narrower interval.  A new version,
    because the same agent then plays more games; the old one still rates as it did.  It
    is written beside ``name``, whose records file it shares."""
    old = load_ladder(name, check_bots=False)
    if count < old["deals"]["count"]:
        raise ValueError(f"--rating-deals {count} is fewer than the {old['deals']['count']} "
                         f"reference deals")
    new_name = ladder_name(old["game"], old["players"], version)
    if new_name == old["name"]:
        raise ValueError(f"--version {version} is {name}'s own version")
    ladder = {**read_json(_ladder_path(name), "ladder"), "name": new_name,
              "rating_deals": {"first_seed": old["deals"]["first_seed"], "count": count},
              "extends": old["name"],
              "extend_command": f"python -m meeplezoo.benchmarks.rating.ladder extend "
                                f"{old['name']} "
                         f"--rating-deals {count} --version {version}"}
    path = _ladder_path(name).with_name(f"{new_name}.json")
    path.write_text(json.dumps(ladder, indent=2) + "\n")
    return path


def ladder_for(game: str, players: int) -> str:
    """The newest shipped ladder of a game and player count."""
    prefix = f"{game}-{players}p-ladder-v"
    versions = sorted((int(name[len(prefix):]), name) for name in shipped()
                      if name.startswith(prefix) and name[len(prefix):].isdigit())
    if not versions:
        raise ValueError(f"no ladder ships for {game} at {players} players; shipped: "
                         f"{', '.join(shipped()) or 'none'}")
    return versions[-1][1]


def write_records(folder: Path, name: str, records: Sequence[dict]) -> tuple[str, str]:
    """A ladder's reference games as ``<name>.jsonl.gz`` in ``folder`` (one sorted-key JSON
    a line, gzip without a timestamp so the bytes are reproducible): its file name and
    the sha256 of its uncompressed text, which ``load_ladder`` checks."""
    raw = "".join(json.dumps(r, sort_keys=True) + "\n" for r in records).encode()
    (folder / f"{name}.jsonl.gz").write_bytes(gzip.compress(raw, mtime=0))
    return f"{name}.jsonl.gz", hashlib.sha256(raw).hexdigest()


def build(game: str, anchors: Sequence[str], deals: int, version: int = 1, players: int = 2,
          work: str | Path = "ladder_runs", out: str | Path = LADDER_DIR,
          workers: int | None = None, resamples: int = 200, progress: bool = True,
          first_seed: int = 0) -> Path:
    """Play the reference tournament (resumable, in ``work``) and write the ladder; its
    deals are seeds ``first_seed`` on (a work folder holding an arena's games of those
    anchors on those deals, a strength bar's, is reused rather than played again)."""
    from meeplezoo.benchmarks.arena.arena import run_arena
    from meeplezoo.benchmarks.rating import ratings
    from meeplezoo.envs import resolve_game

    game = resolve_game(game)
    if "random" not in anchors:
        raise ValueError("a ladder's scale is anchored at random: include it in --anchors")
    name = ladder_name(game, players, version)
    _, records = run_arena(game, list(anchors), players, deals, Path(work) / name,
                           seed=first_seed, workers=workers, progress=progress)
    # A work folder from an earlier, longer build holds later deals too: the reference
    # tournament is these deals only (``load_ladder`` checks it is exactly them).
    records = [r for r in records if first_seed <= r["seed"] < first_seed + deals]
    summary = ratings.summarize(records, anchors, "random", resamples, seed=0)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    records_file, digest = write_records(out, name, sorted(
        records, key=lambda r: (r["seed"], r["seats"])))
    ladder = {"format": FORMAT, "name": name, "game": game, "game_version": game_version(game),
              "game_options": {}, "players": players, "anchor": "random",
              "method": summary["method"], "scale": summary["scale"],
              "anchors": _anchor_rows(records, summary),
              "deals": {"first_seed": first_seed, "count": deals}, "games": len(records),
              "records": records_file, "records_sha256": digest,
              "bots": fingerprints(anchors, game),
              "command": f"python -m meeplezoo.benchmarks.rating.ladder build {game} --anchors "
                         f"{' '.join(anchors)} --deals {deals} --version {version} "
                         f"--players {players}"
                         + (f" --first-seed {first_seed}" if first_seed else "")}
    path = out / f"{name}.json"
    path.write_text(json.dumps(ladder, indent=2) + "\n")
    return path


def _anchor_rows(records: list[dict], summary: dict) -> list[dict]:
    """The anchors as the ladder keeps them; at 3+ players also their absolute OpenSkill
    mu and sigma, from which a new agent's games are rated (``rate_against_field``)."""
    from meeplezoo.benchmarks.rating import ratings

    rows = [{k: row[k] for k in ("agent", "rating", "low", "high", "games")}
            for row in summary["ratings"]]
    if summary["method"] == "plackett_luce":
        agents = [row["agent"] for row in rows]
        fit = ratings.plackett_luce(records, agents, summary["anchor"],
                                    order=ratings.sort_order(records))
        for row, mu, sigma in zip(rows, fit["mu_absolute"], fit["sigma"], strict=True):
            row.update(mu=float(mu), sigma=float(sigma))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.rating.ladder",
                                     description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("build", help="play a reference tournament and write a ladder")
    p.add_argument("game")
    p.add_argument("--anchors", nargs="+", required=True)
    p.add_argument("--deals", type=int, default=20)
    p.add_argument("--version", type=int, default=1)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--work", default="ladder_runs")
    p.add_argument("--out", default=str(LADDER_DIR))
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--first-seed", type=int, default=0,
                   help="the deals' first seed (an arena's --seed whose games --work holds)")
    p = commands.add_parser("extend", help="a new version of a ladder with a larger deal set "
                            "for rate (same reference games)")
    p.add_argument("ladder")
    p.add_argument("--rating-deals", type=int, required=True)
    p.add_argument("--version", type=int, required=True)
    commands.add_parser("list", help="the shipped ladders")
    args = parser.parse_args(argv)
    try:
        if args.command == "list":
            for name in shipped():
                ladder = load_ladder(name, check_bots=False)
                changed = changed_bots(ladder)
                print(f"{name}: {ladder['games']} games; " + ", ".join(
                    f"{a['agent']} {a['rating']:+.0f}" for a in ladder["anchors"]) +
                    (f" (retired: {', '.join(changed)} changed since)" if changed else ""))
            return 0
        if args.command == "extend":
            print(f"ladder: {extend(args.ladder, args.rating_deals, args.version)}")
            return 0
        path = build(args.game, args.anchors, args.deals, args.version, args.players,
                     work=args.work, out=args.out, workers=args.workers,
                     progress=not args.quiet, first_seed=args.first_seed)
        print(f"ladder: {path}")
        return 0
    except ValueError as err:
        print(f"ladder: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
