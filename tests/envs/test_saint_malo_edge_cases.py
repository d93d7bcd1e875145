"""The edge cases EC-1 .. EC-21 of rules/saint_malo.md §15, each with its exact outcome."""

from __future__ import annotations

import numpy as np
from saint_malo_setup import (
    CHARACTER_ACTION,
    FACE,
    base,
    draw,
    fill_city,
    get,
    legal,
    new_game,
    place,
    play,
    put,
    set_dice,
)
from test_saint_malo_examples import CHURCH_K, CRATE_K, LOG_K, WALL_K, church_value

from meeplezoo.envs.core.contract import CHANCE, H_PHASE, H_TO_MOVE
from meeplezoo.envs.saint_malo import chance
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo.city import defence, end_score
from meeplezoo.envs.saint_malo.dice import canonical_reroll_masks, encode_counts


def test_ec1_two_attacks_in_one_turn():
    state = new_game(2)
    state[D.G_PIRATE_BOXES] = 3
    set_dice(state, "SSSSS", seat=0)
    assert legal(state) == {D.A_PASS}                      # only PASS is possible
    play(state, D.A_PASS)
    assert state[D.G_PIRATE_BOXES] == 8 and state[D.G_ATTACKS_DONE] == 2
    assert get(state, 0, D.P_CANNONS_LOST) == 2 and state[D.G_LAST_ATTACKS] == 2


def test_ec2_defence_equal_to_strength_holds():
    state = new_game(2)
    state[D.G_PIRATE_BOXES], state[D.G_ATTACKS_DONE] = 7, 1   # next box: attack 2 (3)
    draw(state, 0, {(2, 2): "soldier"})
    draw(state, 0, {(6, c): "wall" for c in range(1, 6)})
    put(state, 0, sides_done=0b0100)
    assert defence(state, base(0)) == 3
    set_dice(state, "SLLLL", seat=0)
    play(state, D.A_PASS)
    assert get(state, 0, D.P_CANNONS_LOST) == 0 and get(state, 1, D.P_CANNONS_LOST) == 1


def test_ec3_action_resolves_before_swords():
    state = new_game(2)
    state[D.G_PIRATE_BOXES], state[D.G_ATTACKS_DONE] = 7, 1
    draw(state, 0, {(3, 3): "soldier"})
    draw(state, 0, {(0, c): "wall" for c in range(1, 5)})
    set_dice(state, "WSLLC", seat=0)
    play(state, WALL_K[1], place(0, 5))
    assert state[H_PHASE] == D.PH_BONUS_CHOICE
    play(state, CHARACTER_ACTION["soldier"], place(4, 4))
    assert defence(state, base(0)) == 4
    assert state[D.G_ATTACKS_DONE] == 2 and get(state, 0, D.P_CANNONS_LOST) == 0


def test_ec4_no_boxes_after_the_sixth_attack():
    state = new_game(2)
    state[D.G_PIRATE_BOXES], state[D.G_ATTACKS_DONE] = 24, 6
    set_dice(state, "SSSCC", seat=0)
    assert CRATE_K[3] not in legal(state)                  # swords still can't change
    play(state, CRATE_K[2], place(3, 3), place(3, 4))
    assert state[D.G_PIRATE_BOXES] == 24 and state[D.G_ATTACKS_DONE] == 6


def test_ec4_leftover_swords_of_the_last_row_are_dropped():
    state = new_game(2)
    state[D.G_PIRATE_BOXES], state[D.G_ATTACKS_DONE] = 23, 5
    set_dice(state, "SSSLL", seat=0)
    play(state, D.A_PASS)
    assert state[D.G_PIRATE_BOXES] == 24 and state[D.G_ATTACKS_DONE] == 6   # SM-9.4


def test_ec5_bonus_character_lost_when_the_city_is_full():
    state = new_game(2)
    draw(state, 0, {(0, c): "wall" for c in range(1, 5)})
    fill_city(state, 0, leave=[(0, 5)])
    set_dice(state, "WLLLL", seat=0)
    play(state, WALL_K[1], place(0, 5))
    assert get(state, 0, D.P_SIDES_DONE) == 0b0001
    assert state[H_TO_MOVE] == CHANCE and state[D.G_END_TRIGGERED] == 1
    assert (state[base(0):base(0) + 49] >= D.CITIZEN).sum() == 0
    put(state, 0, coins=0, logs=0)
    assert end_score(state, base(0)) == 5                  # only the full-city bonus


def test_ec6_wood_costs():
    state = new_game(2)
    put(state, 0, coins=3, logs=2)
    set_dice(state, "LLCSH", seat=0)
    options = legal(state)
    assert LOG_K[2] in options and LOG_K[3] not in options
    play(state, LOG_K[2])
    assert (get(state, 0, D.P_COINS), get(state, 0, D.P_LOGS)) == (1, 4)
    set_dice(state, "LLCSH", seat=0)
    assert not legal(state) & set(LOG_K.values())          # coins 1: no delivery


def test_ec7_diagonal_contact_connects_neither_crates_nor_houses():
    state = new_game(2)
    set_dice(state, "CCLLL", seat=0)
    play(state, CRATE_K[2], place(2, 2))
    assert place(3, 3) not in legal(state)
    state = new_game(2)
    put(state, 0, logs=3)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["architect"], place(2, 3), place(2, 2))
    assert place(3, 3) not in legal(state) and place(3, 2) in legal(state)


def test_ec8_houses_must_touch_the_new_architect():
    state = new_game(2)
    draw(state, 0, {(1, 1): "architect"})
    put(state, 0, logs=3)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["architect"], place(5, 5))
    assert place(2, 2) not in legal(state) and place(4, 4) in legal(state)


def test_ec9_juggler_counts_types_not_characters():
    state = new_game(2)
    draw(state, 0, {(2, 2): "juggler", (2, 4): "juggler", (4, 3): "house", (3, 4): "crate"})
    set_dice(state, "HHHHL", seat=0)
    play(state, CHARACTER_ACTION["juggler"], place(3, 3))
    assert get(state, 0, D.P_VP) == 2


def test_ec10_neighbours_across_a_tower_corner():
    state = new_game(2)
    draw(state, 0, {(1, 0): "crate"})
    put(state, 0, coins=0)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["merchant"], place(0, 1))
    assert get(state, 0, D.P_COINS) == 1


def test_ec11_odd_coins_round_down():
    state = new_game(2)
    put(state, 0, coins=7, logs=0)
    assert end_score(state, base(0)) == 3
    assert get(state, 0, D.P_COINS) == 7                   # nothing is spent


def test_ec12_church_sets():
    assert church_value([2, 3, 4, 5]) == 0
    assert church_value([1, 1, 2]) == 5
    state = new_game(2)
    assert church_value([1, 2, 2, 3], state[D.C_CHURCH_T:D.C_CHURCH_T + 6]) == 8


def test_ec13_swords_may_be_rerolled():
    state = new_game(2)
    set_dice(state, "SSLLL", seat=0, phase=D.PH_ROLL_DECISION, rolls_used=1)
    assert 0b00011 in legal(state)                         # re-roll both swords
    play(state, 0b00011)
    assert state[H_TO_MOVE] == CHANCE
    heads = np.zeros(6, dtype=np.int64)
    heads[FACE["H"]] = 2
    chance.apply_chance(state, encode_counts(heads))
    assert state[D.G_DICE:D.G_DICE + 5].tolist() == [D.LOG] * 3 + [D.HEAD] * 2
    play(state, D.A_STOP_ROLLING, D.A_PASS)
    assert state[D.G_PIRATE_BOXES] == 0


def test_ec14_walls_only_outside_others_break_sides():
    state = new_game(2)
    set_dice(state, "WWLLL", seat=0)
    play(state, WALL_K[1])
    cells = {a - D.A_PLACE for a in legal(state)}
    assert cells == {int(c) for c in D.SIDE_CELLS.ravel()}
    state = new_game(2)
    set_dice(state, "HHLLL", seat=0)
    play(state, CHARACTER_ACTION["soldier"], place(3, 6))
    assert get(state, 0, D.P_SIDES_BROKEN) == 0b0010       # E side broken


def test_ec15_architect_by_three_changes():
    state = new_game(2)
    put(state, 0, coins=6)
    set_dice(state, "WWCXS", seat=0)
    options = legal(state)
    assert CHARACTER_ACTION["architect"] in options and CHARACTER_ACTION["noble"] not in options
    play(state, CHARACTER_ACTION["architect"], place(3, 3))
    assert get(state, 0, D.P_COINS) == 0


def test_ec16_architect_logs():
    state = new_game(2)
    put(state, 0, logs=0)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["architect"], place(3, 3))
    assert get(state, 0, D.P_VP) == 0 and state[H_TO_MOVE] == CHANCE
    state = new_game(2)
    put(state, 0, logs=5)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["architect"], place(3, 3), place(3, 4), place(3, 5))
    assert D.A_STOP_HOUSES in legal(state) and state[H_PHASE] == D.PH_HOUSES
    play(state, place(2, 5))
    assert state[H_TO_MOVE] == CHANCE and get(state, 0, D.P_LOGS) == 2
    assert get(state, 0, D.P_VP) == 9


def test_ec17_attacks_after_the_trigger_hit_everyone():
    state = new_game(2, start_seat=0)
    fill_city(state, 0, leave=[(3, 3)])
    set_dice(state, "XLLLL", seat=0)
    play(state, CHURCH_K[1], place(3, 3))
    state[D.G_PIRATE_BOXES] = 3
    set_dice(state, "SLLLL", seat=1)
    play(state, D.A_PASS)
    assert get(state, 0, D.P_CANNONS_LOST) == 1 and get(state, 1, D.P_CANNONS_LOST) == 1


def test_ec18_only_full_cities_get_five():
    state = new_game(2)
    fill_city(state, 0)
    fill_city(state, 1, leave=[(3, 3)])
    put(state, 0, coins=0, logs=0)
    put(state, 1, coins=0, logs=0)
    assert end_score(state, base(0)) == 5 and end_score(state, base(1)) == 0


def test_ec19_scores_are_not_clamped():
    state = new_game(2)
    put(state, 0, vp=0, coins=0, logs=0, cannons_lost=3)
    assert end_score(state, base(0)) == -15


def test_ec20_character_values_fixed_at_placement():
    state = new_game(2)
    put(state, 0, coins=0, logs=0)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["merchant"], place(3, 3))
    assert get(state, 0, D.P_COINS) == 0
    set_dice(state, "CCCCC", seat=0)
    play(state, CRATE_K[3], place(2, 3), place(2, 4), place(3, 4))
    assert get(state, 0, D.P_COINS) == 0 and end_score(state, base(0)) == 0


def test_ec21_reroll_copies_are_masked_out():
    state = new_game(2)
    set_dice(state, "LLLCH", seat=0, phase=D.PH_ROLL_DECISION, rolls_used=1)
    rerolls = {a for a in legal(state) if a < D.A_PASS}
    assert len(rerolls) == 4 * 2 * 2                        # prod(n_f + 1), stop included
    dice = state[D.G_DICE:D.G_DICE + 5].copy()
    assert rerolls == set(canonical_reroll_masks(dice))
    state = new_game(2, dedupe_rerolls=False)
    set_dice(state, "LLLCH", seat=0, phase=D.PH_ROLL_DECISION, rolls_used=1)
    assert len({a for a in legal(state) if a < D.A_PASS}) == 32
