"""Final rewards from final scores, shared by every game (DESIGN: "returns / scores").

Players are ordered by (score, tiebreak), both higher-is-better; players equal on both
share their place.  Every scheme is zero-sum:

* ``win_loss`` (default): each of the W winners gets ``(P/W - 1)/(P - 1)``, everyone else
  ``-1/(P - 1)``; with two players that is +1 / -1, and 0 / 0 for a shared win.
* ``rank``: ``1 - 2 * rank/(P - 1)`` with tied players taking the mean of their ranks
  (first +1, last -1).
* ``score_margin``: ``(score - mean score) / margin_scale``.
"""

from __future__ import annotations

import math

import numpy as np

from .jit import njit

REWARD_SCHEMES = ("win_loss", "rank", "score_margin")


@njit
def places(scores, tiebreaks, num_players, out):
    """out[i] = number of players strictly ahead of player i (0 = a winner)."""
    for i in range(num_players):
        ahead = 0
        for j in range(num_players):
            if scores[j] > scores[i] or (scores[j] == scores[i] and tiebreaks[j] > tiebreaks[i]):
                ahead += 1
        out[i] = ahead


@njit
def final_rewards(scores, tiebreaks, num_players, scheme, margin_scale, out):
    ahead = np.zeros(num_players, dtype=np.int64)
    places(scores, tiebreaks, num_players, ahead)
    if num_players == 1:
        out[0] = 0.0
        return
    if scheme == 0:
        winners = 0
        for i in range(num_players):
            winners += ahead[i] == 0
        for i in range(num_players):
            if ahead[i] == 0:
                out[i] = (num_players / winners - 1.0) / (num_players - 1.0)
            else:
                out[i] = -1.0 / (num_players - 1.0)
    elif scheme == 1:
        for i in range(num_players):
            tied = 0
            for j in range(num_players):
                tied += ahead[j] == ahead[i]
            mean_rank = ahead[i] + (tied - 1) / 2.0
            out[i] = 1.0 - 2.0 * mean_rank / (num_players - 1.0)
    else:
        mean = 0.0
        for i in range(num_players):
            mean += scores[i]
        mean /= num_players
        for i in range(num_players):
            out[i] = (scores[i] - mean) / margin_scale


def scheme_code(name: str) -> int:
    if name not in REWARD_SCHEMES:
        raise ValueError(f"unknown reward scheme {name!r}; choose one of {REWARD_SCHEMES}")
    return REWARD_SCHEMES.index(name)


@njit
def squashed_margins(totals, num_players, scale, out):
    """A heuristic leaf value from per-seat totals (MCTS ``leaf_value``): each seat's
    ``tanh((own - best rival) / scale)``, then centred so the seats sum to zero."""
    mean = 0.0
    for seat in range(num_players):
        best_other = -np.inf
        for other in range(num_players):
            if other != seat and totals[other] > best_other:
                best_other = totals[other]
        out[seat] = math.tanh((totals[seat] - best_other) / scale)
        mean += out[seat]
    mean /= num_players
    for seat in range(num_players):
        out[seat] -= mean


@njit
def fitted_margins(terms, weights, num_players, out):
    """A fitted leaf value (``training/value/fit.py``) from per-seat ``terms`` [seats, K]:
    each seat's total ``weights . terms[seat]``, then :func:`squashed_margins` at scale 2,
    so that at two seats a seat's value is ``2 * sigmoid(w . (own - rival's terms)) - 1``,
    the logistic regression's win chance as a value in [-1, 1]."""
    totals = np.zeros(num_players)
    for seat in range(num_players):
        for k in range(terms.shape[1]):
            totals[seat] += weights[k] * terms[seat, k]
    squashed_margins(totals, num_players, 2.0, out)
