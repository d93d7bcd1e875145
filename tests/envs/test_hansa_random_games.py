"""Thousands of random Hansa games with the rules' invariants checked after every step.

1,000 full games per player count run in compiled code (``play_checked``): after every
decision and every draw the checker confirms that tokens are conserved (supply +
warehouses + hands + sold + removed = the tokens in play, by type), stalls are conserved
(15 per player), thalers are conserved (players' thalers = 3n + income - payments to the
bank, so player-to-player payments lose nothing), nothing is negative, players off turn hold
at most 3 goods, a sale is pending only while selling, the end trigger matches the stack
pointer, and a decision always has a legal action.  Every game must end by the rules
(never the turn cap), in the last seat's turn, after equal turns for all.  Games on
generated boards are checked the same way, and a few games step by step through the full
``validate_state`` and a JSON round trip.
"""

from __future__ import annotations

import numpy as np
import pytest
from hansa_setup import check, play_checked

from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import state_from_json, state_to_json
from meeplezoo.envs.hansa import SPEC, generate_board, rules
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa.options import make_config
from meeplezoo.envs.hansa.validate import tokens_in_play, validate_state

GAMES_PER_PLAYER_COUNT = 1000


def run(players: int, games: int, seed: int, **options) -> np.ndarray:
    stats = np.zeros(6, dtype=np.int64)
    play_checked(games, players, make_config(**options), tokens_in_play(players), seed, stats)
    return stats


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players):
    stats = run(players, GAMES_PER_PLAYER_COUNT, seed=players)
    decisions, draws, errors, truncated, bad_endings, first_error = stats.tolist()
    assert errors == 0, f"invariant {first_error} broken"
    assert truncated == 0 and bad_endings == 0
    assert decisions > 100 * GAMES_PER_PLAYER_COUNT and draws > 40 * GAMES_PER_PLAYER_COUNT


@pytest.mark.parametrize("options", [
    {"place_exact": True}, {"sell_whole_colour": True}, {"init_order": "reverse_pairs"},
    {"stack_sizes": "larger_last"},
])
def test_random_games_under_each_rule_option(options):
    for players in (2, 3, 4):
        stats = run(players, 100, seed=11, **options)
        assert stats[2] == 0 and stats[3] == 0 and stats[4] == 0, (options, stats.tolist())


def test_games_on_generated_boards_finish():
    for seed in range(60):
        board = generate_board(seed)
        for players in (2, 3, 4):
            stats = run(players, 5, seed=seed, board=board)
            assert stats[2] == 0, (seed, players, stats.tolist())
            assert stats[3] == 0 and stats[4] == 0, (seed, players, stats.tolist())


@pytest.mark.parametrize("players", [2, 3, 4])
def test_full_validation_and_json_round_trip_along_games(players):
    for game in range(8):
        state = np.zeros(D.STATE_SIZE, dtype=np.int64)
        mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
        rng = new_rng(game)
        policy = np.random.default_rng(game)
        board = generate_board(game) if game % 2 else None
        rules.env_reset(state, players, make_config(board=board), game % players, rng, mask)
        step = 0
        while int(state[H_TO_MOVE]) != TERMINAL:
            rules.env_step(state, int(policy.choice(np.flatnonzero(mask))), rng, mask)
            validate_state(state)
            step += 1
            if step % 20 == 0:
                loaded, loaded_rng = state_from_json(SPEC, state_to_json(SPEC, state, rng))
                assert np.array_equal(loaded, state) and np.array_equal(loaded_rng, rng)
        validate_state(state)


def test_the_checker_catches_broken_states():
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rules.env_reset(state, 3, make_config(), 0, new_rng(0), mask)
    expected = tokens_in_play(3)
    assert check(state, mask, expected) == 0
    for slot, code in ((D.PLAYERS_BASE + D.P_MONEY, 7), (D.G_SUPPLY, 6),
                       (D.PLAYERS_BASE + D.P_STALL_SUPPLY, 3), (D.G_DRAWS, 9)):
        broken = state.copy()
        broken[slot] += 1
        assert check(broken, mask, expected) == code
    assert check(state, np.zeros_like(mask), expected) == 1
