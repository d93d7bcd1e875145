"""The Hansa spec's edge cases EC-1 .. EC-24 (EC-22 lives in the random-game tests)."""

from __future__ import annotations

import numpy as np
from hansa_setup import (
    CITY,
    base,
    clear_board,
    deal,
    give,
    hand,
    init_place,
    legal,
    mark,
    money,
    move,
    new_game,
    place,
    play,
    put_stalls,
    set_money,
    set_turn,
    set_warehouse,
    skip_setup,
    small_board,
    sold,
    stalls,
    tax,
    token,
)

from meeplezoo.envs.core.contract import CHANCE, H_PHASE, H_TO_MOVE
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa import rules
from meeplezoo.envs.hansa.masks import buy_price

BUYS = {D.A_BUY, D.A_BUY + 1}


def position(players=3, ship="DAN", seat=0, **options):
    state = new_game(players, **options)
    skip_setup(state)
    clear_board(state)
    set_turn(state, seat, ship=ship)
    set_money(state, seat, 3)
    return state


def test_ec1_free_buy_with_no_money():
    state = position()
    put_stalls(state, 0, DAN=1)
    set_money(state, 0, 0)
    assert D.A_BUY in legal(state)
    play(state, D.A_BUY)
    assert money(state, 0) == 0 and sum(hand(state, 0).values()) == 1


def test_ec2_a_tied_buyer_pays_the_bank():
    state = position()
    put_stalls(state, 0, DAN=2)
    put_stalls(state, 1, DAN=2)
    set_money(state, 0, 0)
    assert not legal(state) & BUYS
    set_money(state, 0, 1)
    taken = int(state[D.G_BANK_TAKEN])
    play(state, D.A_BUY)
    assert money(state, 0) == 0 and money(state, 1) == 3
    assert state[D.G_BANK_TAKEN] == taken + 1


def test_ec3_no_stalls_pays_the_bank():
    state = position()
    taken = int(state[D.G_BANK_TAKEN])
    play(state, D.A_BUY)
    assert money(state, 0) == 2 and state[D.G_BANK_TAKEN] == taken + 1


def test_ec4_second_buy_needs_a_new_visit():
    state = position(ship="CPH")
    set_money(state, 0, 4)
    assert set(range(D.A_BUY, D.A_BUY + 2)) <= legal(state)   # CPH has two filled spaces
    play(state, D.A_BUY)
    assert not legal(state) & BUYS
    play(state, move("LUB"), move("AAL"), move("CPH"))
    assert money(state, 0) == 0
    state[base(0) + D.P_MONEY] = 1
    state[D.G_BANK_PAID] += 1
    play(state, D.A_BUY + 1)


def refill_across_stacks(left_in_stack4: int):
    state = position(players=4)
    for city in ("TON", "AAL", "CPH", "KAL"):                 # 1 + 1 + 2 + 1 = 5 spaces
        set_warehouse(state, city, *([None] * int(state[D.C_SPACES + CITY[city]])))
    state[D.G_DRAWS] = state[D.G_STACK_END + 3] - left_in_stack4
    state[H_PHASE] = D.PH_REFILL
    play(state, D.A_REFILL)
    flags = []
    while state[H_TO_MOVE] == CHANCE:
        deal(state, ["A1"])
        flags.append(int(state[D.G_END_TRIGGERED]))
    return flags


def test_ec5_refill_crossing_into_stack_five_triggers_the_end():
    assert refill_across_stacks(2) == [0, 0, 1, 1, 1]     # 2 from stack 4, 3 from stack 5
    assert refill_across_stacks(5) == [0, 0, 0, 0, 0]     # stack 4 emptied exactly: no trigger


def test_ec6_all_empty_refill_is_compulsory():
    state = position()
    for city in D.CITY_CODES:
        set_warehouse(state, city, *([None] * int(state[D.C_SPACES + CITY[city]])))
    state[H_PHASE] = D.PH_REFILL
    assert legal(state) == {D.A_REFILL}
    rules.begin_turn(state, 1)                            # the engine makes the refill itself
    assert state[H_PHASE] == D.PH_DRAW and state[H_TO_MOVE] == CHANCE
    assert money(state, 1) == 3 + 3 - 1


def test_ec7_refill_masked_when_full_or_supply_empty():
    state = position()
    state[H_PHASE] = D.PH_REFILL
    assert legal(state) == {D.A_SKIP_REFILL}              # no empty space
    rules.begin_turn(state, 1)
    assert state[H_PHASE] == D.PH_ACTIONS                 # nothing to decide: skipped
    state = position()
    for city in D.CITY_CODES:
        set_warehouse(state, city, *([None] * int(state[D.C_SPACES + CITY[city]])))
    state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_TYPES] = 0
    state[H_PHASE] = D.PH_REFILL
    assert legal(state) == {D.A_SKIP_REFILL}


def test_ec8_place_up_to_the_stall_supply():
    state = position()
    give(state, 0, "A3")
    put_stalls(state, 0, TON=14)                          # one stall left in supply
    placing = {a for a in legal(state) if D.A_PLACE <= a < D.A_SELL_MARK}
    assert placing == {place("A", 1)}
    play(state, place("A", 1))
    assert stalls(state, 0, "DAN") == 1 and hand(state, 0) == {}
    state = position(place_exact=True)
    give(state, 0, "A3")
    put_stalls(state, 0, TON=14)
    placing = {a for a in legal(state) if D.A_PLACE <= a < D.A_SELL_MARK}
    assert placing == {place("A", 3)}
    play(state, place("A", 3))
    assert stalls(state, 0, "DAN") == 1 and hand(state, 0) == {}


def test_ec9_no_stalls_no_placement():
    state = position()
    give(state, 0, "A3", "B2")
    put_stalls(state, 0, TON=15)
    assert not {a for a in legal(state) if D.A_PLACE <= a < D.A_SELL_MARK}


def test_ec10_selling_the_last_stall_gives_a_rival_the_monopoly():
    state = position()
    give(state, 0, "A1", "A2")
    assert not {a for a in legal(state) if D.A_SELL_MARK <= a < D.A_SELL_COMMIT}
    put_stalls(state, 0, DAN=1)
    put_stalls(state, 1, DAN=1)
    assert rules.player_score(state, 1) == 2
    play(state, mark("A1"), mark("A2"), D.A_SELL_COMMIT)
    assert stalls(state, 0, "DAN") == 0
    assert rules.player_score(state, 0) == 5 and rules.player_score(state, 1) == 4


def test_ec11_partial_sale_and_whole_colour_option():
    state = position()
    put_stalls(state, 0, DAN=1)
    give(state, 0, "A1", "A2", "A3")
    play(state, mark("A2"), mark("A3"), D.A_SELL_COMMIT)
    assert hand(state, 0) == {"A1": 1} and sold(state, 0) == {"A2": 1, "A3": 1}
    state = position(sell_whole_colour=True)
    put_stalls(state, 0, DAN=1)
    give(state, 0, "A1", "A2", "A3")
    play(state, mark("A2"))
    assert legal(state) == {D.A_SELL_COMMIT}
    play(state, D.A_SELL_COMMIT)
    assert hand(state, 0) == {} and sold(state, 0) == {"A1": 1, "A2": 1, "A3": 1}


def test_ec12_an_opponent_loses_exactly_the_fewest_barrels():
    state = position()
    put_stalls(state, 0, DAN=1)
    give(state, 0, "A1", "A1")
    give(state, 1, "A3", "A2")
    play(state, mark("A1"), mark("A1"), D.A_SELL_COMMIT)
    assert hand(state, 1) == {"A3": 1}


def test_ec13_two_colour_sale():
    state = position()
    put_stalls(state, 0, DAN=1)
    give(state, 0, "A1", "A1", "B1", "B2")
    give(state, 1, "A2", "B3", "C1")
    give(state, 2, "C2")
    play(state, mark("A1"), mark("A1"), mark("B1"), mark("B2"), D.A_SELL_COMMIT)
    assert hand(state, 1) == {"C1": 1} and hand(state, 2) == {"C2": 1}
    assert stalls(state, 0, "DAN") == 0


def test_ec14_taxes():
    state = position()
    give(state, 0, "A1", "A2", "B1", "C1", "C3")
    give(state, 0, "B3", sold_too=True)
    set_money(state, 0, 7)
    play(state, D.A_END)
    assert money(state, 0) == 3 and state[H_PHASE] == D.PH_TAX
    assert legal(state) == {tax("A"), tax("B"), tax("C")}
    play(state, tax("C"))
    assert hand(state, 0) == {"A1": 1, "A2": 1, "B1": 1, "C3": 1}   # fewest barrels first
    play(state, tax("B"))
    assert hand(state, 0) == {"A1": 1, "A2": 1, "C3": 1} and sold(state, 0) == {"B3": 1}
    assert state[D.G_ACTIVE] == 1                                    # the turn passed on


def test_ec14_one_colour_discard_is_automatic():
    state = position()
    give(state, 0, "A1", "A2", "A3", "A1")
    play(state, D.A_END)
    assert hand(state, 0) == {"A2": 1, "A3": 1, "A1": 1} and state[D.G_ACTIVE] == 1


def test_ec15_only_the_active_player_is_taxed():
    state = position()
    set_money(state, 1, 5)
    play(state, D.A_END)
    assert money(state, 1) == 8


def test_ec16_initial_placement_masks():
    state = new_game(2)
    deal(state, ["A1"] * 4 + ["A2"] * 5 + ["A3"] * 4 + ["B1"])
    assert init_place("CPH") not in legal(state)
    play(state, init_place("DAN"))                    # seat 0
    assert init_place("DAN") in legal(state)          # seat 1: used only by an opponent
    play(state, init_place("KAL"))                    # seat 1
    assert init_place("KAL") not in legal(state)      # seat 1 again (reverse order)
    assert init_place("DAN") in legal(state)


def test_ec17_place_in_copenhagen_during_play():
    state = position(ship="CPH")
    give(state, 0, "A2")
    play(state, place("A", 2))
    assert stalls(state, 0, "CPH") == 2


def test_ec18_ties_on_vp_and_stalls_share_the_win():
    rewards = np.zeros(3)
    final_rewards(np.array([10, 10, 8]), np.array([5, 5, 9]), 3, 0, 1.0, rewards)
    assert rewards.tolist() == [0.25, 0.25, -0.5]


def test_ec19_action_in_the_start_city_before_moving():
    state = position(ship="LUB")
    assert D.A_BUY in legal(state)


def test_ec20_start_player_has_six_thalers():
    state = new_game(4, start_seat=2)
    skip_setup(state)
    assert state[D.G_ACTIVE] == 2 and money(state, 2) == 6
    assert [money(state, s) for s in (0, 1, 3)] == [3, 3, 3]


def test_ec21_plurality_is_live():
    state = position(ship="CPH")
    put_stalls(state, 1, CPH=1)
    give(state, 0, "A2")
    assert buy_price(state, 0, CITY["CPH"]) == 1
    play(state, place("A", 2))                        # now seat 0 leads in CPH
    play(state, move("LUB"), move("AAL"), move("CPH"))
    assert money(state, 0) == 0 and D.A_BUY in legal(state)   # free now
    play(state, D.A_BUY)
    assert money(state, 1) == 3


def test_ec23_pending_sale_blocks_move_and_end():
    state = position()
    put_stalls(state, 0, DAN=1)
    give(state, 0, "A1", "A2")
    play(state, mark("A1"))
    assert legal(state) == {mark("A2")}
    play(state, mark("A2"))
    assert legal(state) == {D.A_SELL_COMMIT}


def test_ec24_buy_mask_is_the_price_for_the_active_player():
    state = position()
    put_stalls(state, 1, DAN=3)
    set_money(state, 0, 0)
    assert not legal(state) & BUYS                    # seat 1 leads: seat 0 would pay
    put_stalls(state, 0, DAN=4)
    assert D.A_BUY in legal(state)


def test_refill_order_follows_board_numbers_not_ids():
    numbers = {"TON": 9, "AAL": 8, "CPH": 7, "LUB": 6, "DAN": 5, "KAL": 4, "STO": 3, "REV": 2,
               "RIG": 1}
    state = position(board=small_board(numbers=numbers))
    set_warehouse(state, "TON", None)
    set_warehouse(state, "RIG", None, None)
    set_warehouse(state, "DAN", "A1", None)
    state[H_PHASE] = D.PH_REFILL
    play(state, D.A_REFILL)
    deal(state, ["B1", "B2", "B3", "C1"])
    assert state[D.G_WAREHOUSE + 2 * CITY["RIG"]] == token("B1")       # number 1
    assert state[D.G_WAREHOUSE + 2 * CITY["RIG"] + 1] == token("B2")
    assert state[D.G_WAREHOUSE + 2 * CITY["DAN"] + 1] == token("B3")   # number 5
    assert state[D.G_WAREHOUSE + 2 * CITY["TON"]] == token("C1")       # number 9
    assert state[H_PHASE] == D.PH_ACTIONS


def test_short_supply_refill_leaves_spaces_empty_and_costs_one():
    state = position()
    set_warehouse(state, "TON", None)
    set_warehouse(state, "AAL", None)
    supply = state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_TYPES]
    supply[:] = 0
    supply[token("A1")] = 1
    state[H_PHASE] = D.PH_REFILL
    play(state, D.A_REFILL)
    deal(state, ["A1"])
    assert state[H_PHASE] == D.PH_ACTIONS and money(state, 0) == 2
    assert state[D.G_WAREHOUSE + 2 * CITY["AAL"]] == -1


def test_ec14_discards_become_automatic_once_one_colour_is_left():
    state = position()
    give(state, 0, "A1", "A2", "A3", "A1", "B1")
    play(state, D.A_END)
    assert legal(state) == {tax("A"), tax("B")}
    play(state, tax("B"))                             # four A tokens left: A1 goes by itself
    assert hand(state, 0) == {"A1": 1, "A2": 1, "A3": 1} and state[D.G_ACTIVE] == 1
