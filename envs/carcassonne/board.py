"""The packed board grid and legal placement enumeration (CA-6.3, HOT-1).

The grid holds, per cell, the placement index + 1 of the tile there (0 = empty), packed
eight 7-bit cells per int64 so a state copy stays small (HOT-7).  The frontier is not
stored: it is the empty orthogonal neighbours of the placed tiles, enumerated from the
placement list; a cell next to several tiles is handled once, by its lowest-index
neighbour.
"""

from __future__ import annotations

from ..core.jit import njit
from .data import (
    C_DEDUPE,
    CELL_BITS,
    CELLS_PER_WORD,
    DISTINCT_ROTATIONS,
    G_HAND,
    G_PLACED,
    GRID,
    NUM_PLACEMENTS,
    ROT_CODE,
    ROT_EDGE,
    STEP,
    T_CELL,
    T_ROT,
    T_TYPE,
)

CELL_MASK = (1 << CELL_BITS) - 1


@njit
def tile_at(state, cell):
    """Placement index of the tile on ``cell``, or -1 when it is empty."""
    word = state[GRID + cell // CELLS_PER_WORD]
    return ((word >> ((cell % CELLS_PER_WORD) * CELL_BITS)) & CELL_MASK) - 1


@njit
def set_tile_at(state, cell, index):
    slot = GRID + cell // CELLS_PER_WORD
    shift = (cell % CELLS_PER_WORD) * CELL_BITS
    state[slot] = (state[slot] & ~(CELL_MASK << shift)) | ((index + 1) << shift)


@njit
def facing_edge(state, index, side):
    """Edge type of placed tile ``index`` on board side ``side`` (CA-3.4)."""
    return ROT_EDGE[state[T_TYPE + index], state[T_ROT + index], side]


@njit
def requirement(state, cell):
    """(required 2-bit edge codes, constrained-sides mask) of an empty cell (HOT-1)."""
    required = 0
    constrained = 0
    for side in range(4):
        other = tile_at(state, cell + STEP[side])
        if other >= 0:
            required |= facing_edge(state, other, (side + 2) % 4) << (2 * side)
            constrained |= 3 << (2 * side)
    return required, constrained


@njit
def first_visit(state, cell, index):
    """True when placed tile ``index`` is the lowest-index tile next to empty ``cell``."""
    for side in range(4):
        other = tile_at(state, cell + STEP[side])
        if 0 <= other < index:
            return False
    return True


@njit
def legal_placements(state, tile_type, out):
    """Write every legal placement action (cell * 4 + r) of ``tile_type``; return how many.

    CA-6.3: an empty cell with an orthogonal neighbour, edges equal on every occupied side.
    ``out`` needs room for 4 * (2 * placed + 2) actions (DEC-5 bound).
    """
    count = 0
    # DEC-6: rotation r + k * DISTINCT_ROTATIONS gives the same board as r.
    rotations = DISTINCT_ROTATIONS[tile_type] if state[C_DEDUPE] else 4
    for index in range(state[G_PLACED]):
        origin = state[T_CELL + index]
        for side in range(4):
            cell = origin + STEP[side]
            if tile_at(state, cell) >= 0 or not first_visit(state, cell, index):
                continue
            required, constrained = requirement(state, cell)
            for r in range(rotations):
                if ROT_CODE[tile_type, r] & constrained == required:
                    out[count] = cell * 4 + r
                    count += 1
    return count


@njit
def has_legal_placement(state, tile_type):
    """CA-6.4 / AMB-6: can ``tile_type`` go anywhere (meeples ignored)?"""
    for index in range(state[G_PLACED]):
        origin = state[T_CELL + index]
        for side in range(4):
            cell = origin + STEP[side]
            if tile_at(state, cell) >= 0:
                continue
            required, constrained = requirement(state, cell)
            for r in range(4):
                if ROT_CODE[tile_type, r] & constrained == required:
                    return True
    return False


@njit
def is_legal_placement(state, action):
    """One placement of the tile in hand checked from scratch (tests, parsing)."""
    if action < 0 or action >= NUM_PLACEMENTS:
        return False
    cell, r = action // 4, action % 4
    if tile_at(state, cell) >= 0:
        return False
    required, constrained = requirement(state, cell)
    if state[C_DEDUPE] and r >= DISTINCT_ROTATIONS[state[G_HAND]]:
        return False
    return constrained != 0 and ROT_CODE[state[G_HAND], r] & constrained == required


@njit
def occupied_around(state, cell):
    """Tiles on the 8 cells around ``cell`` (CA-8.3)."""
    count = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if (dx != 0 or dy != 0) and tile_at(state, cell + dy * STEP[2] + dx) >= 0:
                count += 1
    return count
