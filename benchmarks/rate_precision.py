"""Games ``meeplezoo rate`` needs for a +-50 Elo interval, per game's ladder, and the
ladders' leaderboards (issue 19's figures).

    python -m meeplezoo.benchmarks.rate_precision [--precision 100]

Every anchor of every shipped ladder is rated as if it were new, on growing prefixes of
the ladder's deal set: rating it again would replay exactly these games (an agent's seeds
come from the deal and the seating), so the prefixes are what ``rate`` would see after
each deal.  The figure is the number of games at the first prefix whose 95% interval is
narrower than ``--precision`` (100: +-50 Elo), or where the deal set ends first, the
games it would take extrapolated by the interval's 1 / sqrt(games).  No game is played.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import ladder as ladders
from .common import RESULTS_DIR


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
    parser.add_argument("--precision", type=float, default=100.0)
    parser.add_argument("--out", default=str(RESULTS_DIR / "rate_precision.json"))
    args = parser.parse_args(argv)
    result = {"precision": args.precision, "ladders": {}}
    for name in ladders.shipped():
        frozen = ladders.load_ladder(name)
        rows = [games_needed(frozen, a["agent"], args.precision) for a in frozen["anchors"]
                if a["agent"] != frozen["anchor"]]
        result["ladders"][name] = rows
        print(leaderboard(frozen) + "\n")
        for row in rows:
            reached = (f"{row['games']} games ({row['deals']} deals)" if row["reached"] else
                       f"more than {row['games']} games (width {row['width']:.0f} after all; "
                       f"~{row['extrapolated_games']} games by 1/sqrt(n))")
            print(f"  {row['anchor']}: +-{args.precision / 2:g} Elo after {reached}")
        print()
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
