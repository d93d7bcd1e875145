"""Feature merging, completion and scoring kernels (CA-3.9, §8, §9, §10, §12; HOT-2..6).

A node is one segment of one placed tile (``placement * 8 + slot``).  Nodes of one feature
form a set with a root that carries the feature's aggregates: open city/road ports
(HOT-3), shields, inn/cathedral bits and the number of meeples.  Sets also keep a circular
member list.  Union relabels the smaller set's members (weighted quick-union), so every
node's ``N_ROOT`` is its root at all times: ``find`` is one read and never writes, which
keeps scoring and observation free of side effects on the state.
"""

from __future__ import annotations

import numpy as np

from ..core.jit import njit
from .board import occupied_around, set_tile_at, tile_at, update_box, update_frontier
from .data import (
    C_FARM_RULE,
    C_FARMERS,
    C_IC_INN,
    C_SMALL_CITY,
    CITY,
    CITY_EDGE,
    FIELD,
    FIELD_EDGE,
    FLAG_CATHEDRAL,
    FLAG_INN,
    G_LARGE,
    G_NORMAL,
    G_PLACED,
    G_SCORE,
    HALF_SLOT,
    HAS_MONASTERY,
    IC_TYPE,
    MAX_PLAYERS,
    MAX_SLOTS,
    MONASTERY,
    N_FIGURES,
    N_FLAGS,
    N_MEEPLE,
    N_NEXT,
    N_OPEN,
    N_ROOT,
    N_SHIELDS,
    N_SIZE,
    NUM_NODES,
    NUM_SLOTS,
    ROAD,
    ROT_EDGE,
    SEG_ADJACENT,
    SEG_CATHEDRAL,
    SEG_INN,
    SEG_KIND,
    SEG_SHIELD,
    SEG_SIDES,
    SIDE_SLOT,
    STEP,
    T_CELL,
    T_ROT,
    T_TYPE,
)


@njit
def popcount4(bits):
    return (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1) + (bits >> 3 & 1)


@njit
def node_kind(state, node):
    return SEG_KIND[state[T_TYPE + node // MAX_SLOTS], node % MAX_SLOTS]


@njit
def union(state, a, b):
    """Join the features of nodes ``a`` and ``b``; returns the root (HOT-2)."""
    ra = state[N_ROOT + a]
    rb = state[N_ROOT + b]
    if ra == rb:
        return ra
    if state[N_SIZE + ra] < state[N_SIZE + rb]:
        ra, rb = rb, ra
    node = rb
    while True:
        state[N_ROOT + node] = ra
        node = state[N_NEXT + node]
        if node == rb:
            break
    after_a = state[N_NEXT + ra]
    state[N_NEXT + ra] = state[N_NEXT + rb]
    state[N_NEXT + rb] = after_a
    for field in (N_SIZE, N_OPEN, N_SHIELDS, N_FIGURES):
        state[field + ra] += state[field + rb]
        state[field + rb] = 0
    state[N_FLAGS + ra] |= state[N_FLAGS + rb]
    state[N_FLAGS + rb] = 0
    return ra


@njit
def add_tile(state, index, tile_type, rotation, cell):
    """Put a tile on the board as placement ``index`` and merge its segments (CA-3.5)."""
    state[T_TYPE + index] = tile_type
    state[T_ROT + index] = rotation
    state[T_CELL + index] = cell
    set_tile_at(state, cell, index)
    update_frontier(state, cell, tile_type, rotation)
    update_box(state, index, cell)
    for slot in range(NUM_SLOTS[tile_type]):
        node = index * MAX_SLOTS + slot
        kind = SEG_KIND[tile_type, slot]
        state[N_ROOT + node] = node
        state[N_NEXT + node] = node
        state[N_SIZE + node] = 1
        state[N_OPEN + node] = popcount4(SEG_SIDES[tile_type, slot]) if kind in (CITY, ROAD) \
            else 0
        state[N_SHIELDS + node] = SEG_SHIELD[tile_type, slot]
        inn = SEG_INN[tile_type, slot]
        if tile_type == IC_TYPE and slot == 2 and state[C_IC_INN] == 1:
            inn = 1                                          # AMB-3 option: W branch too
        state[N_FLAGS + node] = inn * FLAG_INN + SEG_CATHEDRAL[tile_type, slot] * FLAG_CATHEDRAL
        state[N_FIGURES + node] = 0
        state[N_MEEPLE + node] = 0
    for side in range(4):
        other = tile_at(state, cell + STEP[side])
        if other < 0:
            continue
        facing = (side + 2) % 4
        other_type = state[T_TYPE + other]
        other_rot = state[T_ROT + other]
        edge = ROT_EDGE[tile_type, rotation, side]
        if edge != FIELD_EDGE:
            root = union(state, index * MAX_SLOTS + SIDE_SLOT[tile_type, rotation, side],
                         other * MAX_SLOTS + SIDE_SLOT[other_type, other_rot, facing])
            state[N_OPEN + root] -= 2                        # HOT-3: both ports now closed
        if edge != CITY_EDGE:                                # CA-3.5: Nw<->Sw, Ne<->Se, ...
            union(state, index * MAX_SLOTS + HALF_SLOT[tile_type, rotation, 2 * side],
                  other * MAX_SLOTS + HALF_SLOT[other_type, other_rot, 2 * facing + 1])
            union(state, index * MAX_SLOTS + HALF_SLOT[tile_type, rotation, 2 * side + 1],
                  other * MAX_SLOTS + HALF_SLOT[other_type, other_rot, 2 * facing])


@njit
def count_tiles(state, root):
    """CA-8.5 / AMB-4: distinct tiles holding the feature (two 64-bit stamp words)."""
    low = np.uint64(0)
    high = np.uint64(0)
    count = 0
    node = root
    while True:
        tile = node // MAX_SLOTS
        if tile < 64:
            bit = np.uint64(1) << np.uint64(tile)
            if low & bit == 0:
                low |= bit
                count += 1
        else:
            bit = np.uint64(1) << np.uint64(tile - 64)
            if high & bit == 0:
                high |= bit
                count += 1
        node = state[N_NEXT + node]
        if node == root:
            return count


@njit
def strengths(state, root, out):
    """CA-9.2 / CA-11.3: per-seat strength in a feature (normal 1, large 2)."""
    out[:] = 0
    if state[N_FIGURES + root] == 0:
        return 0
    node = root
    while True:
        code = state[N_MEEPLE + node]
        if code:
            out[(code - 1) // 2] += 1 + (code - 1) % 2
        node = state[N_NEXT + node]
        if node == root:
            break
    best = 0
    for seat in range(out.shape[0]):
        best = max(best, out[seat])
    return best


@njit
def pay_majority(power, best, points, out):
    """CA-9.2: every seat with the maximum strength gets the full points."""
    if best > 0:
        for seat in range(power.shape[0]):
            if power[seat] == best:
                out[seat] += points


@njit
def return_meeples(state, root):
    """CA-9.6: every meeple of the feature goes back to its owner's supply."""
    node = root
    while True:
        code = state[N_MEEPLE + node]
        if code:
            seat = (code - 1) // 2
            if (code - 1) % 2:
                state[G_LARGE + seat] += 1
            else:
                state[G_NORMAL + seat] += 1
            state[N_MEEPLE + node] = 0
        node = state[N_NEXT + node]
        if node == root:
            break
    state[N_FIGURES + root] = 0


@njit
def completed_points(state, root, kind):
    """CA-9.3, CA-9.4, CA-10.2, CA-10.4 (and AMB-12's small-city option)."""
    tiles = count_tiles(state, root)
    flags = state[N_FLAGS + root]
    if kind == ROAD:
        return 2 * tiles if flags & FLAG_INN else tiles
    shields = state[N_SHIELDS + root]
    if flags & FLAG_CATHEDRAL:
        return 3 * (tiles + shields)
    if tiles == 2 and state[C_SMALL_CITY] == 1:
        return tiles + shields
    return 2 * (tiles + shields)


@njit
def incomplete_points(state, root, kind):
    """CA-12.1, CA-10.5: incomplete roads 1 per tile, cities 1 per tile and shield."""
    flags = state[N_FLAGS + root]
    if kind == ROAD:
        return 0 if flags & FLAG_INN else count_tiles(state, root)
    if flags & FLAG_CATHEDRAL:
        return 0
    return count_tiles(state, root) + state[N_SHIELDS + root]


@njit
def score_turn(state, index):
    """CA-9.1: score roads and cities completed by placement ``index`` and finished
    monasteries around it; their meeples go home (CA-9.6)."""
    power = np.zeros(0, dtype=np.int64)          # allocated on the first feature that pays
    scores = state[G_SCORE:G_SCORE + MAX_PLAYERS]
    tile_type = state[T_TYPE + index]
    first = index * MAX_SLOTS
    for slot in range(NUM_SLOTS[tile_type]):
        kind = SEG_KIND[tile_type, slot]
        if kind != CITY and kind != ROAD:
            continue
        root = state[N_ROOT + first + slot]
        if state[N_OPEN + root] != 0 or state[N_FIGURES + root] == 0:
            continue
        # AMB-14: each feature once (an earlier slot of this tile may share the root; its
        # meeples are home then, so N_FIGURES is 0 and it is skipped above).
        if power.shape[0] == 0:
            power = np.zeros(MAX_PLAYERS, dtype=np.int64)
        best = strengths(state, root, power)
        pay_majority(power, best, completed_points(state, root, kind), scores)
        return_meeples(state, root)
    cell = state[T_CELL + index]
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            other = tile_at(state, cell + dy * STEP[2] + dx)
            if other < 0 or not HAS_MONASTERY[state[T_TYPE + other]]:
                continue
            node = other * MAX_SLOTS
            if state[N_MEEPLE + node] and occupied_around(state, state[T_CELL + other]) == 8:
                if power.shape[0] == 0:
                    power = np.zeros(MAX_PLAYERS, dtype=np.int64)
                best = strengths(state, node, power)
                pay_majority(power, best, 9, scores)        # CA-9.5, CA-11.4: never doubled
                return_meeples(state, node)


@njit
def final_points(state, out):
    """CA-12.1..12.4: end-of-game points per seat, written to ``out``; the state is unchanged."""
    out[:] = 0
    power = np.zeros(MAX_PLAYERS, dtype=np.int64)
    placed = state[G_PLACED]
    for index in range(placed):
        tile_type = state[T_TYPE + index]
        for slot in range(NUM_SLOTS[tile_type]):
            node = index * MAX_SLOTS + slot
            if state[N_ROOT + node] != node or state[N_FIGURES + node] == 0:
                continue
            kind = SEG_KIND[tile_type, slot]
            if kind == FIELD:
                continue
            if kind == MONASTERY:
                points = 1 + occupied_around(state, state[T_CELL + index])
            elif state[N_OPEN + node] > 0:
                points = incomplete_points(state, node, kind)
            else:
                continue
            best = strengths(state, node, power)
            pay_majority(power, best, points, out)
    if state[C_FARMERS]:
        farm_points(state, out)


@njit
def farm_points(state, out):
    """CA-12.2 and AMB-1: fields scored under the configured edition (c3, c1_v2, c1_v1)."""
    rule = state[C_FARM_RULE]
    power = np.zeros(MAX_PLAYERS, dtype=np.int64)
    mark = np.full(NUM_NODES, -1, dtype=np.int64)        # city root -> last field seen
    cities = np.zeros(NUM_NODES, dtype=np.int64)
    tally = np.zeros((NUM_NODES, MAX_PLAYERS), dtype=np.int64) if rule != 0 \
        else np.zeros((1, MAX_PLAYERS), dtype=np.int64)
    for index in range(state[G_PLACED]):
        tile_type = state[T_TYPE + index]
        for slot in range(NUM_SLOTS[tile_type]):
            field = index * MAX_SLOTS + slot
            if SEG_KIND[tile_type, slot] != FIELD or state[N_ROOT + field] != field \
                    or state[N_FIGURES + field] == 0:
                continue
            count = completed_cities(state, field, mark, cities)
            best = strengths(state, field, power)
            if rule == 0:
                pay_majority(power, best, 3 * count, out)
            for i in range(count):
                for seat in range(MAX_PLAYERS):
                    if rule == 1 and power[seat] == best:
                        tally[cities[i], seat] = 1                # won this city once
                    elif rule == 2:
                        tally[cities[i], seat] += power[seat]     # farmers around the city
    if rule == 1:
        for city in range(NUM_NODES):
            for seat in range(MAX_PLAYERS):
                out[seat] += 3 * tally[city, seat]
    elif rule == 2:
        for city in range(NUM_NODES):
            best = 0
            for seat in range(MAX_PLAYERS):
                best = max(best, tally[city, seat])
            pay_majority(tally[city], best, 4, out)


@njit
def completed_cities(state, field, mark, cities):
    """CA-12.3: distinct completed city features bordering the field rooted at ``field``."""
    count = 0
    node = field
    while True:
        index = node // MAX_SLOTS
        adjacent = SEG_ADJACENT[state[T_TYPE + index], node % MAX_SLOTS]
        slot = 0
        while adjacent:
            if adjacent & 1:
                city = state[N_ROOT + index * MAX_SLOTS + slot]
                if state[N_OPEN + city] == 0 and mark[city] != field:
                    mark[city] = field
                    cities[count] = city
                    count += 1
            adjacent >>= 1
            slot += 1
        node = state[N_NEXT + node]
        if node == field:
            return count


@njit
def return_all_meeples(state):
    """CA-12.4: after final scoring every meeple is back in its supply."""
    for index in range(state[G_PLACED]):
        for slot in range(NUM_SLOTS[state[T_TYPE + index]]):
            node = index * MAX_SLOTS + slot
            if state[N_ROOT + node] == node and state[N_FIGURES + node] > 0:
                return_meeples(state, node)
