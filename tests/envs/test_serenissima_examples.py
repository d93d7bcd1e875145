"""The spec's worked examples EX-01 .. EX-12 (rules/serenissima.md §17), exact outcomes.

EX-01..EX-07 are one continuing story (Blue's galley 4 from Valencia into Algiers); each
test rebuilds it up to its own step with ``story(upto)``.
"""

from __future__ import annotations

import numpy as np
import pytest
from serenissima_setup import (
    BLACK,
    BLUE,
    ORANGE,
    PORT,
    RED,
    activate,
    cargo,
    check,
    ducats,
    empty_game,
    galley,
    galley_action,
    legal,
    move,
    own,
    phase,
    play,
    roll,
    sailors,
    sell,
    set_ducats,
    stock,
)

from meeplezoo.envs.core.contract import CHANCE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.serenissima import chance, flow, rules
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima.board import sink

ALGIERS, VALENCIA = PORT["Algiers"], PORT["Valencia"]


def story(upto: int, algiers_owner=None):
    """EX-01's position, played forward through example ``upto``."""
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    galley(state, 4, BLUE, "Z1", 1)
    galley(state, 6, BLUE, "Z1", 3)
    galley(state, 7, RED, "Z2", 2, goods=["marble"])
    galley(state, 10, RED, "Z2", 2)
    own(state, RED, "Genoa", 1)
    if algiers_owner is not None:
        own(state, algiers_owner, "Algiers", 1)
    activate(state, 4)
    play(state, D.A_ACTION)
    if upto >= 1:
        play(state, D.A_SAILOR_FROM + 5, D.A_SAILOR_FROM + 5)
    if upto >= 2:
        play(state, D.A_LOAD, D.A_LOAD)
    if upto >= 3:
        play(state, D.A_PASS, move("Z2"), D.A_BLOCK)
    if upto >= 4:
        play(state, sell("wood"), D.A_BLOCK)
    if upto >= 5:
        play(state, galley_action(7))
        roll(state, 6 * 1 + 1)
    if upto >= 6:
        play(state, D.A_CONTINUE)
        roll(state, 6 * 1 + 1)
    return state


def test_ex01_load_sailors():
    state = story(0)
    assert phase(state) == "load"
    assert D.A_PORT_TO_ACTIVE not in legal(state)          # SE-6.2.3: Valencia keeps 1
    assert D.A_ACTIVE_TO_PORT in legal(state)              # legal, but would sink galley 4
    play(state, D.A_SAILOR_FROM + 5, D.A_SAILOR_FROM + 5)
    assert (sailors(state, 4), sailors(state, 6)) == (3, 1)
    assert state[D.S_P_SAIL + VALENCIA] == 1


def test_ex01_alternative_moving_the_last_sailor_sinks_galley_4():
    state = story(0)
    play(state, D.A_ACTIVE_TO_PORT)
    assert state[D.S_G_OWNER + 3] == -1 and state[D.S_P_SAIL + VALENCIA] == 2
    assert state[D.A_GAL] == 5                             # the marker moved on to galley 6


def test_ex02_load_goods():
    state = story(2)
    assert sailors(state, 4) == 3 and cargo(state, 4) == {"wood": 2}
    assert ducats(state, BLUE) == 4                        # first cube free, second 1
    assert state[D.S_GOODS + D.WOOD] == 14 - 2
    assert D.A_LOAD not in legal(state)                    # 5 of 5 places used


def test_ex03_movement_blocked():
    state = story(2)
    play(state, D.A_PASS, move("Z2"))
    assert phase(state) == "block" and state[H_TO_MOVE] == RED     # 4 > 3: Red asked
    play(state, D.A_BLOCK)
    assert state[D.S_G_ZONE + 3] == 1 and state[D.A_MOVED] == 1
    assert phase(state) == "sell_or_combat"
    assert not any(D.A_MOVE <= a < D.A_PORT for a in legal(state))


def test_ex04_sale_blocked():
    state = story(3)
    play(state, sell("wood"))
    assert phase(state) == "block" and state[H_TO_MOVE] == RED
    play(state, D.A_BLOCK)
    assert ducats(state, BLUE) == 4 and cargo(state, 4) == {"wood": 2}
    assert state[D.S_P_WH + ALGIERS] == 0
    assert legal(state) == {D.A_PASS, galley_action(7), galley_action(10), D.A_CLAIM}


def test_ex04_variant_red_owns_algiers():
    state = story(3, algiers_owner=RED)
    options = legal(state)
    assert D.A_CLAIM not in options and D.A_ATTACK_PORT not in options
    sink(state, 6, -1)
    sink(state, 9, -1)                                    # galleys 7 and 10 gone
    assert D.A_ATTACK_PORT in legal(state)


def test_ex04_variant_unblocked_sale_pays_the_slot_value():
    state = story(3, algiers_owner=RED)
    play(state, sell("wood"), D.A_PASS)                   # Red declines
    assert ducats(state, BLUE) == 4 + 2                   # Algiers' first slot [P] = 2
    assert cargo(state, 4) == {"wood": 1} and state[D.S_P_WH + ALGIERS] == 1 << D.WOOD


def test_ex05_battle_round_1():
    state = story(4)
    supplies = state[D.S_SUPPLY:D.S_SUPPLY + 2].copy()
    play(state, galley_action(7))
    assert state[H_TO_MOVE] == CHANCE and state[D.A_V0] == 3 - 1
    assert (state[D.G_ATT_DICE], state[D.G_DEF_DICE]) == (2, 2)
    roll(state, 6 * 1 + 1)
    assert (sailors(state, 4), sailors(state, 7)) == (2, 1)
    assert (state[D.S_SUPPLY:D.S_SUPPLY + 2] - supplies).tolist() == [1, 1]
    assert phase(state) == "continue_or_withdraw"


def test_ex06_battle_round_2_sinks_galley_7():
    state = story(5)
    play(state, D.A_CONTINUE)
    assert (state[D.G_ATT_DICE], state[D.G_DEF_DICE]) == (2, 1)    # min(2, 2), 1
    roll(state, 6 * 1 + 1)
    assert sailors(state, 4) == 1 and state[D.S_G_OWNER + 6] == -1
    assert phase(state) == "capture" and state[H_TO_MOVE] == BLUE
    assert state[D.A_CAP_GOODS + D.MARBLE] == 1


def test_ex07_capture_then_stop():
    state = story(6)
    play(state, D.A_TAKE + D.MARBLE)
    assert sailors(state, 4) == 1 and cargo(state, 4) == {"wood": 2, "marble": 1}
    assert phase(state) == "sell_or_combat"               # the stash is empty: capture over
    probe = state.copy()
    play(probe, galley_action(10))
    assert probe[D.G_ATT_DICE] == 1                       # min(2, 1), not 1 - 1 = 0
    play(state, D.A_PASS)
    assert state[D.A_GAL] == 5 and state[H_TO_MOVE] == BLUE       # galley 6 is next


def test_ex08_claiming_a_neutral_port():
    state = empty_game(4)
    own(state, ORANGE, "Valencia", 1)
    own(state, BLACK, "Venice", 1)
    galley(state, 8, ORANGE, "Z4", 3, goods=["wood"])
    galley(state, 9, BLACK, "Z5", 3)
    activate(state, 8)
    play(state, D.A_ACTION, D.A_PASS, move("Z5"))
    assert phase(state) == "move"                          # 3 is not > 3: nobody asked
    play(state, D.A_PASS, D.A_CLAIM)
    assert phase(state) == "land"                          # no block on the claim either
    play(state, D.A_LAND + 1)
    naples = PORT["Naples"]
    assert state[D.S_P_OWNER + naples] == ORANGE and state[D.S_P_SAIL + naples] == 1
    assert sailors(state, 8) == 2 and cargo(state, 8) == {"wood": 1}
    assert state[D.A_GAL] == 8                             # activation over; galley 9 next


def test_ex09_investment():
    state = empty_game(4)
    own(state, BLACK, "Constantinople", 3)
    own(state, BLACK, "Antioch", 2, goods=["marble"])
    galley(state, 12, BLACK, "Z15", 2)
    galley(state, 9, BLACK, "Z16", 2)
    set_ducats(state, BLACK, 10)
    supply = int(state[D.S_SUPPLY + BLACK])
    activate(state, 9)
    const, antioch = PORT["Constantinople"], PORT["Antioch"]
    play(state, D.A_INVEST, D.A_RECRUIT_PORT + const, D.A_RECRUIT_PORT + antioch)
    assert D.A_RECRUIT_PORT + antioch not in legal(state)  # Antioch is full (size 3)
    play(state, *[D.A_RECRUIT_GALLEY + 11] * 3, D.A_BASILICA + antioch, D.A_PASS)
    assert ducats(state, BLACK) == 3
    assert state[D.S_P_SAIL + const] == 4 and state[D.S_P_SAIL + antioch] == 3
    assert sailors(state, 12) == 5 and state[D.S_P_BAS + antioch] == 1
    assert state[D.S_SUPPLY + BLACK] == supply - 5 and sailors(state, 9) == 2


def end_of_round(state):
    """Run the wheel past the last galley: the Doge card is drawn next."""
    state[D.G_WHEEL] = D.NUM_GALLEYS - 1
    flow.advance_wheel(state)
    assert state[H_TO_MOVE] == CHANCE and state[D.G_CHANCE_KIND] == D.CK_DOGE


def test_ex10_two_hourglasses_pass_a_scoring_space():
    state = empty_game(4)
    for seat, port in enumerate(("Valencia", "Genoa", "Venice", "Constantinople")):
        own(state, seat, port, 1)
    stock(state, "Valencia", ["stone"])
    galley(state, 1, BLUE, "Z4", 2)                       # Blue has 1 galley: special phase
    state[D.G_TRACK] = 3
    end_of_round(state)
    roll(state, D.CARD_TWO)
    assert state[D.G_TRACK] == 5 and state[D.G_SCORINGS] == 1
    assert ducats(state, RED) == 5 + 3                    # Valencia, 1 cube [P] = 3
    assert phase(state) == "special_investment" and state[H_TO_MOVE] == RED   # clockwise
    rounds = int(state[D.G_ROUND])
    while phase(state) == "special_investment":
        play(state, D.A_PASS)
    assert state[D.G_ROUND] == rounds + 1 and state[D.A_GAL] == 0    # galley 1 acts first


def test_ex11_scoring_a_port():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1, goods=["stone", "marble", "wine", "gold"])
    state[D.S_P_BAS + VALENCIA] = 1
    assert state[D.K_SCORE + 6 * VALENCIA + 4] == 15
    assert rules.port_score(state, VALENCIA) == 20
    rules.score_ports(state)
    assert ducats(state, BLUE) == 5 + 20


def test_ex12_game_length_is_5_to_11_rounds():
    """Every Doge draw sequence of the real kernels, on a board with nothing to do."""
    state = empty_game(4)
    for seat in range(4):
        set_ducats(state, seat, 0)
    end_of_round(state)
    codes = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.int64)
    probs = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    lengths: dict[int, float] = {}
    stack = [(state, 1.0)]
    while stack:
        node, p = stack.pop()
        if node[H_TO_MOVE] == TERMINAL:
            rounds = int(node[D.G_ROUND])
            lengths[rounds] = lengths.get(rounds, 0.0) + p
            continue
        count = chance.chance_outcomes(node, codes, probs)
        for i in range(count):
            child = node.copy()
            rules.apply_chance(child, int(codes[i]))
            stack.append((child, p * probs[i]))
    assert min(lengths) == 5 and max(lengths) == 11      # SE-5.5.1
    assert sum(lengths.values()) == pytest.approx(1.0)
    check(state)
