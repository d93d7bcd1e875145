"""Issue 17's strength bars, read off the arena's summaries: for each game, the trained
bot against ``mcts:1000`` (score with its Wilson interval, met when the score is at least
0.55 and the lower bound above 0.5) and its median think time per decision against the
search's (met at 1/10 or less); then Saint Malo's bot against ``expert`` (bar 3).

    meeplezoo arena GAME --agents az:default,sims=64 mcts:1000 --games 200 \\
        --out benchmarks/results/az_bars/GAME
    meeplezoo arena saint_malo --agents az:default,sims=64 expert --games 200 \\
        --out benchmarks/results/az_bars/saint_malo_v0_expert
    python -m meeplezoo.benchmarks.az_bars [--agent az:default,sims=64]

Each match has a folder of its own, so the ladders' arenas elsewhere in
``benchmarks/results`` keep their summaries.  The arena keys games by agent spec, so
records of ``az:default`` belong to the bot that shipped when they were played: delete
the folder when the bot changes.
"""

from __future__ import annotations

import argparse
import json

from meeplezoo.envs import names

from .common import RESULTS_DIR

BARS_DIR = RESULTS_DIR / "az_bars"
FOLDERS = {game: BARS_DIR / game for game in names()}
EXPERT_FOLDER = BARS_DIR / "saint_malo_v0_expert"


def bar_row(summary: dict, agent: str, opponent: str = "mcts:1000") -> dict | None:
    """The bar's figures for ``agent`` in one arena summary, or None if it has not met
    ``opponent`` there."""
    pair = next((h for h in summary["head_to_head"]
                 if h["agent"] == agent and h["opponent"] == opponent), None)
    if pair is None:
        return None
    think = summary["timing"]["seconds_per_decision"]
    ratio = think[agent] / think[opponent]
    return {"games": pair["games"], "score": pair["score"], "low": pair["low"],
            "high": pair["high"], "think_ratio": ratio,
            "met": pair["score"] >= 0.55 and pair["low"] > 0.5 and ratio <= 0.1}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="az:default,sims=64")
    parser.add_argument("--opponent", default="mcts:1000")
    args = parser.parse_args(argv)
    print(f"| game | games | {args.agent} vs {args.opponent} | Wilson 95% | think time "
          "ratio | bar |")
    print("|---|---:|---:|---|---:|---|")
    for game, folder in FOLDERS.items():
        path = folder / f"{game}_2p_summary.json"
        row = bar_row(json.loads(path.read_text()), args.agent, args.opponent) \
            if path.exists() else None
        if row is None:
            print(f"| {game} | 0 | not played | | | |")
            continue
        print(f"| {game} | {row['games']} | {row['score']:.3f} | [{row['low']:.3f}, "
              f"{row['high']:.3f}] | 1/{1 / row['think_ratio']:.0f} | "
              f"{'met' if row['met'] else 'not met'} |")
    path = EXPERT_FOLDER / "saint_malo_v0_2p_summary.json"
    row = bar_row(json.loads(path.read_text()), args.agent, "expert") if path.exists() \
        else None
    print(f"\nSaint Malo, {args.agent} vs expert (bar 3, goal above 0.5): " +
          (f"{row['score']:.3f} [{row['low']:.3f}, {row['high']:.3f}] over {row['games']} "
           "games" if row else "not played"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
