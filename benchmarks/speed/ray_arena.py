"""Arena games/s on one and two one-CPU nodes of a local Ray cluster, against the local
multiprocessing arena with the same CPUs, in one process.

    RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 python -m meeplezoo.benchmarks.speed.ray_arena \\
        [--game hansa_v0] [--agents mcts:200 greedy] [--games 40]

Every run plays the same schedule into a fresh folder; Ray's overhead per game is the
difference between a one-node Ray run and the one-worker local run, per game.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")   # nodes stay on 127.0.0.1

from meeplezoo.benchmarks.arena.arena import run_arena  # noqa: E402
from meeplezoo.benchmarks.common import RESULTS_DIR  # noqa: E402
from meeplezoo.training.run.ray_cluster import loopback_cluster  # noqa: E402


def timed(game: str, agents: list[str], games: int, workers: int,
          ray_address: str | None) -> float:
    """Games per second of one arena run into a fresh folder."""
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        _, records = run_arena(game, agents, games=games, out=folder, workers=workers,
                               progress=False, ray=ray_address)
        return len(records) / (time.perf_counter() - started)


def on_cluster(nodes: int, game: str, agents: list[str], games: int) -> float:
    import ray

    cluster = loopback_cluster(nodes)
    try:
        return timed(game, agents, games, nodes, cluster.address)
    finally:
        ray.shutdown()
        cluster.shutdown()


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hansa_v0", type=game_argument)
    parser.add_argument("--agents", nargs="+", default=["mcts:200", "greedy"])
    parser.add_argument("--games", type=int, default=40, help="deals (x2 seatings)")
    parser.add_argument("--out", default=str(RESULTS_DIR / "ray_arena_speed.json"))
    args = parser.parse_args(argv)
    timed(args.game, args.agents, 1, 1, None)               # compile / load kernels once
    figures = {"local_1_worker": timed(args.game, args.agents, args.games, 1, None),
               "local_2_workers": timed(args.game, args.agents, args.games, 2, None),
               "ray_1_node": on_cluster(1, args.game, args.agents, args.games),
               "ray_2_nodes": on_cluster(2, args.game, args.agents, args.games)}
    games = 2 * args.games
    result = {"game": args.game, "agents": args.agents, "games": games,
              "games_per_s": figures,
              "ray_2_over_1_node": figures["ray_2_nodes"] / figures["ray_1_node"],
              "local_2_over_1_worker": figures["local_2_workers"] / figures["local_1_worker"],
              "ray_overhead_s_per_game": 1 / figures["ray_1_node"] - 1 / figures["local_1_worker"],
              "command": "python -m meeplezoo.benchmarks.speed.ray_arena --game "
                         f"{args.game} --agents {' '.join(args.agents)} --games {args.games}"}
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
