"""AlphaZero-style self-play on Ray: positions/s with 1 and 2 actors on one-CPU nodes of a
local Ray cluster against the same self-play in this process, the learner's updates/s, and
the latency of a weights broadcast.

    RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 python -m meeplezoo.benchmarks.speed.ray_selfplay \\
        [--game hansa_v0] [--seconds 60]

Every run uses the trainer's default search settings (``training/az/loop.py``: 32 games per
actor, 32 / 8 simulations, a (256, 256) MLP) and a fresh network.  The self-play runs keep
the learner idle (``min_buffer`` the whole buffer, more than a run records) so they time
the actors alone;
the learner is timed alone on a full buffer; the broadcast is timed in a run that learns
(the learner puts new weights after every step, an actor fetches and loads them when its
next call starts).  Moves are every searched move; positions are the full-budget moves
the buffer records (a quarter of them, counted when their game ends).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")   # nodes stay on 127.0.0.1

from meeplezoo.benchmarks.common import RESULTS_DIR  # noqa: E402
from meeplezoo.training.run.ray_cluster import loopback_cluster  # noqa: E402


def options_for(game: str, seconds: float, folder: str, **changes):
    from meeplezoo.training.az.loop import Options

    return dataclasses.replace(Options(game=game, minutes=seconds / 60, iterations=10 ** 9,
                                       progress=False, torch_threads=1, run_dir=folder,
                                       min_buffer=Options.buffer_size), **changes)


def local_selfplay(options) -> dict:
    """Moves and positions per second of the same self-play in this process (one thread),
    with a first iteration left out as start-up, as the Ray runs leave theirs out."""
    import torch

    from meeplezoo.agents.az.evaluator import NetworkEvaluator
    from meeplezoo.training.az.learner import Learner, selfplay_settings
    from meeplezoo.training.az.mixed import make_selfplay

    torch.set_num_threads(1)
    learner = Learner(options)
    selfplay = make_selfplay(learner.spec, selfplay_settings(learner.options), seed=1)
    evaluator = NetworkEvaluator(learner.network.eval(), learner.spec)
    moves = options.moves_per_iteration * options.num_games
    selfplay.play_moves(evaluator, moves)                       # start-up
    moves_before, positions = selfplay.moves_played, 0
    started = time.perf_counter()
    while time.perf_counter() - started < options.minutes * 60:
        rows = selfplay.play_moves(evaluator, moves)
        positions += len(rows["obs"]) if rows else 0
    wall = time.perf_counter() - started
    return {"moves_per_s": (selfplay.moves_played - moves_before) / wall,
            "positions_per_s": positions / wall}


def on_cluster(nodes: int, options) -> dict:
    import ray

    from meeplezoo.training.az.loop import train

    cluster = loopback_cluster(nodes)
    try:
        result = train(dataclasses.replace(options, ray=cluster.address, actors=nodes))
    finally:
        ray.shutdown()
        cluster.shutdown()
    keys = ("moves_per_s", "positions_per_s", "put_ms", "load_ms", "updates", "iteration")
    return {key: result[key] for key in keys} | {"nodes": len(result["actor_nodes"])}


def learner_updates_per_s(options, updates: int = 200) -> dict:
    """Gradient steps per second of the learner alone on a full buffer (random rows of
    the right shapes: the step's cost does not depend on the values)."""
    import numpy as np
    import torch

    from meeplezoo.training.az.learner import Learner

    torch.set_num_threads(1)
    learner = Learner(dataclasses.replace(options, min_buffer=1, updates_per_iteration=1))
    rng, spec, size = np.random.default_rng(0), learner.spec, 4096
    masks = (rng.random((size, spec.num_actions)) < 0.1).astype(np.int8)
    masks[:, 0] = 1
    learner.buffer.add(obs=rng.random((size, spec.obs_size)).astype(np.float16), masks=masks,
                       policies=masks / masks.sum(1, keepdims=True),
                       values=rng.uniform(-1, 1, (size, spec.max_players)),
                       margins=rng.normal(size=(size, spec.max_players)),
                       players=np.full(size, options.players, dtype=np.int8))
    learner.learn()                                             # start-up
    started = time.perf_counter()
    for _ in range(updates):
        learner.learn()
    rate = updates / (time.perf_counter() - started)
    weights = learner.weights()
    return {"updates_per_s": rate, "batch_size": options.batch_size,
            "weights_bytes": int(sum(array.nbytes for array in weights.values()))}


def ratio(a: float, b: float) -> float | None:
    """a / b, or None where a run too short to time gave b = 0."""
    return a / b if b else None


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hansa_v0", type=game_argument)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each run")
    parser.add_argument("--num-games", type=int, default=32, help="games per actor")
    parser.add_argument("--out", default=str(RESULTS_DIR / "ray_selfplay_speed.json"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        def options(name: str, **changes):
            return options_for(args.game, args.seconds, folder, run_name=name,
                               num_games=args.num_games, **changes)

        local = local_selfplay(options("local"))
        one, two = on_cluster(1, options("one")), on_cluster(2, options("two"))
        learning = on_cluster(2, options("learning", min_buffer=256))
        learner = learner_updates_per_s(options("learner"))
    result = {
        "game": args.game, "seconds_per_run": args.seconds, "games_per_actor": args.num_games,
        "local_selfplay": local, "ray_1_actor": one, "ray_2_actors": two,
        "ray_2_over_1_actor": ratio(two["positions_per_s"], one["positions_per_s"]),
        "ray_2_over_1_actor_moves": ratio(two["moves_per_s"], one["moves_per_s"]),
        "ray_1_actor_over_local_moves": ratio(one["moves_per_s"], local["moves_per_s"]),
        "learner": learner,
        "broadcast_ms": {"put": learning["put_ms"], "fetch_and_load": learning["load_ms"],
                         "total": learning["put_ms"] + learning["load_ms"]},
        "learning_run": learning,
        "command": "python -m meeplezoo.benchmarks.speed.ray_selfplay --game "
                   f"{args.game} --seconds {args.seconds:g} --num-games {args.num_games}"}
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
