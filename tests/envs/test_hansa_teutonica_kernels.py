"""Compiled hot paths against slow, obvious reference code on random positions:
city control (HT-8.1), network score (HT-10.6), East-West (HT-6.5.7), compensation
distance (HT-6.3.3 c) and the whole final score (§10)."""

from __future__ import annotations

import numpy as np
import pytest
from hansa_teutonica_setup import blank, slot

from meeplezoo.envs.hansa_teutonica import board
from meeplezoo.envs.hansa_teutonica import data as D


def random_position(rng, players):
    state = blank(players)
    side = int(state[D.G_SIDE])
    for city in range(D.NUM_CITIES):
        filled = rng.integers(0, D.CITY_NOFF[side, city] + 1)
        for i in range(filled):
            state[D.G_OFFICE_OWNER + city * 4 + i] = rng.integers(players)
        if filled and rng.random() < 0.2:
            n = int(rng.integers(1, 4))
            state[D.G_EXTRA_N + city] = n
            for i in range(n):
                state[D.G_EXTRA_OWNER + city * 5 + i] = rng.integers(players)
    for s in range(D.SPACES_ON_SIDE[side]):
        if rng.random() < 0.5:
            state[D.G_SPACE_OWNER + s] = rng.integers(players)
    for seat in range(players):
        state[slot(seat, D.P_TRACK):slot(seat, D.P_TRACK) + 5] = [
            rng.integers(0, m + 1) for m in D.TRACK_MAX]
        state[slot(seat, D.P_SCORE)] = rng.integers(0, 25)
        state[slot(seat, D.P_USED)] = rng.integers(0, 6)
    for j in range(4):
        state[D.G_COELLEN + j] = rng.integers(-1, players)
    return state


def kontors(state, city):
    """Kontors of a city in value order, lowest first: newest extra ... printed right."""
    side = int(state[D.G_SIDE])
    extras = [int(state[D.G_EXTRA_OWNER + city * 5 + i])
              for i in range(int(state[D.G_EXTRA_N + city]))]
    printed = [int(state[D.G_OFFICE_OWNER + city * 4 + i])
               for i in range(int(D.CITY_NOFF[side, city]))]
    return extras[::-1] + [o for o in printed if o >= 0]


def reference_controller(state, city):
    order = kontors(state, city)
    if not order:
        return -1
    counts = {p: order.count(p) for p in set(order)}
    best = max(counts.values())
    return [p for p in reversed(order) if counts[p] == best][0]


def reference_components(state, seat):
    side = int(state[D.G_SIDE])
    weight = {c: kontors(state, c).count(seat) for c in range(D.NUM_CITIES)}
    cities = {c for c, w in weight.items() if w}
    edges = [tuple(int(x) for x in D.ROUTE_CITY[r]) for r in range(D.ROUTES_ON_SIDE[side])]
    parent = {c: c for c in cities}

    def find(c):
        while parent[c] != c:
            c = parent[c]
        return c

    for a, b in edges:
        if a in cities and b in cities:
            parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for c in cities:
        groups.setdefault(find(c), []).append(c)
    return [(set(g), sum(weight[c] for c in g)) for g in groups.values()]


def reference_distance(state, origin):
    side = int(state[D.G_SIDE])
    routes = D.ROUTES_ON_SIDE[side]
    ends = [set(int(x) for x in D.ROUTE_CITY[r]) for r in range(routes)]
    dist = {origin: 0}
    frontier = [origin]
    while frontier:
        nxt = []
        for r in frontier:
            for q in range(routes):
                if q not in dist and ends[q] & ends[r]:
                    dist[q] = dist[r] + 1
                    nxt.append(q)
        frontier = nxt
    free = [dist[r] for r in range(routes) if r != origin and any(
        state[D.G_SPACE_OWNER + s] < 0
        for s in range(D.ROUTE_START[r], D.ROUTE_START[r] + D.ROUTE_LEN[r]))]
    return min(free) if free else -1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kernels_match_reference_on_random_positions(players):
    rng = np.random.default_rng(players)
    for _ in range(150):
        state = random_position(rng, players)
        for city in range(D.NUM_CITIES):
            assert board.controller(state, city) == reference_controller(state, city)
        for seat in range(players):
            components = reference_components(state, seat)
            best = max((w for _, w in components), default=0)
            assert board.largest_network(state, seat) == best
            linked = any({D.ARNHEIM, D.STENDAL} <= cities for cities, _ in components)
            assert board.east_west_linked(state, seat) == linked
            parts = np.zeros(6, dtype=np.int64)
            board.score_categories(state, seat, parts)
            p = state[slot(seat, 0):slot(seat, 0) + D.PLAYER_SIZE]
            developed = sum(int(p[D.P_TRACK + t] == D.TRACK_MAX[t]) for t in range(1, 5))
            markers = int(p[D.P_UNUSED:D.P_UNUSED + 6].sum() + p[D.P_USED])
            controlled = sum(reference_controller(state, c) == seat for c in range(27))
            coellen = sum(v for j, v in enumerate((7, 8, 9, 11)) if state[D.G_COELLEN + j] == seat)
            clavis = (1, 2, 2, 3, 4)[int(p[D.P_TRACK])]
            assert parts.tolist() == [
                int(p[D.P_SCORE]), 4 * developed, [0, 1, 3, 3, 6, 6, 10, 10, 15, 15, 21][
                    min(markers, 10)], coellen, 2 * controlled, best * clavis]
        for origin in range(D.ROUTES_ON_SIDE[int(state[D.G_SIDE])]):
            assert board.compensation_distance(state, origin) == reference_distance(state, origin)


def test_route_distance_table_matches_spec_12_4():
    row = D.ROUTE_DIST[1, 11]
    assert {int(r) for r in np.flatnonzero(row == 1)} == {6, 10, 13, 18}
    assert {int(r) for r in np.flatnonzero(row == 2)} == {4, 8, 9, 12, 16, 20, 29, 33}
    assert {int(r) for r in np.flatnonzero(row == 3)} == {3, 5, 7, 15, 17, 19, 25, 27, 28, 31}
    assert D.ROUTE_DIST[0, :32, :32].max() == D.ROUTE_DIST[1].max() == 8
