"""The greedy agent's compiled choice: the rollout heuristic, plus a look at the whole
map for the decisions that shape a game (start port, Action or Investment)."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_PHASE
from ...envs.core.jit import njit
from ...envs.serenissima.board import galleys_owned, reachable
from ...envs.serenissima.data import (
    A_ACTION,
    A_BASILICA,
    A_FORT,
    A_GAL,
    A_GALLEY,
    A_INVEST,
    A_OWNER,
    A_PORT,
    K_NUM_PORTS,
    K_NUM_ZONES,
    K_PORT_ZONE,
    K_ZONE_PORT,
    MAX_PORTS,
    MAX_ZONES,
    NEUTRAL,
    NUM_GALLEYS,
    PH_CHOOSE,
    PH_SETUP_GALLEY,
    PH_SETUP_PORT,
    S_DUCATS,
    S_G_SAIL,
    S_P_OWNER,
)
from ...envs.serenissima.masks import invest_mask
from ...envs.serenissima.policy import distances, heuristic_action, zone_value


@njit
def greedy_action(state, mask, rng):
    phase = state[H_PHASE]
    if phase == PH_SETUP_PORT:
        return best_start_port(state, mask)
    if phase == PH_SETUP_GALLEY:
        for g in range(NUM_GALLEYS):                      # low numbers act first
            if mask[A_GALLEY + g]:
                return A_GALLEY + g
    if phase == PH_CHOOSE:
        return action_or_investment(state)
    return heuristic_action(state, mask, rng, 0.0)


@njit
def best_start_port(state, mask):
    """The free start port with the most neutral ports within two spaces."""
    dist = np.empty(MAX_ZONES, dtype=np.int64)
    best, best_count = -1, -1
    for p in range(MAX_PORTS):
        if not mask[A_PORT + p]:
            continue
        distances(state, state[K_PORT_ZONE + p], dist)
        count = 0
        for z in range(state[K_NUM_ZONES]):
            q = state[K_ZONE_PORT + z]
            if q >= 0 and q != p and 0 < dist[z] <= 2 and state[S_P_OWNER + q] == NEUTRAL:
                count += 1
        if count > best_count:
            best, best_count = A_PORT + p, count
    return best


@njit
def action_or_investment(state):
    g = state[A_GAL]
    seat = state[A_OWNER]
    reach = np.empty(MAX_ZONES, dtype=np.int64)
    reachable(state, state[S_G_SAIL + g], reach)
    opportunity = 0.0
    for z in range(state[K_NUM_ZONES]):
        if reach[z] >= 0:
            opportunity = max(opportunity, zone_value(state, g, z))
    money = state[S_DUCATS + seat]
    buys = np.zeros(A_BASILICA + MAX_PORTS, dtype=np.int8)
    invest_mask(state, buys, False)
    builds = 0
    for p in range(state[K_NUM_PORTS]):
        builds += buys[A_FORT + p] + buys[A_BASILICA + p]
    if builds > 0 and opportunity < 4.0:
        return A_INVEST
    if opportunity > 0.0 or money < 3:
        return A_ACTION
    return A_INVEST if galleys_owned(state, seat) < 4 or money >= 6 else A_ACTION
