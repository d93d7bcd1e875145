"""The compiled values of every legal decision for the greedy Hansa agent."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_PHASE, H_TO_MOVE
from ...envs.core.jit import njit
from ...envs.hansa.data import (
    A_END,
    A_SELL_COMMIT,
    A_SELL_MARK,
    NUM_ACTIONS,
    PH_ACTIONS,
    PH_SELL,
)
from ...envs.hansa.masks import legal_mask
from ...envs.hansa.policy import position_value
from ...envs.hansa.rules import apply_action

NEG = -1e9


@njit
def apply_macro(state, action, mask):
    """Apply ``action``; a sale mark goes on to mark everything sellable and commit."""
    apply_action(state, action)
    while state[H_PHASE] == PH_SELL:
        legal_mask(state, mask)
        chosen = A_SELL_COMMIT
        for t in range(17, -1, -1):
            if mask[A_SELL_MARK + t]:
                chosen = A_SELL_MARK + t
                break
        apply_action(state, chosen)


@njit
def action_values(state, mask, out):
    """out[a] = value of legal action a (NEG elsewhere) for the seat to move."""
    seat = state[H_TO_MOVE]
    first = state.copy()
    second = state.copy()
    inner = np.zeros(NUM_ACTIONS, dtype=np.int8)
    scratch = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in range(NUM_ACTIONS):
        out[action] = NEG
        if not mask[action]:
            continue
        first[:] = state
        apply_macro(first, action, scratch)
        value = position_value(first, seat)
        if action != A_END and first[H_TO_MOVE] == seat and first[H_PHASE] == PH_ACTIONS:
            # The best single follow-up in this turn (ending it included).
            legal_mask(first, inner)
            best = NEG
            for follow in range(NUM_ACTIONS):
                if inner[follow]:
                    second[:] = first
                    apply_macro(second, follow, scratch)
                    follow_value = position_value(second, seat)
                    if follow_value > best:
                        best = follow_value
            value = best
        out[action] = value
