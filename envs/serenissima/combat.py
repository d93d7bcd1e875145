"""Exact combat outcome distributions from the dice (SE-6.6, spec §16 item 5).

``battle_distribution(v0, moved, attacker, defender, fort_first, out)`` writes into
``out[a, d]`` the probability that a battle between a galley with ``attacker`` sailors
(combat value capped at ``v0``, SE-6.6.2; ``v0 = NO_V0`` for the activation's first
battle: then ``v0 = sailors - moved``, counted after a fort's pre-roll) and a defender
with ``defender`` sailors (a galley or a port: its value is its sailors) ends with ``a``
attacker and ``d`` defender sailors left, when the attacker always continues.  Each
round both sides roll at once (Binomial(value, 1/2) skulls, E3); a round without any
skull repeats the same position, so each position's distribution is its successors'
mixed by ``1 / (1 - P(no skull))``.  ``fort_first`` prepends a fort's 2-dice pre-roll
(SE-6.7.4).
"""

from __future__ import annotations

import numpy as np

from ..core.jit import njit
from .chance import BINOMIAL
from .data import FORT_DICE, MAX_SIZE, NO_V0

SIDE = MAX_SIZE + 1


@njit
def battle_table(v0, table):
    """table[a, d, a2, d2]: outcome distributions from every position (a, d)."""
    table[:] = 0.0
    for total in range(0, 2 * MAX_SIZE + 1):
        for a in range(SIDE):
            d = total - a
            if d < 0 or d >= SIDE:
                continue
            if a == 0 or d == 0:
                table[a, d, a, d] = 1.0
                continue
            va = max(0, min(v0, a))
            stay = BINOMIAL[va, 0] * BINOMIAL[d, 0]
            for x in range(va + 1):
                for y in range(d + 1):
                    if x == 0 and y == 0:
                        continue
                    p = BINOMIAL[va, x] * BINOMIAL[d, y] / (1.0 - stay)
                    na, nd = a - min(y, a), d - min(x, d)
                    for a2 in range(SIDE):
                        for d2 in range(SIDE):
                            table[a, d, a2, d2] += p * table[na, nd, a2, d2]


@njit
def battle_distribution(v0, moved, attacker, defender, fort_first, out):
    table = np.zeros((SIDE, SIDE, SIDE, SIDE), dtype=np.float64)
    out[:] = 0.0
    if not fort_first:
        battle_table(attacker - moved if v0 == NO_V0 else v0, table)
        out[:, :] = table[attacker, defender]
        return
    for hits in range(FORT_DICE + 1):
        left = attacker - min(hits, attacker)
        p = BINOMIAL[FORT_DICE, hits]
        if left == 0:
            out[0, defender] += p
            continue
        # SE-6.6.2: a first battle's value is fixed after the fort's hits.
        battle_table(left - moved if v0 == NO_V0 else v0, table)
        out[:, :] += p * table[left, defender]
