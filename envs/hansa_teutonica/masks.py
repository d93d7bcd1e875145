"""The legal-action mask (spec §14) and the legality tests the rules share."""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from .board import (
    first_empty_office,
    player_base,
    route_is_empty,
    route_owned_by,
    track_value,
)
from .compensation import compensation_mask
from .data import (
    A_DONE,
    A_END_TURN,
    A_ESTABLISH,
    A_INCOME,
    A_MARKER,
    A_MOVE_BEGIN,
    A_PAWN,
    A_PAWN_SKIP,
    A_PAY,
    A_PICK,
    A_PLACE,
    A_PLUS3,
    A_PLUS4,
    A_REMOVE3,
    A_REWARD,
    A_SWAP,
    A_UPGRADE,
    BURSA,
    C_REGION_ADJ,
    C_REGION_ROUTES,
    C_REGIONS_ON,
    C_REMOVE3_OPP,
    CITY_ABILITY,
    CITY_NOFF,
    COELLEN_ROUTE,
    G_ACTIONS_LEFT,
    G_ACTIONS_TAKEN,
    G_ACTIVE,
    G_COELLEN,
    G_EST_ROUTE,
    G_EXTRA_N,
    G_EXTRA_OK,
    G_HAND,
    G_MOVE_PICKED,
    G_OFFICE_OWNER,
    G_PAWN,
    G_PAWN_FREE_USED,
    G_ROUTE_MARKER,
    G_SIDE,
    G_SPACE_OWNER,
    G_SPACE_TYPE,
    LIBER,
    MAX_EXTRA,
    MAX_OFFICES,
    MERCHANT,
    MK_EXTRA,
    MK_PLUS3,
    MK_PLUS4,
    MK_REMOVE3,
    MK_SWAP,
    MK_UPGRADE,
    NUM_CITIES,
    NUM_REGIONS,
    NUM_TRACKS,
    OFF_COLOUR,
    OFF_SHAPE,
    P_GENERAL,
    P_PERSONAL,
    P_TRACK,
    P_UNUSED,
    PH_COMPENSATE,
    PH_MAIN,
    PH_MARKER_PLACE,
    PH_MOVE_DROP,
    PH_MOVE_PICK,
    PH_PAWN_END,
    PH_PAWN_SETUP,
    PH_PAY,
    PH_REMOVE3,
    PH_REWARD,
    PRIVILEGIUM,
    ROUTE_CITY,
    ROUTE_LEN,
    ROUTE_START,
    ROUTES_ON_SIDE,
    SPACE_ROUTE,
    SPACES_ON_SIDE,
    TRACK_MAX,
    TRADER,
)

# --- shared legality tests ----------------------------------------------------------------

@njit
def pawn_allows(state, route):
    """HT-11.4: with the 2p regions variant, the route must border the pawn's region."""
    if state[C_REGIONS_ON] == 0:
        return True
    return (state[C_REGION_ROUTES + state[G_PAWN]] >> route) & 1 == 1


@njit
def region_distance(state, a, b):
    """Borders crossed between regions a and b (BFS over the region adjacency bitsets)."""
    seen = 1 << a
    frontier = 1 << a
    d = 0
    while frontier:
        if (frontier >> b) & 1:
            return d
        grow = 0
        for g in range(NUM_REGIONS):
            if (frontier >> g) & 1:
                grow |= state[C_REGION_ADJ + g]
        frontier = grow & ~seen
        seen |= frontier
        d += 1
    return 99


@njit
def free_pawn_move_ok(state, region):
    """HT-11.3: the once-per-turn free move crosses 1 or 2 borders."""
    d = region_distance(state, state[G_PAWN], region)
    return 1 <= d <= 2


@njit
def swap_ok(state, seat, city, i):
    """HT-7.6.3: adjacent printed offices, both occupied, one mine and one a rival's."""
    if i + 1 >= CITY_NOFF[state[G_SIDE], city]:
        return False
    a = state[G_OFFICE_OWNER + city * MAX_OFFICES + i]
    b = state[G_OFFICE_OWNER + city * MAX_OFFICES + i + 1]
    if a < 0 or b < 0 or a == b:
        return False
    return a == seat or b == seat


@njit
def removable(state, seat, space):
    """HT-7.6.5 / A-1: a piece on a route (a rival's only, with the option)."""
    owner = state[G_SPACE_OWNER + space]
    if owner < 0:
        return False
    return state[C_REMOVE3_OPP] == 0 or owner != seat


@njit
def any_removable(state, seat):
    for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
        if removable(state, seat, s):
            return True
    return False


@njit
def route_has_type(state, route, kind):
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        if state[G_SPACE_OWNER + s] >= 0 and state[G_SPACE_TYPE + s] == kind:
            return True
    return False


@njit
def marker_route_ok(state, route):
    """HT-7.4: no marker, every space empty, an empty printed office at either end."""
    if state[G_ROUTE_MARKER + route] >= 0 or not route_is_empty(state, route):
        return False
    return (first_empty_office(state, ROUTE_CITY[route, 0]) >= 0
            or first_empty_office(state, ROUTE_CITY[route, 1]) >= 0)


@njit
def reward_ok(state, k):
    """HT-6.5.5 option k of REWARD (layout in data.R_*) for the route being established."""
    seat = state[G_ACTIVE]
    base = player_base(seat)
    route = state[G_EST_ROUTE]
    side = state[G_SIDE]
    privilege = track_value(state, seat, PRIVILEGIUM)
    if k == 0:
        return True
    if k <= 2:                                            # c1: Kontor
        city = ROUTE_CITY[route, k - 1]
        i = first_empty_office(state, city)
        if i < 0 or OFF_COLOUR[side, city, i] > privilege:
            return False
        return route_has_type(state, route, OFF_SHAPE[side, city, i])
    if k <= 6:                                            # c1x: extra Kontor
        city = ROUTE_CITY[route, (k - 3) // 2]
        if state[G_EXTRA_OK] == 0 or state[base + P_UNUSED + MK_EXTRA] == 0:
            return False
        if state[G_OFFICE_OWNER + city * MAX_OFFICES] < 0 or state[G_EXTRA_N + city] >= MAX_EXTRA:
            return False                                  # offices fill left to right
        return route_has_type(state, route, (k - 3) % 2)
    if k <= 8:                                            # c2: ability
        track = CITY_ABILITY[ROUTE_CITY[route, k - 7]]
        return track >= 0 and state[base + P_TRACK + track] < TRACK_MAX[track]
    if route != COELLEN_ROUTE or not route_has_type(state, route, MERCHANT):
        return False                                      # c3: Coellen
    j = k - 9
    return state[G_COELLEN + j] < 0 and j <= privilege


@njit
def marker_options(state, seat, mask, write):
    """Bonus markers usable between actions (HT-5.5, HT-7.6); returns how many."""
    base = player_base(seat)
    count = 0
    for kind, action in ((MK_PLUS3, A_PLUS3), (MK_PLUS4, A_PLUS4)):
        if state[base + P_UNUSED + kind] > 0:
            count += 1
            if write:
                mask[action] = 1
    if state[base + P_UNUSED + MK_UPGRADE] > 0:
        for track in range(NUM_TRACKS):
            if state[base + P_TRACK + track] < TRACK_MAX[track]:
                count += 1
                if write:
                    mask[A_UPGRADE + track] = 1
    if state[base + P_UNUSED + MK_SWAP] > 0:
        for city in range(NUM_CITIES):
            for i in range(3):
                if swap_ok(state, seat, city, i):
                    count += 1
                    if write:
                        mask[A_SWAP + 3 * city + i] = 1
    if state[base + P_UNUSED + MK_REMOVE3] > 0 and any_removable(state, seat):
        count += 1
        if write:
            mask[A_REMOVE3] = 1
    return count


# --- the mask -----------------------------------------------------------------------------

@njit
def legal_mask(state, mask):
    mask[:] = 0
    phase = state[H_PHASE]
    seat = state[G_ACTIVE]
    base = player_base(seat)
    side = state[G_SIDE]
    spaces = SPACES_ON_SIDE[side]
    if phase == PH_MAIN:
        main_mask(state, mask, seat, base, side, spaces)
    elif phase == PH_PAY:
        for t in range(2):
            mask[A_PAY + t] = state[base + P_PERSONAL + t] > 0
    elif phase == PH_COMPENSATE:
        compensation_mask(state, mask)
    elif phase == PH_MOVE_PICK:
        if state[G_MOVE_PICKED] < track_value(state, seat, LIBER):
            for s in range(spaces):
                mask[A_PICK + s] = state[G_SPACE_OWNER + s] == seat
        mask[A_DONE] = state[G_MOVE_PICKED] >= 1
    elif phase == PH_MOVE_DROP:
        has_trader = state[G_HAND] > 0
        has_merchant = state[G_HAND + 1] > 0
        for s in range(spaces):                              # branch-free, as main_mask
            empty = state[G_SPACE_OWNER + s] < 0
            mask[A_PLACE + 2 * s] = empty & has_trader
            mask[A_PLACE + 2 * s + 1] = empty & has_merchant
    elif phase == PH_REWARD:
        for k in range(13):
            mask[A_REWARD + k] = reward_ok(state, k)
    elif phase == PH_REMOVE3:
        for s in range(spaces):
            mask[A_PICK + s] = removable(state, seat, s)
        mask[A_DONE] = 1
    elif phase == PH_MARKER_PLACE:
        for r in range(ROUTES_ON_SIDE[side]):
            mask[A_MARKER + r] = marker_route_ok(state, r)
    elif phase == PH_PAWN_SETUP:
        for g in range(NUM_REGIONS):
            mask[A_PAWN + g] = 1
    elif phase == PH_PAWN_END:
        for g in range(NUM_REGIONS):
            mask[A_PAWN + g] = free_pawn_move_ok(state, g)
        mask[A_PAWN_SKIP] = 1
    return np.count_nonzero(mask)


@njit
def main_mask(state, mask, seat, base, side, spaces):
    mask[A_END_TURN] = 1
    marker_options(state, seat, mask, True)
    regions = state[C_REGIONS_ON] != 0
    if regions:
        for g in range(NUM_REGIONS):
            if g == state[G_PAWN]:
                continue
            free = state[G_PAWN_FREE_USED] == 0 and state[G_ACTIONS_TAKEN] == 0 \
                and free_pawn_move_ok(state, g)
            mask[A_PAWN + g] = free or state[G_ACTIONS_LEFT] >= 1
    if state[G_ACTIONS_LEFT] < 1:
        return
    income_mask(state, mask, base)
    has_trader = state[base + P_PERSONAL] > 0
    has_merchant = state[base + P_PERSONAL + 1] > 0
    pieces = state[base + P_PERSONAL] + state[base + P_PERSONAL + 1]
    own_piece = False
    # Branch-free over the spaces (empty, own and rival ones come in no predictable
    # order): A_DISPLACE is A_PLACE (data.py), so one pair of stores serves both moves.
    for s in range(spaces):
        owner = state[G_SPACE_OWNER + s]
        own_piece |= owner == seat
        # HT-6.2 on an empty space; HT-6.3.2 on a rival's: 2 pieces for a trader, 3 else
        need = 3 - (state[G_SPACE_TYPE + s] == TRADER)
        ok = (owner != seat) & ((owner < 0) | (pieces >= need)) \
            & pawn_allows(state, SPACE_ROUTE[s])
        mask[A_PLACE + 2 * s] = ok & has_trader
        mask[A_PLACE + 2 * s + 1] = ok & has_merchant
    mask[A_MOVE_BEGIN] = own_piece                             # HT-6.4
    for r in range(ROUTES_ON_SIDE[side]):
        mask[A_ESTABLISH + r] = route_owned_by(state, r, seat) and pawn_allows(state, r)


@njit
def income_mask(state, mask, base):
    """HT-6.1.1 / A-2: exactly min(Bursa, stock) pieces; the player picks the M count."""
    gt, gm = state[base + P_GENERAL], state[base + P_GENERAL + 1]
    bursa = track_value(state, state[G_ACTIVE], BURSA)
    n = min(bursa, gt + gm)
    if n == 0:
        return
    for m in range(max(0, n - gt), min(gm, n) + 1):
        if m <= 4:
            mask[A_INCOME + m] = 1


@njit
def main_has_choice(state):
    """False when END_TURN is the only legal move in MAIN (the turn then ends by itself)."""
    if state[G_ACTIONS_LEFT] > 0:
        return True
    seat = state[G_ACTIVE]
    if state[C_REGIONS_ON] != 0 and state[G_PAWN_FREE_USED] == 0:
        return True                    # the free pawn move is offered at the end (PH_PAWN_END)
    dummy = np.zeros(0, dtype=np.int8)
    return marker_options(state, seat, dummy, False) > 0


@njit
def opponents_on_route(state, route, seat):
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        owner = state[G_SPACE_OWNER + s]
        if owner >= 0 and owner != seat:
            return True
    return False


@njit
def num_players(state):
    return state[H_NUM_PLAYERS]

