"""The observation kernel (DEC-8): board planes for convolutional policies plus a vector.

Everything in Carcassonne is public except the pile order, which is never written.
Planes (``OBS_CHANNELS`` x 41 x 41, row = y, column = x, centred on the start tile; the
placement action grid's central window, so a CNN head can map planes to actions):

====  ===========================================================================
0     a tile is here
1-4   city on board side N, E, S, W          5-8   road on side N, E, S, W
9     monastery                              10    shields on the tile
11    inn on the tile                        12    cathedral on the tile
13    frontier: empty cell next to a tile
14    sides of the tile whose city/road is still open (HOT-3), / 4
15-20 meeple strength per seat, observer first (large = 2)
21    a farmer lies on the tile
22-25 the tile in hand fits here with rotation r (the placement mask)
26    the tile placed this turn (where the meeple decision applies)
====  ===========================================================================

Vector: phase one-hot (place, meeple), tile in hand one-hot (41), remaining pile per type
/ its full count (41), per seat observer first and padded to six: score / 100, normal
meeples / 7, large meeple, present; tiles left / 90; tiles outside the window / 10.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from .board import legal_placements, tile_at
from .data import (
    BOARD_WIDTH,
    C_IC_INN,
    CENTER,
    CITY_EDGE,
    FIELD,
    FIELD_EDGE,
    G_HAND,
    G_LARGE,
    G_NORMAL,
    G_PILE,
    G_PILE_LEFT,
    G_PLACED,
    G_SCORE,
    HAS_MONASTERY,
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
    OBS_PLANES_SIZE,
    OBS_WINDOW,
    PH_MEEPLE,
    PH_PLACE,
    PL_CATHEDRAL,
    PL_CITY,
    PL_FARMER,
    PL_FRONTIER,
    PL_INN,
    PL_LAST,
    PL_LEGAL,
    PL_MEEPLE,
    PL_MONASTERY,
    PL_OCCUPIED,
    PL_OPEN_SIDES,
    PL_ROAD,
    PL_SHIELD,
    ROT_EDGE,
    SEG_CATHEDRAL,
    SEG_INN,
    SEG_KIND,
    SEG_SHIELD,
    SIDE_SLOT,
    STEP,
    T_CELL,
    T_ROT,
    T_TYPE,
    TILE_COUNT,
    V_HAND,
    V_LARGE,
    V_NORMAL,
    V_OUTSIDE,
    V_PHASE,
    V_PILE,
    V_PILE_LEFT,
    V_PRESENT,
    V_SCORE,
)


def split_observation(observation: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(planes [..., 27, 41, 41], vector [..., 110]) views of flat observations, for CNNs.

    Plane row i, column j is the cell x = j - 20, y = i - 20, i.e. placement actions
    ``((y + 90) * 181 + (x + 90)) * 4 + r``."""
    observation = np.asarray(observation)
    lead = observation.shape[:-1]
    planes = observation[..., :OBS_PLANES_SIZE].reshape(*lead, OBS_CHANNELS, OBS_WINDOW,
                                                         OBS_WINDOW)
    return planes, observation[..., OBS_PLANES_SIZE:]


@njit
def window_pos(cell):
    """Index of ``cell`` inside the observation window, or -1 outside it."""
    x = cell % BOARD_WIDTH - CENTER
    y = cell // BOARD_WIDTH - CENTER
    if abs(x) > OBS_HALF or abs(y) > OBS_HALF:
        return -1
    return (y + OBS_HALF) * OBS_WINDOW + x + OBS_HALF


@njit
def observe(state, seat, out):
    out.fill(0.0)
    players = state[H_NUM_PLAYERS]
    outside = 0
    for index in range(state[G_PLACED]):
        cell = state[T_CELL + index]
        pos = window_pos(cell)
        if pos < 0:
            outside += 1
            continue
        write_tile(state, index, seat, players, pos, out)
        for side in range(4):
            near = cell + STEP[side]
            near_pos = window_pos(near)
            if near_pos >= 0 and tile_at(state, near) < 0:
                out[PL_FRONTIER * OBS_CELLS + near_pos] = 1.0
    phase = state[H_PHASE]
    if phase == PH_PLACE:
        out[V_PHASE] = 1.0
        out[V_HAND + state[G_HAND]] = 1.0
        actions = np.empty(4 * (2 * MAX_TILES + 2), dtype=np.int64)
        for i in range(legal_placements(state, state[G_HAND], actions)):
            pos = window_pos(actions[i] // 4)
            if pos >= 0:
                out[(PL_LEGAL + actions[i] % 4) * OBS_CELLS + pos] = 1.0
    elif phase == PH_MEEPLE:
        out[V_PHASE + 1] = 1.0
        pos = window_pos(state[T_CELL + state[G_PLACED] - 1])
        if pos >= 0:
            out[PL_LAST * OBS_CELLS + pos] = 1.0
    for tile_type in range(NUM_TYPES):
        out[V_PILE + tile_type] = state[G_PILE + tile_type] / TILE_COUNT[tile_type]
    for rel in range(players):
        other = (seat + rel) % players
        out[V_SCORE + rel] = state[G_SCORE + other] / 100.0
        out[V_NORMAL + rel] = state[G_NORMAL + other] / NORMAL_MEEPLES
        out[V_LARGE + rel] = state[G_LARGE + other]
        out[V_PRESENT + rel] = 1.0
    out[V_PILE_LEFT] = state[G_PILE_LEFT] / MAX_TILES
    out[V_OUTSIDE] = outside / 10.0


@njit
def write_tile(state, index, seat, players, pos, out):
    tile_type = state[T_TYPE + index]
    rotation = state[T_ROT + index]
    out[PL_OCCUPIED * OBS_CELLS + pos] = 1.0
    open_sides = 0
    for side in range(4):
        edge = ROT_EDGE[tile_type, rotation, side]
        if edge == FIELD_EDGE:
            continue
        plane = PL_CITY if edge == CITY_EDGE else PL_ROAD
        out[(plane + side) * OBS_CELLS + pos] = 1.0
        root = state[N_ROOT + index * MAX_SLOTS + SIDE_SLOT[tile_type, rotation, side]]
        if state[N_OPEN + root] > 0:
            open_sides += 1
    out[PL_OPEN_SIDES * OBS_CELLS + pos] = open_sides / 4.0
    out[PL_MONASTERY * OBS_CELLS + pos] = HAS_MONASTERY[tile_type]
    for slot in range(NUM_SLOTS[tile_type]):
        out[PL_SHIELD * OBS_CELLS + pos] += SEG_SHIELD[tile_type, slot]
        out[PL_INN * OBS_CELLS + pos] += SEG_INN[tile_type, slot]
        if tile_type == IC_TYPE and slot == 2 and state[C_IC_INN] == 1:
            out[PL_INN * OBS_CELLS + pos] += 1               # AMB-3 option: W branch too
        out[PL_CATHEDRAL * OBS_CELLS + pos] += SEG_CATHEDRAL[tile_type, slot]
        code = state[N_MEEPLE + index * MAX_SLOTS + slot]
        if code:
            owner = (code - 1) // 2
            rel = (owner - seat) % players
            out[(PL_MEEPLE + rel) * OBS_CELLS + pos] += 1 + (code - 1) % 2
            if SEG_KIND[tile_type, slot] == FIELD:
                out[PL_FARMER * OBS_CELLS + pos] = 1.0
