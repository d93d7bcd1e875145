"""The figures of the shipped bots' catalogue (``agents/bots.json``), read off the arena
summaries that measured each bot against ``mcts:1000`` (``results/bot_bars/<folder>``):

    python -m meeplezoo.benchmarks.studies.bot_catalogue --out agents/bots.json

Two players: the score with its Wilson interval, the games, and the bot's median think time
per decision as a fraction of the search's.  Three or more: the bot's OpenSkill mu with its
interval beside ``mcts:1000``'s and ``greedy``'s.  A bot appears under its shipped name
(``agents/catalogue.py``) although the arena may have known it by an earlier one, which the
catalogue names.  ``tests/benchmarks/test_bot_catalogue.py`` rebuilds the file from the
records and fails when they differ, so no figure in it can go stale.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from meeplezoo.agents.catalogue import SHIPPED, key
from meeplezoo.benchmarks.common import RESULTS_DIR
from meeplezoo.benchmarks.studies.bot_bars import bar_row

BARS = "bot_bars"


def summary_of(folder: Path) -> dict:
    found = sorted(folder.glob("*_summary.json"))
    if len(found) != 1:
        raise ValueError(f"{folder}: expected one arena summary, found {len(found)}")
    return json.loads(found[0].read_text())


def figure(summary: dict, agent: str) -> dict:
    """The catalogue's figures for ``agent`` (its name in the arena) in ``summary``."""
    think = summary["timing"]["seconds_per_decision"]
    ratio = round(think["mcts:1000"] / think[agent], 1)
    command = summary["command"]
    if summary["num_players"] == 2:
        pair = bar_row(summary, agent)                   # the score, as the bars read it
        return {"kind": "score", "score": round(pair["score"], 4),
                "low": round(pair["low"], 4), "high": round(pair["high"], 4),
                "games": pair["games"], "think_ratio": ratio, "measured_as": agent,
                "command": command}
    rows = {row["agent"]: row for row in summary["ratings"]}
    # the bot's lead over each opponent with its bootstrap interval (deals resampled, both
    # ratings refitted each time): with that opponent as the anchor its own interval is
    # [0, 0], so a lead whose interval is above 0 is a non-overlapping one
    leads = {(d["agent"], d["opponent"]): d for d in summary.get("differences", ())}
    return {"kind": "openskill", "players": summary["num_players"],
            "mu": round(rows[agent]["mu"], 2), "low": round(rows[agent]["low"], 2),
            "high": round(rows[agent]["high"], 2), "games": summary["games"],
            "opponents": {name: round(rows[name]["mu"], 2) for name in ("mcts:1000", "greedy")},
            "leads": {name: [round(leads[agent, name]["low"], 2),
                             round(leads[agent, name]["high"], 2)]
                      for name in ("mcts:1000", "greedy") if (agent, name) in leads},
            "think_ratio": ratio, "measured_as": agent, "command": command}


def build(results: Path = RESULTS_DIR) -> dict:
    """``bots.json``'s content from the records under ``results``."""
    bots = {}
    for bot in SHIPPED:
        if bot.record is not None:
            folder, agent = bot.record
            bots[key(bot)] = figure(summary_of(Path(results) / BARS / folder), agent)
    return {"format": "meeplezoo-bot-catalogue", "version": 1,
            "generated_by": "python -m meeplezoo.benchmarks.studies.bot_catalogue",
            "bots": bots}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.studies.bot_catalogue",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS_DIR,
                        help="the folder of the arena records (default: ./results)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the file")
    args = parser.parse_args(argv)
    args.out.write_text(json.dumps(build(args.results), indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
