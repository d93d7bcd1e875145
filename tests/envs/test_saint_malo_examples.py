"""The worked examples WE-1 .. WE-19 of rules/saint_malo.md §15, each with its exact outcome."""

from __future__ import annotations

import numpy as np
import pytest
from saint_malo_setup import (
    CHARACTER_ACTION,
    base,
    draw,
    empty_count,
    fill_city,
    get,
    legal,
    new_game,
    place,
    play,
    put,
    set_dice,
)

from meeplezoo.envs.core.contract import CHANCE, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo import rules
from meeplezoo.envs.saint_malo.city import church_rows_value, defence, end_score

LOG_K = {k: D.A_LOG + k - 1 for k in range(1, 6)}
CRATE_K = {k: D.A_CRATE + k - 1 for k in range(1, 6)}
WALL_K = {k: D.A_WALL + k - 1 for k in range(1, 6)}
CHURCH_K = {k: D.A_CHURCH + k - 1 for k in range(1, 6)}


def church_value(sizes, row_values=(0, 1, 4, 8, 13, 20)):
    counts = np.bincount(sizes, minlength=6).astype(np.int64)
    return church_rows_value(counts, np.array(row_values, dtype=np.int64))


def test_we1_sample_city_board_two_architects_use_five_logs():
    state = new_game(2)
    put(state, 0, coins=3, logs=2)
    set_dice(state, "LLLCH", seat=0)
    play(state, LOG_K[3])                                  # SM-7.1: 2 coins per delivery
    assert (get(state, 0, D.P_COINS), get(state, 0, D.P_LOGS)) == (1, 5)
    set_dice(state, "HHHCC", seat=0)
    play(state, CHARACTER_ACTION["architect"], place(3, 3), place(2, 2), place(2, 3), place(2, 4))
    # SM-7.5.3: at most three houses per architect, so the phase ends by itself.
    assert state[H_PHASE] != D.PH_HOUSES and get(state, 0, D.P_LOGS) == 2
    set_dice(state, "HHHCC", seat=0)
    play(state, CHARACTER_ACTION["architect"], place(4, 4), place(5, 5), place(5, 4))
    assert get(state, 0, D.P_LOGS) == 0
    assert get(state, 0, D.P_VP) == 15                     # 5 houses x 3 VP
    # One soldier and a completed S side: defence 3, and the side paid +3 VP.
    set_dice(state, "HHWWW", seat=0)
    play(state, CHARACTER_ACTION["soldier"], place(1, 1))
    draw(state, 0, {(6, c): "wall" for c in range(1, 5)})
    set_dice(state, "WWCCL", seat=0)
    play(state, WALL_K[1], place(6, 5))
    assert defence(state, base(0)) == 3
    assert get(state, 0, D.P_VP) == 15 + 3


@pytest.mark.parametrize("counts_printed_coins, expected", [(True, 7), (False, 4)])
def test_we1_coin_readings_a30(counts_printed_coins, expected):
    """A-30: 10 coins gained, 6 spent, with or without the 3 printed coins."""
    start = 3 if counts_printed_coins else 0
    assert start + 10 - 6 == expected


def test_we2_anna_crates():
    state = new_game(2)
    put(state, 0, coins=4)
    set_dice(state, "CCWHS", seat=0)
    crate_options = legal(state) & set(CRATE_K.values())
    assert crate_options == {CRATE_K[1], CRATE_K[2], CRATE_K[3], CRATE_K[4]}  # k = 5 illegal
    play(state, CRATE_K[4], place(3, 3), place(3, 4), place(4, 4), place(4, 5))
    assert get(state, 0, D.P_COINS) == 0                   # two changes, 2 coins each
    assert state[D.G_PIRATE_BOXES] == 1


def test_we3_partial_use_of_heads():
    state = new_game(2)
    put(state, 0, coins=0)
    set_dice(state, "HHHHX", seat=0)
    options = legal(state)
    assert CHARACTER_ACTION["soldier"] in options and CHARACTER_ACTION["juggler"] in options
    assert CHARACTER_ACTION["noble"] not in options
    put(state, 0, coins=2)
    assert CHARACTER_ACTION["noble"] in legal(state)
    play(state, CHARACTER_ACTION["noble"], place(3, 3))
    assert (get(state, 0, D.P_COINS), get(state, 0, D.P_VP)) == (0, 7)


def test_we4_one_church_one_character():
    state = new_game(2)
    put(state, 0, coins=0)
    set_dice(state, "XXXLW", seat=0)
    assert legal(state) & set(CHURCH_K.values()) == {CHURCH_K[1], CHURCH_K[2], CHURCH_K[3]}
    play(state, CHURCH_K[3], place(2, 2))
    assert state[H_TO_MOVE] == CHANCE                      # one church ends the action
    board = state[base(0):base(0) + 49]
    assert (board >= D.CHURCH_1).sum() == 1 and board[7 * 2 + 2] == D.CHURCH_1 + 2
    set_dice(state, "HHHHL", seat=0)
    play(state, CHARACTER_ACTION["citizen"], place(4, 4))
    board = state[base(0):base(0) + 49]
    assert (board >= D.CITIZEN).sum() == 1                 # a citizen, not also an architect


def test_we5_broken_side():
    state = new_game(2)
    draw(state, 0, {(0, c): "wall" for c in range(1, 5)})
    set_dice(state, "CLLLL", seat=0)
    play(state, CRATE_K[1], place(0, 5))
    assert get(state, 0, D.P_SIDES_BROKEN) == 0b0001 and get(state, 0, D.P_SIDES_DONE) == 0
    set_dice(state, "WWWWW", seat=0)
    play(state, WALL_K[1], place(1, 0))                    # walls still allowed elsewhere
    assert get(state, 0, D.P_SIDES_DONE) == 0 and defence(state, base(0)) == 0


def test_we6_crate_group_must_be_orthogonally_connected():
    state = new_game(2)
    set_dice(state, "CCCCH", seat=0)
    play(state, CRATE_K[4], place(4, 2), place(4, 3), place(4, 4), place(5, 3))   # T shape
    state = new_game(2)
    set_dice(state, "CCCCH", seat=0)
    play(state, CRATE_K[4], place(4, 2), place(4, 3))
    assert place(5, 4) not in legal(state) and place(3, 5) not in legal(state)
    state = new_game(2)
    set_dice(state, "CCCCH", seat=0)
    play(state, CRATE_K[4], place(4, 2))
    assert place(5, 3) not in legal(state)                 # diagonal contact only


def test_we7_tower_rewards():
    state = new_game(2)
    draw(state, 0, {(6, c): "wall" for c in range(1, 5)})
    set_dice(state, "WLLLL", seat=0)
    play(state, WALL_K[1], place(6, 5))
    assert get(state, 0, D.P_VP) == 3 and defence(state, base(0)) == 2
    draw(state, 0, {(r, 6): "wall" for r in range(1, 5)})
    set_dice(state, "WLLLL", seat=0)
    play(state, WALL_K[1], place(5, 6))
    assert get(state, 0, D.P_COINS) == 3 + 2
    draw(state, 0, {(0, c): "wall" for c in range(1, 5)})
    draw(state, 0, {(2, 2): "crate", (2, 3): "crate", (2, 4): "crate"})
    set_dice(state, "WLLLL", seat=0)
    play(state, WALL_K[1], place(0, 5))
    assert state[H_PHASE] == D.PH_BONUS_CHOICE
    assert legal(state) == {CHARACTER_ACTION[n] for n in D.CHARACTER_NAMES[:5]}  # no J, N
    play(state, CHARACTER_ACTION["merchant"], place(1, 3))
    assert get(state, 0, D.P_COINS) == 3 + 2 + 3


def test_we8_church_of_four_from_five_crosses():
    state = new_game(2)
    set_dice(state, "XXXXX", seat=0)
    play(state, CHURCH_K[4], place(3, 3))
    assert state[base(0) + 7 * 3 + 3] == D.CHURCH_1 + 3


def test_we9_michalis_church_rows():
    assert church_value([1, 1, 1, 2, 2, 3, 4, 5, 5]) == 20 + 4 + 1


def test_we10_row_one_to_four_then_five():
    assert church_value([1, 2, 3, 4]) == 13
    assert church_value([1, 2, 3, 4, 5]) == 20


def test_we11_giannis_architect():
    def architect_turn():
        state = new_game(2)
        put(state, 0, logs=2, coins=3)
        set_dice(state, "HHHHW", seat=0)
        play(state, CHARACTER_ACTION["architect"], place(4, 4))
        return state

    state = architect_turn()
    play(state, place(3, 5), place(2, 5))
    assert (get(state, 0, D.P_LOGS), get(state, 0, D.P_VP), get(state, 0, D.P_COINS)) == (0, 6, 3)
    assert state[H_TO_MOVE] == CHANCE                      # no logs left: the turn is over
    state = architect_turn()
    play(state, place(3, 5))
    assert place(5, 3) not in legal(state)                 # not connected to the first house
    state = architect_turn()
    assert place(2, 5) not in legal(state) and place(1, 5) not in legal(state)


def test_we12_michalis_merchants():
    state = new_game(2)
    crates = [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 1), (3, 3)]
    draw(state, 0, {rc: "crate" for rc in crates})
    put(state, 0, coins=0)
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["merchant"], place(2, 2))
    assert get(state, 0, D.P_COINS) == 7
    set_dice(state, "HHHLL", seat=0)
    play(state, CHARACTER_ACTION["merchant"], place(3, 2))
    assert get(state, 0, D.P_COINS) == 7 + 4               # the crates are not used up
    set_dice(state, "CLLLL", seat=0)
    play(state, CRATE_K[1], place(4, 1))
    assert get(state, 0, D.P_COINS) == 11


def test_we13_stefanos_jugglers():
    state = new_game(2)
    draw(state, 0, {(2, 2): "architect", (2, 3): "architect", (2, 4): "merchant",
                    (3, 2): "soldier", (3, 4): "crate", (4, 2): "house"})
    set_dice(state, "HHHHL", seat=0)
    play(state, CHARACTER_ACTION["juggler"], place(3, 3))
    assert get(state, 0, D.P_VP) == 6
    draw(state, 0, {(4, 5): "citizen", (5, 4): "noble"})
    set_dice(state, "HHHHL", seat=0)
    play(state, CHARACTER_ACTION["juggler"], place(4, 4))
    assert get(state, 0, D.P_VP) == 12


def test_we14_priest():
    state = new_game(2)
    draw(state, 0, {(2, 2): "church1", (3, 4): "church3"})
    set_dice(state, "HHLLL", seat=0)
    play(state, CHARACTER_ACTION["priest"], place(2, 3))
    assert get(state, 0, D.P_VP) == 2
    set_dice(state, "XLLLL", seat=0)
    play(state, CHURCH_K[1], place(1, 3))
    assert get(state, 0, D.P_VP) == 2


def test_we15_six_boxes_per_row_with_three_players():
    state = new_game(3)
    state[D.G_PIRATE_BOXES] = 5
    set_dice(state, "SLLLL", seat=0)
    play(state, D.A_PASS)
    assert state[D.G_ATTACKS_DONE] == 1 and state[D.G_LAST_ATTACKS] == 1
    assert [get(state, s, D.P_CANNONS_LOST) for s in range(3)] == [1, 1, 1]   # strength 1


@pytest.mark.parametrize("walls_complete_side", [False, True])
def test_we16_michalis_pirates(walls_complete_side):
    state = new_game(4)
    state[D.G_PIRATE_BOXES], state[D.G_ATTACKS_DONE] = 21, 2
    soldiers = {1: 3, 2: 5, 3: 6}
    for seat, count in soldiers.items():
        draw(state, seat, {(1 + i // 5, 1 + i % 5): "soldier" for i in range(count)})
    if walls_complete_side:
        draw(state, 0, {(1 + i // 5, 1 + i % 5): "soldier" for i in range(4)})
        draw(state, 0, {(6, c): "wall" for c in range(1, 4)})
    put(state, 0, coins=2)
    set_dice(state, "WHSSS", seat=0)
    play(state, WALL_K[2], place(6, 4), place(6, 5))
    assert get(state, 0, D.P_COINS) == 0
    assert state[D.G_PIRATE_BOXES] == 24 and state[D.G_ATTACKS_DONE] == 3   # strength 6
    lost = [get(state, s, D.P_CANNONS_LOST) for s in range(4)]
    assert lost == ([0, 1, 1, 0] if walls_complete_side else [1, 1, 1, 0])


def finish_turn(state, seat, rng):
    """Resolve the pending roll, then have ``seat`` pass."""
    assert state[D.G_ACTIVE] == seat
    rules.resolve_chance(state, rng)
    while state[H_PHASE] == D.PH_ROLL_DECISION:
        play(state, D.A_STOP_ROLLING)
    play(state, D.A_PASS)


@pytest.mark.parametrize("trigger_seat, then_play", [(1, [2]), (2, []), (0, [1, 2])])
def test_we17_finish_the_round(trigger_seat, then_play):
    state = new_game(3, start_seat=0)
    rng = np.array([1, 2], dtype=np.uint64)
    fill_city(state, trigger_seat, leave=[(3, 3)])
    set_dice(state, "XLLLL", seat=trigger_seat)
    play(state, CHURCH_K[1], place(3, 3))
    assert state[D.G_END_TRIGGERED] == 1
    for seat in then_play:
        assert state[H_TO_MOVE] == CHANCE
        finish_turn(state, seat, rng)
    assert state[H_TO_MOVE] == TERMINAL and state[H_PHASE] == D.PH_GAME_OVER


def test_we18_final_scoring():
    state = new_game(3)
    draw(state, 0, {(1, 1): "church1", (1, 2): "church2", (1, 3): "church3"})
    fill_city(state, 0)
    put(state, 0, vp=40, coins=7, logs=2, cannons_lost=2)
    row_three = int(state[D.C_CHURCH_T + 3])
    assert end_score(state, base(0)) == 40 + 5 + 3 + 2 + row_three - 10 == 48
    state = new_game(3, church_row_values=(0, 1, 4, 9, 13, 20))   # A-9 is configurable
    draw(state, 0, {(1, 1): "church1", (1, 2): "church2", (1, 3): "church3"})
    fill_city(state, 0)
    put(state, 0, vp=40, coins=7, logs=2, cannons_lost=2)
    assert end_score(state, base(0)) == 49


def test_we19_tie_break_on_empty_spaces():
    state = new_game(2)
    fill_city(state, 0)
    fill_city(state, 1, leave=[(3, 3), (3, 4), (3, 5)])
    put(state, 0, vp=52 - 5 - 1, logs=0)                   # +5 full city, +1 from 3 coins
    put(state, 1, vp=52 - 1, logs=0)
    scores, ties, rewards = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(2)
    rules.scores(state, scores)
    rules.tiebreaks(state, ties)
    assert scores.tolist() == [52, 52] and ties.tolist() == [0, 3]
    final_rewards(scores, ties, 2, 0, 50.0, rewards)
    assert rewards.tolist() == [-1.0, 1.0]                 # B wins
    ties[:] = 3
    final_rewards(scores, ties, 2, 0, 50.0, rewards)
    assert rewards.tolist() == [0.0, 0.0]                  # shared win
    assert empty_count(state, 1) == 3
