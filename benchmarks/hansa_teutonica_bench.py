"""Speed of Hansa Teutonica, side by side with PettingZoo's connect four in one run.

``python -m meeplezoo.benchmarks.hansa_teutonica_bench [--rounds N]`` prints:

(a) AEC turns/s with uniformly random legal actions, observation included (``env.last()``),
    for 2/3/5 players against ``connect_four_v3`` with the same loop, interleaved rounds,
    medians and the median per-round ratio;
(b) full games per second inside compiled code, per player count, for the heuristic
    policy (games end by the rules) and the uniform random policy (decisions/s; uniform
    games mostly run into the ``max_decisions`` cap, spec HT-9.5).
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numba
import numpy as np

from meeplezoo.envs.core.batch import pick_random_legal
from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng

from .speed import paired_ratio, play_random_turns, timed


def aec(rounds: int) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import connect_four_v3
    import meeplezoo.envs.hansa_teutonica_v0 as ht

    contenders = {"hansa_teutonica_2p": lambda: ht.env(num_players=2),
                  "connect_four_v3": connect_four_v3.env,
                  "hansa_teutonica_3p": lambda: ht.env(num_players=3),
                  "hansa_teutonica_5p": lambda: ht.env(num_players=5)}
    envs = {}
    for name, factory in contenders.items():
        env, rng = factory(), np.random.default_rng(0)
        env.reset(seed=0)
        play_random_turns(env, rng, 200)
        envs[name] = (env, rng)
    rates = {name: [] for name in envs}
    for round_ in range(rounds):
        for name in (list(envs) if round_ % 2 == 0 else list(envs)[::-1]):
            env, rng = envs[name]
            turns, seconds = timed(lambda env=env, rng=rng: play_random_turns(env, rng, 256),
                                   0.25)
            rates[name].append(turns / seconds)
    out = {name: statistics.median(r) for name, r in rates.items()}
    for name in ("hansa_teutonica_2p", "hansa_teutonica_3p", "hansa_teutonica_5p"):
        out[f"{name} / connect_four_v3"] = paired_ratio(
            rates[name], rates["connect_four_v3"])["median_of_rounds"]
    return out


@numba.njit
def _random_games(num_games, players, config, rng, state, mask, env_reset, env_step):
    decisions = 0
    for game in range(num_games):
        env_reset(state, players, config, game % players, rng, mask)
        while state[H_TO_MOVE] != TERMINAL:
            env_step(state, pick_random_legal(mask, rng), rng, mask)
            decisions += 1
    return decisions


def playouts(seconds: float = 2.0) -> dict:
    from meeplezoo.envs.hansa_teutonica import data as D
    from meeplezoo.envs.hansa_teutonica.chance import env_reset, env_step
    from meeplezoo.envs.hansa_teutonica.invariants import checked_policy_games
    from meeplezoo.envs.hansa_teutonica.options import make_config

    out = {}
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for players in (2, 3, 4, 5):
        lengths = np.zeros(4000, dtype=np.int64)
        flags = np.zeros(4000, dtype=np.int64)
        config = make_config()
        checked_policy_games(2, players, config, new_rng(0), state, mask, 0.0, lengths, flags)
        games, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            checked_policy_games(200, players, config, new_rng(games), state, mask, 0.0,
                                 lengths, flags)
            games += 200
        heuristic = games / (time.perf_counter() - start)
        _random_games(1, players, config, new_rng(0), state, mask, env_reset, env_step)
        start = time.perf_counter()
        decisions = _random_games(20, players, config, new_rng(1), state, mask, env_reset,
                                  env_step)
        elapsed = time.perf_counter() - start
        out[players] = {"heuristic_games_per_s_with_checks": heuristic,
                        "random_decisions_per_s": decisions / elapsed,
                        "random_games_per_s": 20 / elapsed}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print("AEC turns/s (median):", aec(args.rounds))
    print("compiled playouts:", playouts())


if __name__ == "__main__":
    main()
