"""Setup (SE-4, SE-12): closing ports for 2/3 players (a chance event, or the players'
choice), then the start-port and galley selection rounds in alternating directions."""

from __future__ import annotations

from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from .board import ports_owned
from .data import (
    A_GALLEY,
    A_PORT,
    CK_CLOSE,
    CLOSED,
    G_CHANCE_KIND,
    G_CLOSE_STEP,
    G_FIRST,
    G_SETUP_STEP,
    G_TURN_OWNER,
    GALLEYS_AT_START,
    K_CLOSE_CHOOSE,
    K_NUM_PORTS,
    K_PORT_ZONE,
    PH_CHANCE,
    PH_CLOSE,
    PH_SETUP_GALLEY,
    PH_SETUP_PORT,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_P_OWNER,
    S_P_SAIL,
    S_SUPPLY,
    START_SAILORS,
)
from .flow import begin_round, scratch
from .masks import close_candidates


@njit
def advance_close(state):
    """SE-12.1.4: close one wood, wine, stone and marble port before the selection."""
    n = state[H_NUM_PLAYERS]
    while state[G_CLOSE_STEP] < 4:
        if close_candidates(state, state[G_CLOSE_STEP], scratch(), A_PORT) > 0:
            if state[K_CLOSE_CHOOSE]:
                seat = (state[G_FIRST] + state[G_CLOSE_STEP]) % n
                state[G_TURN_OWNER] = seat
                state[H_PHASE] = PH_CLOSE
                state[H_TO_MOVE] = seat
            else:
                state[G_CHANCE_KIND] = CK_CLOSE
                state[H_PHASE] = PH_CHANCE
                state[H_TO_MOVE] = CHANCE
            return
        state[G_CLOSE_STEP] += 1
    setup_prompt(state)


@njit
def close_port(state, p):
    state[S_P_OWNER + p] = CLOSED
    state[G_CLOSE_STEP] += 1
    advance_close(state)


@njit
def setup_seat(state):
    n = state[H_NUM_PLAYERS]
    step = state[G_SETUP_STEP]
    r, i = step // n, step % n
    if r % 2 == 0:
        return (state[G_FIRST] + i) % n                   # clockwise from the first
    return (state[G_FIRST] + n - 1 - i) % n               # back from the last player


@njit
def setup_prompt(state):
    n = state[H_NUM_PLAYERS]
    if state[G_SETUP_STEP] >= GALLEYS_AT_START[n] * n:
        begin_round(state)
        return
    seat = setup_seat(state)
    state[G_TURN_OWNER] = seat
    state[H_TO_MOVE] = seat
    first_round = state[G_SETUP_STEP] < n
    state[H_PHASE] = PH_SETUP_PORT if first_round and ports_owned(state, seat) == 0 \
        else PH_SETUP_GALLEY


@njit
def home_port(state, seat):
    for p in range(state[K_NUM_PORTS]):
        if state[S_P_OWNER + p] == seat:
            return p
    return -1


@njit
def apply_setup(state, action):
    seat = state[H_TO_MOVE]
    if state[H_PHASE] == PH_SETUP_PORT:                   # SE-4.1.4 (and the card, A-20)
        p = action - A_PORT
        state[S_P_OWNER + p] = seat
        state[S_P_SAIL + p] = START_SAILORS
        state[S_SUPPLY + seat] -= START_SAILORS
        state[H_PHASE] = PH_SETUP_GALLEY
        return
    g = action - A_GALLEY
    state[S_G_OWNER + g] = seat
    state[S_G_ZONE + g] = state[K_PORT_ZONE + home_port(state, seat)]
    state[S_G_SAIL + g] = START_SAILORS
    state[S_SUPPLY + seat] -= START_SAILORS
    state[G_SETUP_STEP] += 1
    setup_prompt(state)
