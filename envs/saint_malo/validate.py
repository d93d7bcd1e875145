"""Consistency checks of a Saint Malo state: JSON loading and the test invariants.

``validate_state`` raises ``ValueError`` saying what is wrong; it accepts exactly the
states the rules can reach (up to facts a state does not record, like move history).
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from . import data as D


def _fail(message: str):
    raise ValueError(message)


def validate_config(state: np.ndarray) -> None:
    kinds = state[D.C_TOWER_KIND:D.C_TOWER_KIND + 4]
    if not np.isin(kinds, list(D.REWARD_KIND_CODES.values())).all():
        _fail(f"tower reward kinds {kinds.tolist()} are not all 0, 1 or 2")
    if (state[D.C_TOWER_AMOUNT:D.C_TOWER_AMOUNT + 4] < 0).any():
        _fail("tower reward amounts must be >= 0")
    if (state[D.C_STRENGTH:D.C_STRENGTH + 6] < 0).any():
        _fail("attack strengths must be >= 0")
    if state[D.C_BOXES_PER_PLAYER] < 1:
        _fail("boxes_per_player must be >= 1")
    crates = int(state[D.C_START_CRATES])
    if crates < 0 or crates & ~D.SPACES_BB:
        _fail("start_crates must be a bitboard of spaces (no towers)")
    if state[D.C_START_COINS] < 0 or state[D.C_START_LOGS] < 0:
        _fail("start coins and logs must be >= 0")
    if state[D.C_DEDUPE] not in (0, 1):
        _fail("dedupe_rerolls must be 0 or 1")


def validate_state(state: np.ndarray) -> None:
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        _fail(f"game id {int(state[H_GAME_ID])} is not Saint Malo's ({D.GAME_ID})")
    players = int(state[H_NUM_PLAYERS])
    if not D.MIN_PLAYERS <= players <= D.MAX_PLAYERS:
        _fail(f"num_players {players} outside {D.MIN_PLAYERS}..{D.MAX_PLAYERS}")
    validate_config(state)
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    active = int(state[D.G_ACTIVE])
    if not 0 <= phase < len(D.PHASE_NAMES):
        _fail(f"unknown phase {phase}")
    for name, slot in (("start_seat", D.G_START_SEAT), ("active_seat", D.G_ACTIVE)):
        if not 0 <= state[slot] < players:
            _fail(f"{name} {int(state[slot])} is not a seat")
    expected = {D.PH_ROLL: CHANCE, D.PH_GAME_OVER: TERMINAL}.get(phase, active)
    if to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]} (expected {expected})")
    dice = state[D.G_DICE:D.G_DICE + D.NUM_DICE]
    if ((dice < 0) | (dice > 5)).any() or (np.diff(dice) < 0).any():
        _fail(f"dice {dice.tolist()} must be faces 0..5 in ascending order")
    if not 0 <= state[D.G_ROLLS_USED] <= D.MAX_ROLLS:
        _fail("rolls_used must be 0..3")
    if phase == D.PH_ROLL and not 1 <= state[D.G_ROLL_MASK] <= 31:
        _fail("a pending roll needs a non-empty roll_mask")
    if phase != D.PH_ROLL and state[D.G_ROLL_MASK] != 0:
        _fail("roll_mask is set outside the roll phase")
    if phase in (D.PH_ROLL_DECISION,) and not 1 <= state[D.G_ROLLS_USED] <= 2:
        _fail("a re-roll decision happens only after roll 1 or 2")
    _validate_pirates(state, players)
    for seat in range(D.MAX_PLAYERS):
        _validate_city(state, seat, present=seat < players)


def _validate_pirates(state: np.ndarray, players: int) -> None:
    row = int(state[D.C_BOXES_PER_PLAYER]) * players
    boxes, attacks = int(state[D.G_PIRATE_BOXES]), int(state[D.G_ATTACKS_DONE])
    if not 0 <= boxes <= D.NUM_ATTACKS * row:
        _fail(f"pirate_boxes {boxes} outside 0..{D.NUM_ATTACKS * row}")
    if attacks != boxes // row:                                  # SM-9.2
        _fail(f"attacks_done {attacks} does not match {boxes} boxes of rows of {row}")


def _validate_city(state: np.ndarray, seat: int, present: bool) -> None:
    base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
    block = state[base:base + D.PLAYER_SIZE]
    if not present:
        if block.any():
            _fail(f"seat {seat} is not in the game but has a non-empty city")
        return
    board = block[D.P_BOARD:D.P_BOARD + D.NUM_CELLS]
    if (board[D.IS_TOWER] != D.TOWER).any():
        _fail(f"seat {seat}: tower cells must hold -1")
    spaces = board[~D.IS_TOWER]
    if ((spaces < 0) | (spaces >= D.NUM_CELL_CODES)).any():
        _fail(f"seat {seat}: cell codes must be 0..15 on spaces")
    for name in ("P_COINS", "P_LOGS", "P_CANNONS_LOST", "P_SOLDIERS"):
        if block[getattr(D, name)] < 0:
            _fail(f"seat {seat}: {name[2:].lower()} is negative")       # SM-2.9, A-14
    if block[D.P_CANNONS_LOST] > state[D.G_ATTACKS_DONE]:
        _fail(f"seat {seat}: more cannons lost than attacks")           # SM-9.6
    if block[D.P_SOLDIERS] != (board == D.SOLDIER).sum():
        _fail(f"seat {seat}: soldier count disagrees with the soldiers drawn")
    done, broken = int(block[D.P_SIDES_DONE]), int(block[D.P_SIDES_BROKEN])
    walls_pending = (
        state[H_PHASE] == D.PH_PLACE and state[D.G_PENDING_CODE] == D.WALL
        and state[D.G_ACTIVE] == seat
    )
    if done & ~0xF or broken & ~0xF or done & broken:
        _fail(f"seat {seat}: a side cannot be both done and broken")
    for side in range(4):
        cells = board[D.SIDE_CELLS[side]]
        full = bool((cells == D.WALL).all())
        if done >> side & 1 and not full:
            _fail(f"seat {seat}: side {D.SIDE_NAMES[side]} done without five walls")
        if full and not done >> side & 1 and not walls_pending:
            # SM-7.3.5: a side completes once the turn's walls are all drawn.
            _fail(f"seat {seat}: side {D.SIDE_NAMES[side]} has five walls but is not done")
        has_other = ((cells != D.WALL) & (cells != D.EMPTY)).any()
        if has_other != bool(broken >> side & 1):
            _fail(f"seat {seat}: side {D.SIDE_NAMES[side]} broken flag disagrees with its cells")
    inner = board.reshape(7, 7)[1:6, 1:6]
    if (inner == D.WALL).any():
        _fail(f"seat {seat}: a wall on an inner space")                  # SM-2.5
