"""``make demo``: train a bot for a few minutes, watch it learn, and measure it against greedy.

1. self-play training (the recipe below) for ``minutes`` of training time on the CPU, the
   compile and the evaluations not counted, evaluated against random and greedy six times
   along the way (``training/run/schedule.py``);
2. the learning curve, printed and saved to ``<out>/demo/learning_curve.png`` (scores with
   Wilson 95% intervals over training minutes);
3. the trained bot against ``greedy`` on ``deals`` deals, each played in both seat
   orders, its score and Wilson 95% interval printed.

The bots that ship with the package were trained by the same trainers for longer:
``meeplezoo bots`` lists them with their measured scores, and the results page has the
records.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

# The recipe: AlphaZero-style self-play on 2-player Hansa with the trainer's defaults (128
# games in lockstep: each network call batches their leaves).  The curve measures the
# network with the trainer's cheap 32-simulation search; the final match gives it
# ``DEMO_SIMULATIONS`` a move, each leaf valued half by the network and half by the game's
# heuristic (``lam=0.5``, ``agents/az/knowledge.py``): a few minutes' value head is still
# noisy, and the heuristic alone at that budget (``mcts:64``) loses to greedy.
DEMO_GAME = "hansa_v0"
DEMO_MINUTES = 6.0
DEMO_NUM_GAMES = 128
DEMO_SIMULATIONS = 64
DEMO_BOT = "az:{checkpoint},sims={sims},lam=0.5"
DEMO_RUNGS = ("random", "greedy")
DEMO_OPPONENT = "greedy"


def train_and_rate(minutes: float = DEMO_MINUTES, deals: int = 20, out: str = "demo_runs",
                   seed: int = 1, eval_games: int = 12) -> int:
    import torch  # noqa: F401  (a clear ImportError before anything starts)

    from meeplezoo.training.az.loop import Options, train
    from meeplezoo.training.run import flags

    flags.check_number("--minutes", minutes, 0.0, 24 * 60.0, low_open=True)
    flags.check_count("--deals", deals, 1, 10_000)

    folder = Path(out) / "demo"
    if folder.exists():
        shutil.rmtree(folder)                           # a demo starts from scratch
    options = Options(game=DEMO_GAME, players=2, minutes=minutes, seed=seed,
                      num_games=DEMO_NUM_GAMES, run_dir=str(out), run_name="demo",
                      eval_games=eval_games, eval_opponents=DEMO_RUNGS)
    started = time.perf_counter()
    print(f"1/3 training a Hansa bot by search and self-play for {minutes:g} minutes\n"
          f"    ({options.num_games} games in lockstep; evaluated against "
          f"{' and '.join(DEMO_RUNGS)} {options.evaluations} times along the way)",
          flush=True)
    result = train(options)
    print(f"    {result['iteration']} iterations, {result['games']:,} games, "
          f"{result['positions']:,} training positions\n    checkpoint: {result['checkpoint']}")
    print(f"2/3 learning curve: {result.get('learning_curve') or 'none (no evaluation)'}")
    if result.get("eval_csv"):
        print(curve_table(Path(result["eval_csv"])))
    bot = DEMO_BOT.format(checkpoint=result["checkpoint"], sims=DEMO_SIMULATIONS)
    print(f"3/3 the trained bot ({DEMO_BOT.format(checkpoint='…', sims=DEMO_SIMULATIONS)}) "
          f"against {DEMO_OPPONENT}: {deals} deals, both seat orders", flush=True)
    points, games = paired_score(bot, DEMO_OPPONENT, DEMO_GAME, deals, seed)
    from meeplezoo.benchmarks.rating.ratings import wilson

    low, high = wilson(points, games)
    print(f"trained bot vs {DEMO_OPPONENT}: {points / games:.2f} [{low:.2f}, {high:.2f}] "
          f"(Wilson 95%, {games} games; {time.perf_counter() - started:.0f} s in all)")
    return 0


def curve_table(eval_csv: Path) -> str:
    """The curve's points as text: minutes of training, then each rung's score."""
    from meeplezoo.training.run.evaluate import read_eval_rows

    rows = read_eval_rows(eval_csv)
    rungs = list(dict.fromkeys(r["opponent"] for r in rows))
    lines = ["    minutes  " + "  ".join(f"vs {rung:<17}" for rung in rungs)]
    for minute in dict.fromkeys(r["elapsed_s"] for r in rows):
        cells = []
        for rung in rungs:
            row = next((r for r in rows if r["elapsed_s"] == minute and
                        r["opponent"] == rung), None)
            cells.append(f"{row['score']:.2f} [{row['wilson_low']:.2f}, "
                         f"{row['wilson_high']:.2f}]" if row else " " * 17)
        lines.append(f"    {minute / 60:7.1f}  " + "     ".join(cells))
    return "\n".join(lines)


def paired_score(agent: str, opponent: str, game: str, deals: int, seed: int
                 ) -> tuple[float, int]:
    """``agent``'s points (win 1, shared win 1/2) and games against ``opponent`` over
    ``deals`` deals, each played once from either seat."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.play.table import play_game

    points, games = 0.0, 0
    for deal in range(deals):
        for seat in (0, 1):
            ours = make_agent(agent, game, seed=seed + deal)
            theirs = make_agent(opponent, game, seed=seed + 7919 + deal)
            seats = [ours, theirs] if seat == 0 else [theirs, ours]
            record, _ = play_game(game, seats, seed=10_000 * seed + deal)
            points += record.points(seat)
            games += 1
    return points, games
