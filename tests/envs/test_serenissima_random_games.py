"""Thousands of random Serenissima games with the invariants checked after every step.

The compiled loop ``checked_random_games`` plays uniformly random legal actions and runs
``check_invariants`` (spec §13: galleys, ports, warehouses, a port for everyone, at most 6
galleys, goods and sailors conserved, ducats never negative and equal to the money ledger,
loading fees paid = received, token limits, the Doge pile, the track) after every step;
every game must reach the last track space.  1,000 games per player count with the
default rules, 300 more with every flagged alternative, and a Python-driven sample that
also runs ``validate_state`` and a JSON round trip.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import state_from_json, state_to_json
from meeplezoo.envs.serenissima import SPEC, rules
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima.invariants import ERRORS, checked_random_games
from meeplezoo.envs.serenissima.options import make_config
from meeplezoo.envs.serenissima.validate import validate_state

ALTERNATIVES = {"galley_capacity": 4, "block_in_start_zone": True,
                "sell_after_breaking_block": True, "new_galley_acts_this_round": False,
                "close_ports": "choose"}


def run(players: int, games: int, seed: int, **options) -> np.ndarray:
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    stats = np.zeros(5, dtype=np.int64)
    result = checked_random_games(games, players, make_config(**options), new_rng(seed),
                                  state, mask, stats)
    if result:
        code = -int(result)
        kind = code // 100000
        what = ERRORS[kind] if kind < len(ERRORS) else f"loop error {kind}"
        pytest.fail(f"{players} players, game {code % 100000}: {what}")
    return stats


@pytest.mark.parametrize("players", [2, 3, 4])
def test_1000_random_games_keep_every_invariant(players):
    stats = run(players, 1000, seed=100 + players)
    decisions, longest, rounds, off_turn, battles = (int(v) for v in stats)
    assert decisions > 100 * 1000 and longest < 5000
    assert 5 * 1000 <= rounds <= 12 * 1000               # SE-5.5.1 (5-11 with 4 players)
    assert off_turn > 100 and battles > 100              # blocks, captures, fights happen


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_with_every_flagged_alternative(players):
    run(players, 300, seed=200 + players, **ALTERNATIVES)


def test_python_driven_games_validate_and_round_trip():
    for players in (2, 3, 4):
        for game in range(4):
            state = np.zeros(D.STATE_SIZE, dtype=np.int64)
            mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
            rng = new_rng(game)
            policy = np.random.default_rng(game)
            rules.env_reset(state, players, make_config(), game % players, rng, mask)
            steps = 0
            while int(state[H_TO_MOVE]) != TERMINAL:
                rules.env_step(state, int(policy.choice(np.flatnonzero(mask))), rng, mask)
                steps += 1
                if steps % 5 == 0:
                    validate_state(state)
                    loaded, loaded_rng = state_from_json(SPEC, state_to_json(SPEC, state, rng))
                    assert np.array_equal(loaded, state) and np.array_equal(loaded_rng, rng)
            validate_state(state)
            assert state[D.G_TRACK] == state[D.K_TRACK_LAST]
