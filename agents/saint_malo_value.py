"""A compiled leaf evaluation for Saint Malo MCTS: the greedy agent's position value.

``heuristic_value(state, out)`` writes one zero-sum value per seat in [-1, 1]: each seat's
static evaluation (its score margin over the best opponent plus the potential of its
city, see ``saint_malo_greedy.static_eval``) squashed by ``tanh(margin / SCALE)`` and
centred; at the end of the game the exact win/loss values.  MCTS with this as its leaf
value (``mcts:N,leaf=heuristic``) searches on top of the greedy agent's judgement
instead of random rollouts.
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.saint_malo import rules

from .saint_malo_greedy import context, static_eval

SCALE = 15.0          # VP of margin that counts as a clear lead


@njit
def heuristic_value(state, out):
    players = state[H_NUM_PLAYERS]
    if state[H_TO_MOVE] == TERMINAL:
        scores = np.zeros(players, dtype=np.int64)
        ties = np.zeros(players, dtype=np.int64)
        rules.scores(state, scores)
        rules.tiebreaks(state, ties)
        final_rewards(scores, ties, players, 0, 1.0, out)
        return
    mean = 0.0
    for seat in range(players):
        out[seat] = math.tanh(static_eval(state, seat, context(state, seat)) / SCALE)
        mean += out[seat]
    mean /= players
    for seat in range(players):
        out[seat] -= mean
