"""A compiled leaf evaluation for Hansa Teutonica MCTS (``mcts:N,leaf=heuristic``).

``heuristic_value(state, weights, out)`` (the search's leaf hook; no ``weights``) first
plays the current turn out with the heuristic policy (a mid-turn position is what a
static value misjudges most), then writes one zero-sum value per seat in [-1, 1]: each
seat's score as if the game ended now (§10, categories A-F) plus a small credit for progress on
routes, as a margin over the best opponent squashed by ``tanh(margin / SCALE)`` and
centred; at the end of the game the exact win/loss values.  Uniform random rollouts almost
never finish a game of Hansa Teutonica (spec HT-9.5), so a leaf value (or the heuristic
rollout policy) is what makes search useful here.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rewards import final_rewards, squashed_margins
from meeplezoo.envs.core.rng import seed_rng
from meeplezoo.envs.hansa_teutonica.board import scores, tiebreaks
from meeplezoo.envs.hansa_teutonica.data import (
    G_ACTIVE,
    G_SIDE,
    G_SPACE_OWNER,
    NUM_ACTIONS,
    PH_MARKER_PLACE,
    ROUTE_LEN,
    ROUTE_START,
)
from meeplezoo.envs.hansa_teutonica.masks import legal_mask
from meeplezoo.envs.hansa_teutonica.policy import rollout_policy
from meeplezoo.envs.hansa_teutonica.rules import apply_action

SCALE = 12.0          # prestige points of margin that count as a clear lead
ROUTE_CREDIT = 0.6    # points per piece on a route the seat holds alone


@njit
def finish_turn(state):
    """A copy of ``state`` with the current turn played out by the heuristic policy (the
    off-turn compensation included), up to the end-of-turn marker draw."""
    out = state.copy()
    active = out[G_ACTIVE]
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    rng = np.ones(2, dtype=np.uint64)
    seed_rng(rng, out[H_PLY])
    for _ in range(200):
        if out[H_TO_MOVE] < 0 or out[G_ACTIVE] != active or out[H_PHASE] == PH_MARKER_PLACE:
            break
        legal_mask(out, mask)
        apply_action(out, rollout_policy(out, mask, rng))
    return out


@njit
def heuristic_value(state, weights, out):
    state = finish_turn(state)
    players = state[H_NUM_PLAYERS]
    totals = np.zeros(players, dtype=np.int64)
    scores(state, totals)
    if state[H_TO_MOVE] == TERMINAL:
        ties = np.zeros(players, dtype=np.int64)
        tiebreaks(state, ties)
        final_rewards(totals, ties, players, 0, 1.0, out)
        return
    value = totals.astype(np.float64)
    routes = 32 if state[G_SIDE] == 0 else 34
    for r in range(routes):
        owner = -2
        for s in range(ROUTE_START[r], ROUTE_START[r] + ROUTE_LEN[r]):
            o = state[G_SPACE_OWNER + s]
            if o >= 0:
                owner = o if owner == -2 or owner == o else -1
        if owner >= 0:
            count = 0
            for s in range(ROUTE_START[r], ROUTE_START[r] + ROUTE_LEN[r]):
                count += state[G_SPACE_OWNER + s] == owner
            value[owner] += ROUTE_CREDIT * count * count / ROUTE_LEN[r]
    squashed_margins(value, players, SCALE, out)
