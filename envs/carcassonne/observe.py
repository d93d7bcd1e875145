"""The observation kernel (DEC-8): board planes for convolutional policies plus a vector.

Everything in Carcassonne is public except the pile order, which is never written.

Planes: ``OBS_CHANNELS`` (27) x 15 x 15, channel-major, row = y, column = x, over a window
centred on the placed tiles' bounding box: its top-left cell is (x0, y0) with
x0 = (x_min + x_max) // 2 - 7 (y0 likewise), so column = x - x0 and row = y - y0.  A board
up to 13 tiles wide (15 with its frontier ring) is seen whole; tiles beyond the window
are counted in the vector.  The window moves as the board grows (the rules do not depend
on absolute positions); its origin is in the vector.

====  ===========================================================================
0     a tile is here
1-4   city on board side N, E, S, W          5-8   road on side N, E, S, W
9     monastery                              10    shields on the tile
11    inn on the tile                        12    cathedral on the tile
13    frontier: empty cell next to a tile
14    sides of the tile whose city/road is still open (HOT-3), / 4
15-20 meeple strength per seat, observer first (large = 2)
21    a farmer lies on the tile
22-25 the tile in hand fits here with rotation r (the placement mask, as planes)
26    the tile placed this turn (where the meeple decision applies)
====  ===========================================================================

Vector (``OBS_VECTOR_SIZE`` = 653): phase one-hot (place, meeple), tile in hand one-hot
(41), remaining pile per type / its full count (41), per seat observer first and padded
to six: score / 100, normal meeples / 7, large meeple, present; tiles left / 90; tiles
outside the window / 10; the window origin (x0, y0) / 90; frontier cells / 180; then per
frontier slot j = 0..179 the triple (present, column, row): the window position of the
cell that placement actions ``4 * j + r`` address (frontier layout), so a policy that
scores cells with a convolution gathers slot j's four logits at (row, column).  Columns
and rows are plain integers and fall outside 0..14 for cells beyond the window.

Cost: the env hands the kernel a fresh ``np.empty`` buffer, so it clears all 6,728 entries
(about a quarter of its time) and then writes only what is nonzero.  A placed tile is a
fixed run of stores from per-(type, rotation) tables (planes 0..12, the slots on its four
sides for plane 14) plus one test for meeples on it; a frontier cell is four fixed stores
of its fitting-rotation bits.  ``tests/envs/test_carcassonne_observation.py`` checks every
entry against a plain-Python reference.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from ..core.seats import relative_seat, seat_after
from .board import rotation_filter
from .data import (
    BOARD_WIDTH,
    C_IC_INN,
    CENTER,
    F_CELL,
    F_KEY,
    FIELD,
    FITS,
    FRONTIER_SLOTS,
    G_BOX,
    G_FRONTIER,
    G_HAND,
    G_LARGE,
    G_NORMAL,
    G_PILE,
    G_PILE_LEFT,
    G_PLACED,
    G_SCORE,
    IC_TYPE,
    MAX_SLOTS,
    MAX_TILES,
    N_MEEPLE,
    N_OPEN,
    N_ROOT,
    NORMAL_MEEPLES,
    NUM_SLOTS,
    NUM_TYPES,
    OBS_CELLS,
    OBS_CHANNELS,
    OBS_HALF,
    OBS_MARK_COUNT,
    OBS_MARKS,
    OBS_PLANES_SIZE,
    OBS_WINDOW,
    PH_MEEPLE,
    PH_PLACE,
    PL_FARMER,
    PL_FRONTIER,
    PL_INN,
    PL_LAST,
    PL_LEGAL,
    PL_MEEPLE,
    PL_OPEN_SIDES,
    SEG_KIND,
    SIDE_SLOT,
    T_CELL,
    T_ROT,
    T_TYPE,
    TILE_COUNT,
    V_FRONTIER,
    V_HAND,
    V_LARGE,
    V_NORMAL,
    V_ORIGIN,
    V_OUTSIDE,
    V_PHASE,
    V_PILE,
    V_PILE_LEFT,
    V_PRESENT,
    V_SCORE,
    V_SLOTS,
)


def split_observation(observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(planes [..., 27, 15, 15], vector [..., 653]) views of flat observations, for CNNs."""
    observation = np.asarray(observation)
    lead = observation.shape[:-1]
    planes = observation[..., :OBS_PLANES_SIZE].reshape(*lead, OBS_CHANNELS, OBS_WINDOW,
                                                         OBS_WINDOW)
    return planes, observation[..., OBS_PLANES_SIZE:]


def slot_positions(observation: np.ndarray) -> np.ndarray:
    """(present, column, row) per frontier slot, shape [..., 180, 3], from flat observations."""
    observation = np.asarray(observation)
    return observation[..., V_SLOTS:V_SLOTS + 3 * FRONTIER_SLOTS].reshape(
        *observation.shape[:-1], FRONTIER_SLOTS, 3)


@njit
def window_origin(state):
    """(x0, y0): the top-left cell of the window centred on the placed tiles' bounding box."""
    return (((state[G_BOX] + state[G_BOX + 1]) >> 1) - CENTER - OBS_HALF,
            ((state[G_BOX + 2] + state[G_BOX + 3]) >> 1) - CENTER - OBS_HALF)


# Per tile key 4 * type + rotation, tables that make a placed tile a fixed, branch-free
# sequence of stores (the per-tile branches of a direct loop mispredict often and were
# most of the kernel's cost): the values of planes 0..12 at the tile's cell (one row per
# AMB-3 option: the IC tile's inn is 2 when its W branch counts too), and the slots on its
# city and road sides, one entry per side, for the open-sides count (HOT-3).
TILE_KEYS = NUM_TYPES * 4
STATIC_PLANES = PL_FRONTIER                 # planes 0..12 depend on the tile alone
TILE_PLANES = np.zeros((2, TILE_KEYS, STATIC_PLANES), dtype=np.float32)
SIDE_SLOTS = np.zeros((TILE_KEYS, 4), dtype=np.int64)
PORT_COUNT = np.zeros(TILE_KEYS, dtype=np.int64)
for _key in range(TILE_KEYS):
    _type, _rotation = divmod(_key, 4)
    for _k in range(OBS_MARK_COUNT[_type, _rotation]):
        TILE_PLANES[:, _key, OBS_MARKS[_type, _rotation, _k]] = 1.0
    for _side in range(4):
        _slot = SIDE_SLOT[_type, _rotation, _side]
        if _slot >= 0:
            SIDE_SLOTS[_key, PORT_COUNT[_key]] = _slot
            PORT_COUNT[_key] += 1
TILE_PLANES[1, 4 * IC_TYPE:4 * IC_TYPE + 4, PL_INN] = 2.0
IS_FIELD = (SEG_KIND == FIELD).astype(np.int64)
# remaining / full count per (type, remaining), exactly as float32(n / count)
PILE_SHARE = np.zeros((NUM_TYPES, int(TILE_COUNT.max()) + 1), dtype=np.float32)
for _type in range(NUM_TYPES):
    for _n in range(TILE_COUNT[_type] + 1):
        PILE_SHARE[_type, _n] = _n / TILE_COUNT[_type]


@njit
def observe(state, seat, out):
    out[:] = 0.0                      # the env hands a fresh np.empty buffer each call
    players = state[H_NUM_PLAYERS]
    x0, y0 = window_origin(state)
    left = CENTER + x0                # grid column / row of the window's first cell
    top = CENTER + y0
    ic_inn = 1 if state[C_IC_INN] == 1 else 0
    outside = 0
    for index in range(state[G_PLACED]):
        cell = state[T_CELL + index]
        col = cell % BOARD_WIDTH - left
        row = cell // BOARD_WIDTH - top
        if col < 0 or col >= OBS_WINDOW or row < 0 or row >= OBS_WINDOW:
            outside += 1
            continue
        pos = row * OBS_WINDOW + col
        tile_type = state[T_TYPE + index]
        key = 4 * tile_type + state[T_ROT + index]
        for plane in range(STATIC_PLANES):
            out[plane * OBS_CELLS + pos] = TILE_PLANES[ic_inn, key, plane]
        node = N_MEEPLE + index * MAX_SLOTS
        roots = N_ROOT + index * MAX_SLOTS
        open_sides = 0
        for k in range(PORT_COUNT[key]):
            open_sides += state[N_OPEN + state[roots + SIDE_SLOTS[key, k]]] > 0
        out[PL_OPEN_SIDES * OBS_CELLS + pos] = open_sides * 0.25
        # Slots past the tile's own hold 0 (add_tile never writes them): one test per tile.
        codes = 0
        for slot in range(MAX_SLOTS):
            codes |= state[node + slot]
        if codes == 0:
            continue
        for slot in range(NUM_SLOTS[tile_type]):
            code = state[node + slot]
            if code:
                rel = relative_seat((code - 1) // 2, seat, players)
                out[(PL_MEEPLE + rel) * OBS_CELLS + pos] += 1 + (code - 1) % 2
                if IS_FIELD[tile_type, slot]:
                    out[PL_FARMER * OBS_CELLS + pos] = 1.0
    phase = state[H_PHASE]
    hand = state[G_HAND]
    frontier = state[G_FRONTIER]
    keep = rotation_filter(state, hand) if phase == PH_PLACE else 0
    for j in range(frontier):
        cell = state[F_CELL + j]
        col = cell % BOARD_WIDTH - left
        row = cell // BOARD_WIDTH - top
        if j < FRONTIER_SLOTS:
            out[V_SLOTS + 3 * j] = 1.0
            out[V_SLOTS + 3 * j + 1] = col
            out[V_SLOTS + 3 * j + 2] = row
        if col < 0 or col >= OBS_WINDOW or row < 0 or row >= OBS_WINDOW:
            continue
        pos = row * OBS_WINDOW + col
        out[PL_FRONTIER * OBS_CELLS + pos] = 1.0
        bits = FITS[hand, state[F_KEY + j]] & keep if keep else 0
        for r in range(4):
            out[(PL_LEGAL + r) * OBS_CELLS + pos] = (bits >> r) & 1
    if phase == PH_PLACE:
        out[V_PHASE] = 1.0
        out[V_HAND + hand] = 1.0
    elif phase == PH_MEEPLE:
        out[V_PHASE + 1] = 1.0
        cell = state[T_CELL + state[G_PLACED] - 1]
        col = cell % BOARD_WIDTH - left
        row = cell // BOARD_WIDTH - top
        if 0 <= col < OBS_WINDOW and 0 <= row < OBS_WINDOW:
            out[PL_LAST * OBS_CELLS + row * OBS_WINDOW + col] = 1.0
    for tile_type in range(NUM_TYPES):
        out[V_PILE + tile_type] = PILE_SHARE[tile_type, state[G_PILE + tile_type]]
    for rel in range(players):
        other = seat_after(seat, rel, players)
        out[V_SCORE + rel] = state[G_SCORE + other] / 100.0
        out[V_NORMAL + rel] = state[G_NORMAL + other] / NORMAL_MEEPLES
        out[V_LARGE + rel] = state[G_LARGE + other]
        out[V_PRESENT + rel] = 1.0
    out[V_PILE_LEFT] = state[G_PILE_LEFT] / MAX_TILES
    out[V_OUTSIDE] = outside / 10.0
    out[V_ORIGIN] = x0 / MAX_TILES
    out[V_ORIGIN + 1] = y0 / MAX_TILES
    out[V_FRONTIER] = frontier / FRONTIER_SLOTS
