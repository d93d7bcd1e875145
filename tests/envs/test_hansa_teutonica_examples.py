"""Worked examples WE-1 .. WE-20 of spec §16 with their exact outcomes (one test each)."""

from __future__ import annotations

import numpy as np
from hansa_teutonica_setup import (
    BLUE,
    CITY,
    GREEN,
    RED,
    YELLOW,
    M,
    T,
    act,
    add_extra,
    blank,
    displace,
    legal,
    phase,
    place,
    placements,
    score,
    set_city,
    set_player,
    set_route,
    slot,
    spaces_of,
    to_move,
)

from meeplezoo.envs.core.contract import TERMINAL
from meeplezoo.envs.hansa_teutonica import actions, board, chance, rules
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.options import make_config
from meeplezoo.envs.hansa_teutonica.validate import piece_totals, validate_state

R = D.A_REWARD


def test_we1_setup_supplies_5_players():
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, 5, make_config(), 0)
    chance.apply_chance(state, 0)
    for seat in range(5):
        assert state[slot(seat, D.P_PERSONAL)] == 5 + seat
        assert state[slot(seat, D.P_PERSONAL) + 1] == 1
        assert state[slot(seat, D.P_GENERAL)] == 6 - seat
        assert state[slot(seat, D.P_GENERAL) + 1] == 0
        assert score(state, seat) == 0
        assert piece_totals(state, seat) == (27, 4)
    validate_state(state)


def test_we2_start_values_and_markers():
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, 3, make_config(), 0)
    for code in range(6):
        trial = state.copy()
        chance.apply_chance(trial, code)
        on = trial[D.G_ROUTE_MARKER + D.TAVERN_ROUTES]
        assert sorted(on.tolist()) == sorted([D.MK_REMOVE3, D.MK_SWAP, D.MK_EXTRA])
        assert (trial[D.G_ROUTE_MARKER:D.G_ROUTE_MARKER + 34] >= 0).sum() == 3
    assert [board.track_value(trial, 0, t) for t in range(5)] == [1, 2, 0, 2, 3]
    assert trial[D.G_COMPLETED] == 0
    assert trial[D.G_SUPPLY:D.G_SUPPLY + 6].tolist() == [4, 1, 2, 2, 3, 1]


def test_we3_income_capped_by_stock():
    state = blank()
    set_player(state, RED, general=(2, 0), track={D.BURSA: 1})
    assert {a for a in legal(state) if a < D.A_PLACE} == {0, D.A_INCOME}
    act(state, D.A_INCOME)
    assert state[slot(RED, D.P_PERSONAL)] == 5 + 2 and state[slot(RED, D.P_GENERAL)] == 0
    state = blank()
    set_player(state, RED, general=(4, 1))
    assert {a for a in legal(state) if 0 < a < D.A_PLACE} == {D.A_INCOME, D.A_INCOME + 1}
    state = blank()
    set_player(state, RED, personal=(0, 0), general=(6, 1), track={D.BURSA: 3})
    assert {a for a in legal(state) if 0 < a < D.A_PLACE} == {D.A_INCOME + 1}
    act(state, D.A_INCOME + 1)
    assert state[slot(RED, D.P_PERSONAL)] == 6 and state[slot(RED, D.P_PERSONAL) + 1] == 1


def displace_blue_on_route_11(blue_kind=T, red_personal=(2, 0), blue_general=(3, 0)):
    state = blank()
    set_player(state, RED, personal=red_personal)
    set_player(state, BLUE, general=blue_general)
    set_route(state, 11, [(BLUE, blue_kind), None, None])
    return state


def test_we4_displace_a_trader():
    state = displace_blue_on_route_11()
    general_before = state[slot(RED, D.P_GENERAL)]
    act(state, displace(32, T))
    assert phase(state) == "pay" and to_move(state) == RED
    act(state, D.A_PAY + T)
    assert state[D.G_SPACE_OWNER + 32] == RED and state[slot(RED, D.P_PERSONAL)] == 0
    assert state[slot(RED, D.P_GENERAL)] == general_before + 1
    assert phase(state) == "compensate" and to_move(state) == BLUE
    options = legal(state)
    assert placements(options) == spaces_of(6, 10, 13, 18) and len(spaces_of(6, 10, 13, 18)) == 11
    assert not placements(options) & {33, 34}
    assert D.A_DONE not in options                       # the displaced piece is mandatory
    act(state, place(18, T))                             # the displaced T (route 6)
    assert D.A_DONE in legal(state)                      # the extra may be declined
    act(state, place(19, T))                             # the extra T from the general stock
    assert state[slot(BLUE, D.P_GENERAL)] == 2
    assert phase(state) == "main" and to_move(state) == RED
    assert state[D.G_ACTIONS_LEFT] == 1


def test_we5_displace_a_merchant():
    state = displace_blue_on_route_11(blue_kind=M)
    assert displace(32, T) not in legal(state)           # needs 3 pieces
    state = displace_blue_on_route_11(blue_kind=M, red_personal=(2, 1))
    act(state, displace(32, M))
    act(state, D.A_PAY + T)
    assert phase(state) == "pay"
    act(state, D.A_PAY + T)
    assert phase(state) == "compensate" and state[D.G_DISP_EXTRAS] == 2
    act(state, place(29, M))
    act(state, place(30, T))
    act(state, place(31, T))
    assert phase(state) == "main" and state[slot(BLUE, D.P_GENERAL)] == 1


def test_we6_distance_fallback():
    state = displace_blue_on_route_11()
    for r in (6, 10, 13, 18):
        set_route(state, r, [(GREEN, T)] * int(D.ROUTE_LEN[r]))
    state[D.G_SPACE_OWNER + 31] = -1                     # the one free d = 1 space
    act(state, displace(32, T))
    act(state, D.A_PAY + T)
    assert placements(legal(state)) == {31}
    act(state, place(31, T))
    assert placements(legal(state)) == spaces_of(4, 8, 9, 12, 16, 20, 29, 33)


def test_we7_compensation_sources():
    state = displace_blue_on_route_11(blue_kind=M, red_personal=(3, 0), blue_general=(0, 0))
    set_player(state, BLUE, personal=(1, 0))
    set_route(state, 0, [(BLUE, T), None, None])
    set_route(state, 21, [(BLUE, T), None, None])
    act(state, displace(32, T))
    act(state, D.A_PAY + T)
    act(state, D.A_PAY + T)
    options = legal(state)
    assert placements(options, M) and placements(options, T)      # the M, or the personal T
    act(state, place(18, M))
    act(state, place(19, T))                                        # extra 1 = personal T
    assert state[slot(BLUE, D.P_PERSONAL)] == 0
    options = legal(state)
    picks = {a - D.A_PICK for a in options if D.A_PICK <= a < D.A_DONE}
    assert picks == {0, 65} and D.A_DONE in options and not placements(options)
    act(state, D.A_PICK + 65)                                       # relocate from route 21
    assert placements(legal(state)) == spaces_of(6, 10, 13, 18) - {18, 19}
    act(state, place(29, T))
    assert phase(state) == "main" and state[D.G_SPACE_OWNER + 65] == -1


def test_we8_move():
    state = blank()
    set_route(state, 1, [(RED, T), None, None, None])
    set_route(state, 7, [(RED, M), None, None])
    set_route(state, 0, [(BLUE, T), None, None])
    act(state, D.A_MOVE_BEGIN)
    assert D.A_PICK + 0 not in legal(state)                         # Blue's piece
    act(state, D.A_PICK + 3)
    act(state, D.A_PICK + 20)
    assert phase(state) == "move_drop"                              # Liber 2: no third pick
    assert place(0, T) not in legal(state)                          # occupied
    act(state, place(3, M))
    act(state, place(20, T))
    assert state[D.G_SPACE_TYPE + 3] == M and state[D.G_SPACE_TYPE + 20] == T
    assert phase(state) == "main" and state[D.G_ACTIONS_LEFT] == 1


def test_we9_control_points_on_establishing():
    state = blank()
    set_city(state, "Luebeck", [RED, None])
    set_city(state, "Hamburg", [RED, RED, None])
    set_route(state, 21, [(RED, T)] * 3)
    set_player(state, RED, score=5)
    act(state, D.A_ESTABLISH + 21)
    assert score(state, RED) == 7
    state = blank()
    set_city(state, "Luebeck", [RED, None])
    set_city(state, "Hamburg", [RED, BLUE, None])
    set_route(state, 21, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 21)
    assert score(state, RED) == 1 and score(state, BLUE) == 1


def test_we10_shape_rule():
    state = blank()
    set_city(state, "Groningen", [BLUE, None])
    set_route(state, 0, [(RED, T)] * 3)
    set_player(state, RED, track={D.PRIVILEGIUM: 1}, markers={D.MK_EXTRA: 1})
    act(state, D.A_ESTABLISH + 0)
    assert score(state, BLUE) == 1 and phase(state) == "reward"
    assert {a - R for a in legal(state)} == {0, 7, 3}


def test_we11_privilege():
    for level, expected in ((0, {0}), (1, {0, 2})):
        state = blank()
        set_city(state, "Osnabrueck", [BLUE, None, None])
        set_route(state, 2, [(RED, T), (RED, T)])
        set_player(state, RED, track={D.PRIVILEGIUM: level})
        act(state, D.A_ESTABLISH + 2)
        if level == 0:
            assert phase(state) == "main"                 # only "none": step (c) skipped
            continue
        assert {a - R for a in legal(state)} == expected
        general = state[slot(RED, D.P_GENERAL)]
        act(state, R + 2)
        assert state[D.G_OFFICE_OWNER + CITY["Osnabrueck"] * 4 + 1] == RED
        assert state[slot(RED, D.P_GENERAL)] == general + 1


def test_we12_coin_and_completed_city():
    for players, coin in ((3, 1), (4, 0)):
        state = blank(players)
        set_route(state, 14, [(RED, T), (RED, M), (RED, T)])
        general = state[slot(RED, D.P_GENERAL)]
        act(state, D.A_ESTABLISH + 14)
        act(state, R + 1)                                   # Kontor in Stade (M-W)
        assert score(state, RED) == coin
        assert state[D.G_COMPLETED] == 1 and state[slot(RED, D.P_GENERAL)] == general + 2


def test_we13_completed_cities_end():
    state = blank(3)
    state[D.G_COMPLETED] = 9
    set_player(state, RED, track={D.PRIVILEGIUM: 2})
    set_route(state, 9, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 9)
    act(state, R + 1)
    assert state[D.G_COMPLETED] == 10 and to_move(state) == TERMINAL
    assert state[D.G_ACTIONS_LEFT] == 1                    # lost


def test_we14_coellen():
    state = blank()
    set_route(state, 12, [(RED, T), (RED, M), (RED, T), (RED, T)])
    set_player(state, RED, track={D.PRIVILEGIUM: 1})
    act(state, D.A_ESTABLISH + 12)
    options = {a - R for a in legal(state)}
    assert {9, 10} <= options and not {11, 12} & options
    general = state[slot(RED, D.P_GENERAL)]
    act(state, R + 10)
    assert state[D.G_COELLEN + 1] == RED and state[slot(RED, D.P_GENERAL)] == general + 3
    assert score(state, RED) == 0
    parts = np.zeros(6, dtype=np.int64)
    board.score_categories(state, RED, parts)
    assert parts[3] == 8
    state = blank()
    set_route(state, 12, [(RED, T), (RED, M), (RED, T), (RED, T)])
    set_player(state, RED, track={D.PRIVILEGIUM: 2})
    act(state, D.A_ESTABLISH + 12)
    assert R + 11 in legal(state)
    state = blank()
    set_route(state, 12, [(RED, T)] * 4)
    act(state, D.A_ESTABLISH + 12)
    assert not {a - R for a in legal(state)} & {9, 10, 11, 12}


def test_we15_actiones_upgrade():
    state = blank()
    set_route(state, 31, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 31)
    act(state, R + 7)                                        # via Goettingen
    assert board.track_value(state, RED, D.ACTIONES) == 3
    assert state[D.G_ACTIONS_LEFT] == 2
    set_route(state, 31, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 31)
    act(state, R + 7)                                        # first 3 -> second 3
    assert board.track_value(state, RED, D.ACTIONES) == 3 and state[D.G_ACTIONS_LEFT] == 1


def test_we16_east_west():
    state = blank(5)
    for city in ("Arnheim", "Muenster", "Minden", "Brunswick"):
        set_city(state, city, [RED])
    set_route(state, 25, [(RED, T)] * 4)
    set_player(state, RED, track={D.PRIVILEGIUM: 1})
    act(state, D.A_ESTABLISH + 25)
    assert score(state, RED) == 1
    act(state, R + 1)                                        # Kontor in Stendal o0
    assert score(state, RED) == 8 and state[D.G_EW_COUNT] == 1
    for seat, award in ((BLUE, 4), (GREEN, 2), (YELLOW, 0)):
        before = score(state, seat)
        state[D.G_ACTIVE] = seat
        for city in ("Arnheim", "Muenster", "Minden", "Brunswick", "Stendal"):
            add_extra(state, city, seat)
        actions.check_east_west(state, seat)
        assert score(state, seat) - before == award


def test_we17_twenty_points_end():
    state = blank()
    set_player(state, RED, score=19, track={D.PRIVILEGIUM: 2})
    set_city(state, "Luebeck", [RED, None])
    set_city(state, "Hamburg", [RED, RED, None])
    set_route(state, 21, [(RED, T)] * 3)
    state[D.G_ROUTE_MARKER + 21] = D.MK_PLUS3
    state[D.G_MARKERS_LOST] = 2
    act(state, D.A_ESTABLISH + 21)
    assert score(state, RED) == 21 and state[slot(RED, D.P_UNUSED) + D.MK_PLUS3] == 1
    assert state[D.G_PLATE] == 1 and phase(state) == "reward"
    act(state, R + 1)                                        # Luebeck o1
    assert to_move(state) == TERMINAL and state[D.G_COMPLETED] == 1
    parts = np.zeros(6, dtype=np.int64)
    board.score_categories(state, RED, parts)
    assert parts[2] == 1                                     # the +3 counts in C
    state = blank()
    set_player(state, RED, score=10, track={D.PRIVILEGIUM: 2})
    set_player(state, BLUE, score=19)
    set_city(state, "Luebeck", [RED, None])
    set_city(state, "Hamburg", [BLUE, BLUE, None])
    set_route(state, 21, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 21)
    assert score(state, RED) == 11 and score(state, BLUE) == 20 and phase(state) == "reward"
    act(state, R + 1)
    assert to_move(state) == TERMINAL


def test_we18_supply_exhausted():
    state = blank()
    state[D.G_SUPPLY:D.G_SUPPLY + 6] = 0
    state[D.G_ROUTE_MARKER + 7] = D.MK_SWAP
    set_route(state, 7, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 7)
    assert state[D.G_END] == 1 and state[D.G_PLATE] == 0 and phase(state) == "reward"
    act(state, R + 1)                                        # step (c) still resolved
    assert to_move(state) == TERMINAL and state[slot(RED, D.P_UNUSED) + D.MK_SWAP] == 1


def test_we19_marker_placement():
    from meeplezoo.envs.hansa_teutonica.masks import marker_route_ok

    state = blank()
    assert marker_route_ok(state, 21)
    state[D.G_ROUTE_MARKER + 21] = D.MK_SWAP
    assert not marker_route_ok(state, 21)
    state[D.G_ROUTE_MARKER + 21] = -1
    set_route(state, 21, [(BLUE, T), None, None])
    assert not marker_route_ok(state, 21)
    set_route(state, 21, [None] * 3)
    set_city(state, "Luebeck", [BLUE, BLUE])
    set_city(state, "Hamburg", [BLUE, BLUE, BLUE])
    assert not marker_route_ok(state, 21)
    # Placement happens at the end of the turn, after the +3/+4 use.
    state = blank()
    state[D.G_PLATE] = 1
    state[D.G_MARKERS_LOST] = 3
    act(state, D.A_END_TURN)
    assert phase(state) == "marker_draw"
    chance.apply_chance(state, D.MK_PLUS4)
    assert phase(state) == "marker_place" and to_move(state) == RED
    act(state, D.A_MARKER + 21)
    assert state[D.G_ROUTE_MARKER + 21] == D.MK_PLUS4 and to_move(state) == BLUE


def test_we20_extra_kontor():
    state = blank()
    set_city(state, "Hannover", [BLUE, GREEN])
    set_route(state, 17, [(RED, T), (RED, M), (RED, T)])
    set_player(state, RED, markers={D.MK_EXTRA: 1})
    act(state, D.A_ESTABLISH + 17)
    assert score(state, GREEN) == 1
    options = {a - R for a in legal(state)}
    assert {5, 6} <= options and not {3, 4} & options       # no extra in Bremen
    completed = state[D.G_COMPLETED]
    act(state, R + 6)                                        # extra Kontor, M, Hannover
    hannover = CITY["Hannover"]
    assert state[D.G_EXTRA_N + hannover] == 1 and board.controller(state, hannover) == GREEN
    assert state[D.G_COMPLETED] == completed and score(state, RED) == 0
    assert state[slot(RED, D.P_UNUSED)] == 0 and state[slot(RED, D.P_USED)] == 1
    add_extra(state, "Hannover", BLUE)
    assert board.controller(state, hannover) == BLUE
