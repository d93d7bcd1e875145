"""The spec's edge cases EX-13 .. EX-24 (rules/serenissima.md §17): loading, selling,
blocking and combat, exact outcomes (EX-25 .. EX-38 in test_serenissima_edge_cases_rounds)."""

from __future__ import annotations

from serenissima_setup import (
    BLACK,
    BLUE,
    ORANGE,
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
    stock,
)

from meeplezoo.envs.core.contract import H_TO_MOVE
from meeplezoo.envs.serenissima import data as D


def test_ex13_capacity():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 2)
    galley(state, 4, BLUE, "Z1", 5)
    galley(state, 5, BLUE, "Z1", 1, goods=["stone", "stone", "gold", "wine"])   # 1 + 4: legal
    activate(state, 4)
    play(state, D.A_ACTION)
    options = legal(state)
    assert D.A_LOAD not in options and D.A_PORT_TO_ACTIVE not in options  # 5 sailors: full
    assert D.A_SAILOR_TO + 4 not in options                                # galley 5 full
    play(state, D.A_ACTIVE_TO_PORT)
    assert D.A_LOAD in legal(state)                                        # a place freed


def test_ex14_goods_prices():
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    own(state, RED, "U1", 1)
    galley(state, 4, BLUE, "Z1", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_LOAD, D.A_LOAD)
    assert ducats(state, BLUE) == 4                        # own port: 0 then 1
    state2 = empty_game(4)
    own(state2, RED, "U1", 1)
    galley(state2, 4, BLUE, "Z2", 2)                      # Algiers: neutral
    activate(state2, 4)
    play(state2, D.A_ACTION, D.A_LOAD, D.A_LOAD)
    assert ducats(state2, BLUE) == 3 and ducats(state2, RED) == 5
    galley(state2, 6, BLUE, "Z3", 3)                      # U1: Red's port
    activate(state2, 6)
    play(state2, D.A_ACTION, D.A_LOAD, D.A_LOAD)
    assert ducats(state2, BLUE) == 1 and ducats(state2, RED) == 7
    activate(state, 4)                                     # a new activation: free again
    play(state, D.A_ACTION, D.A_LOAD)
    assert ducats(state, BLUE) == 4 and cargo(state, 4) == {"wood": 3}


def test_ex15_spices():
    state = empty_game(4)
    own(state, BLUE, "Alexandria", 1)
    own(state, RED, "U1", 1)
    galley(state, 4, BLUE, "Z18", 2, goods=["marble", "spices"])
    own(state, BLUE, "U10", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, sell("marble"))
    assert ducats(state, BLUE) == 5                        # own port: 0
    state = empty_game(4)
    stock(state, "Naples", ["wood", "stone"])              # next free slot is worth 4 [P]
    galley(state, 4, BLUE, "Z5", 2, goods=["spices"])
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, sell("spices"))
    assert ducats(state, BLUE) == 5 + 6
    state = empty_game(4)
    own(state, BLUE, "Valencia", 1)
    galley(state, 4, BLUE, "Z1", 2, goods=["spices"])
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, sell("spices"))
    assert ducats(state, BLUE) == 5 + 2


def test_ex16_illegal_sales():
    state = empty_game(4)
    stock(state, "Algiers", ["wood"])
    galley(state, 4, BLUE, "Z2", 2, goods=["stone", "wood", "gold"])
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS)
    options = legal(state)
    assert sell("stone") not in options                   # Algiers produces stone [P]
    assert sell("wood") not in options                    # already in the warehouse
    assert sell("gold") in options
    stock(state, "Algiers", ["marble", "wine"])           # size 3: full
    assert sell("gold") not in legal(state)
    for zone in ("Z20", "Z3"):                            # open sea; a closed port
        state = empty_game(4)
        state[D.S_P_OWNER + PORT["U1"]] = D.CLOSED
        galley(state, 4, BLUE, zone, 2, goods=["gold"])
        activate(state, 4)
        play(state, D.A_ACTION, D.A_PASS, D.A_PASS)
        assert state[D.A_GAL] != 3                        # step 3 offered nothing: over


def test_ex17_start_zone_immunity():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", 2, goods=["wood"])
    galley(state, 7, RED, "Z2", 5)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, sell("wood"))
    assert ducats(state, BLUE) == 5 + 2                   # no block offered
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", 2)
    galley(state, 7, RED, "Z2", 5)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, D.A_CLAIM)
    assert phase(state) == "land"
    state = empty_game(4, block_in_start_zone=True)       # A-08 flag
    galley(state, 4, BLUE, "Z2", 2, goods=["wood"])
    galley(state, 7, RED, "Z2", 5)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, sell("wood"))
    assert phase(state) == "block" and state[H_TO_MOVE] == RED


def test_ex18_blocker_order():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z1", 3)
    galley(state, 9, RED, "Z2", 4)
    galley(state, 2, ORANGE, "Z2", 4)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z2"))
    assert state[H_TO_MOVE] == ORANGE                     # owns galley 2, lower than 9
    play(state, D.A_PASS)
    assert phase(state) == "block" and state[H_TO_MOVE] == RED
    play(state, D.A_PASS)
    assert phase(state) == "move"                         # nobody blocked
    state = empty_game(4)
    galley(state, 4, BLUE, "Z1", 3)
    galley(state, 9, RED, "Z2", 5)
    galley(state, 2, ORANGE, "Z2", 4)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z2"))
    assert state[H_TO_MOVE] == RED                        # 5 sailors before 4


def test_ex19_equal_sailors_and_port_sailors_cannot_block():
    state = empty_game(4)
    galley(state, 4, BLUE, "Z1", 3)
    galley(state, 9, RED, "Z2", 3)
    own(state, BLACK, "U1", 3)
    own(state, ORANGE, "Algiers", 3)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z2"))
    assert phase(state) == "move"                         # 3 vs 3: no block
    play(state, move("Z3"))
    assert phase(state) == "move"                         # U1: 3 port sailors, no galley


def test_ex20_withdraw_ends_the_activation():
    state = attack_setup()
    play(state, galley_action(7))
    roll(state, 0)                                        # no skulls: nobody dies
    assert phase(state) == "continue_or_withdraw"
    play(state, D.A_WITHDRAW)
    assert state[D.A_GAL] == 6 and state[H_TO_MOVE] == RED   # galley 7 is next


def fort_setup(moved: int, sailors_on: int = 3):
    state = empty_game(4)
    own(state, RED, "Naples", 2)
    own(state, RED, "Genoa", 1)
    state[D.S_P_FORT + PORT["Naples"]] = 1
    start = "Z5" if moved == 0 else "Z6"
    galley(state, 4, BLUE, start, sailors_on)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS)
    play(state, *((move("Z5"), D.A_PASS) if moved else (D.A_PASS,)))
    return state


def test_ex21_fort_before_the_first_battle():
    state = fort_setup(0)
    play(state, D.A_ATTACK_PORT)
    assert state[D.G_CHANCE_KIND] == D.CK_FORT
    roll(state, 1)
    assert sailors(state, 4) == 2 and state[D.A_V0] == 2 and state[D.G_ATT_DICE] == 2
    state = fort_setup(1)
    play(state, D.A_ATTACK_PORT)
    roll(state, 1)
    assert state[D.A_V0] == 1 and state[D.G_ATT_DICE] == 1     # 2 - 1, not min(3 - 1, 2)
    state = fort_setup(0, sailors_on=2)
    play(state, D.A_ATTACK_PORT)
    roll(state, 2)
    assert state[D.S_G_OWNER + 3] == -1                   # sunk before any battle round


def test_ex21_fort_after_an_earlier_galley_battle():
    state = empty_game(4)
    own(state, RED, "Naples", 2)
    own(state, RED, "Genoa", 1)
    state[D.S_P_FORT + PORT["Naples"]] = 1
    galley(state, 4, BLUE, "Z3", 4)
    galley(state, 11, BLACK, "Z5", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z4"), move("Z5"), D.A_PASS, galley_action(11))
    assert state[D.A_V0] == 2
    roll(state, 6 * 1 + 0)                                # galley 11 sinks, no losses
    play(state, D.A_ATTACK_PORT)
    roll(state, 1)
    assert sailors(state, 4) == 3 and state[D.G_ATT_DICE] == 2     # min(2, 3)


def test_ex22_simultaneous_wipe_at_a_port():
    state = empty_game(4)
    own(state, RED, "Naples", 1, goods=["wood"])
    own(state, RED, "Genoa", 1)
    state[D.S_P_FORT + PORT["Naples"]] = 0
    state[D.S_P_BAS + PORT["Naples"]] = 1
    galley(state, 4, BLUE, "Z5", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS, D.A_ATTACK_PORT)
    roll(state, 6 * 1 + 1)
    naples = PORT["Naples"]
    assert state[D.S_P_OWNER + naples] == D.NEUTRAL and state[D.S_P_SAIL + naples] == 0
    assert state[D.S_G_OWNER + 3] == -1
    assert state[D.S_P_WH + naples] == 1 << D.WOOD and state[D.S_P_BAS + naples] == 1


def test_ex23_last_port_cannot_be_attacked_but_its_galleys_can():
    state = empty_game(4)
    own(state, RED, "Naples", 1)
    galley(state, 4, BLUE, "Z5", 3)
    galley(state, 7, BLACK, "Z5", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS)
    assert D.A_ATTACK_PORT not in legal(state) and galley_action(7) in legal(state)
    state2 = empty_game(4)
    own(state2, RED, "Naples", 1)
    galley(state2, 4, BLUE, "Z5", 3)
    galley(state2, 7, RED, "Z5", 1)
    activate(state2, 4)
    play(state2, D.A_ACTION, D.A_PASS, D.A_PASS)
    assert galley_action(7) in legal(state2)


def test_ex24_the_owners_galleys_first():
    state = empty_game(4)
    own(state, RED, "Naples", 1)
    own(state, RED, "Genoa", 1)
    galley(state, 4, BLUE, "Z5", 3)
    galley(state, 7, RED, "Z5", 1)
    galley(state, 9, BLACK, "Z5", 5)                      # a third player: irrelevant
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS)
    assert D.A_ATTACK_PORT not in legal(state)
    play(state, galley_action(7))
    roll(state, 6 * 1)
    assert phase(state) == "sell_or_combat" and D.A_ATTACK_PORT in legal(state)
    play(state, D.A_ATTACK_PORT)
    assert state[H_TO_MOVE] < 0                           # no block by Black: dice next
