"""The play evaluator's layers on a busy machine: NumPy's ``@`` against the compiled loop.

    python -m meeplezoo.benchmarks.speed.play_evaluator_load [--game carcassonne_v1] [--calls 200]

Arenas time bots while their other worker holds the other core, so a bot's think time is
measured on a busy machine.  This times one leaf batch (8 positions) through the shipped
bot's network both ways, in the same process, while a child process spins on a core: the
layers after the first with NumPy's ``@`` (a multithreaded BLAS, whose idle threads must be
woken, and on a busy machine wait for a core) and the play evaluator as it is, every
layer ``play_evaluator.dense_layer`` (one compiled, single-threaded loop).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

import numpy as np


def median_ms(function, calls: int) -> float:
    function()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return float(np.median(times) * 1e3)


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.agents.az.evaluator import observers
    from meeplezoo.agents.az.play_evaluator import _dense
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import game_argument, make
    from meeplezoo.envs.core.batch import observe_batch

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="carcassonne_v1", type=game_argument)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args(argv)
    env = make(args.game, num_players=2)
    env.reset(seed=3)
    evaluator = make_agent("az:default", args.game, seed=0).network_evaluator
    states = np.repeat(env.unwrapped.state[None, :], 8, axis=0)
    masks = np.repeat(np.asarray(env.action_mask(), np.int8)[None, :], 8, axis=0)
    seats = observers(evaluator.spec, states)

    def with_numpy():
        """The evaluator as it was: compiled observation and first layer, then ``@``."""
        obs = observe_batch(evaluator.spec, states, seats)
        features = _dense(obs, (evaluator.first_rows, evaluator.first_bias), relu=True)
        for weight, bias in evaluator.hidden:
            features = np.maximum(features @ weight + bias, 0.0)
        return features @ evaluator.policy[0] + evaluator.policy[1], \
            np.tanh(features @ evaluator.value[0] + evaluator.value[1])

    def compiled():
        return evaluator(states, masks)

    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.5)
        numpy_ms, compiled_ms = median_ms(with_numpy, args.calls), median_ms(compiled, args.calls)
    finally:
        busy.kill()
    print(f"{args.game}, one call of 8 leaves, another process busy: with numpy @ "
          f"{numpy_ms:.3f} ms, compiled layers (the whole evaluator) {compiled_ms:.3f} ms "
          f"({numpy_ms / compiled_ms:.1f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
