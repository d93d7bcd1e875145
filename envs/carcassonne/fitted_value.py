"""A leaf value learnt from game results over the expected-completion leaf's own terms.

``policy.heuristic_value`` adds hand-set amounts: an open city or road counts as
completed with chance ``0.7 ** open ports``, a meeple in hand is worth 1.5 points early
and nothing late, a farm is worth its points now.  Here the same quantities are kept
apart, one column per kind (``TERMS``), and their weights are fitted to who won
(``training/value/fit.py``: logistic regression on positions of self-play games, the
open-feature decays and the time horizon chosen on held-out games).  The fitted weights
reach the compiled search as the leaf hook's ``weights`` (``agents/mcts/uct.py`` params
[13:]), so one compiled search serves every fit:

    weights = [city_decay, road_decay, reach, w_0 ... w_11]

A seat's total is ``sum_k w_k * term_k``; the value of each seat is ``tanh((own total -
best rival's) / 2)``, centred to zero sum (``core.rewards.fitted_margins``): at two seats
that is ``2 * sigmoid(w . (terms_me - terms_rival)) - 1``, the regression's win chance
as a value in [-1, 1].  Between placement and meeple the meeple decision is settled as greedy
would take it, and a finished game gets its exact result, as in ``heuristic_value``.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS
from ..core.jit import njit
from ..core.rewards import fitted_margins
from .board import occupied_around
from .data import (
    C_FARMERS,
    FIELD,
    G_LARGE,
    G_NORMAL,
    G_PILE_LEFT,
    G_PLACED,
    G_SCORE,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_TILES,
    MONASTERY,
    N_FIGURES,
    N_OPEN,
    N_ROOT,
    NUM_SLOTS,
    ROAD,
    SEG_KIND,
    T_CELL,
    T_TYPE,
)
from .features import completed_points, farm_points, incomplete_points, strengths
from .policy import final_result, leaf_position

# One column per quantity the hand-set leaf adds up (the seat's share where it holds the
# majority, CA-9.2); "early" is the share of the pile left, "soon" min(1, pile / reach).
TERMS = ("score",                       # running score (CA-13.2)
         "open_city_points",            # CA-12.1: what an open city pays now
         "open_city_gain",              # (completed - now) * soon * city_decay ** open ports
         "open_road_points",
         "open_road_gain",              # the same with road_decay
         "monastery_points",            # 1 + tiles around (CA-10.5)
         "monastery_room",              # (8 - tiles around) * soon
         "farm_points",                 # CA-12.2 as if the game ended now
         "farm_points_early",           # ... times early
         "meeples_in_hand_early",       # normal meeples in supply (up to 4) times early
         "large_meeple_early",          # the large meeple in supply times early
         "meeples_in_hand")             # normal meeples in supply (up to 4)
SHAPES = ("city_decay", "road_decay", "reach")
# The shapes tried by the fit (each a full regression; chosen on held-out games).
SHAPE_GRID = {"city_decay": (0.3, 0.4, 0.5, 0.6, 0.7), "road_decay": (0.3, 0.5, 0.7),
              "reach": (15.0, 20.0, 28.0)}


@njit
def seat_terms(state, shape, out):
    """``out[seat, k]``: term k of ``TERMS`` for every seat (``shape`` = city_decay,
    road_decay, reach).  The state as it stands: callers settle a pending meeple."""
    out[:] = 0.0
    power = np.zeros(MAX_PLAYERS, dtype=np.int64)
    soon = min(1.0, state[G_PILE_LEFT] / shape[2])
    early = state[G_PILE_LEFT] / MAX_TILES
    for index in range(state[G_PLACED]):
        tile_type = state[T_TYPE + index]
        for slot in range(NUM_SLOTS[tile_type]):
            node = index * MAX_SLOTS + slot
            if state[N_ROOT + node] != node or state[N_FIGURES + node] == 0:
                continue
            kind = SEG_KIND[tile_type, slot]
            if kind == FIELD:
                continue                 # farms: CA-12.2 over the whole board, below
            best = strengths(state, node, power)
            if kind == MONASTERY:
                near = occupied_around(state, state[T_CELL + index])
                now, gain, column = 1.0 + near, (8 - near) * soon, 5
            elif state[N_OPEN + node] > 0:
                points = incomplete_points(state, node, kind)
                done = completed_points(state, node, kind)
                decay = shape[1] if kind == ROAD else shape[0]
                now = float(points)
                gain = soon * decay ** state[N_OPEN + node] * (done - points)
                column = 3 if kind == ROAD else 1
            else:
                continue                 # completed: already in the score
            for seat in range(MAX_PLAYERS):
                if best > 0 and power[seat] == best:
                    out[seat, column] += now
                    out[seat, column + 1] += gain
    if state[C_FARMERS]:
        farms = np.zeros(MAX_PLAYERS, dtype=np.int64)
        farm_points(state, farms)
        for seat in range(MAX_PLAYERS):
            out[seat, 7] = farms[seat]
            out[seat, 8] = farms[seat] * early
    for seat in range(MAX_PLAYERS):
        out[seat, 0] = state[G_SCORE + seat]
        out[seat, 9] = min(state[G_NORMAL + seat], 4) * early
        out[seat, 10] = state[G_LARGE + seat] * early
        out[seat, 11] = min(state[G_NORMAL + seat], 4)


@njit
def position_terms(states, shape):
    """``[N, MAX_PLAYERS, len(TERMS)]``: each position's terms, a pending meeple settled
    first as the leaf does (the fit's design matrix)."""
    out = np.zeros((states.shape[0], MAX_PLAYERS, len(TERMS)))
    for row in range(states.shape[0]):
        seat_terms(leaf_position(states[row]), shape, out[row])
    return out


@njit
def fitted_value(state, weights, out):
    """MCTS leaf value (``leaf_value(state, weights, out)``, module docstring)."""
    state = leaf_position(state)
    if final_result(state, out):
        return
    terms = np.zeros((MAX_PLAYERS, len(TERMS)))
    seat_terms(state, weights[:3], terms)
    fitted_margins(terms, weights[3:], state[H_NUM_PLAYERS], out)
