"""The packed board grid, the frontier, and legal placement enumeration (CA-6.3, HOT-1).

The grid holds, per cell, the placement index + 1 of the tile there (0 = empty), packed
eight 7-bit cells per int64 so a state copy stays small (HOT-7).

The frontier (the empty cells next to a placed tile) is kept in the state, sorted by cell
index (row-major: y, then x), each cell with its requirement key: 2 bits per board side,
0 when no tile is there, else 1 + the edge type the neighbour shows.  ``FITS[t, key]``
then gives the fitting rotations of tile type t in one read.  Placing a tile removes its
cell from the frontier, adds its new empty neighbours and updates the keys of the others.
The frontier's order is the default action layout: placement ``4 * j + r`` puts the tile
on frontier cell j (``F_CELL + j``) with rotation r.  The "grid" layout (DEC-2) uses
``cell * 4 + r`` instead; both enumerate the same legal set in the same order.
"""

from __future__ import annotations

from ..core.jit import njit
from .data import (
    BOARD_WIDTH,
    C_DEDUPE,
    C_LAYOUT,
    CELL_BITS,
    CELLS_PER_WORD,
    DISTINCT_ROTATIONS,
    F_CELL,
    F_KEY,
    FITS,
    FRONTIER_SLOTS,
    G_BOX,
    G_FRONTIER,
    G_HAND,
    GRID,
    GRID_PLACEMENTS,
    LAYOUT_GRID,
    NUM_CELLS,
    ROT_EDGE,
    STEP,
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
def frontier_find(state, cell):
    """(position, found): where ``cell`` is or would be inserted in the sorted frontier.

    A branch-free count of the smaller cells: on frontiers of ~50 cells it vectorises and
    beats a binary search, whose halving branches mispredict."""
    size = state[G_FRONTIER]
    pos = 0
    for j in range(size):
        pos += state[F_CELL + j] < cell
    return pos, pos < size and state[F_CELL + pos] == cell


@njit
def update_frontier(state, cell, tile_type, rotation):
    """A tile went onto ``cell``: drop it from the frontier, add or update its neighbours."""
    size = state[G_FRONTIER]
    pos, found = frontier_find(state, cell)
    if found:
        for j in range(pos, size - 1):
            state[F_CELL + j] = state[F_CELL + j + 1]
            state[F_KEY + j] = state[F_KEY + j + 1]
        size -= 1
        state[F_CELL + size] = 0
        state[F_KEY + size] = 0
        state[G_FRONTIER] = size
    for side in range(4):
        near = cell + STEP[side]
        if tile_at(state, near) >= 0:
            continue
        # The neighbour sees this tile on its side (side + 2) % 4.
        bits = (1 + ROT_EDGE[tile_type, rotation, side]) << (2 * ((side + 2) % 4))
        pos, found = frontier_find(state, near)
        if found:
            state[F_KEY + pos] |= bits
            continue
        size = state[G_FRONTIER]
        for j in range(size, pos, -1):
            state[F_CELL + j] = state[F_CELL + j - 1]
            state[F_KEY + j] = state[F_KEY + j - 1]
        state[F_CELL + pos] = near
        state[F_KEY + pos] = bits
        state[G_FRONTIER] = size + 1


@njit
def update_box(state, index, cell):
    """Grow the tiles' bounding box (grid columns and rows) by placement ``index``."""
    col = cell % BOARD_WIDTH
    row = cell // BOARD_WIDTH
    if index == 0:
        state[G_BOX] = state[G_BOX + 1] = col
        state[G_BOX + 2] = state[G_BOX + 3] = row
        return
    state[G_BOX] = min(state[G_BOX], col)
    state[G_BOX + 1] = max(state[G_BOX + 1], col)
    state[G_BOX + 2] = min(state[G_BOX + 2], row)
    state[G_BOX + 3] = max(state[G_BOX + 3], row)


@njit
def rotation_filter(state, tile_type):
    """DEC-6: with ``dedupe_rotations`` only the lowest of identical rotations."""
    if state[C_DEDUPE]:
        return (1 << DISTINCT_ROTATIONS[tile_type]) - 1
    return 15


@njit
def fitting_rotations(state, tile_type, j):
    """Bit r set when ``tile_type`` fits frontier cell j with rotation r (CA-6.3)."""
    return FITS[tile_type, state[F_KEY + j]] & rotation_filter(state, tile_type)


@njit
def legal_placements(state, tile_type, out):
    """Write every legal placement action of ``tile_type`` in the state's layout, ascending;
    return how many.  ``out`` needs room for 4 * FRONTIER_SLOTS actions (DEC-5 bound)."""
    grid = state[C_LAYOUT] == LAYOUT_GRID
    keep = rotation_filter(state, tile_type)
    count = 0
    for j in range(state[G_FRONTIER]):
        bits = FITS[tile_type, state[F_KEY + j]] & keep
        base = state[F_CELL + j] * 4 if grid else 4 * j
        # Branch-free: each rotation is written, and kept only when it fits (count grows).
        for r in range(4):
            out[count] = base + r
            count += bits >> r & 1
    return count


@njit
def has_legal_placement(state, tile_type):
    """CA-6.4 / AMB-6: can ``tile_type`` go anywhere (meeples ignored)?"""
    for j in range(state[G_FRONTIER]):
        if FITS[tile_type, state[F_KEY + j]]:
            return True
    return False


@njit
def placement_cell(state, action):
    """The cell of a placement action in the state's layout (-1 when it names none)."""
    if state[C_LAYOUT] == LAYOUT_GRID:
        return action // 4 if 0 <= action < GRID_PLACEMENTS else -1
    j = action // 4
    if action < 0 or j >= FRONTIER_SLOTS or j >= state[G_FRONTIER]:
        return -1
    return state[F_CELL + j]


@njit
def is_legal_placement(state, action):
    """One placement of the tile in hand checked from the frontier (tests, parsing)."""
    cell = placement_cell(state, action)
    if cell < 0 or cell >= NUM_CELLS:
        return False
    pos, found = frontier_find(state, cell)
    return found and (fitting_rotations(state, state[G_HAND], pos) >> (action % 4)) & 1 == 1


@njit
def occupied_around(state, cell):
    """Tiles on the 8 cells around ``cell`` (CA-8.3)."""
    count = 0
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if (dx != 0 or dy != 0) and tile_at(state, cell + dy * STEP[2] + dx) >= 0:
                count += 1
    return count
