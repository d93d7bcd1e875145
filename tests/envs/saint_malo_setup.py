"""Building Saint Malo positions by hand for the rule tests (worked examples, edge cases)."""

from __future__ import annotations

import numpy as np
from envtest import legal_set, play_legal

from meeplezoo.envs.core.contract import H_PHASE, H_TO_MOVE
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo import rules
from meeplezoo.envs.saint_malo.masks import legal_mask
from meeplezoo.envs.saint_malo.options import make_config

FACE = {"S": D.SWORD, "L": D.LOG, "C": D.CRATE_FACE, "W": D.WALL_FACE, "X": D.CROSS,
        "H": D.HEAD}
CODE = {"wall": D.WALL, "crate": D.CRATE, "house": D.HOUSE, "citizen": D.CITIZEN,
        "soldier": D.SOLDIER, "priest": D.PRIEST, "architect": D.ARCHITECT,
        "merchant": D.MERCHANT, "juggler": D.JUGGLER, "noble": D.NOBLE,
        **{f"church{s}": D.CHURCH_1 + s - 1 for s in range(1, 6)}}
CHARACTER_ACTION = {name: D.A_CHARACTER + i for i, name in enumerate(D.CHARACTER_NAMES)}


def new_game(num_players: int = 2, start_seat: int = 0, **options) -> np.ndarray:
    """A start position with no pre-printed crates unless asked (WE tests set boards)."""
    options.setdefault("start_crates", ())
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, num_players, make_config(**options), start_seat)
    return state


def base(seat: int) -> int:
    return D.PLAYERS_BASE + seat * D.PLAYER_SIZE


def get(state, seat: int, slot: int) -> int:
    return int(state[base(seat) + slot])


def put(state, seat: int, **values) -> None:
    """put(state, 0, coins=4, logs=2, vp=40, cannons_lost=1)."""
    for name, value in values.items():
        state[base(seat) + getattr(D, "P_" + name.upper())] = value


def cell(r: int, c: int) -> int:
    return 7 * r + c


def place(r: int, c: int) -> int:
    """The PLACE action for cell (r, c)."""
    return D.A_PLACE + cell(r, c)


def draw(state, seat: int, items: dict) -> None:
    """Write codes on a city ({(r, c): "crate"}), keeping soldiers and broken sides right."""
    for (r, c), name in items.items():
        code = CODE[name]
        state[base(seat) + cell(r, c)] = code
        side = D.CELL_SIDE[cell(r, c)]
        if side >= 0 and code != D.WALL:
            state[base(seat) + D.P_SIDES_BROKEN] |= 1 << side
        if code == D.SOLDIER:
            state[base(seat) + D.P_SOLDIERS] += 1


def fill_city(state, seat: int, code_name: str = "crate", leave=()) -> None:
    """Fill every empty space (except ``leave``) with one item."""
    keep = {cell(r, c) for r, c in leave}
    for index in range(D.NUM_CELLS):
        if state[base(seat) + index] == D.EMPTY and index not in keep:
            draw(state, seat, {divmod(index, 7): code_name})


def set_dice(state, dice: str, seat: int | None = None, phase: int = D.PH_SCORE,
             rolls_used: int = 3) -> None:
    """Put ``seat`` (default: the active seat) on turn with final dice like "HHHHX"."""
    if seat is None:
        seat = int(state[D.G_ACTIVE])
    faces = sorted(FACE[ch] for ch in dice)
    state[D.G_DICE:D.G_DICE + 5] = faces
    state[D.G_ACTIVE] = seat
    state[D.G_ROLLS_USED] = rolls_used
    state[D.G_ROLL_MASK] = 0
    state[H_PHASE] = phase
    state[H_TO_MOVE] = seat


def legal(state) -> set[int]:
    return legal_set(state, legal_mask, D.NUM_ACTIONS)


def play(state, *actions: int) -> None:
    """Apply actions, each of which must be legal at its turn."""
    play_legal(state, actions, legal, rules.apply_action)


def empty_count(state, seat: int) -> int:
    board = state[base(seat):base(seat) + D.NUM_CELLS]
    return int(((board == D.EMPTY) & ~D.IS_TOWER).sum())
