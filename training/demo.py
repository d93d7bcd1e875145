"""``make demo``: train a Saint Malo bot for a few minutes, then rate it in the arena.

1. self-play PPO for ``minutes`` of training time on the CPU, evaluated against random and
   greedy every few updates (``eval.csv``);
2. the learning curve saved to ``<out>/demo/learning_curve.png``;
3. an arena round robin (the trained bot, random, greedy; seats rotated, same dice in both
   seat orders): the rating table, and the ratings plot saved beside it.
"""

from __future__ import annotations

import shutil
from pathlib import Path


def train_and_rate(minutes: float = 3.0, deals: int = 10, out: str = "demo_runs",
                   seed: int = 1, workers: int = 2, eval_every: int = 8,
                   eval_games: int = 10) -> int:
    import torch  # noqa: F401  (a clear ImportError before anything starts)

    from meeplezoo.benchmarks import arena

    from .evaluate import plot_learning_curve
    from .ppo import Options, train

    folder = Path(out) / "demo"
    if folder.exists():
        shutil.rmtree(folder)                           # a demo starts from scratch
    options = Options(game="saint_malo_v0", players=2, minutes=minutes, seed=seed,
                      torch_threads=1, run_dir=str(out), run_name="demo",
                      eval_every=eval_every, eval_games=eval_games)
    print(f"1/3 training a Saint Malo bot by self-play for {minutes:g} minutes "
          f"(evaluated against random and greedy every {eval_every} updates)", flush=True)
    result = train(options)
    print(f"    {result['update']} updates, {result['global_step']:,} decisions; "
          f"checkpoint {result['checkpoint']}")
    if (folder / "eval.csv").exists():
        print(f"2/3 learning curve: {plot_learning_curve(folder)}")
    else:
        print("2/3 learning curve: too short a run for an evaluation")
    print(f"3/3 arena: the bot against random and greedy, {deals} deals per pair", flush=True)
    return arena.main(["saint_malo_v0", "--agents", "random", "greedy",
                       f"ppo:{result['checkpoint']}", "--games", str(deals), "--workers",
                       str(workers), "--out", str(folder / "arena"), "--seed", str(seed)])
