"""``make demo``: a short AlphaZero-style run, then the shipped bot against the search.

1. self-play with search and a network (``training/az/loop.py``) on Hansa for ``minutes`` of
   training time on the CPU, evaluated against random and greedy along the way;
2. the learning curve saved to ``<out>/demo/learning_curve.png``;
3. an arena round robin on the same deals in both seat orders: random, greedy, the
   game's MCTS at 1,000 simulations, the bot just trained and the bot that ships with the
   package (``az:default``, trained the same way for 25 minutes), both at 64 simulations
   per move; the rating table, and the ratings plot saved beside it.  The shipped bot
   beats ``mcts:1000`` at a fraction of its think time (its figures, read from the
   records: ``meeplezoo bots hansa``): what search and self-play give in half an hour of
   CPU.
"""

from __future__ import annotations

import shutil
from pathlib import Path

DEMO_GAME = "hansa_v0"


DEMO_OPPONENTS = ("random", "greedy", "mcts:1000")


def train_and_rate(minutes: float = 2.0, deals: int = 6, out: str = "demo_runs",
                   seed: int = 1, workers: int = 2, eval_every: int = 30,
                   eval_games: int = 10, opponents: tuple[str, ...] = DEMO_OPPONENTS) -> int:
    import torch  # noqa: F401  (a clear ImportError before anything starts)

    from meeplezoo.agents.az import shipped_checkpoint
    from meeplezoo.benchmarks.arena import arena
    from meeplezoo.benchmarks.arena.labels import wrap
    from meeplezoo.training.az.loop import Options, train
    from meeplezoo.training.run.evaluate import plot_learning_curve

    folder = Path(out) / "demo"
    if folder.exists():
        shutil.rmtree(folder)                           # a demo starts from scratch
    options = Options(game=DEMO_GAME, players=2, minutes=minutes, seed=seed,
                      num_games=128, run_dir=str(out), run_name="demo",
                      eval_every=eval_every, eval_games=eval_games)
    print(f"1/3 training a Hansa bot by search and self-play for {minutes:g} minutes\n"
          f"    ({options.num_games} games in lockstep; evaluated against random and greedy "
          f"every {eval_every} iterations)", flush=True)
    result = train(options)
    print(f"    {result['iteration']} iterations, {result['games']:,} games, "
          f"{result['positions']:,} training positions\n    checkpoint: {result['checkpoint']}")
    if (folder / "eval.csv").exists():
        print(f"2/3 learning curve: {plot_learning_curve(folder)}")
    else:
        print("2/3 learning curve: too short a run for an evaluation")
    agents = [*opponents, f"az:{result['checkpoint']},sims=64"]
    try:
        shipped_checkpoint(DEMO_GAME)
        agents.append("az:default,sims=64")
    except ValueError as err:
        print(f"    ({err})")
    print("\n".join(wrap(f"3/3 arena: {', '.join(agents)}; {deals} deals per pair, both "
                         f"seat orders", indent="    ")), flush=True)
    return arena.main([DEMO_GAME, "--agents", *agents, "--games", str(deals), "--workers",
                       str(workers), "--out", str(folder / "arena"), "--seed", str(seed)])
