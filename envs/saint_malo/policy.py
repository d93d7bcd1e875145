"""A fast heuristic policy for MCTS rollouts (``rollout="heuristic"``).

Much cheaper than the greedy agent (no look-ahead): keep the most common useful face,
score the option with the best rough value, place at random, always build houses.  The
values are rough VP equivalents (2 coins ~ 1 VP); they only need to beat random play.
"""

from __future__ import annotations

import numpy as np

from ..core.batch import pick_random_legal
from ..core.contract import H_PHASE
from ..core.jit import njit
from ..core.rng import rand_float
from .data import (
    A_CHARACTER,
    A_LOG,
    A_PASS,
    A_PLACE,
    A_STOP_HOUSES,
    A_STOP_ROLLING,
    ARCHITECT,
    CITIZEN,
    G_ACTIVE,
    G_DICE,
    HEAD,
    MERCHANT,
    NUM_DICE,
    P_LOGS,
    PH_BONUS_CHOICE,
    PH_HOUSES,
    PH_ROLL_DECISION,
    PH_SCORE,
    PLAYER_SIZE,
    PLAYERS_BASE,
)

# Rough value of a character (citizen .. noble); the architect's is its houses.
CHARACTER_VALUE = np.array([1.0, 1.5, 1.5, 0.0, 2.5, 5.0, 7.0])
# Rough value per die used, by face (sword unused), and a per-option constant.
PER_DIE = np.array([0.0, 0.9, 0.6, 0.8, 1.2, 0.0])
OPTION_BASE = np.array([0.0, -1.0, 0.0, 0.0, 0.5, 0.0])


@njit
def rollout_policy(state, mask, rng):
    phase = state[H_PHASE]
    if phase == PH_ROLL_DECISION:
        return keep_best_face(state, mask)
    if phase == PH_SCORE:
        return best_scoring_option(state, mask, rng)
    if phase == PH_HOUSES:
        mask[A_STOP_HOUSES] = 0                      # a house is always worth 3 VP
        has_cell = False
        for action in range(A_PLACE, A_STOP_HOUSES):
            has_cell = has_cell or mask[action] == 1
        mask[A_STOP_HOUSES] = 0 if has_cell else 1
        return pick_random_legal(mask, rng)
    if phase == PH_BONUS_CHOICE:
        logs = state[PLAYERS_BASE + state[G_ACTIVE] * PLAYER_SIZE + P_LOGS]
        choice = A_CHARACTER + (ARCHITECT if logs >= 2 else MERCHANT) - CITIZEN
        if mask[choice]:
            return choice
        # A lower-level reward (tower_rewards ("character", k < 3)): the best level offered.
        for action in range(A_CHARACTER + 6, A_CHARACTER - 1, -1):
            if mask[action]:
                return action
    return pick_random_legal(mask, rng)


@njit
def keep_best_face(state, mask):
    counts = np.zeros(6, dtype=np.int64)
    for die in range(NUM_DICE):
        counts[state[G_DICE + die]] += 1
    target = HEAD
    for face in range(1, 6):
        if counts[face] > counts[target]:
            target = face
    if counts[target] >= 4:
        return A_STOP_ROLLING
    reroll = 0
    for die in range(NUM_DICE):
        if state[G_DICE + die] != target:
            reroll |= 1 << die
    if reroll == 0 or not mask[reroll]:
        return A_STOP_ROLLING
    return reroll


@njit
def best_scoring_option(state, mask, rng):
    best, _ = best_option(state, mask, rng, 0.01)
    return best


@njit
def best_option(state, mask, rng, jitter):
    """The scoring option with the best rough value (and that value, PASS = 0)."""
    counts = np.zeros(6, dtype=np.int64)
    for die in range(NUM_DICE):
        counts[state[G_DICE + die]] += 1
    logs = state[PLAYERS_BASE + state[G_ACTIVE] * PLAYER_SIZE + P_LOGS]
    best, best_value = A_PASS, 0.0
    for action in range(A_LOG, A_PLACE):
        if not mask[action]:
            continue
        if action >= A_CHARACTER:
            kind = action - A_CHARACTER
            level = (1, 2, 2, 3, 3, 4, 5)[kind]
            value = CHARACTER_VALUE[kind] - max(0, level - counts[HEAD])
            if kind == ARCHITECT - CITIZEN:
                value += 3.0 * min(3, logs)
        else:
            face = 1 + (action - A_LOG) // 5
            k = (action - A_LOG) % 5 + 1
            value = PER_DIE[face] * k + OPTION_BASE[face] - max(0, k - counts[face])
        if jitter > 0.0:
            value += jitter * rand_float(rng)           # random tie-break
        if value > best_value:
            best, best_value = action, value
    return best, best_value
