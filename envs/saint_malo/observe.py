"""The observation kernel: what one seat sees, seats rotated so the observer is slot 0.

Saint Malo has no hidden information (SM-10.1), so every seat sees the whole table; the
vector is padded to five player slots so one network serves every player count.

Layout (float32, ``OBS_SIZE`` = 3,924):

* 5 player slots (observer first, then clockwise), each ``49 * 15`` cell planes (one plane
  per cell code 1..15: wall, crate, house, church 1..5, citizen .. noble) followed by 20
  scalars: present, coins/10, logs/10, VP/50, score-if-ended-now/50, cannons lost/6,
  soldiers/5, defence/13, sides done (4 bits), sides broken (4 bits), empty spaces/45,
  is active, is start player;
* global block: dice face counts/5 (6), rolls used one-hot (4), phase one-hot (7), pending
  cell code one-hot (16), items left to place/5, cells drawn this turn (49), new architect
  cell (49), houses built/3, tower characters due, pirate boxes in the current row / row
  length and boxes to the next attack / row length, attacks done one-hot (7), next attack
  strength/12, end triggered, player count one-hot (4).
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from ..core.seats import seat_after
from .city import church_rows_value, defence, lowest_cell, popcount, score_from_parts
from .data import (
    C_BOXES_PER_PLAYER,
    C_CHURCH_T,
    C_STRENGTH,
    CHURCH_1,
    CITIZEN,
    EMPTY,
    G_ACTIVE,
    G_ARCHITECT_CELL,
    G_ATTACKS_DONE,
    G_BONUS_DUE,
    G_DICE,
    G_END_TRIGGERED,
    G_HOUSES_BUILT,
    G_PENDING_CODE,
    G_PENDING_LEFT,
    G_PIRATE_BOXES,
    G_PLACED_BB,
    G_ROLLS_USED,
    G_START_SEAT,
    MAX_PLAYERS,
    NUM_ATTACKS,
    NUM_CELL_CODES,
    NUM_CELLS,
    NUM_DICE,
    OBS_CELL_CHANNELS,
    OBS_PLAYER_SIZE,
    OBS_SIZE,
    P_BOARD,
    P_CANNONS_LOST,
    P_COINS,
    P_LOGS,
    P_SIDES_BROKEN,
    P_SIDES_DONE,
    P_SOLDIERS,
    P_VP,
    PHASE_NAMES,
    PLAYER_SIZE,
    PLAYERS_BASE,
)


@njit
def observe(state, seat, out):
    out[:] = 0.0
    num_players = state[H_NUM_PLAYERS]
    for slot in range(num_players):
        player = seat_after(seat, slot, num_players)
        write_player(state, player, out, slot * OBS_PLAYER_SIZE)
    write_global(state, out, MAX_PLAYERS * OBS_PLAYER_SIZE)


@njit
def write_player(state, player, out, at):
    base = PLAYERS_BASE + player * PLAYER_SIZE
    # One pass over the city gives the planes, the empty count and the church sizes.
    empty = 0
    churches = np.zeros(6, dtype=np.int64)
    for cell in range(NUM_CELLS):
        code = state[base + P_BOARD + cell]
        if code > 0:
            out[at + (code - 1) * NUM_CELLS + cell] = 1.0
            if CHURCH_1 <= code < CITIZEN:
                churches[code - CHURCH_1 + 1] += 1
        elif code == EMPTY:
            empty += 1
    rows = church_rows_value(churches, state[C_CHURCH_T:C_CHURCH_T + 6])
    at += NUM_CELLS * OBS_CELL_CHANNELS
    out[at] = 1.0
    out[at + 1] = state[base + P_COINS] / 10.0
    out[at + 2] = state[base + P_LOGS] / 10.0
    out[at + 3] = state[base + P_VP] / 50.0
    out[at + 4] = score_from_parts(state, base, empty, rows) / 50.0
    out[at + 5] = state[base + P_CANNONS_LOST] / 6.0
    out[at + 6] = state[base + P_SOLDIERS] / 5.0
    out[at + 7] = defence(state, base) / 13.0
    for side in range(4):
        out[at + 8 + side] = (state[base + P_SIDES_DONE] >> side) & 1
        out[at + 12 + side] = (state[base + P_SIDES_BROKEN] >> side) & 1
    out[at + 16] = empty / 45.0
    out[at + 17] = 1.0 if player == state[G_ACTIVE] else 0.0
    out[at + 18] = 1.0 if player == state[G_START_SEAT] else 0.0


@njit
def write_global(state, out, at):
    for die in range(NUM_DICE):
        out[at + state[G_DICE + die]] += 1.0 / NUM_DICE
    at += 6
    out[at + min(state[G_ROLLS_USED], 3)] = 1.0
    at += 4
    out[at + state[H_PHASE]] = 1.0
    at += len(PHASE_NAMES)
    out[at + state[G_PENDING_CODE]] = 1.0
    at += NUM_CELL_CODES
    out[at] = state[G_PENDING_LEFT] / 5.0
    at += 1
    placed = state[G_PLACED_BB]
    while placed:
        out[at + lowest_cell(placed)] = 1.0
        placed &= placed - 1
    at += NUM_CELLS
    if state[G_ARCHITECT_CELL] >= 0:
        out[at + state[G_ARCHITECT_CELL]] = 1.0
    at += NUM_CELLS
    out[at] = state[G_HOUSES_BUILT] / 3.0
    out[at + 1] = popcount(state[G_BONUS_DUE])             # characters due (a side bitmask)
    row_length = state[C_BOXES_PER_PLAYER] * state[H_NUM_PLAYERS]
    attacks = state[G_ATTACKS_DONE]
    in_row = state[G_PIRATE_BOXES] - attacks * row_length
    out[at + 2] = in_row / row_length
    out[at + 3] = (row_length - in_row) / row_length if attacks < NUM_ATTACKS else 0.0
    at += 4
    out[at + attacks] = 1.0
    at += NUM_ATTACKS + 1
    if attacks < NUM_ATTACKS:
        out[at] = state[C_STRENGTH + attacks] / 12.0
    out[at + 1] = state[G_END_TRIGGERED]
    at += 2
    out[at + state[H_NUM_PLAYERS] - 2] = 1.0
    at += 4
    assert at == OBS_SIZE
