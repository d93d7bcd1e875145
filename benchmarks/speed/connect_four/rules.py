"""Connect four rules as numba kernels on the flat state array (the kernel contract).

Rules as in OpenSpiel's ``connect_four`` and PettingZoo's ``connect_four_v3``: seats take
turns dropping a stone into a column that is not full (action = column 0..6); four of a
seat's stones in a row, column or diagonal win at once; a full board without one is a
draw.  Seat ``start_seat`` (0 unless asked otherwise) moves first.  No chance events.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.benchmarks.speed.connect_four.data import (
    BOARD,
    COLS,
    GAME_ID,
    HEIGHT,
    OBS_TO_MOVE,
    PH_GAME_OVER,
    PH_PLAY,
    ROWS,
    S_START_SEAT,
    S_STONES,
    S_WINNER,
)
from meeplezoo.envs.core.contract import (
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    ILLEGAL,
    TERMINAL,
)
from meeplezoo.envs.core.jit import njit

_TOP_BIT = ROWS - 1         # a column is full when its top cell is taken
_COLUMN_CELLS = (1 << ROWS) - 1


@njit
def has_four(stones):
    """Whether the bitboard ``stones`` holds four in a row in any direction."""
    for shift in (1, HEIGHT, HEIGHT - 1, HEIGHT + 1):   # vertical, horizontal, diagonals
        pairs = stones & (stones >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


@njit
def init_state(state, num_players, config, start_seat):
    state[:] = 0
    state[H_GAME_ID] = GAME_ID
    state[H_NUM_PLAYERS] = num_players
    state[H_TO_MOVE] = start_seat
    state[H_PHASE] = PH_PLAY
    state[S_START_SEAT] = start_seat
    state[S_WINNER] = -1


@njit
def legal_mask(state, mask):
    both = state[S_STONES] | state[S_STONES + 1]
    count = 0
    for column in range(COLS):
        free = 1 - ((both >> (HEIGHT * column + _TOP_BIT)) & 1)
        mask[column] = free
        count += free
    return count


@njit
def apply_action(state, action):
    seat = state[H_TO_MOVE]
    both = state[S_STONES] | state[S_STONES + 1]
    # Adding the column's bottom bit carries up to the column's lowest empty cell.
    drop = ((both + (1 << (HEIGHT * action))) | both) ^ both
    stones = state[S_STONES + seat] | drop
    state[S_STONES + seat] = stones
    state[H_PLY] += 1
    if has_four(stones):
        state[S_WINNER] = seat
        state[H_TO_MOVE] = TERMINAL
        state[H_PHASE] = PH_GAME_OVER
    elif (both | drop) == BOARD:
        state[H_TO_MOVE] = TERMINAL
        state[H_PHASE] = PH_GAME_OVER
    else:
        state[H_TO_MOVE] = 1 - seat


@njit
def chance_outcomes(state, codes, probs):
    return 0                # connect four has no chance events


@njit
def sample_chance(state, rng):
    return 0


@njit
def apply_chance(state, code):
    pass


@njit
def resolve_chance(state, rng):
    pass


@njit
def scores(state, out):
    """1 for the winner, 0 otherwise (a draw: 0 and 0); rewards turn this into +1/-1/0."""
    out[0] = 0
    out[1] = 0
    if state[S_WINNER] >= 0:
        out[state[S_WINNER]] = 1


@njit
def tiebreaks(state, out):
    out[0] = 0
    out[1] = 0


@njit
def observe(state, seat, out):
    """Planes [observer's stones, opponent's stones] of [ROWS, COLS], top row first."""
    out[:] = 0.0
    mine = state[S_STONES + seat]
    theirs = state[S_STONES + 1 - seat]
    for column in range(COLS):
        # Stones rest on stones: walk a column up from the bottom until its first gap.
        own = mine >> (HEIGHT * column)
        taken = (own | (theirs >> (HEIGHT * column))) & _COLUMN_CELLS
        cell = (ROWS - 1) * COLS + column
        while taken:
            out[cell if own & 1 else cell + ROWS * COLS] = 1.0
            own >>= 1
            taken >>= 1
            cell -= COLS
    out[OBS_TO_MOVE] = np.float32(state[H_TO_MOVE] == seat)


@njit
def env_step(state, action, rng, mask):
    """One AEC step in one compiled call: apply the action and write the next mask."""
    if mask[action] == 0:
        return ILLEGAL              # nothing applied; the env raises with the legal moves
    apply_action(state, action)
    if state[H_TO_MOVE] >= 0:
        legal_mask(state, mask)
    else:
        mask[:] = 0
    return state[H_TO_MOVE]


@njit
def env_reset(state, num_players, config, start_seat, rng, mask):
    init_state(state, num_players, config, start_seat)
    legal_mask(state, mask)
    return state[H_TO_MOVE]
