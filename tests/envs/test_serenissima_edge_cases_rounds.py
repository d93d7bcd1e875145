"""The spec's edge cases EX-25 .. EX-38 (rules/serenissima.md §17): investment, the
wheel, Doge cards, the end, ports, setup; plus the A-09 and A-17 flags and the Load guard."""

from __future__ import annotations

import numpy as np
from serenissima_setup import (
    BLUE,
    GOOD,
    PORT,
    RED,
    activate,
    attack_setup,
    cargo,
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

from meeplezoo.envs.core.contract import H_TO_MOVE
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima import flow, rules


def invest_setup(galleys_owned: int, money: int):
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    for number in range(1, galleys_owned + 1):
        galley(state, number, BLUE, "Z1", 1)
    set_ducats(state, BLUE, money)
    return state


def test_ex25_galley_price():
    state = invest_setup(2, 5)
    activate(state, 1)
    play(state, D.A_INVEST, galley_action(11), D.A_PORT + PORT["Valencia"])
    assert ducats(state, BLUE) == 3 and D.A_PASS not in legal(state)   # needs a sailor
    play(state, D.A_RECRUIT_GALLEY + 10)
    assert galley_action(12) not in legal(state)          # one galley per Investment
    play(state, D.A_PASS)
    state = invest_setup(0, 1)
    state[D.G_SPECIAL_INDEX] = 0
    flow.advance_special(state)                           # Red owns no port: skipped
    assert phase(state) == "special_investment" and state[H_TO_MOVE] == BLUE
    set_ducats(state, BLUE, 3)
    play(state, galley_action(3), D.A_PORT + PORT["Valencia"], D.A_RECRUIT_GALLEY + 2)
    play(state, galley_action(5), D.A_PORT + PORT["Valencia"], D.A_RECRUIT_GALLEY + 4)
    assert ducats(state, BLUE) == 0 and sailors(state, 3) == 1 and sailors(state, 5) == 1


def test_ex26_mid_round_galley():
    for bought, acts in ((11, True), (3, False)):
        state = invest_setup(1, 5)
        galley(state, 5, BLUE, "Z1", 1)
        activate(state, 5)
        play(state, D.A_INVEST, galley_action(bought), D.A_PORT + PORT["Valencia"],
             D.A_RECRUIT_GALLEY + bought - 1, D.A_PASS)
        assert (state[D.A_GAL] == bought - 1) == acts
    state = empty_game(4, new_galley_acts_this_round=False)
    own(state, BLUE, "Valencia", 1)
    galley(state, 5, BLUE, "Z1", 1)
    activate(state, 5)
    play(state, D.A_INVEST, galley_action(11), D.A_PORT + PORT["Valencia"],
         D.A_RECRUIT_GALLEY + 10, D.A_PASS)
    assert state[D.A_GAL] == -1                           # A-21 flag off: next round


def test_ex27_shuffle_card_refills_the_pile():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    state[D.G_PILE:D.G_PILE + 4] = (1, 0, 0, 1)
    state[D.G_WHEEL] = 14
    flow.advance_wheel(state)
    roll(state, D.CARD_SHUFFLE)
    assert state[D.G_PILE:D.G_PILE + 4].tolist() == [1, 2, 1, 1]


def test_ex28_wine_card():
    state = empty_game(4)
    own(state, BLUE, "Genoa", 1)                          # produces wine [P]
    own(state, BLUE, "Valencia", 1, goods=["wine"])
    own(state, RED, "Venice", 1)
    state[D.G_WHEEL] = 14
    state[D.G_TRACK] = 2
    flow.advance_wheel(state)
    roll(state, D.CARD_WINE)
    assert state[D.G_TRACK] == 2 and ducats(state, BLUE) == 5 + 6 and ducats(state, RED) == 5


def test_ex29_end_after_the_third_scoring_and_the_tie_break():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    own(state, BLUE, "U1", 1)
    own(state, RED, "Venice", 1)
    set_ducats(state, RED, 7)
    set_ducats(state, BLUE, 7)
    state[D.G_TRACK] = 9
    state[D.G_SCORINGS] = 2
    state[D.G_WHEEL] = 14
    flow.advance_wheel(state)
    roll(state, D.CARD_ONE)
    assert state[H_TO_MOVE] == -2 and state[D.G_SCORINGS] == 3   # no special investment
    scores = np.zeros(4, dtype=np.int64)
    ties = np.zeros(4, dtype=np.int64)
    rules.scores(state, scores)
    rules.tiebreaks(state, ties)
    assert scores[RED] == scores[BLUE] == 7 and ties[BLUE] == 2 > ties[RED]


def test_ex30_port_sailor_never_abandoned():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    own(state, BLUE, "Algiers", 3)
    galley(state, 4, BLUE, "Z1", 2)
    activate(state, 4)
    play(state, D.A_ACTION)
    assert D.A_PORT_TO_ACTIVE not in legal(state)


def test_ex31_port_size_limits():
    state = empty_game(4)
    own(state, BLUE, "Algiers", 3)
    galley(state, 4, BLUE, "Z2", 2)
    activate(state, 4)
    play(state, D.A_ACTION)
    assert D.A_ACTIVE_TO_PORT not in legal(state)         # Algiers is full (size 3 [P])
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", 5)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_CLAIM)           # nothing to load: Load skipped
    assert {a - D.A_LAND for a in legal(state)} == {1, 2, 3}


def test_ex32_capture_limit():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", 3, goods=["wood"])
    galley(state, 7, RED, "Z2", 1, goods=["stone", "gold", "wine"])
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, galley_action(7))
    gold = int(state[D.S_GOODS + GOOD["gold"]])
    roll(state, 6 * 1)
    play(state, D.A_TAKE + GOOD["gold"])
    assert cargo(state, 4) == {"wood": 1, "gold": 1}      # full: the rest to the supply
    assert state[D.S_GOODS + GOOD["gold"]] == gold
    assert state[D.S_GOODS + GOOD["stone"]] == 12 and state[D.S_GOODS + GOOD["wine"]] == 12


def test_ex33_claim_with_the_only_sailor():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, D.A_CLAIM, D.A_LAND + 1)
    assert state[D.S_P_OWNER + PORT["Algiers"]] == BLUE and state[D.S_G_OWNER + 3] == -1


def test_ex34_fort_and_basilica_prerequisites():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1, goods=["stone"])
    own(state, BLUE, "U1", 1)                             # wood only
    galley(state, 4, BLUE, "Z1", 1)
    set_ducats(state, BLUE, 20)
    activate(state, 4)
    play(state, D.A_INVEST)
    assert D.A_FORT + PORT["Valencia"] in legal(state)
    assert D.A_FORT + PORT["U1"] not in legal(state)
    play(state, D.A_FORT + PORT["Valencia"])
    assert D.A_FORT + PORT["Valencia"] not in legal(state)
    stock(state, "U1", ["stone"])
    for name in ("Venice", "Genoa", "Naples", "U2"):
        state[D.S_P_FORT + PORT[name]] = 1                 # five forts on the board
    assert D.A_FORT + PORT["U1"] not in legal(state)


def test_ex35_closed_port_is_inert_but_crossable():
    state = empty_game(4)
    own(state, RED, "Genoa", 1)
    state[D.S_P_OWNER + PORT["U1"]] = D.CLOSED
    galley(state, 4, BLUE, "Z1", 3, goods=["gold"])
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z3"))
    play(state, move("Z4"))                               # crossed
    state2 = empty_game(4)
    state2[D.S_P_OWNER + PORT["U1"]] = D.CLOSED
    galley(state2, 4, BLUE, "Z3", 3)
    activate(state2, 4)
    play(state2, D.A_ACTION)
    assert phase(state2) == "move"                        # no LOAD: Load skipped
    play(state2, D.A_PASS)
    assert phase(state2) != "sell_or_combat"              # nothing to do: activation over


def test_ex36_two_player_setup():
    from meeplezoo.envs.core.rng import new_rng
    from meeplezoo.envs.serenissima.options import make_config

    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng = new_rng(3)
    rules.env_reset(state, 2, make_config(), 0, rng, mask)
    closed = [p for p in range(19) if state[D.S_P_OWNER + p] == D.CLOSED]
    assert len(closed) == 4
    assert sorted(int(state[D.K_PORT_GOOD + p]) for p in closed) == sorted(
        [D.WOOD, D.WINE, D.STONE, D.MARBLE])
    assert not any(mask[D.A_GALLEY + g] for g in range(12, 15))
    order = []
    while state[D.G_SETUP_STEP] < 6:
        order.append(int(state[H_TO_MOVE]))
        action = int(np.flatnonzero(mask)[-1])
        assert not D.A_GALLEY + 12 <= action < D.A_GALLEY + 15
        rules.env_step(state, action, rng, mask)
    assert order == [0, 0, 1, 1, 1, 0, 0, 1]              # CW (port + galley), CCW, CW
    for seat in range(2):
        galleys = [g for g in range(15) if state[D.S_G_OWNER + g] == seat]
        assert len(galleys) == 3 and all(state[D.S_G_SAIL + g] == 3 for g in galleys)
        assert state[D.S_SUPPLY + seat] == 18 and ducats(state, seat) == 5


def test_ex37_fatigue_leaves_no_dice():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z1", 4)
    galley(state, 9, RED, "Z6", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z2"), move("Z1"), move("Z3"), move("Z6"))
    play(state, galley_action(9))
    assert state[D.A_V0] == 0 and state[D.G_ATT_DICE] == 0 and state[D.G_DEF_DICE] == 1


def test_ex38_sell_and_combat_exclude_each_other():
    state = attack_setup()
    play(state, sell("wood"))
    assert galley_action(7) not in legal(state) and D.A_CLAIM not in legal(state)
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", 3, goods=["wood"])
    galley(state, 7, RED, "Z2", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, galley_action(7))
    roll(state, 6 * 1)
    assert sell("wood") not in legal(state)


def test_a09_flag_reopens_the_sale_after_breaking_the_block():
    for flag in (False, True):
        state = empty_game(4, sell_after_breaking_block=flag)
        galley(state, 4, BLUE, "Z1", 3, goods=["wood"])
        galley(state, 7, RED, "Z2", 4)
        activate(state, 4)
        play(state, D.A_ACTION, D.A_PASS, move("Z2"), D.A_PASS, D.A_PASS, sell("wood"),
             D.A_BLOCK, galley_action(7))
        roll(state, 6 * 2)
        play(state, D.A_CONTINUE)
        roll(state, 6 * 2)
        assert (sell("wood") in legal(state)) == flag


def test_a17_blocked_claim_is_retried_only_after_a_fight():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z1", 3)
    galley(state, 7, RED, "Z2", 2)
    galley(state, 8, RED, "Z2", 2)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z2"), D.A_PASS, D.A_PASS, D.A_CLAIM, D.A_BLOCK)
    assert D.A_CLAIM not in legal(state)                  # no endless claim/block loop
    play(state, galley_action(7))
    roll(state, 6 * 2)                                    # galley 7 sinks: 2 Red sailors left
    assert D.A_CLAIM in legal(state)
    play(state, D.A_CLAIM)
    assert phase(state) == "land"                         # 2 is not > 3, no block


def test_engine_guard_ends_endless_load_shuffles():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 3)
    galley(state, 4, BLUE, "Z1", 2)
    activate(state, 4)
    play(state, D.A_ACTION)
    for _ in range(D.MAX_LOAD_STEPS // 2):
        play(state, D.A_PORT_TO_ACTIVE, D.A_ACTIVE_TO_PORT)
    assert phase(state) == "move"                         # only 'end load' left: skipped
