"""How closely a search keeps to ``--time-per-move``: the overshoot of a 50 ms budget per
move, on every game.

    python -m meeplezoo.benchmarks.speed.time_control [--budget 0.05] [--moves 60]

Each game's default ``mcts`` (its ``GAME_MCTS_DEFAULTS``) and its shipped ``az:default``
(PUCT root) are given the budget with ``set_time_budget`` as the arena does, and each
plays ``--moves`` moves of self-play from a fixed deal, each ``act`` timed from call to
return.  The first ``WARMUP`` moves (the
kernels of the game's phases load, or compile on a cold cache) are left out.
Overshoot = time taken - budget.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR

WARMUP = 10          # untimed first moves: kernels of the game's phases load (compile)
# carcassonne_v1 is left out: its search is v0's (same rules) and no az:default ships for it.
GAMES = ("saint_malo_v0", "hansa_teutonica_v0", "carcassonne_v0", "hansa_v0",
         "serenissima_v0")


def overshoot(game: str, budget: float, moves: int, seed: int = 0,
              agent_spec: str = "mcts:200") -> dict:
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    agent = make_agent(agent_spec, game, seed=seed)
    if not agent.set_time_budget(budget):
        raise ValueError(f"{agent_spec} cannot think by the clock")
    env = make(game)
    env.reset(seed=seed)
    taken = []
    for move in range(moves + WARMUP):
        if env.game_over:
            env.reset(seed=seed + move)
            agent.reset()
        started = time.perf_counter()
        action = agent.act(env)
        if move >= WARMUP:                              # later phases compile late too
            taken.append(time.perf_counter() - started)
        env.step(action)
    over = 1000 * (np.array(taken) - budget)
    return {"game": game, "agent": agent_spec, "moves": len(taken), "budget_ms": 1000 * budget,
            "median_ms": float(1000 * np.median(taken)),
            "overshoot_ms": {"median": float(np.median(over)),
                             "p95": float(np.percentile(over, 95)), "max": float(over.max())}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=0.05)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--games", nargs="+", default=list(GAMES))
    parser.add_argument("--agents", nargs="+", default=["mcts:200", "az:default"])
    parser.add_argument("--out", default=str(RESULTS_DIR / "time_control.json"))
    args = parser.parse_args(argv)
    rows = [overshoot(game, args.budget, args.moves, agent_spec=agent)
            for game in args.games for agent in args.agents]
    result = {"budget_s": args.budget, "games": rows,
              "command": f"python -m meeplezoo.benchmarks.speed.time_control --budget "
                         f"{args.budget:g} --moves {args.moves}"}
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    for row in rows:
        o = row["overshoot_ms"]
        print(f"{row['game']:<20} {row['agent']:<11} median move {row['median_ms']:6.1f} ms; "
              f"overshoot median {o['median']:+.1f}, p95 {o['p95']:+.1f}, max {o['max']:+.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
