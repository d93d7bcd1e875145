"""A fast heuristic policy (MCTS rollouts, and the core of the greedy agent).

Rules of thumb, no look-ahead: load one cube of the port's good when there is room, sail
along a shortest path (BFS on the map's adjacency) to the port that pays most for a
carried good or to a neutral port to claim, sell whatever sells, claim neutral ports,
attack only with more dice than the defender has sailors, always block, take captured
goods, and invest in basilicas, forts, a third galley and sailors.  ``jitter`` > 0 adds
random noise to the choices (rollouts); 0 makes it deterministic except for ties.
"""

from __future__ import annotations

import numpy as np

from ..core.batch import pick_random_legal
from ..core.contract import H_PHASE
from ..core.jit import njit
from ..core.rng import rand_float
from .board import free_places, galleys_owned, popcount, warehouse_full
from .data import (
    A_ACTION,
    A_ATTACK_PORT,
    A_BASILICA,
    A_BLOCK,
    A_CLAIM,
    A_CONTINUE,
    A_FORT,
    A_GAL,
    A_GALLEY,
    A_INVEST,
    A_LAND,
    A_LOAD,
    A_MOVE,
    A_MOVED,
    A_OWNER,
    A_PASS,
    A_RECRUIT_GALLEY,
    A_RECRUIT_PORT,
    A_SELL,
    A_TAKE,
    A_UNMANNED,
    A_V0,
    A_WITHDRAW,
    G_DEF_DICE,
    G_TURN_OWNER,
    K_ADJ,
    K_NUM_ZONES,
    K_PORT_GOOD,
    K_SLOT,
    K_ZONE_PORT,
    MAX_PORTS,
    MAX_SIZE,
    MAX_ZONES,
    NEUTRAL,
    NO_V0,
    NUM_GALLEYS,
    NUM_GOODS,
    PH_BLOCK,
    PH_CAPTURE,
    PH_CHOOSE,
    PH_CONTINUE,
    PH_INVEST,
    PH_LAND,
    PH_LOAD,
    PH_MOVE,
    PH_SPECIAL,
    PH_STEP3,
    S_DUCATS,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_P_OWNER,
    S_P_SAIL,
    S_P_WH,
    SPICES,
)


@njit
def distances(state, start, out):
    """BFS distances from ``start`` over the map's adjacency (-1: unreachable)."""
    nz = state[K_NUM_ZONES]
    out[:] = -1
    out[start] = 0
    queue = np.empty(MAX_ZONES, dtype=np.int64)
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        z = queue[head]
        head += 1
        for y in range(nz):
            if (state[K_ADJ + z] >> y) & 1 and out[y] < 0:
                out[y] = out[z] + 1
                queue[tail] = y
                tail += 1


@njit
def zone_value(state, g, zone):
    """What the active galley could gain in ``zone``: best sale, or 4 for a claim."""
    p = state[K_ZONE_PORT + zone]
    if p < 0:
        return 0.0
    owner = state[S_P_OWNER + p]
    seat = state[S_G_OWNER + g]
    best = 0.0
    if owner == NEUTRAL and state[S_G_SAIL + g] >= 2:
        best = 4.0
    if owner < NEUTRAL or warehouse_full(state, p):
        return best
    slot = popcount(state[S_P_WH + p])
    for t in range(NUM_GOODS):
        if state[S_G_GOODS + NUM_GOODS * g + t] == 0 or state[K_PORT_GOOD + p] == t \
                or (state[S_P_WH + p] >> t) & 1:
            continue
        value = 1.5 if owner == seat else state[K_SLOT + MAX_SIZE * p + slot] + 0.0
        if t == SPICES:
            value += 2.0
        best = max(best, value)
    return best


@njit
def heuristic_action(state, mask, rng, jitter):
    phase = state[H_PHASE]
    g = state[A_GAL]
    if phase == PH_CHOOSE:
        seat = state[A_OWNER]
        money = state[S_DUCATS + seat]
        want = money >= 6 or (money >= 3 and galleys_owned(state, seat) < 3)
        return A_INVEST if want and rand_float(rng) < 0.5 + 0.5 * (jitter == 0) else A_ACTION
    if phase == PH_LOAD:
        if mask[A_LOAD] and free_places(state, g) >= 1 and state[S_G_SAIL + g] >= 2:
            p = state[K_ZONE_PORT + state[S_G_ZONE + g]]
            if state[S_G_GOODS + NUM_GOODS * g + state[K_PORT_GOOD + p]] == 0:
                return A_LOAD
        return A_PASS
    if phase == PH_MOVE:
        return best_move(state, mask, g, rng, jitter)
    if phase == PH_BLOCK:
        return A_BLOCK
    if phase == PH_STEP3:
        best, best_value = A_PASS, 0.0
        for t in range(NUM_GOODS):
            if mask[A_SELL + t]:
                value = 1.0 + rand_float(rng) * jitter + (2.0 if t == SPICES else 0.0)
                if value > best_value:
                    best, best_value = A_SELL + t, value
        if best != A_PASS:
            return best
        if mask[A_CLAIM]:
            return A_CLAIM
        dice = state[S_G_SAIL + g] - state[A_MOVED] if state[A_V0] == NO_V0 \
            else min(state[A_V0], state[S_G_SAIL + g])
        for h in range(NUM_GALLEYS):
            if mask[A_GALLEY + h] and dice > state[S_G_SAIL + h]:
                return A_GALLEY + h
        if mask[A_ATTACK_PORT]:
            p = state[K_ZONE_PORT + state[S_G_ZONE + g]]
            if dice > state[S_P_SAIL + p] + 1:
                return A_ATTACK_PORT
        return A_PASS
    if phase == PH_CONTINUE:
        dice = max(0, min(state[A_V0], state[S_G_SAIL + g]))
        return A_CONTINUE if dice >= state[G_DEF_DICE] else A_WITHDRAW
    if phase == PH_CAPTURE:
        for t in range(NUM_GOODS - 1, -1, -1):
            if mask[A_TAKE + t]:
                return A_TAKE + t
        return A_PASS
    if phase == PH_LAND:
        for k in range(MAX_SIZE, 0, -1):
            if mask[A_LAND + k] and k < state[S_G_SAIL + g]:
                return A_LAND + k
        for k in range(MAX_SIZE + 1):
            if mask[A_LAND + k]:
                return A_LAND + k
    if phase == PH_INVEST or phase == PH_SPECIAL:
        return invest_choice(state, mask, rng)
    return pick_random_legal(mask, rng)


@njit
def best_move(state, mask, g, rng, jitter):
    here = state[S_G_ZONE + g]
    steps_left = state[S_G_SAIL + g] - state[A_MOVED]
    dist = np.empty(MAX_ZONES, dtype=np.int64)
    distances(state, here, dist)
    target, target_score = -1, zone_value(state, g, here) + 0.01
    for z in range(state[K_NUM_ZONES]):
        if z == here or dist[z] < 0:
            continue
        value = zone_value(state, g, z)
        if value <= 0.0:
            continue
        # A reachable target now beats a better one later; each step costs a little.
        score = value - 0.3 * dist[z] - (3.0 if dist[z] > steps_left else 0.0)
        score += jitter * rand_float(rng)
        if score > target_score:
            target, target_score = z, score
    if target < 0:
        if jitter > 0.0 and rand_float(rng) < 0.3:
            return pick_random_legal(mask, rng)
        return A_PASS
    back = np.empty(MAX_ZONES, dtype=np.int64)
    distances(state, target, back)
    for z in range(state[K_NUM_ZONES]):
        if mask[A_MOVE + z] and back[z] == dist[target] - 1:
            return A_MOVE + z
    return A_PASS


@njit
def invest_choice(state, mask, rng):
    seat = state[G_TURN_OWNER]
    unmanned = state[A_UNMANNED]
    if unmanned >= 0 and mask[A_RECRUIT_GALLEY + unmanned]:
        return A_RECRUIT_GALLEY + unmanned
    for first in (A_BASILICA, A_FORT):
        for p in range(MAX_PORTS):
            if mask[first + p]:
                return first + p
    if galleys_owned(state, seat) < 4:
        for h in range(NUM_GALLEYS):
            if mask[A_GALLEY + h]:
                return A_GALLEY + h
    for h in range(NUM_GALLEYS):
        if mask[A_RECRUIT_GALLEY + h] and state[S_G_SAIL + h] < 3:
            return A_RECRUIT_GALLEY + h
    for p in range(MAX_PORTS):
        if mask[A_RECRUIT_PORT + p] and state[S_P_SAIL + p] < 2:
            return A_RECRUIT_PORT + p
    if mask[A_PASS]:
        return A_PASS
    return pick_random_legal(mask, rng)


@njit
def rollout_policy(state, mask, rng):
    return heuristic_action(state, mask, rng, 0.5)
