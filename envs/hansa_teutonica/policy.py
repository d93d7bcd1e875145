"""A fast heuristic policy (MCTS rollouts, and the core of the greedy agent).

Build toward establishing routes: establish whenever possible (taking the best reward),
use +3/+4 and Upgrade markers at once, hire when the personal supply is empty, place on
the route closest to being fully one's own (preferring routes with a free office at an
end), displace rivals off such routes when the supply allows, and end the turn otherwise.
Values are rough; they only need to play a real game where uniform random play stalls.
"""

from __future__ import annotations

import numpy as np

from ..core.batch import pick_random_legal
from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from ..core.rng import rand_float
from .board import first_empty_office, player_base
from .data import (
    A_DONE,
    A_END_TURN,
    A_ESTABLISH,
    A_INCOME,
    A_MOVE_BEGIN,
    A_PAWN,
    A_PAWN_SKIP,
    A_PAY,
    A_PICK,
    A_PLACE,
    A_PLUS3,
    A_PLUS4,
    A_REWARD,
    A_UPGRADE,
    C_REGION_ROUTES,
    C_REGIONS_ON,
    CITY_ABILITY,
    G_ACTIONS_LEFT,
    G_ACTIVE,
    G_EST_ROUTE,
    G_MOVE_PICKED,
    G_PAWN,
    G_SIDE,
    G_SPACE_OWNER,
    P_GENERAL,
    P_PERSONAL,
    PH_MAIN,
    PH_MOVE_DROP,
    PH_MOVE_PICK,
    PH_PAWN_END,
    PH_PAWN_SETUP,
    PH_PAY,
    PH_REMOVE3,
    PH_REWARD,
    ROUTE_CITY,
    ROUTE_LEN,
    ROUTE_START,
    SPACE_ROUTE,
    SPACES_ON_SIDE,
)

# Upgrade order for markers and ability rewards: Actiones, Privilegium, Bursa, Liber, Clavis.
TRACK_PRIORITY = np.array([1.0, 5.0, 4.0, 2.0, 3.0])


@njit
def rollout_policy(state, mask, rng):
    phase = state[H_PHASE]
    if phase == PH_MAIN:
        return main_choice(state, mask, rng, 0.3)
    if phase == PH_REWARD:
        return reward_choice(state, mask)
    if phase == PH_PAY:
        return A_PAY if mask[A_PAY] else A_PAY + 1
    if phase == PH_MOVE_PICK:
        return move_pick(state, mask)
    if phase == PH_MOVE_DROP:
        return best_space(state, mask, A_PLACE, rng)
    if phase == PH_PAWN_SETUP or phase == PH_PAWN_END:
        return best_region(state, mask, rng)
    if phase == PH_REMOVE3:
        seat = state[G_ACTIVE]
        for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
            if mask[A_PICK + s] and state[G_SPACE_OWNER + s] != seat:
                return A_PICK + s
        return A_DONE
    return pick_random_legal(mask, rng)


@njit
def route_value(state, route, seat):
    """How close the route is to being fully ``seat``'s, and worth establishing."""
    own = 0
    rivals = 0
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        owner = state[G_SPACE_OWNER + s]
        own += owner == seat
        rivals += owner >= 0 and owner != seat
    value = 2.0 * own - 1.5 * rivals - 0.3 * ROUTE_LEN[route]
    for end in range(2):
        city = ROUTE_CITY[route, end]
        if first_empty_office(state, city) >= 0:
            value += 1.0
        if CITY_ABILITY[city] >= 0:
            value += 0.5
    return value


@njit
def reward_choice(state, mask):
    best, best_value = A_REWARD, 0.0
    route = state[G_EST_ROUTE]
    for k in range(1, 13):
        if not mask[A_REWARD + k]:
            continue
        if k <= 2:
            value = 10.0
        elif k <= 6:
            value = 6.0
        elif k <= 8:
            value = 4.0 + TRACK_PRIORITY[CITY_ABILITY[ROUTE_CITY[route, k - 7]]]
        else:
            value = 5.0 + k
        if value > best_value:
            best, best_value = A_REWARD + k, value
    return best


@njit
def main_choice(state, mask, rng, jitter):
    seat = state[G_ACTIVE]
    base = player_base(seat)
    for r in range(34):
        if mask[A_ESTABLISH + r]:
            return A_ESTABLISH + r
    if mask[A_PLUS4]:
        return A_PLUS4
    if mask[A_PLUS3]:
        return A_PLUS3
    best, best_value = -1, -1e9
    for t in range(5):
        if mask[A_UPGRADE + t] and TRACK_PRIORITY[t] > best_value:
            best, best_value = A_UPGRADE + t, TRACK_PRIORITY[t]
    if best >= 0:
        return best
    personal = state[base + P_PERSONAL] + state[base + P_PERSONAL + 1]
    stock = state[base + P_GENERAL] + state[base + P_GENERAL + 1]
    if personal == 0 or (personal < 2 and stock > 3):
        for m in range(5):
            if mask[A_INCOME + m]:
                return A_INCOME + m
    best, best_value = -1, -1e9
    for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
        for t in range(2):
            action = A_PLACE + 2 * s + t            # a displacement where a rival stands
            if not mask[action]:
                continue
            value = route_value(state, SPACE_ROUTE[s], seat) - 0.5 * t
            if state[G_SPACE_OWNER + s] >= 0:
                value += 1.0 - 0.7 * state[H_NUM_PLAYERS]
            value += jitter * rand_float(rng)
            if value > best_value:
                best, best_value = action, value
    if best >= 0:
        return best
    if mask[A_INCOME] or mask[A_INCOME + 1]:
        return A_INCOME if mask[A_INCOME] else A_INCOME + 1
    if state[C_REGIONS_ON] != 0 and state[G_ACTIONS_LEFT] > 0:
        pawn = best_region(state, mask, rng)
        if pawn != state[G_PAWN] + A_PAWN and mask[pawn]:
            return pawn
    if mask[A_MOVE_BEGIN] and rand_float(rng) < 0.5:
        return A_MOVE_BEGIN                      # stuck: regroup pieces onto one route
    if mask[A_END_TURN]:
        return A_END_TURN
    return pick_random_legal(mask, rng)


@njit
def move_pick(state, mask):
    """Lift the piece on the least promising route (once), then drop it elsewhere."""
    if state[G_MOVE_PICKED] >= 1 and mask[A_DONE]:
        return A_DONE
    seat = state[G_ACTIVE]
    best, best_value = A_DONE, 1e9
    for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
        if mask[A_PICK + s]:
            value = route_value(state, SPACE_ROUTE[s], seat)
            if value < best_value:
                best, best_value = A_PICK + s, value
    return best


@njit
def best_space(state, mask, first, rng):
    seat = state[G_ACTIVE]
    best, best_value = -1, -1e9
    for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
        for t in range(2):
            if mask[first + 2 * s + t]:
                value = route_value(state, SPACE_ROUTE[s], seat) + 0.1 * rand_float(rng)
                if value > best_value:
                    best, best_value = first + 2 * s + t, value
    return best if best >= 0 else pick_random_legal(mask, rng)


@njit
def best_region(state, mask, rng):
    """2p regions: the region whose border routes look best for the player to move."""
    seat = state[G_ACTIVE]
    best, best_value = -1, -1e9
    for g in range(11):
        if not mask[A_PAWN + g] and g != state[G_PAWN]:
            continue
        value = -1e9
        bits = state[C_REGION_ROUTES + g]
        for r in range(32):
            if (bits >> r) & 1:
                value = max(value, route_value(state, r, seat))
        value += 0.1 * rand_float(rng)
        if value > best_value:
            best, best_value = g, value
    if best == state[G_PAWN] or best < 0:
        return A_PAWN_SKIP if mask[A_PAWN_SKIP] else pick_random_legal(mask, rng)
    return A_PAWN + best
