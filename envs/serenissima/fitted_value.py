"""A leaf value learnt from game results: what a seat holds, weighted by a fit.

Serenissima's search values a leaf by rolling it out 60 decisions with the heuristic
policy (``agents/registry.py``).  This leaf is static: per seat a handful of counts that
decide the game (SE-1.2: ducats now; the ports that score at each of the three scorings,
SE-9.1; Wine income, SE-8.3; the fleet, sailors and cargo that win sales and ports
later), weighted by ``training/value/fit.py`` (logistic regression of who won on the
difference between the seat to move and its rival).  It costs a few microseconds where a
rollout costs tens, so a search can afford many more simulations in the same time.

    weights = [w_0 ... w_13]          (one per ``TERMS``; no shape parameters)

Each seat's value is ``tanh((own total - best rival's) / 2)``, centred to zero sum
(``core.rewards.fitted_margins``); a finished game gets its exact result.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_TO_MOVE, TERMINAL
from ..core.jit import njit
from ..core.rewards import final_rewards, fitted_margins
from .board import port_has
from .data import (
    G_SCORINGS,
    G_TRACK,
    K_NUM_PORTS,
    K_TRACK_LAST,
    MAX_PLAYERS,
    NUM_GALLEYS,
    NUM_GOODS,
    S_DUCATS,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_P_FORT,
    S_P_OWNER,
    S_P_SAIL,
    S_SUPPLY,
    SPICES,
    WINE,
)
from .rules import port_score, scores, tiebreaks

SCORINGS = 3                             # SE-11.1: the game ends after the third
TERMS = ("ducats",                       # SE-1.2: only ducats count at the end
         "port_scores",                  # SE-9.1: what one scoring pays the seat now
         "port_scores_left",             # ... times the scorings still to come
         "ports",                        # ports owned (also SE-11.2's tie-break)
         "wine_ports_early",             # owned ports with wine (SE-8.3) times "early"
         "forts",                        # forts on owned ports (SE-6.7.4)
         "galleys",                      # galleys owned
         "galleys_early",                # ... times "early"
         "galley_sailors",               # sailors on own galleys (combat dice, SE-6.7)
         "port_sailors",                 # sailors in own ports (their defence)
         "supply_sailors",               # sailors not yet placed
         "cargo",                        # goods cubes on own galleys (sales to come)
         "cargo_early",                  # ... times "early"
         "spices")                       # spice cubes on own galleys (+2 a sale, SE-6.5.5)
SHAPES: tuple[str, ...] = ()
SHAPE_GRID: dict[str, tuple[float, ...]] = {}
EARLY_TRACK = 10.0                       # "early": min(1, track spaces left / this)


@njit
def seat_terms(state, shape, out):
    """``out[seat, k]``: term k of ``TERMS`` for every seat (``shape`` unused)."""
    out[:] = 0.0
    early = min(1.0, (state[K_TRACK_LAST] - state[G_TRACK]) / EARLY_TRACK)
    left = max(0, SCORINGS - state[G_SCORINGS])
    for p in range(state[K_NUM_PORTS]):
        owner = state[S_P_OWNER + p]
        if owner < 0:
            continue                     # neutral or closed
        points = port_score(state, p)
        out[owner, 1] += points
        out[owner, 2] += points * left
        out[owner, 3] += 1.0
        if port_has(state, p, WINE):
            out[owner, 4] += early
        out[owner, 5] += state[S_P_FORT + p]
        out[owner, 9] += state[S_P_SAIL + p]
    for g in range(NUM_GALLEYS):
        owner = state[S_G_OWNER + g]
        if owner < 0:
            continue
        cubes = 0
        for good in range(NUM_GOODS):
            cubes += state[S_G_GOODS + g * NUM_GOODS + good]
        out[owner, 6] += 1.0
        out[owner, 7] += early
        out[owner, 8] += state[S_G_SAIL + g]
        out[owner, 11] += cubes
        out[owner, 12] += cubes * early
        out[owner, 13] += state[S_G_GOODS + g * NUM_GOODS + SPICES]
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat, 0] = state[S_DUCATS + seat]
        out[seat, 10] = state[S_SUPPLY + seat]


@njit
def position_terms(states, shape):
    """``[N, MAX_PLAYERS, len(TERMS)]``: each position's terms (the fit's design)."""
    out = np.zeros((states.shape[0], MAX_PLAYERS, len(TERMS)))
    for row in range(states.shape[0]):
        seat_terms(states[row], shape, out[row])
    return out


@njit
def fitted_value(state, weights, out):
    """MCTS leaf value (``leaf_value(state, weights, out)``, module docstring)."""
    players = state[H_NUM_PLAYERS]
    if state[H_TO_MOVE] == TERMINAL:
        ducats = np.zeros(players, dtype=np.int64)
        ports = np.zeros(players, dtype=np.int64)
        scores(state, ducats)
        tiebreaks(state, ports)                                 # SE-11.2: ports break ties
        final_rewards(ducats, ports, players, 0, 1.0, out)
        return
    terms = np.zeros((MAX_PLAYERS, len(TERMS)))
    seat_terms(state, weights[:0], terms)
    fitted_margins(terms, weights, players, out)
