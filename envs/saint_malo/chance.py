"""Saint Malo's chance events as kernels: the dice (PR-2), exact and sampled."""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from .city import popcount
from .data import (
    G_ACTIVE,
    G_DICE,
    G_ROLL_MASK,
    G_ROLLS_USED,
    MAX_ROLLS,
    NUM_DICE,
    PH_ROLL_DECISION,
    PH_SCORE,
)
from .dice import decode_counts, roll_outcomes, sample_roll


@njit
def chance_outcomes(state, codes, probs):
    if state[H_TO_MOVE] != CHANCE:
        return 0
    return roll_outcomes(popcount(state[G_ROLL_MASK]), codes, probs)


@njit
def sample_chance(state, rng):
    return sample_roll(popcount(state[G_ROLL_MASK]), rng)


@njit
def sort_dice(state):
    """Insertion sort of the five dice in place (no allocation on the hot path)."""
    for i in range(G_DICE + 1, G_DICE + NUM_DICE):
        face = state[i]
        j = i - 1
        while j >= G_DICE and state[j] > face:
            state[j + 1] = state[j]
            j -= 1
        state[j + 1] = face


@njit
def apply_chance(state, code):
    """Give the re-rolled dice the faces of the multiset ``code``; keep dice sorted."""
    counts = np.zeros(6, dtype=np.int64)
    decode_counts(code, counts)
    face = 0
    for die in range(NUM_DICE):
        if (state[G_ROLL_MASK] >> die) & 1:
            while counts[face] == 0:
                face += 1
            state[G_DICE + die] = face
            counts[face] -= 1
    sort_dice(state)
    state[G_ROLLS_USED] += 1
    state[G_ROLL_MASK] = 0
    # SM-5.6: after the third roll the faces are final.
    state[H_PHASE] = PH_SCORE if state[G_ROLLS_USED] == MAX_ROLLS else PH_ROLL_DECISION
    state[H_TO_MOVE] = state[G_ACTIVE]


@njit
def resolve_chance(state, rng):
    while state[H_TO_MOVE] == CHANCE:
        apply_chance(state, sample_chance(state, rng))
