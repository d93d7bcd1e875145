"""How long Hansa Teutonica games run, and whether they end (spec HT-9.5).

``python -m meeplezoo.benchmarks.studies.game_lengths [--games 10000] [--players 2 3 4 5]``
plays ``--games`` games in all (split evenly over the player counts) entirely in compiled
code, once with uniformly random legal actions and once with the heuristic policy, on the
default options (3,000-decision cap).  For each player count and policy it reports how
many games ended by the rules and how many were cut off at the cap (PettingZoo
truncation), the longest game in decisions, the longest game that ended by the rules,
and the median.  Results go to ``results/game_lengths_hansa_teutonica.json``.

Uniform random play stalls once every player is left with at most one piece outside the
offices (HT-9.5): nobody can establish a route, and no marker trigger can fire.  The cap
is what makes every game end; this benchmark says how often it is needed.
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, write_report
from meeplezoo.envs.core.batch import pick_random_legal
from meeplezoo.envs.core.contract import H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rng import RNG_WORDS, seed_rng
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.chance import env_reset, env_step
from meeplezoo.envs.hansa_teutonica.options import make_config
from meeplezoo.envs.hansa_teutonica.policy import rollout_policy

RANDOM, HEURISTIC = 0, 1


@njit
def play_games(num_games, num_players, config, policy, seed, lengths, truncated):
    """Play ``num_games`` games; write each one's decisions and truncation flag."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    for game in range(num_games):
        seed_rng(rng, np.uint64(seed * 1_000_003 + game))
        env_reset(state, num_players, config, 0, rng, mask)
        decisions = 0
        while state[H_TO_MOVE] != TERMINAL:
            if policy == RANDOM:
                action = pick_random_legal(mask, rng)
            else:
                action = rollout_policy(state, mask, rng)
            env_step(state, action, rng, mask)
            decisions += 1
        lengths[game] = decisions
        truncated[game] = state[D.G_TRUNCATED]
    return state[H_PLY]


def summarise(lengths: np.ndarray, truncated: np.ndarray, seconds: float) -> dict:
    ended = lengths[truncated == 0]
    return {
        "games": int(lengths.size),
        "ended_by_rules": int(ended.size),
        "truncated_at_cap": int((truncated != 0).sum()),
        "longest_decisions": int(lengths.max()),
        "longest_ended_by_rules": int(ended.max()) if ended.size else None,
        "median_decisions": float(np.median(lengths)),
        "median_ended_by_rules": float(np.median(ended)) if ended.size else None,
        "seconds": round(seconds, 1),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in all, per policy")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path,
                        default=RESULTS_DIR / "game_lengths_hansa_teutonica.json")
    args = parser.parse_args(argv)
    config = make_config()
    cap = int(config[D.C_MAX_DECISIONS - D.CONFIG_START])
    per_count = max(1, args.games // len(args.players))
    report = {"game": "hansa_teutonica_v0", "cap": cap, "games_per_player_count": per_count,
              "results": {}, "machine": machine_info(),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    for name, policy in (("random", RANDOM), ("heuristic", HEURISTIC)):
        for players in args.players:
            lengths = np.zeros(per_count, dtype=np.int64)
            truncated = np.zeros(per_count, dtype=np.int64)
            started = time.perf_counter()
            play_games(per_count, players, config, policy, args.seed + players, lengths,
                       truncated)
            row = summarise(lengths, truncated, time.perf_counter() - started)
            report["results"][f"{name}_{players}p"] = row
            say(f"{name:9s} {players}p: {row['ended_by_rules']:,}/{row['games']:,} ended by "
                f"the rules, {row['truncated_at_cap']:,} cut off at {cap:,}; longest "
                f"{row['longest_decisions']:,} decisions (by the rules: "
                f"{row['longest_ended_by_rules']}), median {row['median_decisions']:,.0f} "
                f"({row['seconds']} s)")
    write_report(report, args.out)
    say(f"wrote {args.out}")
    return report


if __name__ == "__main__":
    main()
