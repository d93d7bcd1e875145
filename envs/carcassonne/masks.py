"""Legal-action masks: placements of the tile in hand (frontier or grid layout, DEC-2) and
meeple actions (DEC-3).  The meeple actions follow the placements: ``A_MEEPLE`` (737
actions in all) in the frontier layout, ``GRID_A_MEEPLE`` (131,061) in the grid layout."""

from __future__ import annotations

from ..core.contract import H_PHASE
from ..core.jit import njit
from .board import legal_placements, rotation_filter
from .data import (
    A_MEEPLE,
    C_FARMERS,
    C_LAYOUT,
    F_CELL,
    F_KEY,
    FIELD,
    FITS,
    G_ACTIVE,
    G_FRONTIER,
    G_HAND,
    G_LARGE,
    G_NORMAL,
    G_PLACED,
    GRID_A_MEEPLE,
    GRID_NUM_ACTIONS,
    LAYOUT_GRID,
    MAX_SLOTS,
    N_FIGURES,
    N_ROOT,
    NUM_ACTIONS,
    NUM_PLACEMENTS,
    NUM_SLOTS,
    PH_MEEPLE,
    PH_PLACE,
    SEG_KIND,
    T_TYPE,
)
from .features import popcount4

MAX_PLACEMENT_ACTIONS = NUM_PLACEMENTS     # DEC-5: at most 180 frontier cells x 4


@njit
def meeple_base(state):
    """The first meeple action of the state's layout; "no meeple" is ``base + 16``."""
    return GRID_A_MEEPLE if state[C_LAYOUT] == LAYOUT_GRID else A_MEEPLE


@njit
def check_mask_size(state, mask):
    """A mask sized for the other layout would be written out of bounds: refuse it."""
    need = GRID_NUM_ACTIONS if state[C_LAYOUT] == LAYOUT_GRID else NUM_ACTIONS
    if mask.shape[0] < need:
        raise ValueError("carcassonne: the action mask is too small for this state's "
                         "placement_layout (use the spec of that layout)")


@njit
def meeple_options(state, seat, mask, write):
    """DEC-3 / CA-7.2: meeple actions on the tile just placed; returns how many (no-meeple
    excluded).  A slot is free when its feature holds no meeple after the merge (HOT-4)."""
    index = state[G_PLACED] - 1
    tile_type = state[T_TYPE + index]
    normal = state[G_NORMAL + seat] > 0
    large = state[G_LARGE + seat] > 0
    base = meeple_base(state)
    count = 0
    for slot in range(NUM_SLOTS[tile_type]):
        if SEG_KIND[tile_type, slot] == FIELD and not state[C_FARMERS]:
            continue
        if state[N_FIGURES + state[N_ROOT + index * MAX_SLOTS + slot]] > 0:
            continue
        if normal:
            count += 1
            if write:
                mask[base + 2 * slot] = 1
        if large:
            count += 1
            if write:
                mask[base + 2 * slot + 1] = 1
    return count


@njit
def has_meeple_option(state, seat):
    """Is any meeple action legal on the tile just placed (``meeple_options`` > 0)?"""
    if state[G_NORMAL + seat] == 0 and state[G_LARGE + seat] == 0:
        return False
    index = state[G_PLACED] - 1
    tile_type = state[T_TYPE + index]
    for slot in range(NUM_SLOTS[tile_type]):
        if SEG_KIND[tile_type, slot] == FIELD and not state[C_FARMERS]:
            continue
        if state[N_FIGURES + state[N_ROOT + index * MAX_SLOTS + slot]] == 0:
            return True
    return False


@njit
def legal_mask(state, mask):
    """Write the legal actions of the seat to move into ``mask``; returns their number."""
    check_mask_size(state, mask)
    mask.fill(0)
    return set_legal(state, mask)


@njit
def clear_legal(state, mask):
    """Zero the entries that ``legal_mask`` set for this very state.  The frontier layout's
    737 entries are simply cleared; the grid layout's 131,061 are not (only the ~40 set)."""
    if state[C_LAYOUT] != LAYOUT_GRID:
        mask[:NUM_ACTIONS] = 0
        return
    if state[H_PHASE] == PH_PLACE:
        for j in range(state[G_FRONTIER]):
            cell = state[F_CELL + j]
            for r in range(4):
                mask[cell * 4 + r] = 0
    base = meeple_base(state)
    for action in range(base, base + 2 * MAX_SLOTS + 1):
        mask[action] = 0


@njit
def set_legal(state, mask):
    """Set the legal entries of ``mask`` (already zero elsewhere); returns their number."""
    phase = state[H_PHASE]
    if phase == PH_PLACE:
        hand = state[G_HAND]
        keep = rotation_filter(state, hand)
        grid = state[C_LAYOUT] == LAYOUT_GRID
        count = 0
        # Four unconditional stores per frontier cell (zeros included; in the grid layout
        # those are the entries clear_legal zeroes) instead of a branch per rotation, which
        # mispredicts about half the time and was most of this loop's cost.
        for j in range(state[G_FRONTIER]):
            bits = FITS[hand, state[F_KEY + j]] & keep
            base = state[F_CELL + j] * 4 if grid else 4 * j
            mask[base] = bits & 1
            mask[base + 1] = bits >> 1 & 1
            mask[base + 2] = bits >> 2 & 1
            mask[base + 3] = bits >> 3 & 1
            count += popcount4(bits)
        return count
    if phase == PH_MEEPLE:
        mask[meeple_base(state) + 2 * MAX_SLOTS] = 1
        return 1 + meeple_options(state, state[G_ACTIVE], mask, True)
    return 0


@njit
def legal_actions(state, out):
    """The legal actions as an ascending list (cheaper than a mask for compiled policies);
    ``out`` needs room for ``MAX_PLACEMENT_ACTIONS`` entries."""
    phase = state[H_PHASE]
    if phase == PH_PLACE:
        return legal_placements(state, state[G_HAND], out)
    if phase != PH_MEEPLE:
        return 0
    count = 0
    index = state[G_PLACED] - 1
    tile_type = state[T_TYPE + index]
    seat = state[G_ACTIVE]
    base = meeple_base(state)
    for slot in range(NUM_SLOTS[tile_type]):
        if SEG_KIND[tile_type, slot] == FIELD and not state[C_FARMERS]:
            continue
        if state[N_FIGURES + state[N_ROOT + index * MAX_SLOTS + slot]] > 0:
            continue
        for large in range(2):
            if state[(G_LARGE if large else G_NORMAL) + seat] > 0:
                out[count] = base + 2 * slot + large
                count += 1
    out[count] = base + 2 * MAX_SLOTS
    return count + 1
