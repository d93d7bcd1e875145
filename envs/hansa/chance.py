"""Hansa's chance events: one token drawn from the face-down supply (HS-3.2, HS-7.3).

The state keeps only the *multiset* of undrawn tokens (``G_SUPPLY``) and how many have been
drawn from the stacks (``G_DRAWS``), never an order: drawing the next token of a shuffled
pile is the same as drawing uniformly from what is left, so every draw is an explicit
chance event and nothing hidden sits in the state (HS-12).  The stack boundaries only
decide when the fifth stack is first touched (HS-7.7, HS-10.1).

A draw fills the first empty warehouse space in ascending board number.  The setup deal
(``PH_DEAL``) and a refill (``PH_DRAW``) continue until every space is full or the supply
is empty (HS-7.4).
"""

from __future__ import annotations

from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from ..core.rng import rand_below
from .data import (
    C_FILL,
    C_INIT_ORDER,
    C_SPACES,
    G_ACTIVE,
    G_DRAWS,
    G_END_TRIGGERED,
    G_INIT_STEP,
    G_STACK_END,
    G_START_SEAT,
    G_SUPPLY,
    G_WAREHOUSE,
    MAX_SPACES,
    NUM_CITIES,
    NUM_TYPES,
    PH_ACTIONS,
    PH_DEAL,
    PH_INIT_PLACE,
)
from .masks import supply_size


@njit
def chance_outcomes(state, codes, probs):
    if state[H_TO_MOVE] != CHANCE:
        return 0
    total = supply_size(state)
    count = 0
    for t in range(NUM_TYPES):
        if state[G_SUPPLY + t] > 0:
            codes[count] = t
            probs[count] = state[G_SUPPLY + t] / total
            count += 1
    return count


@njit
def sample_chance(state, rng):
    pick = rand_below(rng, supply_size(state))
    for t in range(NUM_TYPES):
        pick -= state[G_SUPPLY + t]
        if pick < 0:
            return t
    return NUM_TYPES - 1


@njit
def next_empty_space(state):
    """The first empty space in ascending board number (index into G_WAREHOUSE), or -1."""
    for i in range(NUM_CITIES):
        city = state[C_FILL + i]
        for j in range(state[C_SPACES + city]):
            if state[G_WAREHOUSE + MAX_SPACES * city + j] < 0:
                return MAX_SPACES * city + j
    return -1


@njit
def apply_chance(state, code):
    """Put one token of type ``code`` on the next empty space."""
    state[G_WAREHOUSE + next_empty_space(state)] = code
    state[G_SUPPLY + code] -= 1
    if state[H_PHASE] != PH_DEAL:
        # HS-10.1: the first token ever taken from stack 5 triggers the end.
        if state[G_DRAWS] >= state[G_STACK_END + 3]:
            state[G_END_TRIGGERED] = 1
        state[G_DRAWS] += 1
    if next_empty_space(state) >= 0 and supply_size(state) > 0:
        return                                              # keep drawing (HS-7.3)
    if state[H_PHASE] == PH_DEAL:
        start_placement(state)
    else:
        state[H_PHASE] = PH_ACTIONS
        state[H_TO_MOVE] = state[G_ACTIVE]


@njit
def start_placement(state):
    state[G_INIT_STEP] = 0
    state[H_PHASE] = PH_INIT_PLACE
    state[G_ACTIVE] = placement_seat(state, 0)
    state[H_TO_MOVE] = state[G_ACTIVE]


@njit
def placement_seat(state, step):
    """HS-4.4 / A-2: the seat making initial placement number ``step`` (0-based)."""
    n = state[H_NUM_PLAYERS]
    start = state[G_START_SEAT]
    if step < n:
        return (start + step) % n                           # round 1 clockwise
    k = step - n
    if state[C_INIT_ORDER] == 0:                            # reverse_rounds
        back = k % n
    else:                                                   # reverse_pairs
        back = k // 2
    return (start - 1 - back + 2 * n) % n


@njit
def resolve_chance(state, rng):
    while state[H_TO_MOVE] == CHANCE:
        apply_chance(state, sample_chance(state, rng))
