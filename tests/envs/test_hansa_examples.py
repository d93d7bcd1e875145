"""The worked examples of the Hansa spec (WE-1 .. WE-11), one test each, exact outcomes.

Positions are built by hand (``hansa_setup``).  Examples that depend on board facts the
sources do not give (board numbers, warehouse counts) read them from the board in play or
run on a board built in the test.
"""

from __future__ import annotations

import numpy as np
from hansa_setup import (
    CITY,
    base,
    clear_board,
    deal,
    finish_turn,
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
    token,
)

from meeplezoo.envs.core.contract import CHANCE, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa import rules
from meeplezoo.envs.hansa.masks import plurality

BUYS = {D.A_BUY, D.A_BUY + 1}


def warehouse(state, city: str) -> list[int]:
    c = CITY[city]
    return [int(state[D.G_WAREHOUSE + 2 * c + j]) for j in range(int(state[D.C_SPACES + c]))]


def test_we1_setup_fills_warehouses_in_board_number_order():
    state = new_game(4)
    sequence = ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3", "D1", "D2", "D3", "E1",
                "E2"]
    deal(state, sequence)
    # Default board: numbers 1..9 = TON..RIG, spaces 1,1,2,2,2,1,2,1,2 (W = 14).
    assert warehouse(state, "TON") == [token("A1")]                  # t0 on Tonsberg (1)
    assert warehouse(state, "RIG") == [token("E1"), token("E2")]     # t(W-1) on Riga (9)
    order = [t for c in state[D.C_FILL:D.C_FILL + 9] for t in warehouse(state, D.CITY_CODES[c])]
    assert order == [token(n) for n in sequence]
    assert state[H_PHASE] == D.PH_INIT_PLACE and state[D.G_DRAWS] == 0
    assert state[D.G_STACK_END:D.G_STACK_END + 5].tolist() == [13, 26, 39, 52, 64]


def test_we1_deal_follows_board_numbers_not_city_ids():
    numbers = {"TON": 9, "AAL": 8, "CPH": 7, "LUB": 6, "DAN": 5, "KAL": 4, "STO": 3, "REV": 2,
               "RIG": 1}
    state = new_game(4, board=small_board(numbers=numbers))
    deal(state, ["A1", "A2", "A3"])
    assert warehouse(state, "RIG")[0] == token("A1")                 # number 1 comes first
    assert warehouse(state, "RIG")[1] == token("A2")
    assert warehouse(state, "REV") == [token("A3")]
    assert warehouse(state, "TON") == [-1]


def test_we2_stack_order_and_the_end_trigger():
    state = new_game(4)
    skip_setup(state)
    ends = state[D.G_STACK_END:D.G_STACK_END + 5].tolist()
    assert ends[0] == 13 and ends[3] == 52      # draw 13 ends stack 1; draw 53 opens stack 5
    state[D.G_DRAWS] = 51                       # 51 tokens drawn: one left in stack 4
    set_turn(state, 0, ship="CPH")
    set_warehouse(state, "TON", None)
    set_warehouse(state, "AAL", None)
    state[D.G_DRAWS] = 51
    rules.start_refill(state, base(0))
    deal(state, ["A1"])                         # draw 52: the last of stack 4
    assert state[D.G_END_TRIGGERED] == 0 and state[H_TO_MOVE] == CHANCE
    deal(state, ["A2"])                         # draw 53: the first of stack 5
    assert state[D.G_END_TRIGGERED] == 1 and state[D.G_DRAWS] == 53
    assert warehouse(state, "TON") == [token("A1")] and warehouse(state, "AAL") == [token("A2")]


def test_we3_initial_placement_order_and_masks():
    state = new_game(3)
    deal(state, ["A1"] * 4 + ["A2"] * 4 + ["A3"] * 4 + ["B1", "B2"])
    seats, cities = [], {0: ["DAN", "LUB", "TON"], 1: ["DAN", "KAL", "RIG"],
                         2: ["STO", "DAN", "REV"]}
    while state[H_PHASE] == D.PH_INIT_PLACE:
        seat = int(state[H_TO_MOVE])
        allowed = legal(state)
        assert init_place("CPH") not in allowed
        if seats.count(0) >= 1 and seat == 0:
            assert init_place("DAN") not in allowed              # used by seat 0 itself
        if seat in (1, 2):
            assert init_place("DAN") in allowed or "DAN" in cities[seat][:seats.count(seat)]
        play(state, init_place(cities[seat][seats.count(seat)]))
        seats.append(seat)
    assert seats == [0, 1, 2, 2, 1, 0, 2, 1, 0]
    for seat in range(3):
        for city in cities[seat]:
            assert stalls(state, seat, city) == 2
        assert state[base(seat) + D.P_STALL_SUPPLY] == 9 and hand(state, seat) == {}
    # HS-4.5 / EC-20: seat 0 starts with 3 + 3 income; the others still hold 3.
    assert [money(state, s) for s in range(3)] == [6, 3, 3]


def test_we3_reverse_pairs_order():
    state = new_game(3, init_order="reverse_pairs")
    deal(state, ["A1"] * 4 + ["A2"] * 4 + ["A3"] * 4 + ["B1", "B2"])
    seats = []
    while state[H_PHASE] == D.PH_INIT_PLACE:
        seats.append(int(state[H_TO_MOVE]))
        play(state, min(legal(state)))
    assert seats == [0, 1, 2, 2, 2, 1, 1, 0, 0]


def anna_position():
    """WE-4: Anna (seat 0) alone leads in AAL, has stalls in LUB and DAN, 6 thalers."""
    state = new_game(3)
    skip_setup(state)
    clear_board(state)
    put_stalls(state, 0, AAL=2, DAN=1, LUB=1)
    give(state, 0, "A3", "B1", "B2")
    set_money(state, 0, 6)
    set_turn(state, 0, ship="LUB")
    return state


def test_we4_one_action_per_visit():
    state = anna_position()
    play(state, place("A", 3))                                  # acts in LUB: free
    assert not legal(state) & (BUYS | set(range(D.A_PLACE, D.A_SELL_COMMIT)))
    assert money(state, 0) == 6
    play(state, move("AAL"))
    assert money(state, 0) == 5
    assert plurality(state, CITY["AAL"]) == 0
    play(state, D.A_BUY)                                        # free: she leads alone
    assert money(state, 0) == 5
    play(state, move("CPH"))
    assert money(state, 0) == 4                                 # no action in CPH
    play(state, move("DAN"))
    assert money(state, 0) == 3
    play(state, mark("B1"), mark("B2"), D.A_SELL_COMMIT)        # acts in DAN: a free sale
    assert money(state, 0) == 3 and sold(state, 0) == {"B1": 1, "B2": 1}
    assert not legal(state) & (BUYS | set(range(D.A_PLACE, D.A_SELL_COMMIT)))


def test_we5_one_way_arrows_from_copenhagen():
    state = new_game(3)
    skip_setup(state)
    set_turn(state, 0, ship="CPH")
    moves = {a for a in legal(state) if D.A_MOVE <= a < D.A_REFILL}
    assert moves == {move("DAN"), move("LUB"), move("TON")}
    assert move("AAL") not in moves and move("KAL") not in moves
    set_money(state, 0, 0)
    assert not {a for a in legal(state) if D.A_MOVE <= a < D.A_REFILL}


def test_we6_a_placement_creates_a_tie():
    state = new_game(3)
    skip_setup(state)
    clear_board(state)
    put_stalls(state, 0, DAN=4)
    put_stalls(state, 1, DAN=2)
    give(state, 1, "A1", "B2")
    set_money(state, 1, 3)
    set_turn(state, 1, ship="DAN")
    play(state, place("B", 2))
    assert stalls(state, 0, "DAN") == 4 and stalls(state, 1, "DAN") == 4
    assert hand(state, 1) == {"A1": 1}
    assert place("A", 1) not in legal(state)                   # same visit
    assert plurality(state, CITY["DAN"]) == -1                 # a later buy pays the bank
    play(state, move("KAL"), move("CPH"), move("DAN"))         # a new visit
    assert place("A", 1) in legal(state)
    play(state, place("A", 1))
    assert stalls(state, 1, "DAN") == 5 and plurality(state, CITY["DAN"]) == 1


def test_we7_selling_and_losses():
    state = new_game(3)
    skip_setup(state)
    clear_board(state)
    put_stalls(state, 0, DAN=2)
    give(state, 0, "A1", "A2", "A3", "B2", "B2")                # grey: orange 1,2,3; brown 2,2
    give(state, 1, "A1", "A3", "B2")                            # yellow
    give(state, 2, "B2")                                        # purple
    set_turn(state, 0, ship="DAN")
    before = [money(state, s) for s in range(3)]
    play(state, mark("A1"), mark("A2"), mark("A3"), mark("B2"), mark("B2"), D.A_SELL_COMMIT)
    assert sold(state, 0) == {"A1": 1, "A2": 1, "A3": 1, "B2": 2}
    sold_vp = sum(count * (1 + int(name[1])) for name, count in sold(state, 0).items())
    assert sold_vp == (2 + 3 + 4) + (3 + 3) == 15
    assert rules.player_score(state, 0) == 15 + 4                # + DAN, grey alone there
    assert stalls(state, 0, "DAN") == 1 and state[base(0) + D.P_STALL_SUPPLY] == 14
    assert hand(state, 1) == {"A3": 1}                          # lost A1 and B2
    assert hand(state, 2) == {}
    assert [money(state, s) for s in range(3)] == before


def test_we8_a_full_turn():
    state = new_game(3)
    skip_setup(state)
    clear_board(state)
    put_stalls(state, 2, CPH=2)                                 # purple leads in CPH
    put_stalls(state, 0, TON=2)                                 # grey leads in TON
    give(state, 0, "A3")
    set_money(state, 0, 2)
    set_money(state, 1, 0)
    set_warehouse(state, "KAL", None)                           # some spaces are empty
    set_warehouse(state, "AAL", None)
    state[D.G_SHIP] = CITY["CPH"]
    rules.begin_turn(state, 0)
    assert money(state, 0) == 5 and state[H_PHASE] == D.PH_REFILL
    play(state, D.A_REFILL)
    assert money(state, 0) == 4
    deal(state, ["C1", "C2"])
    assert -1 not in warehouse(state, "KAL") + warehouse(state, "AAL")
    play(state, D.A_BUY)
    assert money(state, 0) == 3 and money(state, 2) == 4        # purple gets 1
    play(state, move("TON"))
    assert money(state, 0) == 2
    play(state, D.A_BUY)
    assert money(state, 0) == 2                                 # free in TON
    play(state, move("STO"), move("REV"))
    assert money(state, 0) == 0
    play(state, place("A", 3))
    assert stalls(state, 0, "REV") == 3 and state[base(0) + D.P_STALL_SUPPLY] == 10
    play(state, D.A_END)
    assert money(state, 0) == 0 and sum(hand(state, 0).values()) == 2
    # Yellow with 0 thalers: income 3, skip the refill, end: keeps 3.
    assert state[H_TO_MOVE] == 1 and money(state, 1) == 3
    yellow = state.copy()
    finish_turn(state)
    assert money(state, 1) == 3
    # Yellow with 2 thalers: 5 after income, taxed back to 3.
    set_money(yellow, 1, 5)
    finish_turn(yellow)
    assert money(yellow, 1) == 3


def trigger_game(trigger_seat: int) -> list[int]:
    """WE-9: 3 players, s = 0; ``trigger_seat`` draws the first token of stack 5."""
    state = new_game(3)
    skip_setup(state)
    for _ in range(trigger_seat):
        finish_turn(state)
    assert state[D.G_ACTIVE] == trigger_seat
    state[D.G_DRAWS] = state[D.G_STACK_END + 3]                 # stacks 1-4 are used up
    set_warehouse(state, "TON", None)
    state[D.G_DRAWS] = state[D.G_STACK_END + 3]
    state[H_PHASE] = D.PH_REFILL
    play(state, D.A_REFILL)
    deal(state, ["C1"])
    assert state[D.G_END_TRIGGERED] == 1
    turns = [trigger_seat]
    play(state, D.A_END)
    while state[H_TO_MOVE] != TERMINAL:
        turns.append(int(state[D.G_ACTIVE]))
        finish_turn(state, draws=["C2"] * 3)
    return turns


def test_we9_end_of_game_after_the_last_seat():
    assert trigger_game(1) == [1, 2]
    assert trigger_game(2) == [2]
    assert trigger_game(0) == [0, 1, 2]


def we10_position():
    state = new_game(3)
    skip_setup(state)
    clear_board(state)
    put_stalls(state, 0, CPH=3, DAN=1)
    put_stalls(state, 1, CPH=1, KAL=2)
    put_stalls(state, 2, CPH=2)
    give(state, 0, "A1", "B1")
    give(state, 1, "A2", "B2", "C1")
    give(state, 0, "C3", "D1", "D1", sold_too=True)
    give(state, 1, "C2", "C2", sold_too=True)
    give(state, 2, "A3", "B3", "C3", sold_too=True)
    return state


def test_we10_city_scoring_and_tie_break():
    state = we10_position()
    scores = np.zeros(3, dtype=np.int64)
    tiebreaks = np.zeros(3, dtype=np.int64)
    rules.scores(state, scores)
    rules.tiebreaks(state, tiebreaks)
    assert scores.tolist() == [16, 15, 14]
    assert tiebreaks.tolist() == [4, 3, 2]
    rewards = np.zeros(3)
    final_rewards(np.array([16, 16, 14]), tiebreaks, 3, 0, 1.0, rewards)
    assert rewards.tolist() == [1.0, -0.5, -0.5]                 # grey's 4 stalls beat 3


def test_we11_seed_scoring_line():
    state = new_game(2)
    skip_setup(state)
    clear_board(state)
    give(state, 0, "A1", sold_too=True)
    assert rules.player_score(state, 0) == 2
    give(state, 1, "A3", sold_too=True)
    assert rules.player_score(state, 1) == 4
    give(state, 0, "B2")
    assert rules.player_score(state, 0) == 3
