"""Serenissima's chance events, exact and sampled (spec §15.3).

* closing a port (2/3 players, SE-12.3.3): uniform over the candidates;
* a Doge card (SE-8): uniform over the cards left in the draw pile, whose composition is
  public (SE-8.7), so the state keeps counts per card kind, never a hidden order;
* a fort's pre-roll (SE-6.7.4): skulls of 2 dice, Binomial(2, 1/2);
* a battle round (SE-6.6.3): outcome code ``6 * attacker_skulls + defender_skulls`` with
  probability ``Bin(a, 1/2) * Bin(d, 1/2)`` (each die has 3 skull faces of 6, E3).
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_TO_MOVE
from ..core.jit import njit
from ..core.rng import next_u64, rand_below
from .board import popcount
from .data import (
    CK_BATTLE,
    CK_CLOSE,
    CK_DOGE,
    CK_FORT,
    FORT_DICE,
    G_ATT_DICE,
    G_CHANCE_KIND,
    G_CLOSE_STEP,
    G_DEF_DICE,
    G_PILE,
    NUM_ACTIONS,
)
from .masks import close_candidates


# BINOMIAL[n, k] = P(k skulls on n dice) = C(n, k) / 2^n, n = 0..5
def _binomial_table() -> np.ndarray:
    from math import comb

    table = np.zeros((6, 6), dtype=np.float64)
    for n in range(6):
        for k in range(n + 1):
            table[n, k] = comb(n, k) / 2.0 ** n
    return table


BINOMIAL = _binomial_table()


@njit
def chance_outcomes(state, codes, probs):
    if state[H_TO_MOVE] != CHANCE:
        return 0
    kind = state[G_CHANCE_KIND]
    count = 0
    if kind == CK_BATTLE:
        a, d = state[G_ATT_DICE], state[G_DEF_DICE]
        for x in range(a + 1):
            for y in range(d + 1):
                codes[count] = 6 * x + y
                probs[count] = BINOMIAL[a, x] * BINOMIAL[d, y]
                count += 1
    elif kind == CK_FORT:
        for x in range(FORT_DICE + 1):
            codes[count] = x
            probs[count] = BINOMIAL[FORT_DICE, x]
            count += 1
    elif kind == CK_DOGE:
        total = 0
        for c in range(4):
            total += state[G_PILE + c]
        for c in range(4):
            if state[G_PILE + c] > 0:
                codes[count] = c
                probs[count] = state[G_PILE + c] / total
                count += 1
    elif kind == CK_CLOSE:
        flags = np.zeros(NUM_ACTIONS, dtype=np.int8)
        n = close_candidates(state, state[G_CLOSE_STEP], flags, 0)
        for p in range(flags.shape[0]):
            if flags[p]:
                codes[count] = p
                probs[count] = 1.0 / n
                count += 1
    return count


@njit
def skulls(rng, dice):
    """Skulls on ``dice`` fair dice (3 of 6 faces): popcount of ``dice`` random bits."""
    if dice <= 0:
        return 0
    return popcount(np.int64(next_u64(rng) >> np.uint64(64 - dice)))


@njit
def sample_chance(state, rng):
    kind = state[G_CHANCE_KIND]
    if kind == CK_BATTLE:
        return 6 * skulls(rng, state[G_ATT_DICE]) + skulls(rng, state[G_DEF_DICE])
    if kind == CK_FORT:
        return skulls(rng, FORT_DICE)
    if kind == CK_DOGE:
        total = 0
        for c in range(4):
            total += state[G_PILE + c]
        pick = rand_below(rng, total)
        for c in range(4):
            if pick < state[G_PILE + c]:
                return c
            pick -= state[G_PILE + c]
        return 0
    flags = np.zeros(NUM_ACTIONS, dtype=np.int8)
    n = close_candidates(state, state[G_CLOSE_STEP], flags, 0)
    pick = rand_below(rng, n)
    for p in range(flags.shape[0]):
        if flags[p]:
            if pick == 0:
                return p
            pick -= 1
    return -1
