"""Compiled invariant checks for random-game tests (HT-4.5, HT-1.4, WE-42).

``check_invariants(state)`` returns 0 when the state is consistent, else a code saying
what broke (see ``ERRORS``); ``checked_random_games`` plays uniformly random games entirely
in compiled code and checks after every step, recording each game's length.
"""

from __future__ import annotations

import numpy as np

from ..core.batch import pick_random_legal
from ..core.contract import H_NUM_PLAYERS, H_TO_MOVE, TERMINAL
from ..core.jit import njit
from ..core.rng import rand_float
from .board import player_base
from .chance import env_reset, env_step
from .data import (
    CITY_NOFF,
    G_ACTIVE,
    G_COELLEN,
    G_COMP_HAND,
    G_COMPLETED,
    G_DISP_PENDING,
    G_DISP_VICTIM,
    G_EXTRA_N,
    G_EXTRA_OWNER,
    G_EXTRA_TYPE,
    G_HAND,
    G_MARKERS_LOST,
    G_OFFICE_OWNER,
    G_OFFICE_TYPE,
    G_PLATE,
    G_REVEALED,
    G_ROUTE_MARKER,
    G_SIDE,
    G_SPACE_OWNER,
    G_SPACE_TYPE,
    G_SUPPLY,
    G_TRUNCATED,
    MARKER_TOTAL,
    MAX_EXTRA,
    MAX_OFFICES,
    MERCHANTS_PER_PLAYER,
    NUM_CITIES,
    NUM_MARKER_KINDS,
    NUM_ROUTES,
    NUM_SPACES,
    P_GENERAL,
    P_PERSONAL,
    P_TRACK,
    P_UNUSED,
    P_USED,
    TRACK_MAX,
    TRADERS_PER_PLAYER,
)
from .policy import rollout_policy

ERRORS = ("ok", "trader count", "merchant count", "negative supply", "marker count",
          "completed count", "no legal move")


@njit
def pieces_of(state, seat, out):
    """out = (traders, merchants) of ``seat`` anywhere (HT-4.5), score cube included."""
    base = player_base(seat)
    out[0] = 1 + state[base + P_PERSONAL] + state[base + P_GENERAL]
    out[1] = state[base + P_PERSONAL + 1] + state[base + P_GENERAL + 1]
    for t in (0, 1, 2, 4):
        out[0] += TRACK_MAX[t] - state[base + P_TRACK + t]
    out[1] += TRACK_MAX[3] - state[base + P_TRACK + 3]
    for s in range(NUM_SPACES):
        if state[G_SPACE_OWNER + s] == seat:
            out[state[G_SPACE_TYPE + s]] += 1
    for o in range(NUM_CITIES * MAX_OFFICES):
        if state[G_OFFICE_OWNER + o] == seat:
            out[state[G_OFFICE_TYPE + o]] += 1
    for o in range(NUM_CITIES * MAX_EXTRA):
        if state[G_EXTRA_OWNER + o] == seat:
            out[state[G_EXTRA_TYPE + o]] += 1
    for j in range(4):
        out[1] += state[G_COELLEN + j] == seat
    if state[G_ACTIVE] == seat:
        out[0] += state[G_HAND]
        out[1] += state[G_HAND + 1]
    if state[G_DISP_VICTIM] == seat:
        if state[G_DISP_PENDING] >= 0:
            out[state[G_DISP_PENDING]] += 1
        if state[G_COMP_HAND] >= 0:
            out[state[G_COMP_HAND]] += 1


@njit
def check_invariants(state):
    counts = np.zeros(2, dtype=np.int64)
    markers = state[G_MARKERS_LOST] + (1 if state[G_REVEALED] >= 0 else 0)
    for seat in range(state[H_NUM_PLAYERS]):
        pieces_of(state, seat, counts)
        if counts[0] != TRADERS_PER_PLAYER:
            return 1
        if counts[1] != MERCHANTS_PER_PLAYER:
            return 2
        base = player_base(seat)
        for slot in range(P_PERSONAL, P_GENERAL + 2):
            if state[base + slot] < 0:
                return 3
        markers += state[base + P_USED]
        for k in range(NUM_MARKER_KINDS):
            markers += state[base + P_UNUSED + k]
    supply = 0
    for k in range(NUM_MARKER_KINDS):
        supply += state[G_SUPPLY + k]
    for r in range(NUM_ROUTES):
        markers += state[G_ROUTE_MARKER + r] >= 0
    if markers + supply != MARKER_TOTAL or state[G_PLATE] > supply:
        return 4
    full = 0
    for city in range(NUM_CITIES):
        n = CITY_NOFF[state[G_SIDE], city]
        if state[G_OFFICE_OWNER + city * MAX_OFFICES + n - 1] >= 0:
            full += 1
        if state[G_EXTRA_N + city] > 0 and state[G_OFFICE_OWNER + city * MAX_OFFICES] < 0:
            return 5
    if full != state[G_COMPLETED]:
        return 5
    return 0


@njit
def checked_random_games(num_games, num_players, config, rng, state, mask, lengths, truncated):
    """Play random games, checking every step; returns the first error code (0 = none)."""
    for game in range(num_games):
        env_reset(state, num_players, config, game % num_players, rng, mask)
        steps = 0
        while state[H_TO_MOVE] != TERMINAL:
            action = pick_random_legal(mask, rng)
            if action < 0:
                return 6
            env_step(state, action, rng, mask)
            steps += 1
            code = check_invariants(state)
            if code != 0:
                return code
        lengths[game] = steps
        truncated[game] = state[G_TRUNCATED]
    return 0


@njit
def checked_policy_games(num_games, num_players, config, rng, state, mask, epsilon, lengths,
                         truncated):
    """Like ``checked_random_games`` with the heuristic policy, taking a uniformly random
    legal action with probability ``epsilon`` (so every kind of move gets exercised)."""
    scratch = np.zeros(mask.shape[0], dtype=np.int8)
    for game in range(num_games):
        env_reset(state, num_players, config, game % num_players, rng, mask)
        steps = 0
        while state[H_TO_MOVE] != TERMINAL:
            if rand_float(rng) < epsilon:
                action = pick_random_legal(mask, rng)
            else:
                scratch[:] = mask
                action = rollout_policy(state, scratch, rng)
            if action < 0 or mask[action] == 0:
                return 6
            env_step(state, action, rng, mask)
            steps += 1
            code = check_invariants(state)
            if code != 0:
                return code
        lengths[game] = steps
        truncated[game] = state[G_TRUNCATED]
    return 0
