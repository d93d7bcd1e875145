"""Every tile definition checked for internal consistency (spec §4, §5) and rotations (CA-3.4)."""

from __future__ import annotations

import numpy as np
import pytest
from carcassonne_setup import new_game, placements

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.tiles import BASE_TILES, EXPANSION_TILES

BASE = range(D.NUM_BASE_TYPES)
EXPANSION = range(D.NUM_BASE_TYPES, D.NUM_TYPES)


def copies(types, table) -> int:
    return int(sum(D.TILE_COUNT[t] * table[t].sum() for t in types))


def test_counts_add_up_to_72_and_18():                       # CA-4.1, CA-5.2, CA-5.6
    assert len(BASE_TILES) == 24 and len(EXPANSION_TILES) == 17
    assert int(D.TILE_COUNT[list(BASE)].sum()) == 72
    assert int(D.TILE_COUNT[list(EXPANSION)].sum()) == 18
    assert D.TILE_COUNT[D.START_TYPE] == 4                   # CA-4.4: 1 start + 3
    assert D.TILE_COUNT[D.TYPE_OF["IK"]] == 2


def test_shields_monasteries_inns_cathedrals_as_the_spec_counts():
    assert copies(BASE, D.SEG_SHIELD) == 10                  # CA-4.2
    assert copies(EXPANSION, D.SEG_SHIELD) == 3              # CA-5.6
    monastery = (D.SEG_KIND == D.MONASTERY).astype(np.int64)
    assert copies(BASE, monastery) == 6 and copies(EXPANSION, monastery) == 1
    assert copies(BASE, D.SEG_INN) == 0 and copies(EXPANSION, D.SEG_INN) == 6   # CA-2.2
    assert copies(EXPANSION, D.SEG_CATHEDRAL) == 2 and copies(BASE, D.SEG_CATHEDRAL) == 0
    with_inn = {D.TILE_NAMES[t] for t in EXPANSION if D.SEG_INN[t].any()}
    assert with_inn == {"IA", "IB", "IC", "IL", "IM", "IN"}  # CA-5.3
    shields = {D.TILE_NAMES[t] for t in range(D.NUM_TYPES) if D.SEG_SHIELD[t].any()}
    assert shields == {"C", "F", "M", "O", "Q", "S", "IL", "IP", "IQ"}


@pytest.mark.parametrize("tile", range(D.NUM_TYPES), ids=D.TILE_NAMES)
def test_edges_agree_with_segments(tile):
    kinds = D.SEG_KIND[tile, :D.NUM_SLOTS[tile]]
    assert (D.SEG_KIND[tile, D.NUM_SLOTS[tile]:] == -1).all()
    assert list(kinds) == sorted(kinds), "slots: monastery, cities, roads, fields (CA-3.7)"
    half_owner = [[] for _ in range(8)]
    side_owner = [[] for _ in range(4)]
    for slot, kind in enumerate(kinds):
        for side in range(4):
            if D.SEG_SIDES[tile, slot] >> side & 1:
                side_owner[side].append(kind)
        for half in range(8):
            if D.SEG_HALVES[tile, slot] >> half & 1:
                half_owner[half].append(slot)
        assert kind in (D.CITY, D.ROAD) or D.SEG_SIDES[tile, slot] == 0
        assert kind == D.FIELD or D.SEG_HALVES[tile, slot] == 0
        if kind in (D.CITY, D.ROAD):
            assert D.SEG_SIDES[tile, slot] != 0
        assert kind == D.CITY or not D.SEG_SHIELD[tile, slot] and not D.SEG_CATHEDRAL[tile, slot]
        assert kind == D.ROAD or not D.SEG_INN[tile, slot]
        for k in range(8):                                    # '>' lists name city slots
            if D.SEG_ADJACENT[tile, slot] >> k & 1:
                assert kind == D.FIELD and kinds[k] == D.CITY
    for side, edge in enumerate(D.EDGES[tile]):
        halves = half_owner[2 * side] + half_owner[2 * side + 1]
        if edge == D.CITY_EDGE:
            assert side_owner[side] == [D.CITY] and halves == []
        elif edge == D.ROAD_EDGE:
            assert side_owner[side] == [D.ROAD] and len(halves) == 2
        else:
            assert side_owner[side] == [] and len(halves) == 2
    assert all(len(owners) <= 1 for owners in half_owner)


def signature(tile: int, r: int):
    """The rotated tile as a set of segments with board ports (for symmetry counting)."""
    segments = []
    for slot in range(D.NUM_SLOTS[tile]):
        sides = tuple(d for d in range(4) if D.SIDE_SLOT[tile, r, d] == slot)
        halves = tuple(h for h in range(8) if D.HALF_SLOT[tile, r, h] == slot)
        adjacent = tuple(sorted(tuple(d for d in range(4) if D.SIDE_SLOT[tile, r, d] == k)
                                for k in range(8) if D.SEG_ADJACENT[tile, slot] >> k & 1))
        segments.append((int(D.SEG_KIND[tile, slot]), sides, halves, adjacent,
                         int(D.SEG_SHIELD[tile, slot]), int(D.SEG_INN[tile, slot])))
    return tuple(sorted(segments))


@pytest.mark.parametrize("tile", range(D.NUM_TYPES), ids=D.TILE_NAMES)
def test_rotations(tile):                                     # CA-3.4, DEC-6 "Rot" column
    for r in range(4):
        for d in range(4):
            assert D.ROT_EDGE[tile, r, d] == D.EDGES[tile, (d - r) % 4]
            assert D.ROT_CODE[tile, r] >> (2 * d) & 3 == D.ROT_EDGE[tile, r, d]
        for h in range(8):                                   # half-edge h -> h + 2r
            owner = D.HALF_SLOT[tile, r, (h + 2) % 8] if r == 1 else None
            if owner is not None:
                assert owner == D.HALF_SLOT[tile, 0, h]
        for side in range(4):
            assert D.SIDE_SLOT[tile, r, (side + r) % 4] == D.SIDE_SLOT[tile, 0, side]
    distinct = {signature(tile, r) for r in range(4)}
    assert len(distinct) == D.DISTINCT_ROTATIONS[tile]


def test_half_edges_of_a_rotated_d_tile():
    d = D.START_TYPE                                          # city N, road E-W
    assert [D.HALF_SLOT[d, 0, h] for h in range(8)] == [-1, -1, 2, 3, 3, 3, 3, 2]
    assert [D.HALF_SLOT[d, 1, h] for h in range(8)] == [3, 2, -1, -1, 2, 3, 3, 3]
    assert [D.SIDE_SLOT[d, 1, s] for s in range(4)] == [1, 0, 1, -1]


DEC7 = ("A5 B4 C4 D6 E4 F4 G4 H4 I4 J6 K6 L7 M4 N4 O6 P6 Q4 R4 S5 T5 U6 V6 W7 X8 "
        "IA6 IB6 IC7 ID6 IE8 IF5 IG4 IH4 II6 IJ5 IK4 IL6 IM6 IN5 IO4 IP4 IQ6").split()


@pytest.mark.parametrize("entry", DEC7)
def test_first_turn_placement_counts(entry):                  # DEC-7
    name, count = entry.rstrip("0123456789"), int(entry.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    assert len(placements(new_game(), name)) == count
