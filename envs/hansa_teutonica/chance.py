"""Hansa Teutonica's chance events (spec §14.2 notes): the three starting markers onto the
taverns (HT-4.2, 6 equally likely permutations) and each plate marker revealed at the end
of a turn (HT-7.4), drawn from the face-down supply in proportion to its contents."""

from __future__ import annotations

from ..core.contract import CHANCE, H_PHASE, H_TO_MOVE, ILLEGAL
from ..core.jit import njit
from ..core.rng import rand_below
from .data import (
    G_PLATE,
    G_ROUTE_MARKER,
    G_SUPPLY,
    NUM_MARKER_KINDS,
    PH_SETUP,
    START_MARKERS,
    TAVERN_PERMS,
    TAVERN_ROUTES,
)
from .masks import legal_mask
from .rules import after_setup, apply_action, init_state, place_revealed


@njit
def chance_outcomes(state, codes, probs):
    if state[H_TO_MOVE] != CHANCE:
        return 0
    if state[H_PHASE] == PH_SETUP:
        for i in range(6):
            codes[i] = i
            probs[i] = 1.0 / 6.0
        return 6
    total = 0
    for k in range(NUM_MARKER_KINDS):
        total += state[G_SUPPLY + k]
    n = 0
    for k in range(NUM_MARKER_KINDS):
        if state[G_SUPPLY + k] > 0:
            codes[n] = k
            probs[n] = state[G_SUPPLY + k] / total
            n += 1
    return n


@njit
def sample_chance(state, rng):
    if state[H_PHASE] == PH_SETUP:
        return rand_below(rng, 6)
    total = 0
    for k in range(NUM_MARKER_KINDS):
        total += state[G_SUPPLY + k]
    pick = rand_below(rng, total)
    for k in range(NUM_MARKER_KINDS):
        pick -= state[G_SUPPLY + k]
        if pick < 0:
            return k
    return NUM_MARKER_KINDS - 1


@njit
def apply_chance(state, code):
    if state[H_PHASE] == PH_SETUP:
        for i in range(3):
            state[G_ROUTE_MARKER + TAVERN_ROUTES[i]] = START_MARKERS[TAVERN_PERMS[code, i]]
        after_setup(state)
        return
    state[G_SUPPLY + code] -= 1                    # the plate marker is revealed
    state[G_PLATE] -= 1
    place_revealed(state, code)


@njit
def resolve_chance(state, rng):
    while state[H_TO_MOVE] == CHANCE:
        apply_chance(state, sample_chance(state, rng))


@njit
def env_step(state, action, rng, mask):
    """One AEC step in one compiled call: apply, draw what is due, write the next mask."""
    if mask[action] == 0:
        return ILLEGAL              # nothing applied; the env raises with the legal moves
    apply_action(state, action)
    resolve_chance(state, rng)
    if state[H_TO_MOVE] >= 0:
        legal_mask(state, mask)
    else:
        mask[:] = 0
    return state[H_TO_MOVE]


@njit
def env_reset(state, num_players, config, start_seat, rng, mask):
    init_state(state, num_players, config, start_seat)
    resolve_chance(state, rng)
    legal_mask(state, mask)
    return state[H_TO_MOVE]


