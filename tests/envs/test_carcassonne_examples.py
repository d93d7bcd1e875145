"""Every worked example of spec §19 with its exact outcome (one test per example id)."""

from __future__ import annotations

import numpy as np
import pytest
from carcassonne_setup import (
    draw,
    end,
    mask_of,
    new_game,
    place,
    placements,
    play,
    scores,
    supply,
)

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne import rules
from meeplezoo.envs.carcassonne.render import score_track
from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL


def test_ex1_simple_road():
    s = new_game()
    play(s, "W", 1, 0, 0, slot=2)
    assert scores(s) == [0, 0] and supply(s, 0) == (6, 1)
    play(s, "W", -1, 0, 0)
    assert scores(s) == [3, 0] and supply(s, 0) == (7, 1)


@pytest.mark.parametrize("tile, expected", [("IK", [0, 0]), ("G", [3, 0])])
def test_ex2_cathedral_in_an_opponents_city(tile, expected):
    s = new_game()
    play(s, "N", 0, -1, 2, slot=0)
    draw(s, tile)
    assert mask_of(s)[place(s, 1, -1, 0)]
    rules.apply_action(s, place(s, 1, -1, 0))
    if tile == "IK":                                          # slot 0 is occupied: no knight
        assert not mask_of(s)[D.meeple_action(0)]
        assert int(s[H_TO_MOVE]) == -1                        # auto-passed (only "no meeple")
    end(s)
    assert scores(s) == expected


@pytest.mark.parametrize("tile, expected", [("IB", [0, 0]), ("U", [3, 0])])
def test_ex3_inn_on_an_incomplete_road(tile, expected):
    s = new_game()
    play(s, "U", 1, 0, 0, slot=0)
    play(s, tile, 2, 0, 0)
    end(s)
    assert scores(s) == expected


def test_ex4_completed_cathedral_city_large_beats_normal():
    s = new_game()
    play(s, "IK", 0, -1, 0, slot=0, large=True)
    play(s, "L", 1, 0, 0, slot=0)
    play(s, "N", 1, -1, 3)
    play(s, "E", 0, -2, 2)
    play(s, "E", -1, -1, 1)
    assert scores(s) == [18, 0]
    assert supply(s, 0) == (7, 1) and supply(s, 1) == (7, 1)


@pytest.mark.parametrize("large, expected", [(False, [8, 8]), (True, [8, 0])])
def test_ex5_ex6_tie_in_a_city_and_the_large_meeple(large, expected):
    s = new_game()
    play(s, "L", -1, 0, 0, slot=0, large=large)
    play(s, "N", 0, -1, 3, slot=0)
    assert {(x, y, r) for x, y, r in placements(s, "N") if (x, y) == (-1, -1)} == {(-1, -1, 2)}
    play(s, "N", -1, -1, 2)
    assert scores(s) == expected


def test_ex7_one_tile_completes_two_features():
    s = new_game()
    play(s, "W", 1, 0, 0, slot=2)
    play(s, "N", 0, -1, 3, slot=0)
    play(s, "N", -1, -1, 2)
    assert {r for x, y, r in placements(s, "L") if (x, y) == (-1, 0)} == {0}
    play(s, "L", -1, 0, 0)
    assert scores(s) == [3, 8]


@pytest.mark.parametrize("r, slot, expected", [(0, 2, [3, 0]), (2, 0, [6, 0]), (1, 1, [3, 0])])
def test_ex8_inn_affects_only_its_branch(r, slot, expected):
    s = new_game()
    play(s, "IC", 1, 0, r, slot=slot)
    play(s, "W", -1, 0, 0)
    assert scores(s) == expected


def test_ex8_ic_r3_is_illegal_and_the_east_and_west_option():
    assert (1, 0, 3) not in placements(new_game(), "IC")
    s = new_game(ic_tjunction_inn="east_and_west")            # AMB-3 alternative
    play(s, "IC", 1, 0, 0, slot=2)
    play(s, "W", -1, 0, 0)
    assert scores(s) == [6, 0]


def test_ex9_inns_do_not_stack():
    s = new_game()
    play(s, "IB", 1, 0, 0, slot=0)
    play(s, "IA", -1, 0, 3)
    play(s, "W", 2, 0, 0)
    play(s, "W", -1, 1, 2)
    assert scores(s) == [10, 0]


def test_ex10_cathedrals_do_not_stack():
    s = new_game()
    play(s, "IK", 0, -1, 0, slot=0)
    play(s, "IK", 0, -2, 0)
    for x, y, r in ((0, -3, 2), (-1, -1, 1), (1, -1, 3), (-1, -2, 1), (1, -2, 3)):
        play(s, "E", x, y, r)
    assert scores(s) == [24, 0]


def test_ex11_a_farm_next_to_several_cities():
    s = new_game()
    play(s, "E", 0, -1, 2)
    play(s, "K", 1, 0, 0, slot=2)
    play(s, "E", 1, -1, 2)
    play(s, "E", 2, 0, 0)
    end(s)
    assert scores(s) == [0, 6]


@pytest.mark.parametrize("rule, expected", [("c3", 6), ("c1_v2", 3), ("c1_v1", 4)])
def test_ex12_farm_editions(rule, expected):
    s = new_game(farm_scoring=rule)
    play(s, "H", 0, -1, 0, slot=2)
    play(s, "B", 0, 1, 0)
    play(s, "V", 1, 0, 0, slot=1)
    end(s)
    assert scores(s) == [expected, 0]


def test_ex13_road_loop_through_one_tile_twice():
    s = new_game()
    play(s, "V", 0, 1, 3, slot=0)
    for tile, x, y, r in (("V", 1, 1, 0), ("V", 1, 2, 1), ("IE", 0, 2, 0), ("V", 0, 3, 1),
                          ("V", -1, 3, 2)):
        play(s, tile, x, y, r)
        assert scores(s) == [0, 0]
    play(s, "V", -1, 2, 3)
    assert scores(s) == [7, 0] and supply(s, 0) == (7, 1)


def test_ex14_unplaceable_tile_is_removed_and_redrawn():
    s = new_game()
    play(s, "E", 0, -1, 2)
    for tile in ("C", "IK", "IH"):
        assert placements(s, tile) == set()
    assert len(placements(s, "B")) == 16 and len(placements(s, "X")) == 8
    left = int(s[D.G_PILE_LEFT])
    draw(s, "C")
    assert int(s[H_TO_MOVE]) == -1 and int(s[D.G_ACTIVE]) == 1      # P1 draws again
    assert int(s[D.G_DISCARDED]) == 1 and int(s[D.G_PILE_LEFT]) == left - 1
    draw(s, "B")
    assert int(s[H_TO_MOVE]) == 1


def test_ex15_incomplete_monastery_with_the_large_meeple():
    s = new_game()
    play(s, "A", 0, 1, 0, slot=0, large=True)
    end(s)
    assert scores(s) == [2, 0]


def test_ex16_completed_monastery_with_the_large_meeple_scores_9():
    s = new_game()
    play(s, "B", 0, 1, 0, slot=0, large=True)
    turns = (("U", 1, 0, 0), ("U", -1, 0, 0), ("E", 1, 1, 1), ("E", -1, 1, 3), ("E", -1, 2, 2),
             ("E", 0, 2, 2), ("E", 1, 2, 2))
    for tile, x, y, r in turns:
        assert scores(s) == [0, 0]
        play(s, tile, x, y, r)
    assert scores(s) == [9, 0] and supply(s, 0) == (7, 1)


def test_ex17_the_large_farmer_counts_as_two():
    s = new_game()
    play(s, "U", 1, 0, 0, slot=2, large=True)
    play(s, "U", -1, 0, 0, slot=1)
    play(s, "E", 0, -1, 2)
    play(s, "V", 1, -1, 2, slot=2)
    play(s, "A", 2, 0, 1)
    play(s, "A", 2, -1, 1)
    end(s)
    assert scores(s) == [3, 3]


def test_ex18_ih_inner_field_and_a_ring_city_counted_once():
    s = new_game()
    play(s, "IH", 0, -1, 0, slot=4)
    play(s, "N", 1, -1, 0)
    play(s, "N", 1, -2, 3)
    play(s, "N", 0, -2, 2)
    assert scores(s) == [0, 0]
    end(s)
    assert scores(s) == [6, 0]


def test_ex19_ig_split_field():
    s = new_game()
    play(s, "IG", 0, -1, 2, slot=1)
    play(s, "E", 1, -1, 1, slot=1)
    end(s)
    assert scores(s) == [3, 3]


@pytest.mark.parametrize("tile", ["II", "ID"])
def test_ex20_ex21_village_and_monastery_split_the_road(tile):
    s = new_game()
    draw(s, tile)
    rules.apply_action(s, place(s, 1, 0, 0))
    west, east = (3, 2) if tile == "II" else (2, 1)
    mask = mask_of(s)
    assert mask[D.meeple_action(west)] and mask[D.meeple_action(east)]
    rules.apply_action(s, D.meeple_action(west))
    play(s, "W", -1, 0, 0)
    assert scores(s) == [3, 0]


@pytest.mark.parametrize("complete, expected", [(False, [3, 0]), (True, [8, 0])])
def test_ex22_incomplete_city_with_a_shield(complete, expected):
    s = new_game()
    play(s, "M", 0, -1, 2, slot=0)
    if complete:
        play(s, "E", 1, -1, 3)
        assert scores(s) == expected
    else:
        end(s)
        assert scores(s) == expected


@pytest.mark.parametrize("rule, expected", [("c2c3", 4), ("c1_early", 2)])
def test_ex23_knight_on_a_city_completed_the_same_turn(rule, expected):
    s = new_game(small_city_rule=rule)
    play(s, "E", 0, -1, 2, slot=0)
    assert scores(s) == [expected, 0] and supply(s, 0) == (7, 1)


def test_ex24_your_own_meeple_blocks_you():
    s = new_game()
    play(s, "U", 1, 0, 0, slot=0)
    play(s, "E", 0, -1, 2)
    draw(s, "U")
    rules.apply_action(s, place(s, 2, 0, 0))
    mask = mask_of(s)
    assert not mask[D.meeple_action(0)] and not mask[D.meeple_action(0, large=True)]
    assert mask[D.meeple_action(1)] and mask[D.meeple_action(2)] and mask[D.A_NO_MEEPLE]


def test_ex25_cathedral_city_and_a_farmer():
    s = new_game()
    play(s, "IK", 0, -1, 0)
    play(s, "K", 1, 0, 0, slot=2)
    play(s, "E", 0, -2, 2)
    play(s, "E", -1, -1, 1)
    play(s, "N", 1, -1, 3)
    assert scores(s) == [0, 0]
    end(s)
    assert scores(s) == [0, 3]


@pytest.mark.parametrize("score, track, tiles", [(54, 4, [50]), (100, 0, [100]),
                                                 (152, 2, [100, 50]), (49, 49, [])])
def test_ex26_points_tiles(score, track, tiles):
    assert score_track(score) == (track, tiles)             # CA-13.2: display only


def test_ex27_last_tile_unplaceable_ends_the_game():
    s = new_game()
    play(s, "E", 0, -1, 2)
    play(s, "U", 1, 0, 0, slot=0)
    s[D.G_PILE:D.G_PILE + D.NUM_TYPES] = 0
    s[D.G_PILE + D.TYPE_OF["C"]] = 1
    s[D.G_PILE_LEFT] = 1
    draw(s, "C")
    assert int(s[H_TO_MOVE]) == TERMINAL and scores(s) == [0, 2]
    assert supply(s, 1) == (7, 1)


def test_ex28_every_scoring_returns_exactly_one_large_meeple():
    s = new_game()
    play(s, "E", 0, -1, 2, slot=0, large=True)
    assert supply(s, 0) == (7, 1)


def test_ex29_setup_six_players():
    s = new_game(6)
    assert all(supply(s, seat) == (7, 1) for seat in range(6))
    from meeplezoo.envs.carcassonne.render import SEAT_COLOURS
    assert SEAT_COLOURS[5][0] == "pink"
    with pytest.raises(ValueError, match="Inns & Cathedrals"):
        new_game(6, expansion_inns_cathedrals=False)
    base = new_game(5, expansion_inns_cathedrals=False)
    assert supply(base, 0) == (7, 0) and int(base[D.G_PILE_LEFT]) == 71
    assert int(new_game()[D.G_PILE_LEFT]) == 89
    assert np.array_equal(base[D.G_PILE + D.NUM_BASE_TYPES:D.G_PILE + D.NUM_TYPES], [0] * 17)
