"""The trained bots' strength targets, read off the arena's summaries: for each game, the
trained bot against ``mcts:1000`` (score with its Wilson interval, met when the score is at
least 0.55 and the lower bound above 0.5) and its median think time per decision against
the search's (met at 1/10 or less); then Saint Malo's bot against ``expert``.

    meeplezoo arena GAME --agents az:default,sims=64 mcts:1000 --games 200 \\
        --out results/az_bars/GAME
    meeplezoo arena saint_malo --agents az:default,sims=64 expert --games 200 \\
        --out results/az_bars/saint_malo_v0_expert
    meeplezoo arena GAME --agents greedy mcts:1000 ppo:default az:default,sims=64 \
        --games 20 --anchor greedy --out results/az_bars/GAME
    python -m meeplezoo.benchmarks.studies.bot_bars [--agent az:default,sims=64] [--plot]

The third command, run last in the same folder, adds the other pairs of the four methods
(20 deals each, both seatings) to the bar's 200 deals of the AZ bot against the search,
so one summary rates them all: the methods table, Elo with greedy at 0.

Each match has a folder of its own, so the ladders' arenas elsewhere in
``results`` keep their summaries.  The arena keys games by agent spec, so
records of ``az:default`` belong to the bot that shipped when they were played: delete
the folder when the bot changes.
"""

from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

from meeplezoo.benchmarks.common import RESULTS_DIR
from meeplezoo.envs import names

BARS_DIR = RESULTS_DIR / "az_bars"
FOLDERS = {game: BARS_DIR / game for game in names()}
EXPERT_FOLDER = BARS_DIR / "saint_malo_v0_expert"


def cut_games(records_path: Path, agent: str, opponent: str) -> int:
    """Games between ``agent`` and ``opponent`` in an arena's records that were cut at the
    game's decision cap instead of ending (the strength target wants none)."""
    if not records_path.exists():
        return 0
    with records_path.open() as file:
        records = [json.loads(line) for line in file if line.strip()]
    return sum(1 for r in records if r.get("truncated") and set(r["seats"]) == {agent, opponent})


def bar_row(summary: dict, agent: str, opponent: str = "mcts:1000", cut: int = 0) -> dict | None:
    """The bar's figures for ``agent`` in one arena summary, or None if it has not met
    ``opponent`` there; ``cut``: its games against ``opponent`` cut at the decision cap."""
    pair = next((h for h in summary["head_to_head"]
                 if h["agent"] == agent and h["opponent"] == opponent), None)
    if pair is None:
        return None
    think = summary["timing"]["seconds_per_decision"]
    ratio = think[agent] / think[opponent]
    return {"games": pair["games"], "score": pair["score"], "low": pair["low"],
            "high": pair["high"], "think_ratio": ratio, "cut": cut,
            "met": pair["score"] >= 0.55 and pair["low"] > 0.5 and ratio <= 0.1 and not cut}


METHODS = ("greedy", "mcts:1000", "ppo:default", "az:default,sims=64")


def _cell(row: dict | None, key: str = "rating", digits: int = 0) -> str:
    if row is None:
        return "not played"
    return f"{row[key]:.{digits}f} [{row['low']:.{digits}f}, {row['high']:.{digits}f}]"


def methods_table(summaries: dict[str, dict]) -> list[str]:
    """Markdown rows: game x method Elo (greedy 0, bootstrap 95%), then every method's
    head-to-head score with its Wilson interval, from each game's arena summary."""
    short = ["greedy", "mcts:1000", "PPO", "AZ"]
    lines = ["| game | " + " | ".join(f"{name} Elo" for name in short) + " |",
             "|---|" + "---:|" * len(short)]
    pairs = [(a, b) for i, a in enumerate(METHODS) for b in METHODS[i + 1:]][::-1]
    names = dict(zip(METHODS, short, strict=True))
    h2h = ["| game | " + " | ".join(f"{names[b]} vs {names[a]}" for a, b in pairs) + " |",
           "|---|" + "---|" * len(pairs)]
    for game, summary in summaries.items():
        ratings = {row["agent"]: row for row in summary["ratings"]}
        lines.append(f"| {game} | " + " | ".join(_cell(ratings.get(m)) for m in METHODS) + " |")
        heads = {(h["agent"], h["opponent"]): h for h in summary["head_to_head"]}
        cells = [_cell(heads.get((b, a)), "score", 2) + f" ({heads[(b, a)]['games']})"
                 if (b, a) in heads else "not played" for a, b in pairs]
        h2h.append(f"| {game} | " + " | ".join(cells) + " |")
    return lines + [""] + h2h


CURVES = {"AZ": RESULTS_DIR / "az_ship", "PPO": RESULTS_DIR / "ppo_ship"}


def greedy_curve(path: Path) -> list[tuple[float, float, float, float]]:
    """(minutes, score, Wilson low, high) of a run's evaluations against greedy."""
    if not path.exists():
        return []
    with path.open() as file:
        return [(float(r["elapsed_s"]) / 60, float(r["score"]), float(r["wilson_low"]),
                 float(r["wilson_high"])) for r in csv.DictReader(file)
                if r["opponent"] == "greedy"]


def plot_curves(out: Path) -> Path:
    """One panel per game: AZ's and PPO's score against greedy over training minutes, from
    the shipped runs' evaluation files (``results/{az,ppo}_ship``)."""
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "bot plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    games = list(FOLDERS)
    figure, axes = plt.subplots(1, len(games), figsize=(3.2 * len(games), 3.2), sharey=True)
    for axis, game in zip(axes, games, strict=True):
        for method, folder in CURVES.items():
            rows = greedy_curve(folder / f"{game}_eval.csv")
            if rows:
                minutes, score, low, high = zip(*rows, strict=True)
                axis.plot(minutes, score, marker=".", label=method)
                axis.fill_between(minutes, low, high, alpha=0.2)
        axis.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        axis.set_title(game, fontsize=9)
        axis.set_xlabel("training minutes")
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[0].set_ylabel("score vs greedy (20 games, Wilson 95%)")
    labelled = next((a for a in axes if a.get_legend_handles_labels()[0]), None)
    if labelled is not None:
        labelled.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out


def plot_pretraining(folder: Path, out: Path) -> Path | None:
    """One panel per shipped bot made by ``--algo expert``: its held-out policy loss and
    value~result correlation by epoch (``<game>_pretrain.csv`` in ``folder``)."""
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "bot plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = sorted(folder.glob("*_pretrain.csv"))
    if not paths:
        return None
    figure, axes = plt.subplots(1, len(paths), figsize=(4 * len(paths), 3.2), squeeze=False)
    for axis, path in zip(axes[0], paths, strict=True):
        with path.open() as file:
            rows = list(csv.DictReader(file))
        epochs = [int(r["epoch"]) for r in rows]
        axis.plot(epochs, [float(r["held-out_policy_loss"]) for r in rows], marker=".",
                  label="held-out policy loss")
        twin = axis.twinx()
        twin.plot(epochs, [float(r["held-out_value_correlation"]) for r in rows], marker=".",
                  color="tab:orange", label="held-out value~result")
        twin.set_ylim(-0.1, 1.0)
        axis.set_title(path.name.removesuffix("_pretrain.csv"), fontsize=9)
        axis.set_xlabel("epoch")
        axis.grid(alpha=0.3)
        lines = axis.get_legend_handles_labels()[0] + twin.get_legend_handles_labels()[0]
        axis.legend(lines, [line.get_label() for line in lines], fontsize=7, loc="center right")
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="az:default,sims=64")
    parser.add_argument("--opponent", default="mcts:1000")
    parser.add_argument("--dir", type=Path, default=BARS_DIR,
                        help="the folder of per-game arena folders (the shipped bots': "
                             "results/bot_bars)")
    parser.add_argument("--plot", action="store_true",
                        help="also draw AZ's and PPO's learning curves against greedy")
    args = parser.parse_args(argv)
    if args.plot:
        print(f"learning curves: {plot_curves(BARS_DIR / 'az_vs_ppo_curves.png')}")
        pretraining = plot_pretraining(args.dir, args.dir / "pretraining.png")
        if pretraining:
            print(f"pretraining curves: {pretraining}")
    print(f"| game | games | {args.agent} vs {args.opponent} | Wilson 95% | think time "
          "ratio | cut at the cap | bar |")
    print("|---|---:|---:|---|---:|---:|---|")
    folders = {game: args.dir / game for game in FOLDERS}
    for game, folder in folders.items():
        path = folder / f"{game}_2p_summary.json"
        cut = cut_games(folder / f"{game}_2p.jsonl", args.agent, args.opponent)
        row = bar_row(json.loads(path.read_text()), args.agent, args.opponent, cut) \
            if path.exists() else None
        if row is None:
            print(f"| {game} | 0 | not played | | | | |")
            continue
        print(f"| {game} | {row['games']} | {row['score']:.3f} | [{row['low']:.3f}, "
              f"{row['high']:.3f}] | 1/{1 / row['think_ratio']:.1f} | {row['cut']} | "
              f"{'met' if row['met'] else 'not met'} |")
    summaries = {}
    for game, folder in folders.items():
        path = folder / f"{game}_2p_summary.json"
        summary = json.loads(path.read_text()) if path.exists() else None
        if summary and set(METHODS) <= set(summary["agents"]):
            summaries[game] = summary
    if summaries:
        print("\nThe four methods (Elo: Bradley-Terry, greedy 0, bootstrap 95%; head to "
              "head: score of the first, Wilson 95%, games):\n")
        print("\n".join(methods_table(summaries)))
    path = args.dir / EXPERT_FOLDER.name / "saint_malo_v0_2p_summary.json"
    row = bar_row(json.loads(path.read_text()), args.agent, "expert") if path.exists() \
        else None
    print(f"\nSaint Malo, {args.agent} vs expert (goal: at least 0.5): " +
          (f"{row['score']:.3f} [{row['low']:.3f}, {row['high']:.3f}] over {row['games']} "
           "games" if row else "not played"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
