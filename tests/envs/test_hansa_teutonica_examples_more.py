"""Worked examples WE-21 .. WE-41 of spec §16 (one test each, exact outcomes)."""

from __future__ import annotations

import numpy as np
from hansa_teutonica_setup import (
    BLUE,
    CITY,
    GREEN,
    RED,
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
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.hansa_teutonica import board
from meeplezoo.envs.hansa_teutonica import data as D

R = D.A_REWARD


def categories(state, seat):
    parts = np.zeros(6, dtype=np.int64)
    board.score_categories(state, seat, parts)
    return parts.tolist()


def test_we21_swap_kontor():
    state = blank()
    set_city(state, "Perleberg", [GREEN, RED, BLUE])
    set_player(state, RED, track={D.PRIVILEGIUM: 2}, markers={D.MK_SWAP: 1})
    city = CITY["Perleberg"]
    assert board.controller(state, city) == BLUE
    completed = state[D.G_COMPLETED]
    act(state, D.A_SWAP + 3 * city + 1)
    owners = state[D.G_OFFICE_OWNER + city * 4:][:3].tolist()
    assert owners == [GREEN, BLUE, RED] and board.controller(state, city) == RED
    assert score(state, RED) == 0 and state[D.G_COMPLETED] == completed      # WE-41
    state = blank()
    set_city(state, "Perleberg", [GREEN, BLUE, BLUE])
    add_extra(state, "Perleberg", RED)
    set_player(state, RED, markers={D.MK_SWAP: 1})
    assert not {a for a in legal(state) if D.A_SWAP <= a < D.A_REMOVE3}     # none of Red's


def test_we22_bonus_marker_table():
    expected = {0: 0, 1: 1, 2: 3, 3: 3, 4: 6, 5: 6, 6: 10, 7: 10, 8: 15, 9: 15, 10: 21, 12: 21}
    for count, points in expected.items():
        state = blank()
        state[slot(RED, D.P_USED)] = count
        assert categories(state, RED)[2] == points


def test_we23_fully_developed_tracks():
    state = blank()
    set_player(state, RED, track={t: int(D.TRACK_MAX[t]) for t in range(5)})
    assert categories(state, RED)[1] == 16


def test_we24_network():
    state = blank()
    set_city(state, "Arnheim", [RED, BLUE, RED])
    for city in ("Muenster", "Minden", "Luebeck", "Halle"):
        set_city(state, city, [RED])
    set_player(state, RED, track={D.CLAVIS: 3})
    assert board.largest_network(state, RED) == 4 and categories(state, RED)[5] == 12
    set_city(state, "Kampen", [RED])
    assert categories(state, RED)[5] == 15
    state = blank()
    for city in ("Stade", "Hamburg", "Luebeck"):
        set_city(state, city, [RED])
    set_city(state, "Minden", [RED, RED])
    set_city(state, "Hannover", [RED, RED])
    assert board.largest_network(state, RED) == 4


def test_we25_city_scoring():
    state = blank()
    set_city(state, "Minden", [RED, BLUE, BLUE, RED])
    set_city(state, "Hannover", [BLUE, GREEN])
    add_extra(state, "Hannover", RED)
    set_city(state, "Groningen", [BLUE, None])
    assert board.controller(state, CITY["Minden"]) == RED
    assert board.controller(state, CITY["Hannover"]) == GREEN
    assert board.controller(state, CITY["Groningen"]) == BLUE
    assert [categories(state, s)[4] for s in (RED, BLUE, GREEN)] == [2, 2, 2]


def test_we26_composite_final_score():
    state = blank()
    set_player(state, RED, score=14, track={D.ACTIONES: 5, D.BURSA: 3, D.CLAVIS: 1},
               markers={D.MK_PLUS3: 2})
    state[slot(RED, D.P_USED)] = 3
    state[D.G_PLATE] = 1                                     # a plate marker does not count
    state[D.G_COELLEN + 2] = RED
    set_city(state, "Osnabrueck", [RED, RED, RED])
    set_city(state, "Kampen", [RED, RED])
    set_city(state, "Arnheim", [RED])
    assert board.largest_network(state, RED) == 6
    assert categories(state, RED) == [14, 8, 6, 9, 6, 12]
    total = np.zeros(4, dtype=np.int64)
    board.scores(state, total)
    assert total[RED] == 55


def test_we27_tie():
    out = np.zeros(2)
    final_rewards(np.array([55, 55]), np.zeros(2, dtype=np.int64), 2, 0, 50.0, out)
    assert out.tolist() == [0.0, 0.0]                         # both win
    state = blank(2, tie_break="big_box")
    set_player(state, RED, track={D.ACTIONES: 2})
    set_player(state, BLUE, track={D.ACTIONES: 1})
    tiebreak = np.zeros(2, dtype=np.int64)
    board.tiebreaks(state, tiebreak)
    assert tiebreak[BLUE] > tiebreak[RED]                     # fewer Actiones upgrades


def test_we28_two_player_setup():
    import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0

    # seat 0 starts here (the env draws the start seat by default); the second player
    # places the pawn (HT-11.3)
    env = hansa_teutonica_v0.env(num_players=2, two_player_regions=True, start_seat=0)
    env.reset(seed=0)
    assert env.phase == "pawn_setup" and env.agent_selection == "player_1"
    assert env.state[slot(0, D.P_PERSONAL)] == 5 and env.state[slot(1, D.P_PERSONAL)] == 6
    assert env.state[slot(0, D.P_GENERAL)] == 6 and env.state[slot(1, D.P_GENERAL)] == 5
    env.step(D.A_PAWN + 5)
    assert env.phase == "main" and env.agent_selection == "player_0"


def test_we29_two_player_pawn():
    state = blank(2, two_player_regions=True)
    state[D.G_PAWN] = 5
    routes = {int(D.SPACE_ROUTE[s]) for s in placements(legal(state))}
    assert routes == {9, 16, 17}
    free = {a - D.A_PAWN for a in legal(state) if D.A_PAWN <= a < D.A_PAWN_SKIP}
    assert free == set(range(11)) - {5}                       # all reachable (paid if far)
    act(state, D.A_PAWN + 2)                                  # G2: 3 borders -> paid
    assert state[D.G_ACTIONS_LEFT] == 1 and state[D.G_PAWN_FREE_USED] == 0
    state = blank(2, two_player_regions=True)
    state[D.G_PAWN] = 5
    for g in (0, 1, 3, 4, 6, 7, 8, 9):
        trial = state.copy()
        act(trial, D.A_PAWN + g)
        assert trial[D.G_ACTIONS_LEFT] == 2 and trial[D.G_PAWN_FREE_USED] == 1
    act(state, D.A_PAWN + 3)                                  # free, before the first action
    act(state, D.A_INCOME)
    act(state, D.A_END_TURN)
    assert phase(state) == "main" and to_move(state) == BLUE  # no second free move


def test_we30_control_seen_before_the_kontor():
    state = blank()
    set_route(state, 21, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 21)
    act(state, R + 1)                                         # Luebeck o0: coin
    assert score(state, RED) == 1


def test_we31_marker_not_usable_in_the_action_that_takes_it():
    state = blank()
    set_city(state, "Osnabrueck", [BLUE, BLUE, BLUE])
    set_city(state, "Bremen", [BLUE, BLUE])
    state[D.G_ROUTE_MARKER + 7] = D.MK_EXTRA
    state[D.G_MARKERS_LOST] = 2
    set_route(state, 7, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 7)
    assert phase(state) == "main"                             # no extra Kontor now
    set_route(state, 9, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 9)
    assert R + 3 in legal(state)                              # usable from the next one


def test_we32_establish_preconditions():
    state = blank()
    set_city(state, "Luebeck", [BLUE, BLUE])
    set_city(state, "Hamburg", [BLUE, BLUE, BLUE])
    set_route(state, 21, [(RED, T)] * 3)
    assert D.A_ESTABLISH + 21 in legal(state)
    set_route(state, 21, [(RED, T), (RED, T), None])
    assert D.A_ESTABLISH + 21 not in legal(state)
    set_route(state, 21, [(RED, T), (RED, T), (BLUE, T)])
    assert D.A_ESTABLISH + 21 not in legal(state)


def test_we33_reward_piece_comes_from_the_route():
    state = blank()
    set_player(state, RED, personal=(3, 1))
    set_route(state, 14, [(RED, T)] * 3)                      # Stade's office is a circle
    act(state, D.A_ESTABLISH + 14)
    assert R + 1 not in legal(state)


def test_we34_where_pieces_go():
    state = blank()
    set_route(state, 31, [(RED, T)] * 3)
    personal, general = state[slot(RED, D.P_PERSONAL)], state[slot(RED, D.P_GENERAL)]
    act(state, D.A_ESTABLISH + 31)
    act(state, R + 7)
    assert state[slot(RED, D.P_GENERAL)] == general + 3
    assert state[slot(RED, D.P_PERSONAL)] == personal + 1


def test_we35_maxed_tracks():
    state = blank()
    set_player(state, RED, track={t: int(D.TRACK_MAX[t]) for t in range(5)},
               markers={D.MK_UPGRADE: 1})
    assert not {a for a in legal(state) if D.A_UPGRADE <= a < D.A_SWAP}
    set_route(state, 31, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 31)
    assert R + 7 not in legal(state)


def test_we36_remove_three():
    state = blank(3)
    set_player(state, RED, markers={D.MK_REMOVE3: 1})
    set_route(state, 5, [(BLUE, T), None, None])
    set_route(state, 8, [(BLUE, M), None, None])
    set_route(state, 20, [(GREEN, T), None, None, None])
    set_city(state, "Minden", [BLUE])
    blue, green = state[slot(BLUE, D.P_PERSONAL):][:2].copy(), state[slot(GREEN, D.P_PERSONAL)]
    act(state, D.A_REMOVE3)
    for s in (15, 23, 61):
        act(state, D.A_PICK + s)
    assert phase(state) == "main"
    assert (state[slot(BLUE, D.P_PERSONAL):][:2] - blue).tolist() == [1, 1]
    assert state[slot(GREEN, D.P_PERSONAL)] == green + 1
    assert state[D.G_OFFICE_OWNER + CITY["Minden"] * 4] == BLUE


def test_we37_two_triggers_end_once():
    state = blank(3)
    state[D.G_COMPLETED] = 9
    set_player(state, RED, score=19, track={D.PRIVILEGIUM: 2})
    set_city(state, "Minden", [RED])
    set_route(state, 9, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 9)                             # T1 by Minden's control point
    act(state, R + 1)                                         # T3 by Bremen
    assert to_move(state) == TERMINAL and state[D.G_COMPLETED] == 10


def test_we38_twenty_points_by_the_coin():
    state = blank(3)
    set_player(state, RED, score=19)
    set_route(state, 21, [(RED, T)] * 3)
    act(state, D.A_ESTABLISH + 21)
    act(state, R + 1)                                         # Luebeck's coin
    assert score(state, RED) == 20 and to_move(state) == TERMINAL


def test_we39_displacement_needs_the_personal_supply():
    state = blank()
    set_player(state, RED, personal=(1, 0), general=(10, 1))
    set_route(state, 11, [(BLUE, T), None, None])
    assert displace(32, T) not in legal(state)


def test_we40_compensation_ignores_the_pawn():
    state = blank(2, two_player_regions=True)
    state[D.G_PAWN] = 4                                        # borders route 11
    set_player(state, BLUE, general=(3, 0))
    set_route(state, 11, [(BLUE, T), None, None])
    act(state, displace(32, T))
    act(state, D.A_PAY + T)
    assert placements(legal(state)) == spaces_of(6, 10, 13, 18)
    act(state, place(spaces_of(13).pop(), T))
    assert to_move(state) == BLUE


def test_we41_swap_never_changes_completed_or_coins():
    state = blank(3)
    set_city(state, "Luebeck", [BLUE, RED])
    set_player(state, RED, markers={D.MK_SWAP: 1})
    completed = state[D.G_COMPLETED]
    act(state, D.A_SWAP + 3 * CITY["Luebeck"])
    assert state[D.G_COMPLETED] == completed == 1 and score(state, RED) == 0
    assert state[D.G_OFFICE_OWNER + CITY["Luebeck"] * 4] == RED
