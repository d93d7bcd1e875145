"""Compensation after a displacement (HT-6.3.3, A-5, A-6): two rules findings.

Both positions are the reported repro cases (``hansa_teutonica_compensation_order.json``
and ``hansa_teutonica_displaced_piece_space.json``), written out here: a fresh game's saved
state with the board, the supplies and the markers of the case put in, loaded through
``state_from_json`` and played with the case's own moves.
"""

from __future__ import annotations

import json

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.envs.hansa_teutonica import data as D

T, M = D.TRADER, D.MERCHANT


def place(space: int, kind: int) -> int:
    return D.A_PLACE + 2 * space + kind


def spaces_of(*routes: int) -> set[int]:
    return {s for r in routes for s in range(D.ROUTE_START[r], D.ROUTE_START[r] + D.ROUTE_LEN[r])}


def load_case(players: int, pieces: dict[int, tuple[int, int]], blocks: dict[int, list[int]]):
    """Seat 0 to move with 2 actions, no markers on the board (all 16 in the supply or set
    aside as the case has them); ``pieces``: space -> (owner, type); ``blocks``: the
    per-player slots (tracks, personal T/M, general T/M, then zeros)."""
    env = hansa_teutonica_v0.env(num_players=players, start_seat=0)
    env.reset(seed=0)
    saved = json.loads(env.state_to_json())
    fields = saved["fields"]
    fields["marker_supply"] = [5, 2, 2, 2, 3, 2]
    fields["route_marker"] = [-1] * D.NUM_ROUTES
    fields["space_owner"] = [pieces.get(s, (-1, T))[0] for s in range(D.NUM_SPACES)]
    fields["space_type"] = [pieces.get(s, (-1, T))[1] for s in range(D.NUM_SPACES)]
    for seat in range(players):
        fields[f"player_{seat}"] = blocks[seat] + [0] * (D.PLAYER_SIZE - len(blocks[seat]))
    fields["actions_left"] = 2
    env.state_from_json(json.dumps(saved))
    return env


def field(env, slot: int) -> int:
    return int(env.state[slot])


def supply(env, seat: int, offset: int) -> tuple[int, int]:
    base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE + offset
    return int(env.state[base]), int(env.state[base + 1])


def test_ht_6_3_3_c_a6_the_displaced_piece_may_go_before_the_lifted_one():
    """HT-6.3.3(c), A-6: pieces are placed one at a time, in any order.  With a relocated
    merchant in hand, the displaced trader may be placed first (the env offered only the
    merchant until both were placed)."""
    pieces = {0: (1, M), 32: (1, T), **{s: (1, T) for s in (*range(45, 49), *range(65, 71))}}
    env = load_case(3, pieces, {0: [0, 0, 0, 0, 0, 5, 1, 6, 0], 1: [0] * 9,
                                2: [0, 0, 0, 0, 0, 7, 1, 4, 0]})
    env.step(70)                                   # displace with T s32 r11(Dortmund-Paderborn)
    env.step(220)                                  # pay T
    assert env.phase == "compensate" and env.agent_selection == "player_1"
    env.step(223)                                  # no stock, no supply: lift the M on s0
    assert (field(env, D.G_COMP_HAND), field(env, D.G_DISP_PENDING)) == (M, T)
    # Routes 6, 10, 13 and 18 touch route 11's cities and have empty spaces (d = 1).
    nearest = spaces_of(6, 10, 13, 18)
    assert set(env.legal_actions()) == {place(s, k) for s in nearest for k in (T, M)}
    assert env.legal_move_names()[0] == "place T s18 r6(Duisburg-Dortmund)"
    env.step(place(18, T))                         # the displaced trader first
    assert set(env.legal_actions()) == {place(s, M) for s in nearest - {18}}
    env.step(place(19, M))                         # then the lifted merchant
    assert env.phase == "main" and env.agent_selection == "player_0"
    owner = env.state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + D.NUM_SPACES]
    kind = env.state[D.G_SPACE_TYPE:D.G_SPACE_TYPE + D.NUM_SPACES]
    assert (owner[18], kind[18], owner[19], kind[19], owner[0]) == (1, T, 1, M, -1)
    assert supply(env, 1, D.P_PERSONAL) == (0, 0)  # nothing went to the personal supply
    assert field(env, D.G_COMP_HAND) == field(env, D.G_DISP_PENDING) == -1


def crowded_board() -> dict[int, tuple[int, int]]:
    """The second case's 4-player board: every space taken but s0, s1 (route 0) and s33,
    s34 (route 11, beside seat 1's merchant on s32)."""
    pieces = {s: (0, T) for s in range(2, 27)}
    pieces |= {s: (1, T) for s in (*range(27, 33), *range(35, 56))}
    pieces |= {s: (2, T) for s in range(56, 86)}
    pieces |= {s: (3, T) for s in range(86, 107)}
    for s in (24, 25, 26, 32, 54, 55, 82, 83, 84, 85):
        pieces[s] = (pieces[s][0], M)
    return pieces


MAXED = [4, 5, 3, 3, 3]                            # every track at its top (HT-3.1)


def test_ht_6_3_3_a_an_extra_never_takes_the_displaced_pieces_last_space():
    """HT-6.3.3(a)/(b), A-5: the displaced piece must go back on the board; an extra may be
    declined.  With two empty spaces off the origin route, the first extra may take one,
    and then only the displaced merchant may take the last (the env let a second extra
    take it and sent the merchant to the personal supply)."""
    env = load_case(4, crowded_board(), {0: MAXED + [3, 1, 1, 0], 1: MAXED + [0, 1, 2, 0],
                                         2: MAXED + [0, 0, 0, 0], 3: MAXED + [5, 4, 0, 0]})
    env.step(70)                                   # displace seat 1's merchant on s32
    env.step(220)
    env.step(220)                                  # a merchant costs 2 (HT-6.3.2)
    assert env.phase == "compensate" and env.agent_selection == "player_1"
    assert (field(env, D.G_DISP_PENDING), field(env, D.G_DISP_EXTRAS)) == (M, 2)
    # Only s0 and s1 (route 0) are empty off route 11; extras come from the general stock.
    assert set(env.legal_actions()) == {place(0, T), place(0, M), place(1, T), place(1, M)}
    env.step(place(0, T))                          # one extra trader on s0
    assert env.legal_actions() == [place(1, M)]    # s1 is kept for the displaced merchant
    env.step(place(1, M))
    assert env.phase == "main" and env.agent_selection == "player_0"
    owner = env.state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + D.NUM_SPACES]
    kind = env.state[D.G_SPACE_TYPE:D.G_SPACE_TYPE + D.NUM_SPACES]
    assert (owner[0], kind[0], owner[1], kind[1]) == (1, T, 1, M)
    assert supply(env, 1, D.P_PERSONAL) == (0, 1)  # unchanged: no piece went there
    assert supply(env, 1, D.P_GENERAL) == (1, 0)   # one extra came from the stock


def test_a5_with_no_space_off_the_origin_route_the_piece_goes_to_the_supply():
    """A-5 is unchanged: when no other route has an empty space at all, the displaced
    piece goes to its owner's personal supply and no extras are placed."""
    pieces = crowded_board() | {0: (3, T), 1: (3, T)}
    env = load_case(4, pieces, {0: MAXED + [3, 1, 1, 0], 1: MAXED + [0, 1, 2, 0],
                                2: MAXED + [0, 0, 0, 0], 3: MAXED + [3, 4, 0, 0]})
    env.step(70)
    env.step(220)
    env.step(220)
    assert env.phase == "main" and env.agent_selection == "player_0"
    assert supply(env, 1, D.P_PERSONAL) == (0, 2)  # the merchant, and no extras
    assert supply(env, 1, D.P_GENERAL) == (2, 0)
