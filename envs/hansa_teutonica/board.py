"""Compiled board queries: pieces, city control (§8), networks (HT-10.6), East-West
(HT-6.5.7), compensation targets (HT-6.3.3) and the final score (§10).

Connectivity is a bitset flood fill over ``CITY_ADJ`` (one int64 per city, 27 bits)
restricted to the cities where a player holds a Kontor.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS
from ..core.jit import njit
from .data import (
    ACTIONES,
    ARNHEIM,
    BONUS_TABLE,
    C_TIE_BREAK,
    CITY_ADJ,
    CITY_NOFF,
    CLAVIS,
    COELLEN_VALUES,
    G_COELLEN,
    G_EXTRA_N,
    G_EXTRA_OWNER,
    G_OFFICE_OWNER,
    G_SIDE,
    G_SPACE_OWNER,
    MAX_EXTRA,
    MAX_OFFICES,
    NUM_CITIES,
    NUM_MARKER_KINDS,
    NUM_TRACKS,
    P_SCORE,
    P_TRACK,
    P_UNUSED,
    P_USED,
    PLAYER_SIZE,
    PLAYERS_BASE,
    ROUTE_DIST,
    ROUTE_LEN,
    ROUTE_START,
    ROUTES_ON_SIDE,
    STENDAL,
    TRACK_MAX,
    TRACK_VALUES,
)


@njit
def player_base(seat):
    return PLAYERS_BASE + seat * PLAYER_SIZE


@njit
def track_value(state, seat, track):
    return TRACK_VALUES[track, state[player_base(seat) + P_TRACK + track]]


@njit
def num_routes(state):
    return 32 if state[G_SIDE] == 0 else 34


@njit
def route_owned_by(state, route, seat):
    """HT-6.5.1: every space of the route holds a piece of ``seat``."""
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        if state[G_SPACE_OWNER + s] != seat:
            return False
    return True


@njit
def route_has_empty(state, route):
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        if state[G_SPACE_OWNER + s] < 0:
            return True
    return False


@njit
def route_is_empty(state, route):
    start = ROUTE_START[route]
    for s in range(start, start + ROUTE_LEN[route]):
        if state[G_SPACE_OWNER + s] >= 0:
            return False
    return True


@njit
def first_empty_office(state, city):
    """The leftmost empty printed office (offices are never skipped, HT-6.5.5 c1), or -1."""
    for i in range(CITY_NOFF[state[G_SIDE], city]):
        if state[G_OFFICE_OWNER + city * MAX_OFFICES + i] < 0:
            return i
    return -1


@njit
def kontor_counts(state, city, counts):
    """Kontors per seat in ``city`` (printed and extra offices); returns the total."""
    counts[:] = 0
    total = 0
    for i in range(CITY_NOFF[state[G_SIDE], city]):
        owner = state[G_OFFICE_OWNER + city * MAX_OFFICES + i]
        if owner >= 0:
            counts[owner] += 1
            total += 1
    for i in range(state[G_EXTRA_N + city]):
        counts[state[G_EXTRA_OWNER + city * MAX_EXTRA + i]] += 1
        total += 1
    return total


@njit
def controller(state, city):
    """HT-8.1: most Kontors; a tie goes to the tied player with the highest-valued Kontor
    (printed offices right to left, then extra offices oldest first).  -1 if none."""
    counts = np.zeros(8, dtype=np.int64)
    if kontor_counts(state, city, counts) == 0:
        return -1
    best = 0
    for seat in range(8):
        best = max(best, counts[seat])
    for i in range(CITY_NOFF[state[G_SIDE], city] - 1, -1, -1):
        owner = state[G_OFFICE_OWNER + city * MAX_OFFICES + i]
        if owner >= 0 and counts[owner] == best:
            return owner
    for i in range(state[G_EXTRA_N + city]):
        owner = state[G_EXTRA_OWNER + city * MAX_EXTRA + i]
        if counts[owner] == best:
            return owner
    return -1


@njit
def presence(state, seat, weights):
    """Bitset of cities holding a Kontor of ``seat``; ``weights[c]`` = its Kontors there."""
    bits = 0
    for city in range(NUM_CITIES):
        n = 0
        for i in range(CITY_NOFF[state[G_SIDE], city]):
            n += state[G_OFFICE_OWNER + city * MAX_OFFICES + i] == seat
        for i in range(state[G_EXTRA_N + city]):
            n += state[G_EXTRA_OWNER + city * MAX_EXTRA + i] == seat
        weights[city] = n
        if n > 0:
            bits |= 1 << city
    return bits


@njit
def flood(side, start_bit, allowed):
    """The component of ``allowed`` (a city bitset) that contains ``start_bit``."""
    seen = start_bit
    frontier = start_bit
    while frontier:
        grow = 0
        rest = frontier
        while rest:
            low = rest & -rest
            city = 0
            while (low >> city) != 1:
                city += 1
            grow |= CITY_ADJ[side, city]
            rest ^= low
        frontier = grow & allowed & ~seen
        seen |= frontier
    return seen


@njit
def largest_network(state, seat):
    """HT-10.6: the heaviest connected set of cities with the player's Kontors."""
    weights = np.zeros(NUM_CITIES, dtype=np.int64)
    left = presence(state, seat, weights)
    best = 0
    side = state[G_SIDE]
    while left:
        component = flood(side, left & -left, left)
        left &= ~component
        total = 0
        for city in range(NUM_CITIES):
            if (component >> city) & 1:
                total += weights[city]
        best = max(best, total)
    return best


@njit
def east_west_linked(state, seat):
    """HT-6.5.7: Arnheim and Stendal joined through cities with the player's Kontors."""
    weights = np.zeros(NUM_CITIES, dtype=np.int64)
    allowed = presence(state, seat, weights)
    if not (allowed >> ARNHEIM) & 1 or not (allowed >> STENDAL) & 1:
        return False
    return (flood(state[G_SIDE], 1 << ARNHEIM, allowed) >> STENDAL) & 1 == 1


@njit
def compensation_distance(state, origin):
    """HT-6.3.3(c): the smallest route distance >= 1 from ``origin`` among routes with an
    empty space, or -1 when no other route has one (A-5)."""
    side = state[G_SIDE]
    best = -1
    for r in range(ROUTES_ON_SIDE[side]):
        if r == origin or not route_has_empty(state, r):
            continue
        d = ROUTE_DIST[side, origin, r]
        if best < 0 or d < best:
            best = d
    return best


# --- final scoring (§10) ------------------------------------------------------------------

@njit
def score_categories(state, seat, out):
    """out[0..5] = categories A..F of HT-10.1 .. HT-10.6 for ``seat``."""
    base = player_base(seat)
    out[0] = state[base + P_SCORE]
    developed = 0
    for track in range(1, NUM_TRACKS):                      # HT-10.2: Clavis excluded
        developed += state[base + P_TRACK + track] == TRACK_MAX[track]
    out[1] = 4 * developed
    markers = state[base + P_USED]
    for kind in range(NUM_MARKER_KINDS):
        markers += state[base + P_UNUSED + kind]
    out[2] = BONUS_TABLE[min(markers, 10)]
    coellen = 0
    for j in range(4):
        if state[G_COELLEN + j] == seat:
            coellen += COELLEN_VALUES[j]
    out[3] = coellen
    controlled = 0
    for city in range(NUM_CITIES):
        controlled += controller(state, city) == seat
    out[4] = 2 * controlled
    out[5] = largest_network(state, seat) * track_value(state, seat, CLAVIS)


@njit
def scores(state, out):
    """Total of HT-10.1 .. HT-10.6 per seat ('as if the game ended now' before the end)."""
    parts = np.zeros(6, dtype=np.int64)
    for seat in range(state[H_NUM_PLAYERS]):
        score_categories(state, seat, parts)
        out[seat] = parts.sum()


@njit
def tiebreaks(state, out):
    """A-15: off by default (shared win); the Big Box option prefers fewer Actiones
    upgrades, then the higher network score."""
    parts = np.zeros(6, dtype=np.int64)
    for seat in range(state[H_NUM_PLAYERS]):
        if state[C_TIE_BREAK] == 0:
            out[seat] = 0
            continue
        score_categories(state, seat, parts)
        upgrades = state[player_base(seat) + P_TRACK + ACTIONES]
        out[seat] = (10 - upgrades) * 100_000 + parts[5]
