"""The turn machinery: the wheel (SE-5.1), activations, step transitions, the end of a
round (SE-5.2) and the special investment (SE-10).  Decisions that only PASS could answer
are skipped, so every decision an agent sees has a real alternative."""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from .board import free_places, galleys_owned
from .data import (
    A_ASKED,
    A_BATTLES,
    A_BLOCKER,
    A_BOUGHT,
    A_CAP_GOODS,
    A_CAPTOR,
    A_CLAIM_BLOCKED,
    A_FREE_USED,
    A_GAL,
    A_LAND_MIN,
    A_LAND_PORT,
    A_LOAD_STEPS,
    A_MOVED,
    A_OCC,
    A_OPT,
    A_OWNER,
    A_PENDING,
    A_SALE_BLOCKED,
    A_START_ZONE,
    A_TARGET,
    A_TARGET_PORT,
    A_UNMANNED,
    A_V0,
    CK_DOGE,
    G_BOUGHT_ROUND,
    G_CHANCE_KIND,
    G_FIRST,
    G_ROUND,
    G_SPECIAL_INDEX,
    G_TURN_OWNER,
    G_WHEEL,
    K_NEW_ACTS,
    NO_V0,
    NUM_ACTIONS,
    NUM_GALLEYS,
    NUM_GOODS,
    OCC_NONE,
    OPT_NONE,
    PH_BLOCK,
    PH_CAPTURE,
    PH_CHANCE,
    PH_CHOOSE,
    PH_LAND,
    PH_LOAD,
    PH_MOVE,
    PH_SPECIAL,
    PH_STEP3,
    S_G_OWNER,
    S_G_ZONE,
    S_GOODS,
)
from .masks import only_pass


@njit
def scratch():
    return np.zeros(NUM_ACTIONS, dtype=np.int8)


@njit
def to_owner(state, phase):
    state[H_PHASE] = phase
    state[H_TO_MOVE] = state[A_OWNER]


@njit
def begin_round(state):
    state[G_ROUND] += 1
    state[G_WHEEL] = -1                                   # black marker on the Doge space
    state[G_BOUGHT_ROUND] = 0
    advance_wheel(state)


@njit
def advance_wheel(state):
    """SE-5.1.1/2: the next galley number holding a cube; none left: the round ends."""
    for g in range(state[G_WHEEL] + 1, NUM_GALLEYS):
        if state[S_G_OWNER + g] < 0:
            continue
        if state[K_NEW_ACTS] == 0 and (state[G_BOUGHT_ROUND] >> g) & 1:
            continue                                      # A-21 flag off: next round
        start_activation(state, g)
        return
    state[G_WHEEL] = NUM_GALLEYS
    state[A_GAL] = -1
    state[G_CHANCE_KIND] = CK_DOGE                        # SE-5.2 step 2
    state[H_PHASE] = PH_CHANCE
    state[H_TO_MOVE] = CHANCE


@njit
def start_activation(state, g):
    owner = state[S_G_OWNER + g]
    state[G_WHEEL] = g
    state[A_GAL] = g
    state[A_OWNER] = owner
    state[G_TURN_OWNER] = owner
    state[A_START_ZONE] = state[S_G_ZONE + g]
    state[A_MOVED] = 0
    state[A_FREE_USED] = 0
    state[A_V0] = NO_V0
    state[A_OPT] = OPT_NONE
    state[A_SALE_BLOCKED] = 0
    state[A_CLAIM_BLOCKED] = 0
    state[A_LOAD_STEPS] = 0
    state[A_BATTLES] = 0
    state[A_TARGET] = -1
    state[A_TARGET_PORT] = -1
    state[A_OCC] = OCC_NONE
    state[A_ASKED] = 0
    state[A_BLOCKER] = -1
    state[A_PENDING] = -1
    state[A_BOUGHT] = 0
    state[A_UNMANNED] = -1
    state[A_LAND_MIN] = 0
    state[A_LAND_PORT] = -1
    to_owner(state, PH_CHOOSE)


@njit
def end_activation(state):
    state[A_GAL] = -1
    state[A_TARGET] = -1
    state[A_TARGET_PORT] = -1
    state[A_OCC] = OCC_NONE
    state[A_BLOCKER] = -1
    state[A_UNMANNED] = -1
    advance_wheel(state)


@njit
def enter_load(state):
    to_owner(state, PH_LOAD)
    if only_pass(state, scratch()):
        enter_move(state)


@njit
def enter_move(state):
    to_owner(state, PH_MOVE)
    if only_pass(state, scratch()):
        enter_step3(state)


@njit
def enter_step3(state):
    state[A_OCC] = OCC_NONE
    state[A_BLOCKER] = -1
    to_owner(state, PH_STEP3)
    if only_pass(state, scratch()):
        end_activation(state)


@njit
def ask_blocker(state, seat):
    state[A_BLOCKER] = seat
    state[H_PHASE] = PH_BLOCK
    state[H_TO_MOVE] = seat


@njit
def enter_land(state, port, minimum):
    state[A_LAND_PORT] = port
    state[A_LAND_MIN] = minimum
    to_owner(state, PH_LAND)


@njit
def begin_capture(state, captor, after):
    """SE-6.6.6: the survivor's owner (maybe off-turn) takes goods from the stash."""
    state[A_CAPTOR] = captor
    state[A_TARGET] = -1
    state[A_OCC] = after                                  # reused: what follows capture
    state[H_PHASE] = PH_CAPTURE
    state[H_TO_MOVE] = state[S_G_OWNER + captor]
    if capture_over(state):
        finish_capture(state)


@njit
def capture_over(state):
    left = 0
    for t in range(NUM_GOODS):
        left += state[A_CAP_GOODS + t]
    return left == 0 or free_places(state, state[A_CAPTOR]) <= 0


@njit
def finish_capture(state):
    for t in range(NUM_GOODS):                            # the rest to supply
        state[S_GOODS + t] += state[A_CAP_GOODS + t]
        state[A_CAP_GOODS + t] = 0
    after = state[A_OCC]
    state[A_CAPTOR] = -1
    state[A_OCC] = OCC_NONE
    if after == 0:
        enter_step3(state)
    else:
        end_activation(state)


@njit
def advance_special(state):
    """SE-10: players with fewer than 2 galleys, clockwise from the first player."""
    n = state[H_NUM_PLAYERS]
    while state[G_SPECIAL_INDEX] < n:
        seat = (state[G_FIRST] + state[G_SPECIAL_INDEX]) % n
        if galleys_owned(state, seat) < 2:
            state[G_TURN_OWNER] = seat
            state[A_OWNER] = seat
            state[A_BOUGHT] = 0
            state[A_UNMANNED] = -1
            state[H_PHASE] = PH_SPECIAL
            state[H_TO_MOVE] = seat
            if not only_pass(state, scratch()):
                return
        state[G_SPECIAL_INDEX] += 1
    begin_round(state)

