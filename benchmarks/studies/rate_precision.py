"""Games ``meeplezoo rate`` needs for a +-50 Elo interval, per game's ladder, and the
ladders' leaderboards.

    python -m meeplezoo.benchmarks.studies.rate_precision [--precision 100]

Every anchor of every shipped ladder is rated as if it were new, on growing prefixes of
the ladder's deal set: rating it again would replay exactly these games (an agent's seeds
come from the deal and the seating), so the prefixes are what ``rate`` would see after
each deal.  The figure is the number of games at the first prefix whose 95% interval is
narrower than ``--precision`` (100: +-50 Elo), or where the deal set ends first, the
games it would take extrapolated by the interval's 1 / sqrt(games).  No game is played.

``--measure LADDER=AGENT ...`` plays instead: it runs ``rate`` on the ladder (a v2 ladder
rates on 200 deals, past its reference games) until the interval is narrower than
``--precision`` and records the games that took, the direct figure the extrapolation
estimates.

    python -m meeplezoo.benchmarks.studies.rate_precision --measure \
        hansa_v0-2p-ladder-v2=greedy saint_malo_v0-2p-ladder-v2=greedy
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from meeplezoo.benchmarks.common import RESULTS_DIR
from meeplezoo.benchmarks.rating import ladder as ladders
from meeplezoo.benchmarks.rating.rate import DEFAULT_PRECISION


def games_needed(frozen: dict, anchor: str, precision: float) -> dict:
    first = frozen["deals"]["first_seed"]
    mine = [r for r in frozen["records"] if anchor in r["seats"]]
    fit = None
    for deals in range(1, frozen["deals"]["count"] + 1):
        prefix = [r for r in mine if r["seed"] < first + deals]
        fit = ladders.fit_on_ladder(frozen, prefix, anchor, resamples=100)
        if 0 < fit["score"] < 1 and fit["high"] - fit["low"] < precision:
            return {"anchor": anchor, "games": fit["games"], "deals": deals, "reached": True,
                    "width": fit["high"] - fit["low"]}
    width = fit["high"] - fit["low"]
    # An interval narrows as 1 / sqrt(games): where the deal set ends first, the games the
    # precision would take on a larger deal set.
    return {"anchor": anchor, "games": fit["games"], "deals": frozen["deals"]["count"],
            "reached": False, "width": width,
            "extrapolated_games": round(fit["games"] * (width / precision) ** 2)}


def measure(ladder: str, agent: str, precision: float | None, workers: int | None) -> dict:
    """Games ``rate`` plays before ``agent``'s interval on ``ladder`` is narrower than
    ``precision`` (its own games, resumable under ``rate_results/``)."""
    from meeplezoo.benchmarks.rating.rate import rate

    frozen = ladders.load_ladder(ladder)
    report = rate(frozen["game"], agent, ladder, precision, frozen["players"],
                  workers=workers, log=lambda line: print(line, flush=True))
    width = report["high"] - report["low"]
    return {"ladder": ladder, "agent": agent, "precision": report["precision"],
            "games": report["games"], "deals": report["deals"],
            "reached": width < report["precision"], "width": width,
            "rating": report["rating"], "low": report["low"], "high": report["high"]}


def leaderboard(frozen: dict) -> str:
    lines = [f"**{frozen['name']}** ({frozen['games']} games, {frozen['deals']['count']} "
             f"deals in both seatings)", "", "| agent | Elo | 95% interval | games |",
             "|---|---:|---|---:|"]
    for a in frozen["anchors"]:
        lines.append(f"| `{a['agent']}` | {a['rating']:+.0f} | [{a['low']:+.0f}, "
                     f"{a['high']:+.0f}] | {a['games']} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", type=float, default=None,
                        help="interval width (default: rate's, 100 Elo or 5 mu)")
    parser.add_argument("--measure", nargs="+", default=None, metavar="LADDER=AGENT")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", default=str(RESULTS_DIR / "rate_precision.json"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    if args.measure:
        pairs = [item.split("=", 1) for item in args.measure]
        if any(len(pair) != 2 for pair in pairs):
            parser.error("--measure takes LADDER=AGENT pairs")
        result = json.loads(out.read_text()) if out.is_file() else {"ladders": {}}
        measured = {(m["ladder"], m["agent"]): m for m in result.get("measured", [])}
        for ladder, agent in pairs:
            row = measure(ladder, agent, args.precision, args.workers)
            measured[(ladder, agent)] = row
            print(f"{ladder} {agent}: width {row['width']:.2f} after {row['games']} games "
                  f"({row['deals']} deals)", flush=True)
            result["measured"] = list(measured.values())
            out.write_text(json.dumps(result, indent=2) + "\n")
        return 0
    result = {"precision": args.precision, "ladders": {}}
    for name in ladders.shipped():
        frozen = ladders.load_ladder(name, check_bots=False)     # its records alone
        if "extends" in frozen:
            continue                  # the same reference games as the ladder it extends
        precision = args.precision or DEFAULT_PRECISION[frozen["scale"]]
        rows = [games_needed(frozen, a["agent"], precision) for a in frozen["anchors"]
                if a["agent"] != frozen["anchor"]]
        result["ladders"][name] = rows
        print(leaderboard(frozen) + "\n")
        for row in rows:
            reached = (f"{row['games']} games ({row['deals']} deals)" if row["reached"] else
                       f"more than {row['games']} games (width {row['width']:.0f} after all; "
                       f"~{row['extrapolated_games']} games by 1/sqrt(n))")
            print(f"  {row['anchor']}: +-{precision / 2:g} after {reached}")
        print()
    if out.is_file() and "measured" in (old := json.loads(out.read_text())):
        result["measured"] = old["measured"]          # what --measure played stays
    out.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
