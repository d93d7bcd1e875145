"""Helpers that build Hansa Teutonica positions for the worked-example tests (spec §16).

Seats: Red = 0 (the active player unless said otherwise), Blue = 1, Green = 2, Yellow = 3.
Positions are written straight into the state; a blank position has no markers on the
board (the three tavern markers are counted as set aside so marker totals still add up).
"""

from __future__ import annotations

import numpy as np
from envtest import legal_set

from meeplezoo.envs.core.contract import H_PHASE, H_TO_MOVE
from meeplezoo.envs.hansa_teutonica import chance, masks, rules
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.options import make_config

RED, BLUE, GREEN, YELLOW = 0, 1, 2, 3
T, M = D.TRADER, D.MERCHANT
CITY = {name: i for i, name in enumerate(D.CITY_NAMES)}


def blank(players: int = 4, **options) -> np.ndarray:
    """Red to move in MAIN with a fresh budget; no markers on the board."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, players, make_config(**options), 0)
    chance.apply_chance(state, 0)
    state[D.G_ROUTE_MARKER:D.G_ROUTE_MARKER + D.NUM_ROUTES] = -1
    state[D.G_MARKERS_LOST] = 3
    if state[H_PHASE] == D.PH_PAWN_SETUP:
        rules.apply_action(state, D.A_PAWN + 0)
    return state


def slot(seat: int, field: int) -> int:
    return D.PLAYERS_BASE + seat * D.PLAYER_SIZE + field


def set_player(state, seat, personal=None, general=None, score=None, track=None,
               markers=None):
    if personal is not None:
        state[slot(seat, D.P_PERSONAL)], state[slot(seat, D.P_PERSONAL) + 1] = personal
    if general is not None:
        state[slot(seat, D.P_GENERAL)], state[slot(seat, D.P_GENERAL) + 1] = general
    if score is not None:
        state[slot(seat, D.P_SCORE)] = score
    for track_id, level in (track or {}).items():
        state[slot(seat, D.P_TRACK) + track_id] = level
    for kind, count in (markers or {}).items():
        state[slot(seat, D.P_UNUSED) + kind] = count


def set_route(state, route: int, pieces) -> None:
    """``pieces``: one (owner, type) or None per space of the route."""
    start = int(D.ROUTE_START[route])
    assert len(pieces) == D.ROUTE_LEN[route]
    for k, piece in enumerate(pieces):
        state[D.G_SPACE_OWNER + start + k] = -1 if piece is None else piece[0]
        state[D.G_SPACE_TYPE + start + k] = 0 if piece is None else piece[1]


def set_city(state, city: str, owners) -> None:
    """Printed offices left to right: an owner or None; the piece type follows the shape."""
    c = CITY[city]
    side = int(state[D.G_SIDE])
    for i, owner in enumerate(owners):
        state[D.G_OFFICE_OWNER + c * D.MAX_OFFICES + i] = -1 if owner is None else owner
        state[D.G_OFFICE_TYPE + c * D.MAX_OFFICES + i] = D.OFF_SHAPE[side, c, i]
    n = int(D.CITY_NOFF[side, c])
    full = all(state[D.G_OFFICE_OWNER + c * D.MAX_OFFICES + i] >= 0 for i in range(n))
    state[D.G_COMPLETED] += int(full)


def add_extra(state, city: str, owner: int, kind: int = T) -> None:
    c = CITY[city]
    n = int(state[D.G_EXTRA_N + c])
    state[D.G_EXTRA_OWNER + c * D.MAX_EXTRA + n] = owner
    state[D.G_EXTRA_TYPE + c * D.MAX_EXTRA + n] = kind
    state[D.G_EXTRA_N + c] = n + 1


def legal(state) -> set[int]:
    return legal_set(state, masks.legal_mask, D.NUM_ACTIONS)


def act(state, action: int) -> None:
    assert action in legal(state), f"action {action} is not legal in {phase(state)}"
    rules.apply_action(state, action)


def phase(state) -> str:
    return D.PHASE_NAMES[int(state[H_PHASE])]


def to_move(state) -> int:
    return int(state[H_TO_MOVE])


def score(state, seat) -> int:
    return int(state[slot(seat, D.P_SCORE)])


def place(space: int, kind: int = T) -> int:
    return D.A_PLACE + 2 * space + kind


def displace(space: int, kind: int = T) -> int:
    """The same slot as ``place``: on a rival's space the action is a displacement."""
    return D.A_DISPLACE + 2 * space + kind


def spaces_of(*routes: int) -> set[int]:
    return {s for r in routes for s in range(D.ROUTE_START[r], D.ROUTE_START[r] + D.ROUTE_LEN[r])}


def placements(actions: set[int], kind: int | None = None) -> set[int]:
    """The spaces of the PLACE actions among ``actions`` (optionally of one piece type);
    outside the main phase (compensation, Move drops) every such action is a placement."""
    return {(a - D.A_PLACE) // 2 for a in actions
            if D.A_PLACE <= a < D.A_PAY and (kind is None or (a - D.A_PLACE) % 2 == kind)}
