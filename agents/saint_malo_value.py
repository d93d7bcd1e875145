"""A compiled leaf evaluation for Saint Malo MCTS: the greedy agent's position value.

``heuristic_value(state, weights, out)`` (the search's leaf hook; no ``weights``) writes
one zero-sum value per seat in [-1, 1]: each seat's static evaluation (its score margin
over the best opponent plus the potential of its city, see
``saint_malo_greedy.static_eval``) squashed by ``tanh(margin / SCALE)`` and centred; at
the end of the game the exact win/loss values. MCTS with this as its leaf value
(``mcts:N,leaf=heuristic``) searches on top of the greedy agent's judgement instead of
random rollouts."""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.core.rng import seed_rng
from meeplezoo.envs.saint_malo import rules
from meeplezoo.envs.saint_malo.data import A_STOP_ROLLING, G_ACTIVE, NUM_ACTIONS, PH_ROLL_DECISION
from meeplezoo.envs.saint_malo.masks import legal_mask
from meeplezoo.envs.saint_malo.policy import rollout_policy
from meeplezoo.envs.saint_malo.rules import apply_action

from .saint_malo_greedy import context, static_eval

SCALE = 15.0          # VP of margin that counts as a clear lead


@njit
def finish_turn(state):
    """A copy of ``state`` with the active player's turn played out cheaply.

    Mid-turn positions (dice not yet scored, crates not yet placed) are what a static
    evaluation misjudges most, so the turn is finished first: keep the dice, score the
    option with the best rough value, place with the fast rollout policy.
    """
    out = state.copy()
    active = out[G_ACTIVE]
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    rng = np.ones(2, dtype=np.uint64)
    seed_rng(rng, out[H_PLY])
    while out[H_TO_MOVE] == active:
        if out[H_PHASE] == PH_ROLL_DECISION:
            apply_action(out, A_STOP_ROLLING)
            continue
        legal_mask(out, mask)
        apply_action(out, rollout_policy(out, mask, rng))
    return out


@njit
def heuristic_value(state, weights, out):
    players = state[H_NUM_PLAYERS]
    if state[H_TO_MOVE] == TERMINAL:
        scores = np.zeros(players, dtype=np.int64)
        ties = np.zeros(players, dtype=np.int64)
        rules.scores(state, scores)
        rules.tiebreaks(state, ties)
        final_rewards(scores, ties, players, 0, 1.0, out)
        return
    finished = finish_turn(state)
    mean = 0.0
    for seat in range(players):
        out[seat] = math.tanh(static_eval(finished, seat, context(finished, seat)) / SCALE)
        mean += out[seat]
    mean /= players
    for seat in range(players):
        out[seat] -= mean
