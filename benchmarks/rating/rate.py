"""``meeplezoo rate GAME --agent X``: X's rating on a game's frozen ladder.

    meeplezoo rate hansa --agent my_bot.py:Bot --precision 100
    meeplezoo rate saint_malo --agent az:default,sims=128 --ladder saint_malo_v0-2p-ladder-v7

X plays every anchor of the ladder (``ladder.py``) on the ladder's fixed deals, each deal
in both seatings, ``--chunk`` deals at a time into a resumable JSONL; after each chunk
only X's rating is fitted, the anchors held at their frozen ratings, and the run stops
once its 95% interval is narrower than ``--precision`` (Elo at 2 players, OpenSkill mu at
more; never on a perfect or a null record, whose interval says nothing) or the deal set
is used up.  The same agent gives the same games: its seeds come from the deal and the
seating.  An anchor rated as if it were
new replays its own reference games, and lands on its frozen rating.

Reports: a table of the ladder with X placed on it, JSON, a PNG (``--plot``) and a
Markdown block to paste into a paper.

A rating compares only with ratings on the same ladder, name and version: each version
fits its anchors anew from its own reference games, so the same anchor can stand at
different ratings in two versions (Saint Malo's ``mcts:1000`` does in the ladder's first
and fifth).  Quote the ladder with the rating, as the reports do.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from meeplezoo.benchmarks.arena import arena
from meeplezoo.benchmarks.arena.labels import legend, short_labels, wrap
from meeplezoo.benchmarks.common import command_main
from meeplezoo.benchmarks.rating import ladder as ladders
from meeplezoo.benchmarks.rating.ladder_check import MAX_DEALS, MAX_PLAYERS
from meeplezoo.envs import resolve_game
from meeplezoo.training.run import flags

# At 3+ players the scale is OpenSkill mu.  By its beta (25/6: about 200 Elo between two
# players) +-50 Elo would be +-1.04 mu, but a 3-player ladder's mu spread is wider than
# that reading (hansa_v0-3p: 48 mu from random to the top, 2-player Hansa 1,360 Elo) and
# such a width would take ~3,900 games; 5 mu (about a tenth of that spread) took 1,152.
DEFAULT_PRECISION = {"elo": 100.0, "openskill_mu": 5.0}
# A wider interval than this says nothing on either scale (a ladder spans ~1,400 Elo).
MAX_PRECISION = 10_000.0


def rate(game: str, agent: str, ladder: str | None = None, precision: float | None = None,
         players: int = 2,
         max_deals: int | None = None, chunk: int = 4, min_deals: int = 4,
         out: str | Path = "rate_results", workers: int | None = None,
         move_limit: float | None = None, progress: bool = True, log=print,
         time_per_move: float | None = None) -> dict:
    """Rate ``agent`` (module docstring); the report as a dict."""
    check_numbers(precision, players, max_deals, chunk, min_deals, workers, out, move_limit,
                  time_per_move)
    game = resolve_game(game)
    frozen = ladders.load_ladder(ladder or ladders.ladder_for(game, players))
    if frozen["game"] != game:
        raise ValueError(f"ladder {frozen['name']} is for {frozen['game']}, not {game}")
    precision = DEFAULT_PRECISION[frozen["scale"]] if precision is None else precision
    anchors = [a["agent"] for a in frozen["anchors"] if a["agent"] != agent]
    deal_set = ladders.rating_deals(frozen)
    first, count = deal_set["first_seed"], deal_set["count"]
    # More deals than the ladder publishes would be a silent cap; say so instead.  (A
    # --chunk or --min-deals past them only means all of them: their defaults can be.)
    if max_deals is not None and max_deals > count:
        raise ValueError(f"--max-deals {max_deals} is more than the {count} deals of ladder "
                         f"{frozen['name']}")
    # The agent is built (a bad spec refused) only once the cheap checks have passed.
    game = arena.check_setup(game, [agent], players)
    limit = min(count, max_deals or count)
    deals = min(max(chunk, min_deals), limit)
    folder = Path(out) / frozen["name"] / _safe(agent)
    while True:
        # Looked up on the module, so a test that stubs the arena's games stubs them here.
        path, records = arena.run_arena(game, [agent, *anchors], frozen["players"], deals,
                                        folder, seed=first, workers=workers,
                                        progress=progress, move_limit=move_limit,
                                        versus=agent, time_per_move=time_per_move)
        mine = [r for r in records if agent in r["seats"]
                and first <= r["seed"] < first + deals]
        fit = ladders.fit_on_ladder(frozen, mine, agent)
        width = fit["high"] - fit["low"]
        decided = 0.0 < fit["score"] < 1.0
        if deals >= limit or (decided and deals >= min_deals and width < precision):
            break
        d = _digits(frozen)
        log(f"  {fit['games']} games: {fit['rating']:+.{d}f} [{fit['low']:+.{d}f}, "
            f"{fit['high']:+.{d}f}] (width {width:.{d + 1}f}, target {precision:g})")
        deals = min(deals + chunk, limit)
    forfeited = sum("forfeit" in r and r["forfeit"]["agent"] == agent for r in mine)
    return {"ladder": frozen["name"], "game": game, "game_version": frozen["game_version"],
            "game_options": frozen["game_options"], "players": frozen["players"],
            "scale": frozen["scale"],
            "deal_set": {"first_seed": first, "count": count, "used": deals},
            "precision": precision, **fit, "forfeits": forfeited,
            "anchors": frozen["anchors"], "records": str(path)}


def check_numbers(precision: float | None, players: int, max_deals: int | None, chunk: int,
                  min_deals: int, workers: int | None, out, move_limit: float | None,
                  time_per_move: float | None) -> None:
    """The flags in range (None: not given), before anything is loaded or built
    (``training/run/flags.py``); ``--max-deals`` is checked against the ladder once loaded."""
    if precision is not None:
        flags.check_number("--precision", precision, 0.0, MAX_PRECISION, low_open=True)
    flags.check_count("--players", players, 2, MAX_PLAYERS)
    if max_deals is not None:
        flags.check_count("--max-deals", max_deals, 1, MAX_DEALS)
    flags.check_count("--chunk", chunk, 1, MAX_DEALS)
    flags.check_count("--min-deals", min_deals, 1, MAX_DEALS)
    arena.check_run_options(None, None, workers, out, move_limit, time_per_move)


def _safe(agent: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=,-]+", "_", agent).strip("_") or "agent"


def seatings(report: dict) -> str:
    """How each deal was played: both seatings at two players, every rotation at more."""
    return "both seatings" if report.get("players", 2) == 2 else "every seat rotation"


def _unit(report: dict) -> str:
    return "Elo" if report["scale"] == "elo" else "mu"


def _digits(report: dict) -> int:
    """Decimals worth printing: Elo in whole points, mu (a few units wide) to a tenth."""
    return 0 if report["scale"] == "elo" else 1


def table(report: dict) -> str:
    rows = [(a["agent"], a["rating"], a["low"], a["high"], "anchor")
            for a in report["anchors"] if a["agent"] != report["agent"]]
    rows.append((report["agent"], report["rating"], report["low"], report["high"], "rated"))
    rows.sort(key=lambda row: -row[1])
    label = short_labels([row[0] for row in rows])    # a checkpoint path prints as A
    width, d = max(5, *(len(label[row[0]]) for row in rows)), _digits(report)
    rated = label[report["agent"]]
    lines = [*wrap(f"{report['ladder']} ({report['games']} games of {rated}, "
                   f"{report['deals']} deals)"),
             f"{'agent':<{width}}  {_unit(report):>6}  95% interval"]
    for name, rating, low, high, kind in rows:
        mark = "  <- rated" if kind == "rated" else ""
        lines.append(f"{label[name]:<{width}}  {rating:+6.{d}f}  "
                     f"[{low:+.{d}f}, {high:+.{d}f}]{mark}")
    if report["score"] in (0.0, 1.0):
        side = "above the top" if report["score"] == 1.0 else "below the bottom"
        lines += wrap(f"(a perfect record: {rated} is {side} of this ladder; its rating is "
                      f"set by the prior, not measured)")
    lines += wrap(f"(ratings compare only with ratings on {report['ladder']}: another "
                  f"ladder, or another version of this one, rates its anchors anew)")
    return "\n".join([*lines, *legend(label)])


def markdown(report: dict) -> str:
    deals, d = report["deal_set"], _digits(report)
    return "\n".join([
        f"| ladder | game (version, options) | deal set | games | {_unit(report)} | 95% interval |",
        "|---|---|---|---:|---:|---|",
        f"| `{report['ladder']}` | {report['game']} (v{report['game_version']}, "
        f"{json.dumps(report['game_options']) if report['game_options'] else 'defaults'}) "
        f"| seeds {deals['first_seed']}-{deals['first_seed'] + deals['count'] - 1}, "
        f"{deals['used']} used, {seatings(report)} | {report['games']} | "
        f"{report['rating']:+.{d}f} | [{report['low']:+.{d}f}, {report['high']:+.{d}f}] |",
        "", f"`{report['agent']}` rated by `meeplezoo rate` with the anchors held at their "
            f"frozen ratings (random = 0; "
            f"{'Bradley-Terry' if report['scale'] == 'elo' else 'OpenSkill Plackett-Luce'}, "
            f"deal bootstrap); comparable only with ratings on this ladder version."])


def plot(report: dict, path: Path) -> Path:
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "rating plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted([*[(a["agent"], a["rating"], a["low"], a["high"], False)
                     for a in report["anchors"] if a["agent"] != report["agent"]],
                   (report["agent"], report["rating"], report["low"], report["high"], True)],
                  key=lambda row: row[1])
    figure, axes = plt.subplots(figsize=(7, 0.45 * len(rows) + 1.2))
    for y, (_, rating, low, high, rated) in enumerate(rows):
        colour = "tab:red" if rated else "tab:blue"
        axes.errorbar(rating, y, xerr=[[rating - low], [high - rating]], fmt="o",
                      color=colour, capsize=3)
    axes.set_yticks(range(len(rows)), [row[0] for row in rows])
    axes.set_xlabel(f"{_unit(report)} (random = 0)")
    axes.set_title(f"{report['agent']} on {report['ladder']}")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game")
    parser.add_argument("--agent", required=True, help="agent spec, e.g. path/to/bot.py:Bot")
    parser.add_argument("--ladder", default=None, help="ladder name or JSON (default: the "
                        "newest shipped for the game at --players)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--precision", type=float, default=None,
                        help="stop once the 95%% interval is narrower than this (Elo, "
                             "default 100; OpenSkill mu at 3+ players, default 5)")
    parser.add_argument("--max-deals", type=int, default=None)
    parser.add_argument("--chunk", type=int, default=4, help="deals between fits")
    parser.add_argument("--min-deals", type=int, default=4,
                        help="deals played before the run may stop early")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--move-limit", type=float, default=None, metavar="SECONDS",
                        help="a move that takes longer forfeits the game")
    parser.add_argument("--time-per-move", type=float, default=None, metavar="SECONDS",
                        help="the budget of every agent that can think by the clock")
    parser.add_argument("--out", default="rate_results")
    parser.add_argument("--plot", action="store_true", help="also write a PNG")
    parser.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    report = rate(args.game, args.agent, args.ladder, args.precision, args.players,
                  args.max_deals,
                  args.chunk, args.min_deals, out=args.out, workers=args.workers,
                  move_limit=args.move_limit, progress=not args.quiet,
                  time_per_move=args.time_per_move)
    stem = Path(report["records"]).with_suffix("")
    summary = Path(f"{stem}_rating.json")
    summary.write_text(json.dumps(report, indent=2) + "\n")
    print(table(report))
    print("\n" + markdown(report))
    print(f"\nrecords: {report['records']}\nsummary: {summary}")
    if args.plot:
        print(f"plot:    {plot(report, Path(f'{stem}_rating.png'))}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return command_main("meeplezoo rate", __doc__.splitlines()[0], add_arguments, run, argv)


if __name__ == "__main__":
    sys.exit(main())
