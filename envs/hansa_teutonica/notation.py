"""Readable move names (``action_to_str``), parsed back by the core's ``parse_move``."""

from __future__ import annotations

import numpy as np

from . import data as D

TYPE = ("T", "M")
REWARD_NAMES = (
    "reward none", "reward kontor {a}", "reward kontor {b}", "reward extra {a} T",
    "reward extra {a} M", "reward extra {b} T", "reward extra {b} M", "reward upgrade {a}",
    "reward upgrade {b}", "reward coellen 7", "reward coellen 8", "reward coellen 9",
    "reward coellen 11",
)


def route_name(route: int) -> str:
    a, b = D.ROUTE_CITY[route]
    return f"r{route}({D.CITY_NAMES[a]}-{D.CITY_NAMES[b]})"


def space_name(space: int) -> str:
    route = int(D.SPACE_ROUTE[space])
    return f"s{space} {route_name(route)}"


def action_to_str(state: np.ndarray, action: int) -> str:
    a = int(action)
    if a == D.A_END_TURN:
        return "end turn"
    if a < D.A_PLACE:
        return f"income {a - D.A_INCOME}M"
    if a < D.A_PAY:                     # one slot: placement or displacement by occupancy
        s, t = divmod(a - D.A_PLACE, 2)
        if state[D.G_SPACE_OWNER + s] >= 0:
            return f"displace with {TYPE[t]} {space_name(s)}"
        return f"place {TYPE[t]} {space_name(s)}"
    if a < D.A_MOVE_BEGIN:
        return f"pay {TYPE[a - D.A_PAY]}"
    if a == D.A_MOVE_BEGIN:
        return "move"
    if a < D.A_DONE:
        return f"pick {space_name(a - D.A_PICK)}"
    if a == D.A_DONE:
        return "done"
    if a < D.A_REWARD:
        return f"establish {route_name(a - D.A_ESTABLISH)}"
    if a < D.A_PLUS3:
        route = int(state[D.G_EST_ROUTE])
        ends = D.ROUTE_CITY[route] if route >= 0 else (-1, -1)
        names = [D.CITY_NAMES[c] if c >= 0 else "?" for c in ends]
        return REWARD_NAMES[a - D.A_REWARD].format(a=names[0], b=names[1])
    if a == D.A_PLUS3:
        return "use +3 actions"
    if a == D.A_PLUS4:
        return "use +4 actions"
    if a < D.A_SWAP:
        return f"use upgrade {D.TRACK_NAMES[a - D.A_UPGRADE]}"
    if a < D.A_REMOVE3:
        city, i = divmod(a - D.A_SWAP, 3)
        return f"use swap {D.CITY_NAMES[city]} o{i}-o{i + 1}"
    if a == D.A_REMOVE3:
        return "use remove 3"
    if a < D.A_PAWN:
        return f"marker to {route_name(a - D.A_MARKER)}"
    if a < D.A_PAWN_SKIP:
        return f"pawn to G{a - D.A_PAWN}"
    if a == D.A_PAWN_SKIP:
        return "pawn stays"
    raise ValueError(f"action {action} is outside 0..{D.NUM_ACTIONS - 1}")
