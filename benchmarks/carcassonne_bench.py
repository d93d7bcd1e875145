"""Speed of Carcassonne, measured side by side with PettingZoo's connect four in one run.

``python -m meeplezoo.benchmarks.carcassonne_bench [--quick] [--out PATH]`` measures:

(a) AEC turns per second with a uniformly random legal action and the observation of the
    seat to move, the RL user's loop of ``benchmarks/speed.py`` (``env.last()``, then
    ``np.flatnonzero(obs["action_mask"])``), for ``carcassonne_v0`` (2 and 4 players) and
    ``connect_four_v3``, interleaved in rounds; plus the same loop picking from
    ``env.legal_actions()`` (the mask scan over 131,061 int8 entries is most of the cost
    of the plain loop, see the closing note of issue 6);
(b) random full games per second inside compiled code: ``policy.random_playouts`` (legal
    lists) and the core's generic ``random_playouts`` (legal masks), 2 and 4 players;
(c) greedy agent decisions per second.

Results go to JSON (``benchmarks/results/speed_carcassonne.json``) and a table is printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
import warnings
from pathlib import Path

import numpy as np

from .common import RESULTS_DIR, machine_info, say, timed


def play_random_turns(env, rng, num_turns: int, from_mask: bool = True) -> int:
    turns = 0
    while turns < num_turns:
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            if not env.agents:
                env.reset(seed=int(rng.integers(2**31)))
            continue
        legal = np.flatnonzero(obs["action_mask"]) if from_mask else env.legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
        turns += 1
    return turns


def aec_benchmark(rounds: int, budget: float) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import connect_four_v3
    import meeplezoo.envs.carcassonne_v0 as carcassonne_v0

    contenders = {
        "carcassonne_2p": (lambda: carcassonne_v0.env(num_players=2), True),
        "connect_four_v3": (connect_four_v3.env, True),
        "carcassonne_4p": (lambda: carcassonne_v0.env(num_players=4), True),
        "carcassonne_2p_legal_list": (lambda: carcassonne_v0.env(num_players=2), False),
    }
    envs = {}
    for name, (factory, from_mask) in contenders.items():
        env, rng = factory(), np.random.default_rng(0)
        env.reset(seed=0)
        if name.startswith("connect") and not from_mask:
            continue
        play_random_turns(env, rng, 64, from_mask)
        envs[name] = (env, rng, from_mask)
    rates = {name: [] for name in envs}
    for round_ in range(rounds):
        for name in (list(envs) if round_ % 2 == 0 else list(envs)[::-1]):
            env, rng, from_mask = envs[name]
            turns, seconds = timed(lambda e=env, r=rng, m=from_mask: play_random_turns(e, r, 64, m),
                                   budget)
            rates[name].append(turns / seconds)
        say(f"  (a) round {round_ + 1}/{rounds}: "
            + ", ".join(f"{n} {rates[n][-1]:,.0f}" for n in rates))
    peer = rates["connect_four_v3"]
    out = {name: {"turns_per_s": statistics.median(r)} for name, r in rates.items()}
    for name, r in rates.items():
        out[name]["ratio_to_connect_four"] = statistics.median(
            a / b for a, b in zip(r, peer, strict=True))
    return out


def playouts_benchmark(repeats: int, budget: float) -> dict:
    from meeplezoo.envs.carcassonne import SPEC
    from meeplezoo.envs.carcassonne import data as D
    from meeplezoo.envs.carcassonne.options import make_config
    from meeplezoo.envs.carcassonne.policy import random_playouts
    from meeplezoo.envs.core.batch import random_playouts as generic_playouts
    from meeplezoo.envs.core.rng import new_rng

    out = {}
    for players in (2, 4):
        state = np.zeros(D.STATE_SIZE, dtype=np.int64)
        config, rng = make_config(), new_rng(players)
        random_playouts(1, players, config, rng, state)
        games = []

        def chunk(players=players, config=config, rng=rng, state=state):
            random_playouts(10, players, config, rng, state)
            return 10

        for _ in range(repeats):
            done, seconds = timed(chunk, budget)
            games.append(done / seconds)
        generic_playouts(SPEC, 1, players)
        start = time.perf_counter()
        generic_playouts(SPEC, 20, players)
        generic = 20 / (time.perf_counter() - start)
        out[f"{players}p"] = {"games_per_s_legal_lists": statistics.median(games),
                              "games_per_s_generic_masks": generic}
        say(f"  (b) {players}p: {out[f'{players}p']}")
    return out


def greedy_benchmark(budget: float) -> dict:
    import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
    from meeplezoo.agents.carcassonne_greedy import CarcassonneGreedyAgent

    env, agent = carcassonne_v0.env(num_players=2), CarcassonneGreedyAgent(seed=0)
    env.reset(seed=0)
    agent.act(env)

    def chunk():
        if all(env.terminations.values()):
            env.reset(seed=1)
        env.step(agent.act(env))
        return 1

    decisions, seconds = timed(chunk, budget)
    return {"decisions_per_s": decisions / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR / "speed_carcassonne.json")
    args = parser.parse_args()
    rounds, budget = (3, 0.2) if args.quick else (12, 0.5)
    result = {"machine": machine_info(), "aec": aec_benchmark(rounds, budget),
              "playouts": playouts_benchmark(1 if args.quick else 3, budget * 2),
              "greedy": greedy_benchmark(budget * 2)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    for name, row in result["aec"].items():
        print(f"{name:28s} {row['turns_per_s']:>10,.0f} turns/s  "
              f"x{row['ratio_to_connect_four']:.2f} connect four")
    for name, row in result["playouts"].items():
        print(f"playouts {name}: {row['games_per_s_legal_lists']:,.1f} games/s (lists), "
              f"{row['games_per_s_generic_masks']:,.1f} games/s (generic masks)")
    print(f"greedy: {result['greedy']['decisions_per_s']:,.0f} decisions/s")


if __name__ == "__main__":
    main()
