"""Thousands of random Saint Malo decisions with the rules' invariants checked after each.

1,000 full games across 2-5 players, driven through the compiled kernels.  After every
step: mask non-empty until the end, 45-space accounting, filled spaces permanent, coins,
logs and cannons never negative, VP and the pirate track never going back, scores equal to
a slow reference computed from the board.  Every step of every 10th game (and every 25th
step of the others) also runs the full ``validate_state`` and a JSON round trip.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import state_from_json, state_to_json
from meeplezoo.envs.saint_malo import SPEC, rules
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo.options import make_config
from meeplezoo.envs.saint_malo.validate import validate_state

GAMES_PER_PLAYER_COUNT = {2: 700, 3: 150, 4: 90, 5: 60}      # 1,000 games in all
ROW_VALUES = (0, 1, 4, 8, 13, 20)


def reference_church_rows(sizes: list[int]) -> int:
    """Best split of churches into rows 1..L by brute force over row assignments."""
    best = 0
    rows_max = sizes.count(1)
    if rows_max == 0:
        return 0
    for assignment in itertools.product(range(rows_max + 1), repeat=len(sizes)):
        rows: dict[int, list[int]] = {}
        for size, row in zip(sizes, assignment, strict=True):
            if row:
                rows.setdefault(row, []).append(size)
        if all(sorted(r) == list(range(1, len(r) + 1)) for r in rows.values()):
            best = max(best, sum(ROW_VALUES[len(r)] for r in rows.values()))
    return best


def greedy_church_rows(sizes: list[int]) -> int:
    counts = [sizes.count(s) for s in range(6)]
    total, row = 0, 1
    while counts[1] >= row:
        length = 1
        while length < 5 and counts[length + 1] >= row:
            length += 1
        total += ROW_VALUES[length]
        row += 1
    return total


def reference_score(state, seat) -> int:
    block = state[D.PLAYERS_BASE + seat * D.PLAYER_SIZE:][:D.PLAYER_SIZE]
    board = block[:49]
    empty = int(((board == D.EMPTY) & ~D.IS_TOWER).sum())
    churches = [int(c - D.CHURCH_1 + 1) for c in board if D.CHURCH_1 <= c < D.CITIZEN]
    return (int(block[D.P_VP]) + (5 if empty == 0 else 0) + int(block[D.P_COINS]) // 2
            + int(block[D.P_LOGS]) + greedy_church_rows(churches)
            - 5 * int(block[D.P_CANNONS_LOST]))


def test_greedy_church_rows_equal_brute_force():
    rng = np.random.default_rng(0)
    for _ in range(300):
        sizes = sorted(rng.integers(1, 6, size=rng.integers(0, 8)).tolist())
        assert greedy_church_rows(sizes) == reference_church_rows(sizes), sizes


def check_step(state, previous, mask, players):
    to_move = int(state[H_TO_MOVE])
    assert to_move == TERMINAL or (0 <= to_move < players and mask.any())
    scores = np.zeros(players, dtype=np.int64)
    rules.scores(state, scores)
    for seat in range(players):
        base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
        board, before = state[base:base + 49], previous[base:base + 49]
        filled = int(((board != D.EMPTY) & ~D.IS_TOWER).sum())
        assert filled + int(((board == D.EMPTY) & ~D.IS_TOWER).sum()) == D.NUM_SPACES
        was_filled = before != D.EMPTY
        assert np.array_equal(board[was_filled], before[was_filled])   # spaces are permanent
        for slot in (D.P_COINS, D.P_LOGS, D.P_CANNONS_LOST):
            assert state[base + slot] >= 0
        assert state[base + D.P_VP] >= previous[base + D.P_VP]
        assert scores[seat] == reference_score(state, seat)
    assert state[D.G_PIRATE_BOXES] >= previous[D.G_PIRATE_BOXES]


def play_checked_game(players, game_seed, full_checks_every):
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng = new_rng(game_seed)
    policy = np.random.default_rng(game_seed)
    rules.env_reset(state, players, make_config(), game_seed % players, rng, mask)
    step = 0
    while int(state[H_TO_MOVE]) != TERMINAL:
        previous = state.copy()
        action = int(policy.choice(np.flatnonzero(mask)))
        rules.env_step(state, action, rng, mask)
        check_step(state, previous, mask, players)
        step += 1
        if step % full_checks_every == 0:
            validate_state(state)
            loaded, loaded_rng = state_from_json(SPEC, state_to_json(SPEC, state, rng))
            assert np.array_equal(loaded, state) and np.array_equal(loaded_rng, rng)
        assert step < 20_000, "a game must end"
    validate_state(state)
    assert state[D.G_END_TRIGGERED] == 1 and state[D.G_TURNS] % players == 0   # SM-11.2
    assert int(state[H_NUM_PLAYERS]) == players
    return step


@pytest.mark.parametrize("players", sorted(GAMES_PER_PLAYER_COUNT))
def test_random_games_keep_every_invariant(players):
    decisions = 0
    for game in range(GAMES_PER_PLAYER_COUNT[players]):
        every = 1 if game % 10 == 0 else 25
        decisions += play_checked_game(players, 1000 * players + game, every)
    assert decisions > 100 * GAMES_PER_PLAYER_COUNT[players]
