"""Connect four (the calibration game) against OpenSpiel and PettingZoo, move by move.

Both peers number actions by column and let seat 0 / ``player_0`` move first, as we do.
Random games are replayed in ours and the peer side by side, comparing the player to
move, the legal actions, terminal flags, returns and the board planes after every move.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from meeplezoo.benchmarks.speed.connect_four import SPEC, env, raw_env, rules
from meeplezoo.benchmarks.speed.connect_four import data as D
from meeplezoo.envs.core.batch import BatchEnv, random_playouts
from meeplezoo.envs.core.contract import TERMINAL
from meeplezoo.envs.core.state_io import state_from_json

# A random game that fills the board without four in a row (a draw), found by search.
DRAW_GAME = [int(c) for c in "555054466351352123041430222100021613443666"]


def board_planes(game: raw_env, seat: int) -> np.ndarray:
    """Our observation of ``seat`` as [mine, theirs] planes, row 0 the top row."""
    return game.observe(f"player_{seat}")["observation"][:D.OBS_TO_MOVE].reshape(2, 6, 7)


def random_game(rng: np.random.Generator) -> list[int]:
    game = raw_env()
    game.reset(seed=0)
    moves = []
    while not game.terminations["player_0"]:
        moves.append(int(rng.choice(game.legal_actions())))
        game.step(moves[-1])
    return moves


# --- OpenSpiel ---------------------------------------------------------------------------------

def replay_against_openspiel(pyspiel, moves: list[int]) -> None:
    ours, theirs = raw_env(), pyspiel.load_game("connect_four").new_initial_state()
    ours.reset(seed=0)
    for ply in range(len(moves) + 1):
        where = f"after {moves[:ply]}"
        assert ours.terminations["player_0"] == theirs.is_terminal(), where
        planes = np.asarray(theirs.observation_tensor(0)).reshape(3, 6, 7)[:, ::-1]
        for seat in (0, 1):
            mine = board_planes(ours, seat)
            assert np.array_equal(mine[0], planes[seat]), where
            assert np.array_equal(mine[1], planes[1 - seat]), where
        if theirs.is_terminal():
            assert ply == len(moves), where
            returns = [ours.rewards["player_0"], ours.rewards["player_1"]]
            assert returns == theirs.returns(), where
            return
        assert ours.agent_selection == f"player_{theirs.current_player()}", where
        assert ours.legal_actions() == theirs.legal_actions(), where
        ours.step(moves[ply])
        theirs.apply_action(moves[ply])
    raise AssertionError(f"{moves} did not end the game")


def test_openspiel_game_matches():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("connect_four")
    assert game.num_distinct_actions() == D.NUM_ACTIONS
    assert game.get_parameters() == {"columns": 7, "rows": 6, "x_in_row": 4,
                                     "egocentric_obs_tensor": False}
    assert game.new_initial_state().current_player() == 0


def test_random_games_match_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    rng = np.random.default_rng(2024)
    lengths = []
    for _ in range(2000):
        # Random moves chosen by OpenSpiel's state, so a bug in our mask cannot hide.
        state = pyspiel.load_game("connect_four").new_initial_state()
        moves = []
        while not state.is_terminal():
            moves.append(int(rng.choice(state.legal_actions())))
            state.apply_action(moves[-1])
        replay_against_openspiel(pyspiel, moves)
        lengths.append(len(moves))
    assert min(lengths) == 7 and max(lengths) > 35       # quick wins and long games seen


def test_draw_matches_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    replay_against_openspiel(pyspiel, DRAW_GAME)
    state = pyspiel.load_game("connect_four").new_initial_state()
    for move in DRAW_GAME:
        state.apply_action(move)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


# --- PettingZoo ----------------------------------------------------------------------------

def replay_against_pettingzoo(connect_four_v3, moves: list[int]) -> None:
    ours, theirs = raw_env(), connect_four_v3.env()
    ours.reset(seed=0)
    theirs.reset(seed=0)
    for ply in range(len(moves) + 1):
        where = f"after {moves[:ply]}"
        agent = theirs.agent_selection
        observation, _, terminated, _, _ = theirs.last()
        assert ours.terminations[agent] == terminated, where
        seat = int(agent[-1])
        mine = board_planes(ours, seat)
        assert np.array_equal(mine[0], observation["observation"][:, :, 0]), where
        assert np.array_equal(mine[1], observation["observation"][:, :, 1]), where
        if terminated:
            assert ply == len(moves), where
            for name in ("player_0", "player_1"):
                assert ours.rewards[name] == theirs.rewards[name], where
            return
        assert ours.agent_selection == agent, where
        assert np.array_equal(ours.action_mask(), observation["action_mask"]), where
        ours.step(moves[ply])
        theirs.step(moves[ply])
    raise AssertionError(f"{moves} did not end the game")


def test_random_games_match_pettingzoo():
    pytest.importorskip("pygame", reason="PettingZoo's classic games import pygame")
    from pettingzoo.classic import connect_four_v3

    rng = np.random.default_rng(7)
    for _ in range(300):
        replay_against_pettingzoo(connect_four_v3, random_game(rng))
    replay_against_pettingzoo(connect_four_v3, DRAW_GAME)


# --- our own env and kernels -------------------------------------------------------------------

def test_pettingzoo_api():
    api_test(raw_env(), num_cycles=300)
    api_test(env(), num_cycles=300)
    seed_test(raw_env, num_cycles=300)


def test_kernel_states_validate_and_round_trip():
    rng = np.random.default_rng(3)
    for _ in range(200):
        game = raw_env(start_seat=int(rng.integers(2)))
        game.reset(seed=0)
        SPEC.validate_state(game.state)
        while not game.terminations["player_0"]:
            game.step(int(rng.choice(game.legal_actions())))
            SPEC.validate_state(game.state)
            state, _ = state_from_json(SPEC, game.state_to_json())
            assert np.array_equal(state, game.state)


def test_start_seat_one_moves_first():
    game = raw_env(start_seat=1)
    game.reset(seed=0)
    assert game.agent_selection == "player_1"
    for move in (0, 1, 0, 1, 0, 1, 0):
        game.step(move)
    assert game.rewards == {"player_0": -1.0, "player_1": 1.0}
    assert SPEC.render_ansi(game.state).splitlines()[-1] == "winner: player_1"


@pytest.mark.parametrize("moves, winner", [
    ([0, 6, 1, 6, 2, 6, 3], 0),                 # horizontal
    ([3, 0, 3, 0, 3, 0, 3], 0),                 # vertical
    ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], 0),     # rising diagonal
    ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], 0),     # falling diagonal
    ([6, 0, 6, 1, 5, 2, 5, 3], 1),              # seat 1 wins
])
def test_wins_in_every_direction(moves, winner):
    game = raw_env()
    game.reset(seed=0)
    for move in moves:
        assert not game.terminations["player_0"]
        game.step(move)
    assert int(game.state[D.S_WINNER]) == winner
    assert int(game.state[2]) == TERMINAL


def test_no_wrap_between_columns():
    # Stones at heights 3..5 of column 0 and 0 of column 1 are adjacent bits in a packed
    # layout without the sentinel row; they must not count as four in a row.
    stones = sum(1 << (D.HEIGHT * 0 + h) for h in (3, 4, 5)) | (1 << (D.HEIGHT * 1))
    assert not rules.has_four(np.int64(stones))
    assert rules.has_four(np.int64(0b1111 << 2))


def test_illegal_actions_and_options():
    game = raw_env()
    game.reset(seed=0)
    for _ in range(6):
        game.step(2)
    with pytest.raises(ValueError, match="col2"):
        game.step(2)
    with pytest.raises(ValueError):
        game.step(7)
    assert game.str_to_action("col4") == 4
    with pytest.raises(ValueError, match="unknown connect four option"):
        raw_env(rows=5)
    assert SPEC.make_config().shape == (0,)


def test_invalid_states_are_rejected():
    game = raw_env()
    game.reset(seed=0)
    for move in (3, 3, 2):
        game.step(move)
    good = game.state.copy()
    floating = good.copy()
    floating[D.S_STONES] |= 1 << (D.HEIGHT * 6 + 2)
    extra = good.copy()
    extra[D.S_STONES + 1] |= (1 << (D.HEIGHT * 5)) | (1 << (D.HEIGHT * 6))
    wrong_turn = good.copy()
    wrong_turn[2] = 0
    for bad, message in ((floating, "floats"), (extra, "alternate"), (wrong_turn, "to_move")):
        with pytest.raises(ValueError, match=message):
            SPEC.validate_state(bad)


def test_batch_env_and_playouts():
    decisions = random_playouts(SPEC, 500, seed=1)
    assert 7 * 500 <= decisions <= 42 * 500
    batch = BatchEnv(SPEC, 16, seed=2)
    batch.reset()
    finished = 0
    for _ in range(100):
        rewards, done = batch.step(batch.random_actions())
        finished += int(done.sum())
        assert np.all(rewards.sum(axis=1) == 0)
        assert set(np.abs(rewards[done == 1]).ravel()) <= {0.0, 1.0}
    assert finished > 16
