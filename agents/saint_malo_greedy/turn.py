"""Finishing a turn greedily, and the value of every turn decision."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_PHASE, H_TO_MOVE
from ...envs.core.jit import njit
from ...envs.saint_malo.data import (
    A_CHARACTER,
    A_STOP_HOUSES,
    CITIZEN,
    G_PENDING_CODE,
    NUM_ACTIONS,
    PH_BONUS_CHOICE,
    PH_HOUSES,
    PH_PLACE,
)
from ...envs.saint_malo.masks import legal_mask
from ...envs.saint_malo.rules import apply_action
from .evaluation import NEG, context, static_eval

# --- greedy continuation within a turn -----------------------------------------------------

@njit
def _own_decision(state, seat):
    phase = state[H_PHASE]
    return state[H_TO_MOVE] == seat and (
        phase == PH_PLACE or phase == PH_HOUSES or phase == PH_BONUS_CHOICE
    )


@njit
def _greedy_houses(state, seat, ctx, mask):
    """Build houses greedily (one static-best follow-up at a time) until the phase ends."""
    while state[H_TO_MOVE] == seat and state[H_PHASE] == PH_HOUSES:
        legal_mask(state, mask)
        best_action = A_STOP_HOUSES
        best = NEG
        for action in range(NUM_ACTIONS):
            if mask[action]:
                child = state.copy()
                apply_action(child, action)
                value = static_eval(child, seat, ctx)
                if value > best:
                    best = value
                    best_action = action
        apply_action(state, best_action)


@njit
def _character_value(state, seat, ctx, mask):
    """State placing a character: the best cell, an architect's cell with its houses."""
    legal_mask(state, mask)
    cells = mask.copy()
    best = NEG
    for action in range(NUM_ACTIONS):
        if cells[action]:
            child = state.copy()
            apply_action(child, action)
            if child[H_TO_MOVE] == seat and child[H_PHASE] == PH_HOUSES:
                _greedy_houses(child, seat, ctx, mask)
            best = max(best, static_eval(child, seat, ctx))
    return best


@njit
def _step_value(state, seat, ctx, mask):
    """Value of a state reached by one follow-up, looking through character placements."""
    if not _own_decision(state, seat):
        return static_eval(state, seat, ctx)
    phase = state[H_PHASE]
    if phase == PH_HOUSES:
        child = state.copy()
        _greedy_houses(child, seat, ctx, mask)
        return static_eval(child, seat, ctx)
    if phase == PH_PLACE and state[G_PENDING_CODE] >= CITIZEN:
        return _character_value(state, seat, ctx, mask)
    if phase == PH_BONUS_CHOICE:
        # Only the characters the reward's level offers (SM-7.3.2): read them off the mask.
        legal_mask(state, mask)
        offered = mask[A_CHARACTER:A_CHARACTER + 5].copy()
        best = NEG
        for kind in range(5):
            if not offered[kind]:
                continue
            child = state.copy()
            apply_action(child, A_CHARACTER + kind)
            best = max(best, _character_value(child, seat, ctx, mask))
        return best
    return static_eval(state, seat, ctx)


@njit
def rollout(state, seat, ctx, mask):
    """Finish the turn's action greedily in place; return the evaluation at the end."""
    while _own_decision(state, seat):
        legal_mask(state, mask)
        legal = mask.copy()
        best = NEG
        best_action = -1
        for action in range(NUM_ACTIONS):
            if not legal[action]:
                continue
            child = state.copy()
            apply_action(child, action)
            value = _step_value(child, seat, ctx, mask)
            if best_action < 0 or value > best:
                best = value
                best_action = action
        apply_action(state, best_action)
    return static_eval(state, seat, ctx)


@njit
def action_values(state, mask_in):
    """Value of every legal action of a turn decision (NEG for illegal ones)."""
    seat = state[H_TO_MOVE]
    ctx = context(state, seat)
    out = np.full(NUM_ACTIONS, NEG)
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in range(NUM_ACTIONS):
        if mask_in[action]:
            child = state.copy()
            apply_action(child, action)
            out[action] = rollout(child, seat, ctx, mask)
    return out
