"""What each step of the AlphaZero recipe adds, side by side.

    python -m meeplezoo.benchmarks.studies.recipe saint_malo --iterations 300 --deals 20

Every variant trains the same number of self-play iterations from the same seed with the
shipped bots' command (``training/shipping/ship.py``) plus its own flags, two runs at a time on one
torch thread each; then each trained network is measured the same way: its value head on
the game's frozen test set (``value_quality.py``: correlation with the final result in the
middle third of the game), and its play (``az:<checkpoint>`` with the play settings the
run recorded, ``sims`` as given) against ``mcts:1000`` and ``greedy`` on the same deals
in both seatings, with its median think time per decision beside ``mcts:1000``'s.

The variants (cumulative where the name says so):

====================  =====================================================================
``baseline``          the shipped recipe
``knowledge``         + the search's knowledge: leaf value from the heuristic, handed to the
                      network over the run (``--lam-start 0 --lam-end LAM``), prior share
                      on the heuristic move (``--prior-mix 0.5``)
``explore``           + exploration only in the opening (``--explore-moves 30
                      --late-gumbel 0.25``)
``expert``            warm start: ``train --algo expert`` positions and pretraining, then
                      the shipped recipe resumed
``all``               expert + knowledge + explore
====================  =====================================================================

Prints a table (and writes JSON and Markdown beside the runs).
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from meeplezoo.benchmarks.common import say

VARIANTS = ("baseline", "knowledge", "explore", "expert", "all")


def variant_flags(variant: str, iterations: int, lam_end: float) -> list[str]:
    knowledge = ["--lam-start", "0", "--lam-end", f"{lam_end:g}", "--lam-iterations",
                 str(max(1, iterations * 3 // 4)), "--prior-mix", "0.5"]
    explore = ["--explore-moves", "30", "--late-gumbel", "0.25"]
    return {"baseline": [], "knowledge": knowledge, "explore": [*knowledge, *explore],
            "expert": [], "all": [*knowledge, *explore]}[variant]


def train_commands(game: str, variant: str, iterations: int, run_dir: Path, seed: int,
                   lam_end: float, expert_games: int = 400) -> list[list[str]]:
    """The ``meeplezoo train`` command lines of one variant (two for a warm start)."""
    from meeplezoo.training.shipping.ship import ship_arguments

    name = f"recipe_{variant}"
    shipped = ship_arguments(game, 1e6, str(run_dir), torch_threads=1, evaluations=0)
    shipped = [*shipped[:shipped.index("--run-name")], "--run-name", name]
    at = shipped.index("--iterations")
    shipped[at + 1] = str(iterations)
    common = [*shipped, "--seed", str(seed), "--no-progress",
              *variant_flags(variant, iterations, lam_end)]
    if variant not in ("expert", "all"):
        return [common]
    warm = [game, "--algo", "expert", "--games", str(expert_games), "--record-fraction", "0.05",
            "--epochs", "20", "--torch-threads", "1", "--seed", str(seed), "--buffer-size",
            shipped[shipped.index("--buffer-size") + 1], "--run-dir",
            str(run_dir), "--run-name", name, "--overwrite", "--no-progress"]
    return [warm, [*common, "--resume"]]


def run_variant(commands: list[list[str]], log: Path) -> None:
    with log.open("w") as sink:
        for command in commands:
            sink.write("meeplezoo train " + shlex.join(command) + "\n")
            sink.flush()
            done = subprocess.run([sys.executable, "-m", "meeplezoo.play.cli", "train",
                                   *command], stdout=sink, stderr=subprocess.STDOUT)
            if done.returncode:
                raise RuntimeError(f"a training command failed: see {log}")


def measure(game: str, checkpoint: Path, deals: int, sims: int, out: Path) -> dict:
    """Value quality on the frozen set and play against mcts:1000 and greedy."""
    from meeplezoo.benchmarks.arena.versus import score_against
    from meeplezoo.benchmarks.studies import value_quality, value_sets
    from meeplezoo.training.run import value_measure

    row: dict = {"checkpoint": str(checkpoint)}
    path = value_sets.set_path(game, 2)
    if path.exists():
        test_set = value_sets.load_set(path)
        quality = value_measure.value_quality(
            value_quality.network_evaluator(str(checkpoint), test_set), test_set)
        row["value_middle"] = quality["mover"]["middle"]["corr"]
        row["value_all"] = quality["mover"]["all"]["corr"]
    bot = f"az:{checkpoint},sims={sims}"
    for opponent in ("mcts:1000", "greedy"):
        result = score_against(game, bot, opponent, deals, out / opponent.replace(":", "_"))
        row[f"vs_{opponent}"] = result["score"]
        row[f"games_vs_{opponent}"] = result["games"]
        if opponent == "mcts:1000":
            row["think_ratio"] = result["think_ratio"]
    return row


def table(rows: dict) -> str:
    lines = [f"{'variant':<10} {'value mid':>9} {'value all':>9} {'vs mcts:1000':>12} "
             f"{'think':>7} {'vs greedy':>9}"]
    for variant, row in rows.items():
        lines.append(f"{variant:<10} {row.get('value_middle', float('nan')):>9.2f} "
                     f"{row.get('value_all', float('nan')):>9.2f} "
                     f"{row['vs_mcts:1000']:>12.3f} {row['think_ratio']:>6.2f}x "
                     f"{row['vs_greedy']:>9.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.studies.recipe",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--lam-end", type=float, default=0.5)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--sims", type=int, default=64)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--run-dir", default="runs/recipe")
    parser.add_argument("--parallel", type=int, default=2)
    parser.add_argument("--expert-games", type=int, default=400,
                        help="games of the tuned search behind a warm start")
    args = parser.parse_args(argv)
    from meeplezoo.envs import resolve_game

    game = resolve_game(args.game)
    run_dir = Path(args.run_dir) / game
    run_dir.mkdir(parents=True, exist_ok=True)
    jobs = {v: train_commands(game, v, args.iterations, run_dir, args.seed, args.lam_end,
                              args.expert_games) for v in args.variants}
    say(f"training {len(jobs)} variants of {args.iterations} iterations, "
        f"{args.parallel} at a time (logs in {run_dir})")
    with ThreadPoolExecutor(args.parallel) as pool:
        for variant, _ in zip(jobs, pool.map(
                lambda item: run_variant(item[1], run_dir / f"{item[0]}.log"), jobs.items()),
                strict=True):
            say(f"  {variant}: trained")
    rows = {}
    for variant in jobs:
        folder = run_dir / f"recipe_{variant}"
        rows[variant] = measure(game, folder / "checkpoint.pt", args.deals, args.sims,
                                folder / "arena")
        say(f"  {variant}: {rows[variant]}")
    print(table(rows))
    report = {"game": game, "iterations": args.iterations, "deals": args.deals,
              "sims": args.sims, "seed": args.seed, "lam_end": args.lam_end,
              "commands": {v: ["meeplezoo train " + shlex.join(c) for c in cs]
                           for v, cs in jobs.items()}, "rows": rows}
    (run_dir / "recipe.json").write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
