"""Kernel edge cases: tile draws, meeple masks under every option, turn order, board size."""

from __future__ import annotations

import numpy as np
import pytest
from carcassonne_setup import (
    draw,
    end,
    mask_of,
    meeple,
    new_game,
    no_meeple,
    place,
    placements,
    play,
    scores,
    supply,
)

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne import rules
from meeplezoo.envs.carcassonne.observe import observe
from meeplezoo.envs.carcassonne.render import render_ansi, render_rgb
from meeplezoo.envs.core.contract import H_PHASE, H_TO_MOVE
from meeplezoo.envs.core.rng import new_rng


def meeple_choices(state) -> list[int]:
    return [int(a) for a in np.flatnonzero(mask_of(state)) if a >= D.A_MEEPLE]


def test_chance_outcomes_are_the_public_pile():                # CA-6.5, DEC-1
    s = new_game()
    codes = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.int64)
    probs = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    count = rules.chance_outcomes(s, codes, probs)
    assert count == D.NUM_TYPES and abs(probs[:count].sum() - 1) < 1e-12
    assert probs[D.TYPE_OF["V"]] == pytest.approx(9 / 89)
    assert probs[D.START_TYPE] == pytest.approx(3 / 89)          # start tile not in the pile
    rng = new_rng(0)
    draws = np.bincount([rules.sample_chance(s, rng) for _ in range(40_000)],
                        minlength=D.NUM_TYPES)
    assert np.abs(draws / 40_000 - probs[:count]).max() < 0.01


def test_unplaceable_redraw_keeps_the_same_player():         # CA-6.4
    s = new_game(3)
    play(s, "E", 0, -1, 2)
    for tile in ("C", "IK", "IK", "IH"):
        draw(s, tile)
        assert int(s[H_TO_MOVE]) == -1 and int(s[D.G_ACTIVE]) == 1
    assert int(s[D.G_DISCARDED]) == 4 and int(s[D.G_PILE + D.TYPE_OF["IK"]]) == 0


def test_auto_pass_off_asks_even_when_only_no_meeple_is_legal():
    s = new_game(auto_pass_meeple=False)
    play(s, "N", 0, -1, 2, slot=0)
    draw(s, "IK")
    rules.apply_action(s, place(s, 1, -1, 0))
    assert int(s[H_PHASE]) == D.PH_MEEPLE and meeple_choices(s) == [D.A_NO_MEEPLE]


def test_farmers_off_removes_field_slots_and_field_scoring():
    s = new_game(farmers=False)
    draw(s, "K")
    rules.apply_action(s, place(s, 1, 0, 0))
    assert meeple_choices(s) == [D.meeple_action(0), D.meeple_action(0, True),
                                 D.meeple_action(1), D.meeple_action(1, True), D.A_NO_MEEPLE]
    rules.apply_action(s, D.A_NO_MEEPLE)
    end(s)
    assert scores(s) == [0, 0]


def test_large_meeple_only_with_the_expansion_and_only_once():
    base = new_game(expansion_inns_cathedrals=False)
    draw(base, "U")
    rules.apply_action(base, place(base, 1, 0, 0))
    assert all((a - D.A_MEEPLE) % 2 == 0 for a in meeple_choices(base) if a < D.A_NO_MEEPLE)
    s = new_game()
    play(s, "U", 1, 0, 0, slot=1, large=True)
    play(s, "U", -1, 0, 0)
    draw(s, "V")
    rules.apply_action(s, place(s, 0, 1, 3))
    assert all((a - D.A_MEEPLE) % 2 == 0 for a in meeple_choices(s) if a < D.A_NO_MEEPLE)


def test_an_empty_supply_leaves_only_the_large_meeple_then_nothing():
    s = new_game()
    s[D.G_NORMAL] = 0
    draw(s, "U")
    rules.apply_action(s, place(s, 1, 0, 0))
    assert meeple_choices(s) == [D.meeple_action(slot, True) for slot in range(3)] + [
        D.A_NO_MEEPLE]
    s[D.G_LARGE] = 0
    assert meeple_choices(s) == [D.A_NO_MEEPLE]


def test_scores_before_the_end_are_as_if_the_game_ended_now():
    s = new_game()
    play(s, "A", 0, 1, 0, slot=0, large=True)
    out = np.zeros(2, dtype=np.int64)
    rules.scores(s, out)
    assert out.tolist() == [2, 0] and scores(s) == [0, 0]   # EX-15 projected


def test_turn_order_follows_seats_from_the_start_seat():       # CA-2.6
    s = new_game(4, start_seat=2)
    seen = []
    for x in range(1, 6):
        seen.append(int(s[D.G_ACTIVE]))
        play(s, "U", x, 0, 0)
    assert seen == [2, 3, 0, 1, 2]


@pytest.mark.parametrize("layout", ["frontier", "grid"])
def test_the_board_holds_a_straight_line_of_89_tiles(layout):      # DEC-2, DEC-5
    s = new_game(placement_layout=layout)
    s[D.G_PILE:D.G_PILE + D.NUM_TYPES] = 0
    s[D.G_PILE + D.TYPE_OF["U"]] = 89
    s[D.G_PILE_LEFT] = 89
    most = 0
    for x in range(1, 90):
        draw(s, "U")
        most = max(most, int(s[D.G_FRONTIER]))
        action = place(s, x, 0, 0)
        # The last tile goes on the frontier's last slot: 2 * 89 + 2 = 180 cells (DEC-5).
        assert action < (D.NUM_PLACEMENTS if layout == "frontier" else D.GRID_PLACEMENTS)
        rules.apply_action(s, action)
        if int(s[H_PHASE]) == D.PH_MEEPLE:
            rules.apply_action(s, meeple(s, 0) if x == 1 else no_meeple(s))
    assert most == D.FRONTIER_SLOTS
    assert int(s[H_TO_MOVE]) == -2 and scores(s) == [90, 0]  # the incomplete road, 90 tiles
    out = np.zeros(D.OBS_SIZE, dtype=np.float32)
    observe(s, 0, out)
    assert out[D.V_OUTSIDE] == pytest.approx((90 - D.OBS_WINDOW) / 10)
    assert "x -1..90" in render_ansi(s) and render_rgb(s).shape[2] == 3
    assert D.grid_placement_action(-90, -90, 0) == 0


def test_meeple_mask_equals_the_meeple_list():
    from meeplezoo.envs.carcassonne.masks import legal_actions

    s = new_game()
    play(s, "N", 0, -1, 2, slot=0)
    draw(s, "L")
    rules.apply_action(s, place(s, 1, 0, 0))
    out = np.zeros(64, dtype=np.int64)
    count = legal_actions(s, out)
    assert sorted(out[:count].tolist()) == meeple_choices(s)
    assert supply(s, 1) == (7, 1)


def test_dedupe_rotations_keeps_one_of_each_identical_board():        # DEC-6
    s = new_game(dedupe_rotations=True)
    play(s, "E", 0, -1, 2)
    assert len(placements(s, "B")) == 4 and len(placements(s, "X")) == 2   # EX-14: 16, 8
    full = new_game()
    play(full, "E", 0, -1, 2)
    for tile in ("U", "H", "V", "IE"):
        kept = placements(s, tile)
        assert kept <= placements(full, tile)
        assert {(x, y) for x, y, _ in kept} == {(x, y) for x, y, _ in placements(full, tile)}
