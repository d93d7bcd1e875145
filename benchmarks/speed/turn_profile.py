"""Where an AEC turn's time goes: each call of the user's loop timed on its own.

``python -m meeplezoo.benchmarks.speed.turn_profile <game> [--players N] [--turns T] [--out F]``
plays ``T`` random turns the way ``games.py`` section (a) does and times, per call,
``env.last()`` (observation included), the mask scan (``np.flatnonzero`` on the int8
mask), the legal list (``env.legal_actions()``), the random pick and ``env.step()``;
then connect four's whole turn in the same process for scale.  Each timing has the
timer's own cost (a ``perf_counter_ns`` pair, calibrated first) taken off; the parts are
microseconds per turn, means over the run.  Writes
``results/turn_profile_<game>.json``.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, write_report
from meeplezoo.benchmarks.speed.saint_malo import finish_turn_of_ended_game, play_random_turns

PARTS = ("last", "mask_scan", "legal_list", "pick", "step")


def timer_cost_ns(samples: int = 100_000) -> float:
    clock = time.perf_counter_ns
    start = clock()
    for _ in range(samples):
        clock()
    return (clock() - start) / samples


def profile_turns(env, rng: np.random.Generator, num_turns: int) -> dict[str, float]:
    """Mean microseconds per turn of each part of the loop."""
    clock, spent, turns = time.perf_counter_ns, dict.fromkeys(PARTS, 0), 0
    while turns < num_turns:
        t0 = clock()
        observation, _, termination, truncation, _ = env.last()
        t1 = clock()
        if termination or truncation:
            finish_turn_of_ended_game(env, rng)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        t2 = clock()
        env.legal_actions()
        t3 = clock()
        action = int(legal[rng.integers(legal.size)])
        t4 = clock()
        env.step(action)
        t5 = clock()
        for part, took in zip(PARTS, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4),
                              strict=True):
            spent[part] += took
        turns += 1
    overhead = timer_cost_ns()
    return {part: (spent[part] / turns - overhead) / 1000 for part in PARTS}


def main(argv: list[str] | None = None) -> int:
    """Profile, write the JSON, print the breakdown."""
    from meeplezoo.envs import make, resolve_game

    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.turn_profile",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--turns", type=int, default=200_000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    game = resolve_game(args.game)
    env, rng = make(game, num_players=args.players), np.random.default_rng(0)
    env.reset(seed=0)
    profile_turns(env, rng, 1_000)                             # compile, warm
    say(f"timing {args.turns:,} turns of {game}, {args.players} players")
    parts = profile_turns(env, rng, args.turns)
    with warnings.catch_warnings():     # PettingZoo 1.27 deprecates its own import path
        warnings.simplefilter("ignore", DeprecationWarning)
        from pettingzoo.classic import connect_four_v3
    peer = connect_four_v3.env()
    peer.reset(seed=0)
    start = time.perf_counter()
    peer_turns = play_random_turns(peer, rng, max(1_000, args.turns // 20))
    peer_us = (time.perf_counter() - start) / peer_turns * 1e6
    report = {"benchmark": "turn_profile", "game": game, "players": args.players,
              "turns": args.turns, "us_per_turn": parts,
              "connect_four_v3_us_per_turn": peer_us, "machine": machine_info(),
              "command": f"python -m meeplezoo.benchmarks.speed.turn_profile {game} "
                         f"--players {args.players} --turns {args.turns}"}
    out = args.out or RESULTS_DIR / f"turn_profile_{game.rsplit('_v', 1)[0]}.json"
    write_report(report, out)
    for part in PARTS:
        print(f"{part:<11} {parts[part]:6.2f} us")
    print(f"connect_four_v3 whole turn {peer_us:6.1f} us\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
