"""Legal-action masks: placements of the tile in hand (DEC-2) and meeple actions (DEC-3)."""

from __future__ import annotations

import numpy as np

from ..core.contract import H_PHASE
from ..core.jit import njit
from .board import legal_placements
from .data import (
    A_MEEPLE,
    A_NO_MEEPLE,
    C_FARMERS,
    FIELD,
    G_ACTIVE,
    G_HAND,
    G_LARGE,
    G_NORMAL,
    G_PLACED,
    MAX_SLOTS,
    MAX_TILES,
    N_FIGURES,
    N_ROOT,
    NUM_SLOTS,
    PH_MEEPLE,
    PH_PLACE,
    SEG_KIND,
    T_TYPE,
)

MAX_PLACEMENT_ACTIONS = 4 * (2 * MAX_TILES + 2)     # DEC-5: frontier <= 2n + 2 cells


@njit
def meeple_options(state, seat, mask, write):
    """DEC-3 / CA-7.2: meeple actions on the tile just placed; returns how many (no-meeple
    excluded).  A slot is free when its feature holds no meeple after the merge (HOT-4)."""
    index = state[G_PLACED] - 1
    tile_type = state[T_TYPE + index]
    normal = state[G_NORMAL + seat] > 0
    large = state[G_LARGE + seat] > 0
    count = 0
    for slot in range(NUM_SLOTS[tile_type]):
        if SEG_KIND[tile_type, slot] == FIELD and not state[C_FARMERS]:
            continue
        if state[N_FIGURES + state[N_ROOT + index * MAX_SLOTS + slot]] > 0:
            continue
        if normal:
            count += 1
            if write:
                mask[A_MEEPLE + 2 * slot] = 1
        if large:
            count += 1
            if write:
                mask[A_MEEPLE + 2 * slot + 1] = 1
    return count


@njit
def legal_mask(state, mask):
    """Write the legal actions of the seat to move into ``mask``; returns their number."""
    mask.fill(0)
    return set_legal(state, mask)


@njit
def clear_legal(state, mask):
    """Zero the entries that ``legal_mask`` set for this very state: clearing ~40 entries
    instead of 131,061 keeps the fused env step fast."""
    if state[H_PHASE] == PH_PLACE:
        actions = np.empty(MAX_PLACEMENT_ACTIONS, dtype=np.int64)
        for i in range(legal_placements(state, state[G_HAND], actions)):
            mask[actions[i]] = 0
    for action in range(A_MEEPLE, A_NO_MEEPLE + 1):
        mask[action] = 0


@njit
def set_legal(state, mask):
    """Set the legal entries of ``mask`` (already zero elsewhere); returns their number."""
    phase = state[H_PHASE]
    if phase == PH_PLACE:
        actions = np.empty(MAX_PLACEMENT_ACTIONS, dtype=np.int64)
        count = legal_placements(state, state[G_HAND], actions)
        for i in range(count):
            mask[actions[i]] = 1
        return count
    if phase == PH_MEEPLE:
        mask[A_NO_MEEPLE] = 1
        return 1 + meeple_options(state, state[G_ACTIVE], mask, True)
    return 0


@njit
def legal_actions(state, out):
    """The legal actions as a list (cheaper than a 131k mask for compiled policies)."""
    phase = state[H_PHASE]
    if phase == PH_PLACE:
        return legal_placements(state, state[G_HAND], out)
    if phase != PH_MEEPLE:
        return 0
    count = 0
    index = state[G_PLACED] - 1
    tile_type = state[T_TYPE + index]
    seat = state[G_ACTIVE]
    for slot in range(NUM_SLOTS[tile_type]):
        if SEG_KIND[tile_type, slot] == FIELD and not state[C_FARMERS]:
            continue
        if state[N_FIGURES + state[N_ROOT + index * MAX_SLOTS + slot]] > 0:
            continue
        for large in range(2):
            if state[(G_LARGE if large else G_NORMAL) + seat] > 0:
                out[count] = A_MEEPLE + 2 * slot + large
                count += 1
    out[count] = A_NO_MEEPLE
    return count + 1
