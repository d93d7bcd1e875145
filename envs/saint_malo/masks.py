"""Legal-action masks for Saint Malo (spec §13), as numba kernels on the flat state."""

from __future__ import annotations

import numpy as np

from ..core.contract import H_PHASE
from ..core.jit import njit
from .city import crate_start_cells, empty_bb, largest_component, lowest_cell, popcount
from .data import (
    A_CHARACTER,
    A_CHURCH,
    A_CRATE,
    A_LOG,
    A_PASS,
    A_PLACE,
    A_STOP_HOUSES,
    A_STOP_ROLLING,
    A_WALL,
    C_DEDUPE,
    C_TOWER_AMOUNT,
    CHARACTER_LEVEL,
    CRATE,
    CRATE_FACE,
    CROSS,
    G_ACTIVE,
    G_ARCHITECT_CELL,
    G_BONUS_DUE,
    G_DICE,
    G_HOUSES_BUILT,
    G_PENDING_CODE,
    G_PENDING_LEFT,
    G_PLACED_BB,
    HEAD,
    LOG,
    MAX_HOUSES,
    N4,
    N8,
    NUM_DICE,
    OUTER_BB,
    P_COINS,
    P_LOGS,
    PH_BONUS_CHOICE,
    PH_HOUSES,
    PH_PLACE,
    PH_ROLL_DECISION,
    PH_SCORE,
    PLAYER_SIZE,
    PLAYERS_BASE,
    SWORD,
    WALL,
    WALL_FACE,
)
from .dice import is_canonical_reroll

ALL_DICE = (1 << NUM_DICE) - 1

@njit
def player_base(seat):
    return PLAYERS_BASE + seat * PLAYER_SIZE

@njit
def active_base(state):
    return player_base(state[G_ACTIVE])

@njit
def face_counts(state):
    counts = np.zeros(6, dtype=np.int64)
    for die in range(NUM_DICE):
        counts[state[G_DICE + die]] += 1
    return counts

@njit
def change_cost(needed, showing):
    """SM-6.6: 2 coins per die turned to the chosen symbol, only for dice used."""
    return 2 * max(0, needed - showing)

@njit
def legal_mask(state, mask):
    mask[:] = 0
    phase = state[H_PHASE]
    if phase == PH_ROLL_DECISION:
        mask[A_STOP_ROLLING] = 1
        dice = state[G_DICE:G_DICE + NUM_DICE]
        for reroll in range(1, ALL_DICE + 1):                 # SM-5.3 / SM-5.4 / EC-21
            if state[C_DEDUPE] == 0 or is_canonical_reroll(dice, reroll):
                mask[reroll] = 1
    elif phase == PH_SCORE:
        score_mask(state, mask)
    elif phase == PH_PLACE:
        set_cells(mask, placement_cells(state))
    elif phase == PH_HOUSES:
        set_cells(mask, house_cells(state))
        mask[A_STOP_HOUSES] = 1
    elif phase == PH_BONUS_CHOICE:
        bonus_mask(state, mask)
    count = 0
    for action in range(mask.shape[0]):
        count += mask[action]
    return count

@njit
def bonus_mask(state, mask):
    """SM-7.3.2: a character of level <= the reward's amount (3 on the N tower: citizen ..
    merchant), for the lowest side whose character reward is still due."""
    due = state[G_BONUS_DUE]
    side = 0
    while side < 3 and not (due >> side) & 1:             # validate: due != 0 here
        side += 1
    for kind in range(7):
        if CHARACTER_LEVEL[kind] <= state[C_TOWER_AMOUNT + side]:
            mask[A_CHARACTER + kind] = 1

@njit
def set_cells(mask, cells):
    while cells:
        cell = lowest_cell(cells)
        cells &= cells - 1
        mask[A_PLACE + cell] = 1

@njit
def score_mask(state, mask):
    """DP-2: each option legal iff dice, coins and space allow it (§13)."""
    base = active_base(state)
    counts = face_counts(state)
    coins = state[base + P_COINS]
    empty = empty_bb(state, base)
    free = popcount(empty)
    biggest = largest_component(empty)
    free_outer = popcount(empty & OUTER_BB)
    usable = NUM_DICE - counts[SWORD]                          # SM-6.3
    mask[A_PASS] = 1
    for k in range(1, usable + 1):
        if 2 + change_cost(k, counts[LOG]) <= coins:           # SM-7.1, A-23
            mask[A_LOG + k - 1] = 1
        if change_cost(k, counts[CRATE_FACE]) <= coins and biggest >= k:
            mask[A_CRATE + k - 1] = 1                           # SM-7.2
        if change_cost(k, counts[WALL_FACE]) <= coins and free_outer >= k:
            mask[A_WALL + k - 1] = 1                            # SM-7.3.1
        if change_cost(k, counts[CROSS]) <= coins and free >= 1:
            mask[A_CHURCH + k - 1] = 1                          # SM-7.4
    for kind in range(7):                                      # SM-7.5.0
        level = CHARACTER_LEVEL[kind]
        if level <= usable and change_cost(level, counts[HEAD]) <= coins and free >= 1:
            mask[A_CHARACTER + kind] = 1

@njit
def placement_cells(state):
    base = active_base(state)
    empty = empty_bb(state, base)
    code = state[G_PENDING_CODE]
    if code == WALL:
        return empty & OUTER_BB                                # SM-2.5
    if code == CRATE:
        placed = state[G_PLACED_BB]
        if placed == 0:                                        # SM-7.2: room for the group
            return crate_start_cells(empty, state[G_PENDING_LEFT])
        return neighbours_n4(placed) & empty
    return empty

@njit
def house_cells(state):
    """SM-7.5.3: first house N8 of the new architect, later ones N4 to this turn's houses."""
    base = active_base(state)
    if state[base + P_LOGS] < 1 or state[G_HOUSES_BUILT] >= MAX_HOUSES:
        return 0
    empty = empty_bb(state, base)
    if state[G_HOUSES_BUILT] == 0:
        return N8[state[G_ARCHITECT_CELL]] & empty
    return neighbours_n4(state[G_PLACED_BB]) & empty

@njit
def neighbours_n4(cells):
    out = 0
    while cells:
        out |= N4[lowest_cell(cells)]
        cells &= cells - 1
    return out
