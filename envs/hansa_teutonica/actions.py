"""The multi-step actions' kernels: displacement with its off-turn compensation (HT-6.3)
and establishing a route (HT-6.5), plus the small helpers the turn flow shares."""

from __future__ import annotations

from ..core.contract import (
    H_NUM_PLAYERS,
    H_PHASE,
    H_TO_MOVE,
    TERMINAL,
)
from ..core.jit import njit
from .board import (
    controller,
    east_west_linked,
    first_empty_office,
    player_base,
)
from .compensation import compensation_can_continue, compensation_source
from .data import (
    A_DONE,
    A_PICK,
    A_PLACE,
    ACTIONES,
    CITY_ABILITY,
    COMP_BITS,
    COMPLETED_LIMIT,
    EAST_WEST_AWARD,
    G_ACTIONS_LEFT,
    G_ACTIVE,
    G_COELLEN,
    G_COMP_HAND,
    G_COMP_PLACED,
    G_COMPLETED,
    G_DISP_EXTRAS,
    G_DISP_ORIGIN,
    G_DISP_PENDING,
    G_DISP_VICTIM,
    G_END,
    G_EST_ROUTE,
    G_EW_COUNT,
    G_EXTRA_N,
    G_EXTRA_OK,
    G_EXTRA_OWNER,
    G_EXTRA_TYPE,
    G_OFFICE_OWNER,
    G_OFFICE_TYPE,
    G_PAY_LEFT,
    G_PLATE,
    G_ROUTE_MARKER,
    G_SIDE,
    G_SPACE_OWNER,
    G_SPACE_TYPE,
    G_SUPPLY,
    MAX_EXTRA,
    MAX_OFFICES,
    MERCHANT,
    MK_EXTRA,
    NUM_MARKER_KINDS,
    OFF_COIN,
    OFF_SHAPE,
    P_EW_DONE,
    P_GENERAL,
    P_PERSONAL,
    P_SCORE,
    P_TRACK,
    P_UNUSED,
    P_USED,
    PH_COMPENSATE,
    PH_GAME_OVER,
    PH_MAIN,
    PH_PAY,
    PH_REWARD,
    POINTS_LIMIT,
    ROUTE_CITY,
    ROUTE_LEN,
    ROUTE_START,
    SPACE_ROUTE,
    TRACK_RELEASES,
    TRACK_VALUES,
    TRADER,
)
from .masks import reward_ok

# --- shared helpers -----------------------------------------------------------------------

@njit
def put(state, space, seat, kind):
    state[G_SPACE_OWNER + space] = seat
    state[G_SPACE_TYPE + space] = kind


@njit
def use_marker(state, base, kind):
    state[base + P_UNUSED + kind] -= 1
    state[base + P_USED] += 1                                   # HT-7.3: kept face down


@njit
def upgrade(state, seat, track):
    """HT-3.2 / HT-3.3: release the covering piece; a higher Actiones value adds actions."""
    base = player_base(seat)
    level = state[base + P_TRACK + track]
    state[base + P_TRACK + track] = level + 1
    state[base + P_PERSONAL + TRACK_RELEASES[track]] += 1
    if track == ACTIONES:
        state[G_ACTIONS_LEFT] += TRACK_VALUES[track, level + 1] - TRACK_VALUES[track, level]


# --- displacement (HT-6.3) ------------------------------------------------------------------------

@njit
def displace(state, seat, space, kind):
    victim = state[G_SPACE_OWNER + space]
    victim_kind = state[G_SPACE_TYPE + space]
    state[player_base(seat) + P_PERSONAL + kind] -= 1
    put(state, space, seat, kind)
    state[G_DISP_VICTIM] = victim
    state[G_DISP_ORIGIN] = SPACE_ROUTE[space]
    state[G_DISP_PENDING] = victim_kind                          # in the victim's hand
    state[G_DISP_EXTRAS] = 1 if victim_kind == TRADER else 2
    state[G_PAY_LEFT] = 1 if victim_kind == TRADER else 2
    state[G_COMP_HAND] = -1
    state[G_COMP_PLACED] = 0
    state[G_COMP_PLACED + 1] = 0
    state[H_PHASE] = PH_PAY


@njit
def pay(state, kind):
    base = player_base(state[G_ACTIVE])
    state[base + P_PERSONAL + kind] -= 1
    state[base + P_GENERAL + kind] += 1
    state[G_PAY_LEFT] -= 1
    if state[G_PAY_LEFT] == 0:
        state[H_PHASE] = PH_COMPENSATE
        state[H_TO_MOVE] = state[G_DISP_VICTIM]                  # off-turn decision
        settle_compensation(state)


@njit
def compensate(state, action):
    victim = state[G_DISP_VICTIM]
    vb = player_base(victim)
    if action == A_DONE:                                         # decline the extras
        state[G_DISP_EXTRAS] = 0
    elif A_PICK <= action < A_DONE:                              # source 3: relocate
        s = action - A_PICK
        state[G_COMP_HAND] = state[G_SPACE_TYPE + s]
        state[G_SPACE_OWNER + s] = -1
        state[G_DISP_EXTRAS] -= 1
    else:
        s, t = (action - A_PLACE) // 2, (action - A_PLACE) % 2
        if state[G_COMP_HAND] == t:                              # any order
            state[G_COMP_HAND] = -1
        elif state[G_DISP_PENDING] == t:
            state[G_DISP_PENDING] = -1
        else:
            source = compensation_source(state, victim)
            state[vb + (P_GENERAL if source == 0 else P_PERSONAL) + t] -= 1
            state[G_DISP_EXTRAS] -= 1
        put(state, s, victim, t)
        state[G_COMP_PLACED + s // COMP_BITS] |= 1 << (s % COMP_BITS)
    settle_compensation(state)


@njit
def settle_compensation(state):
    """End compensation when no decision is left; A-5: with no target the displaced
    piece goes to its owner's personal supply."""
    if compensation_can_continue(state):
        return
    pending = state[G_DISP_PENDING]
    if pending >= 0:
        state[player_base(state[G_DISP_VICTIM]) + P_PERSONAL + pending] += 1
    state[G_DISP_PENDING] = -1
    state[G_DISP_EXTRAS] = 0
    state[G_DISP_VICTIM] = -1
    state[G_DISP_ORIGIN] = -1
    state[H_PHASE] = PH_MAIN
    state[H_TO_MOVE] = state[G_ACTIVE]


# --- establish (HT-6.5) ---------------------------------------------------------------------------

@njit
def establish(state, route):
    seat = state[G_ACTIVE]
    base = player_base(seat)
    state[G_EST_ROUTE] = route
    state[G_EXTRA_OK] = state[base + P_UNUSED + MK_EXTRA] > 0     # held before (HT-5.5)
    for end in range(2):                                          # (a) control points
        owner = controller(state, ROUTE_CITY[route, end])
        if owner >= 0:
            state[player_base(owner) + P_SCORE] += 1
    kind = state[G_ROUTE_MARKER + route]
    if kind >= 0:                                                 # (b) bonus marker
        state[base + P_UNUSED + kind] += 1
        state[G_ROUTE_MARKER + route] = -1
        stock = -state[G_PLATE]
        for k in range(NUM_MARKER_KINDS):
            stock += state[G_SUPPLY + k]
        if stock == 0:
            state[G_END] = 1                                      # T2 (HT-9.6)
        else:
            state[G_PLATE] += 1
    state[H_PHASE] = PH_REWARD
    for k in range(1, 13):
        if reward_ok(state, k):
            return
    finish_establish(state)                                       # only "none" is left


@njit
def take_from_route(state, route, kind):
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        if state[G_SPACE_OWNER + s] >= 0 and state[G_SPACE_TYPE + s] == kind:
            state[G_SPACE_OWNER + s] = -1
            return


@njit
def apply_reward(state, k):
    """(c): k = 0 none, 1-2 Kontor, 3-6 extra Kontor (city, type), 7-8 ability,
    9-12 Coellen space."""
    seat = state[G_ACTIVE]
    base = player_base(seat)
    route = state[G_EST_ROUTE]
    side = state[G_SIDE]
    if k == 0:
        return
    if k <= 2:                                                    # c1
        city = ROUTE_CITY[route, k - 1]
        i = first_empty_office(state, city)
        shape = OFF_SHAPE[side, city, i]
        take_from_route(state, route, shape)
        state[G_OFFICE_OWNER + city * MAX_OFFICES + i] = seat
        state[G_OFFICE_TYPE + city * MAX_OFFICES + i] = shape
        state[base + P_SCORE] += OFF_COIN[side, city, i]
        if first_empty_office(state, city) < 0:
            state[G_COMPLETED] += 1
        check_east_west(state, seat)
    elif k <= 6:                                                  # c1x (HT-7.6.4)
        city = ROUTE_CITY[route, (k - 3) // 2]
        t = (k - 3) % 2
        take_from_route(state, route, t)
        n = state[G_EXTRA_N + city]
        state[G_EXTRA_OWNER + city * MAX_EXTRA + n] = seat
        state[G_EXTRA_TYPE + city * MAX_EXTRA + n] = t
        state[G_EXTRA_N + city] = n + 1
        use_marker(state, base, MK_EXTRA)
        check_east_west(state, seat)
    elif k <= 8:                                                  # c2
        upgrade(state, seat, CITY_ABILITY[ROUTE_CITY[route, k - 7]])
    else:                                                         # c3
        take_from_route(state, route, MERCHANT)
        state[G_COELLEN + k - 9] = seat


@njit
def check_east_west(state, seat):
    base = player_base(seat)
    if state[base + P_EW_DONE] == 0 and east_west_linked(state, seat):
        state[base + P_EW_DONE] = 1
        if state[G_EW_COUNT] < 3:
            state[base + P_SCORE] += EAST_WEST_AWARD[state[G_EW_COUNT]]
        state[G_EW_COUNT] += 1


@njit
def finish_establish(state):
    """(d): the route's pieces go to the general stock; then the end triggers (HT-9)."""
    route = state[G_EST_ROUTE]
    base = player_base(state[G_ACTIVE])
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        if state[G_SPACE_OWNER + s] >= 0:
            state[base + P_GENERAL + state[G_SPACE_TYPE + s]] += 1
            state[G_SPACE_OWNER + s] = -1
    state[G_EST_ROUTE] = -1
    state[G_EXTRA_OK] = 0
    for seat in range(state[H_NUM_PLAYERS]):
        if state[player_base(seat) + P_SCORE] >= POINTS_LIMIT:
            state[G_END] = 1                                      # T1
    if state[G_COMPLETED] >= COMPLETED_LIMIT:
        state[G_END] = 1                                          # T3
    if state[G_END]:
        game_over(state)
    else:
        state[H_PHASE] = PH_MAIN


@njit
def game_over(state):
    state[H_PHASE] = PH_GAME_OVER
    state[H_TO_MOVE] = TERMINAL
