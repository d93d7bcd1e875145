"""The Investment (SE-7) and the special investment for players with fewer than two
galleys (SE-10): recruits, one galley (placed, then manned), forts and basilicas."""

from __future__ import annotations

from ..core.contract import H_PHASE
from ..core.jit import njit
from .actions import pay
from .board import galleys_owned
from .data import (
    A_BASILICA,
    A_BOUGHT,
    A_FORT,
    A_GALLEY,
    A_PASS,
    A_PORT,
    A_RECRUIT_GALLEY,
    A_RECRUIT_PORT,
    A_RETURN_PHASE,
    A_UNMANNED,
    G_BOUGHT_ROUND,
    G_SPECIAL_INDEX,
    G_TURN_OWNER,
    K_PORT_ZONE,
    L_BASILICA,
    L_FORT,
    L_GALLEY,
    L_RECRUIT,
    NUM_GALLEYS,
    PH_INVEST,
    PH_PLACE_GALLEY,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_P_BAS,
    S_P_FORT,
    S_P_SAIL,
    S_SUPPLY,
)
from .flow import advance_special, end_activation, scratch
from .masks import only_pass


@njit
def apply_invest(state, action):
    seat = state[G_TURN_OWNER]
    phase = state[H_PHASE]
    if action == A_PASS:
        finish_invest(state, phase)
        return
    if A_RECRUIT_PORT <= action < A_RECRUIT_GALLEY:
        pay(state, seat, 1, L_RECRUIT)
        state[S_SUPPLY + seat] -= 1
        state[S_P_SAIL + action - A_RECRUIT_PORT] += 1
    elif A_RECRUIT_GALLEY <= action < A_FORT:
        g = action - A_RECRUIT_GALLEY
        pay(state, seat, 1, L_RECRUIT)
        state[S_SUPPLY + seat] -= 1
        state[S_G_SAIL + g] += 1
        if g == state[A_UNMANNED]:
            state[A_UNMANNED] = next_unmanned(state, seat)
    elif A_FORT <= action < A_BASILICA:
        pay(state, seat, 2, L_FORT)
        state[S_P_FORT + action - A_FORT] = 1
    elif action >= A_BASILICA:
        pay(state, seat, 2, L_BASILICA)
        state[S_P_BAS + action - A_BASILICA] = 1
    else:
        g = action - A_GALLEY                             # SE-7.3: 1 per galley owned
        pay(state, seat, galleys_owned(state, seat), L_GALLEY)
        state[S_G_OWNER + g] = seat
        state[S_G_SAIL + g] = 0
        state[S_G_ZONE + g] = -1
        state[A_BOUGHT] = 1
        state[A_UNMANNED] = g
        state[G_BOUGHT_ROUND] |= 1 << g
        state[A_RETURN_PHASE] = phase
        state[H_PHASE] = PH_PLACE_GALLEY
        return
    if only_pass(state, scratch()):
        finish_invest(state, phase)


@njit
def next_unmanned(state, seat):
    """Another galley of ``seat`` still without a sailor (v1's special investment may have
    bought two, SE-10.2), or -1."""
    for g in range(NUM_GALLEYS):
        if state[S_G_OWNER + g] == seat and state[S_G_SAIL + g] == 0:
            return g
    return -1


@njit
def finish_invest(state, phase):
    if phase == PH_INVEST:
        end_activation(state)                             # SE-7.6
    else:
        state[G_SPECIAL_INDEX] += 1
        advance_special(state)


@njit
def apply_place_galley(state, action):
    p = action - A_PORT
    state[S_G_ZONE + state[A_UNMANNED]] = state[K_PORT_ZONE + p]
    state[H_PHASE] = state[A_RETURN_PHASE]

