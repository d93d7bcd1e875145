"""Building Carcassonne positions by hand for the rule tests (spec §19 worked examples)."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne import rules
from meeplezoo.envs.carcassonne.board import legal_placements
from meeplezoo.envs.carcassonne.masks import legal_mask
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.core.contract import H_PHASE, H_TO_MOVE, TERMINAL


def new_game(num_players: int = 2, start_seat: int = 0, **options) -> np.ndarray:
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, num_players, make_config(**options), start_seat)
    return state


def mask_of(state) -> np.ndarray:
    mask = np.zeros(D.num_actions_of(D.layout_of(state)), dtype=np.int8)
    legal_mask(state, mask)
    return mask


def draw(state, tile: str) -> None:
    """Force the next draw (tests fix the pile order, §19)."""
    assert int(state[H_TO_MOVE]) == -1, "a draw is not due"
    rules.apply_chance(state, D.TYPE_OF[tile])


def placements(state, tile: str) -> set[tuple[int, int, int]]:
    """Legal (x, y, r) of a tile type on the current board."""
    out = np.zeros(800, dtype=np.int64)
    count = legal_placements(state, D.TYPE_OF[tile], out)
    return {D.placement_of(state, int(a)) for a in out[:count]}


def place(state, x: int, y: int, r: int) -> int:
    """The placement action of (x, y, r) in the state's layout; asserts it names a cell."""
    action = D.placement_action(state, x, y, r)
    assert action >= 0, f"({x},{y}) is not a frontier cell"
    return action


def meeple(state, slot: int, large: bool = False) -> int:
    return D.meeple_action(slot, large, D.layout_of(state))


def no_meeple(state) -> int:
    return D.no_meeple_action(D.layout_of(state))


def play(state, tile: str, x: int, y: int, r: int, slot: int | None = None,
         large: bool = False) -> None:
    """``P: tile@(x,y) rN [, meeple on slot s]`` exactly as §19 writes a turn."""
    draw(state, tile)
    action = place(state, x, y, r)
    assert mask_of(state)[action], f"{tile}@({x},{y}) r{r} is not legal"
    rules.apply_action(state, action)
    if int(state[H_PHASE]) == D.PH_MEEPLE:
        choice = no_meeple(state) if slot is None else meeple(state, slot, large)
        assert mask_of(state)[choice], f"meeple choice {choice} is not legal"
        rules.apply_action(state, choice)
    else:
        assert slot is None, "the meeple step was skipped but a meeple was asked for"


def end(state) -> None:
    """Force the end of the game and run final scoring (§19 "End")."""
    rules.end_game(state)
    assert int(state[H_TO_MOVE]) == TERMINAL


def scores(state, players: int = 2) -> list[int]:
    return [int(v) for v in state[D.G_SCORE:D.G_SCORE + players]]


def supply(state, seat: int) -> tuple[int, int]:
    return int(state[D.G_NORMAL + seat]), int(state[D.G_LARGE + seat])
