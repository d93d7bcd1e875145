"""Consistency checks of a Saint Malo state: JSON loading and the test invariants.

``validate_state`` raises ``ValueError`` saying what is wrong; it accepts exactly the
states the rules can reach (up to facts a state does not record, like move history).
It first checks every field against ``data.FIELD_BOUNDS`` (as the JSON loader does), then
the facts that tie fields together, so that after it passes no kernel can index outside
an array (a seat below num_players, the architect's cell, a pending side bit for the
bonus mask) or meet a decision with no legal action.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from ..core.state_io import check_field_bounds
from . import data as D
from .city import empty_bb, grow_n4
from .masks import legal_mask


def _fail(message: str):
    raise ValueError(message)


def _popcount(bb: int) -> int:
    return bin(int(bb)).count("1")


def validate_config(state: np.ndarray) -> None:
    kinds = state[D.C_TOWER_KIND:D.C_TOWER_KIND + 4]
    amounts = state[D.C_TOWER_AMOUNT:D.C_TOWER_AMOUNT + 4]
    for side in range(4):
        if kinds[side] == D.REWARD_CHARACTER and not 1 <= amounts[side] <= D.MAX_LEVEL:
            _fail(f"side {D.SIDE_NAMES[side]}: a character reward's level must be "
                  f"1..{D.MAX_LEVEL}, got {int(amounts[side])}")
    if state[D.C_CHURCH_T] != 0:
        _fail("church_row_values[0] (no row) must be 0")                 # SM-11.4
    if int(state[D.C_START_CRATES]) & ~D.SPACES_BB:
        _fail("start_crates must be a bitboard of spaces (no towers)")


def validate_state(state: np.ndarray) -> None:
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    check_field_bounds(D.STATE_FIELDS, D.FIELD_BOUNDS, state)   # for direct callers
    validate_config(state)
    players = int(state[H_NUM_PLAYERS])
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    active = int(state[D.G_ACTIVE])
    for name, slot in (("start_seat", D.G_START_SEAT), ("active_seat", D.G_ACTIVE)):
        if not 0 <= state[slot] < players:
            _fail(f"{name} {int(state[slot])} is not a seat")
    expected = {D.PH_ROLL: CHANCE, D.PH_GAME_OVER: TERMINAL}.get(phase, active)
    if to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]} (expected {expected})")
    truncated = bool(state[D.G_TRUNCATED])
    if truncated and phase != D.PH_GAME_OVER:
        _fail("a truncated game must be over")
    ply, cap = int(state[H_PLY]), int(state[D.C_MAX_DECISIONS])
    if ply > cap or (ply == cap and phase != D.PH_GAME_OVER):
        _fail(f"ply {ply} has reached max_decisions {cap} but the game goes on")
    if state[D.G_TURNS] > ply:
        _fail(f"turns {int(state[D.G_TURNS])} exceed the {ply} decisions made")  # a turn: >= 2
    dice = state[D.G_DICE:D.G_DICE + D.NUM_DICE]
    if (np.diff(dice) < 0).any():
        _fail(f"dice {dice.tolist()} must be in ascending order")
    _validate_rolls(state, phase)
    _validate_pending(state, phase, truncated)
    _validate_pirates(state, players)
    for seat in range(D.MAX_PLAYERS):
        _validate_city(state, seat, present=seat < players, truncated=truncated)
    _validate_end(state, players, phase, truncated)
    if to_move >= 0 and legal_mask(state, np.zeros(D.NUM_ACTIONS, dtype=np.int8)) == 0:
        _fail(f"no legal action in phase {D.PHASE_NAMES[phase]}")         # a dead end


def _validate_rolls(state: np.ndarray, phase: int) -> None:
    rolls, roll_mask = int(state[D.G_ROLLS_USED]), int(state[D.G_ROLL_MASK])
    if phase == D.PH_ROLL:
        if roll_mask == 0 or rolls > D.MAX_ROLLS - 1:
            _fail("a pending roll needs a non-empty roll_mask and a roll left")
        if rolls == 0 and roll_mask != (1 << D.NUM_DICE) - 1:
            _fail("the first roll of a turn rolls all five dice")           # SM-5.2
    elif roll_mask != 0:
        _fail("roll_mask is set outside the roll phase")
    if phase == D.PH_ROLL_DECISION and not 1 <= rolls <= 2:
        _fail("a re-roll decision happens only after roll 1 or 2")
    if phase in (D.PH_SCORE, D.PH_PLACE, D.PH_HOUSES, D.PH_BONUS_CHOICE) and rolls == 0:
        _fail(f"phase {D.PHASE_NAMES[phase]} before the dice were rolled")


def _validate_pending(state: np.ndarray, phase: int, truncated: bool) -> None:
    """The items of a turn in progress: what is being placed, houses, tower characters."""
    code, left = int(state[D.G_PENDING_CODE]), int(state[D.G_PENDING_LEFT])
    placed, architect = int(state[D.G_PLACED_BB]), int(state[D.G_ARCHITECT_CELL])
    due, placing_bonus = int(state[D.G_BONUS_DUE]), int(state[D.G_PLACING_BONUS])
    base = D.PLAYERS_BASE + int(state[D.G_ACTIVE]) * D.PLAYER_SIZE
    board = state[base:base + D.NUM_CELLS]
    filled = sum(1 << c for c in range(D.NUM_CELLS) if board[c] > D.EMPTY)
    if placed & ~filled:
        _fail("placed_this_turn names cells the active city has not drawn on")
    kinds = state[D.C_TOWER_KIND:D.C_TOWER_KIND + 4]
    character_sides = sum(1 << s for s in range(4) if kinds[s] == D.REWARD_CHARACTER)
    if due & ~(character_sides & int(state[base + D.P_SIDES_DONE])):
        _fail("bonus_due names a side that is not a completed character side")  # SM-7.3.2
    if truncated:
        return                  # cut off mid-turn: the pending items stay as they were
    if phase in (D.PH_ROLL, D.PH_ROLL_DECISION, D.PH_SCORE):
        pending = {"pending_code": code, "pending_left": left, "placed_this_turn": placed,
                   "architect_cell": architect + 1, "bonus_due": due,
                   "placing_bonus": placing_bonus, "houses_built": state[D.G_HOUSES_BUILT]}
        named = [name for name, value in pending.items() if value]
        if named:
            _fail(f"{', '.join(named)} set in phase {D.PHASE_NAMES[phase]}: nothing can be "
                  "pending before the scoring")
    if phase != D.PH_PLACE and (left or placing_bonus):
        _fail("pending_left / placing_bonus are set outside the place phase")
    if phase != D.PH_HOUSES and architect != -1:
        _fail("architect_cell is set outside the houses phase")
    if due and phase not in (D.PH_PLACE, D.PH_HOUSES, D.PH_BONUS_CHOICE):
        _fail(f"a tower character is due in phase {D.PHASE_NAMES[phase]}")
    if phase == D.PH_PLACE:
        if not (code in (D.WALL, D.CRATE) or D.CHURCH_1 <= code <= D.NOBLE):
            _fail(f"pending_code {code} cannot be placed")
        if left < 1 or left + _popcount(placed) > D.NUM_DICE:
            _fail(f"pending_left {left} with {_popcount(placed)} placed is not 1..5 in all")
        if code not in (D.WALL, D.CRATE) and (left != 1 or placed):
            _fail("a church or a character is placed alone")
        _validate_room_to_place(state, code, left, placed, base)
        if placing_bonus and code < D.CITIZEN:
            _fail("placing_bonus is set but no character is pending")
        if due and not placing_bonus:
            _fail("a tower character is due while walls are still being placed")
    elif phase == D.PH_HOUSES:
        if code != D.ARCHITECT or architect < 0 or board[architect] != D.ARCHITECT:
            _fail("the houses phase needs the architect just placed")        # SM-7.5.3
        houses = int(state[D.G_HOUSES_BUILT])
        if houses >= D.MAX_HOUSES or _popcount(placed) != houses:
            _fail(f"houses_built {houses} disagrees with this turn's houses")
        if any(board[c] != D.HOUSE for c in range(D.NUM_CELLS) if placed >> c & 1):
            _fail("a house of this turn is not a house")
    elif phase == D.PH_BONUS_CHOICE:
        if not due:
            _fail("the bonus choice needs a tower character due")
        if not (board[~D.IS_TOWER] == D.EMPTY).any():
            _fail("a tower character is offered but the city is full")       # SM-7.3.6


def _validate_room_to_place(state, code: int, left: int, placed: int, base: int) -> None:
    """The items still to place all fit, whatever cells the player picks (so no later
    decision is left without a legal action): walls on free outer spaces (SM-7.3.1), crates
    next to this turn's group, which is one N4 group (SM-7.2)."""
    empty = empty_bb(state, base)
    if code == D.WALL and _popcount(empty & D.OUTER_BB) < left:
        _fail(f"{left} walls to place but fewer free outer spaces")
    if code == D.CRATE and placed:
        if grow_n4(placed & -placed, placed) != placed:
            _fail("this turn's crates are not one orthogonal group")
        if _popcount(grow_n4(placed, empty | placed) & ~placed) < left:
            _fail(f"{left} crates to place but the group has no room for them")


def _validate_end(state: np.ndarray, players: int, phase: int, truncated: bool) -> None:
    full = [
        not (state[b:b + D.NUM_CELLS][~D.IS_TOWER] == D.EMPTY).any()
        for b in (D.PLAYERS_BASE + s * D.PLAYER_SIZE for s in range(players))
    ]
    if state[D.G_END_TRIGGERED] and not any(full):
        _fail("end_triggered but no city is full")                          # SM-11.1
    if phase == D.PH_GAME_OVER and not truncated:
        last = (int(state[D.G_START_SEAT]) + players - 1) % players
        if not state[D.G_END_TRIGGERED] or state[D.G_ACTIVE] != last:
            _fail("the game is over but the last round was not played")     # SM-11.2


def _validate_pirates(state: np.ndarray, players: int) -> None:
    row = int(state[D.C_BOXES_PER_PLAYER]) * players
    boxes, attacks = int(state[D.G_PIRATE_BOXES]), int(state[D.G_ATTACKS_DONE])
    if not 0 <= boxes <= D.NUM_ATTACKS * row:
        _fail(f"pirate_boxes {boxes} outside 0..{D.NUM_ATTACKS * row}")
    if attacks != boxes // row:                                  # SM-9.2
        _fail(f"attacks_done {attacks} does not match {boxes} boxes of rows of {row}")
    if state[D.G_LAST_ATTACKS] > attacks:
        _fail("last_attacks exceeds the attacks done")


def _validate_city(state: np.ndarray, seat: int, present: bool, truncated: bool) -> None:
    base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
    block = state[base:base + D.PLAYER_SIZE]
    if not present:
        if block.any():
            _fail(f"seat {seat} is not in the game but has a non-empty city")
        return
    board = block[D.P_BOARD:D.P_BOARD + D.NUM_CELLS]
    if (board[D.IS_TOWER] != D.TOWER).any():
        _fail(f"seat {seat}: tower cells must hold -1")
    if (board[~D.IS_TOWER] < 0).any():
        _fail(f"seat {seat}: cell codes must be 0..15 on spaces")
    if block[D.P_CANNONS_LOST] > state[D.G_ATTACKS_DONE]:
        _fail(f"seat {seat}: more cannons lost than attacks")           # SM-9.6
    if block[D.P_SOLDIERS] != (board == D.SOLDIER).sum():
        _fail(f"seat {seat}: soldier count disagrees with the soldiers drawn")
    done, broken = int(block[D.P_SIDES_DONE]), int(block[D.P_SIDES_BROKEN])
    # SM-7.3.5: a side completes once the turn's walls are all drawn (or never, when the
    # game was cut off between two of them).
    walls_pending = (
        state[D.G_PENDING_CODE] == D.WALL and state[D.G_PENDING_LEFT] > 0
        and state[D.G_ACTIVE] == seat and (state[H_PHASE] == D.PH_PLACE or truncated)
    )
    if done & broken:
        _fail(f"seat {seat}: a side cannot be both done and broken")
    for side in range(4):
        cells = board[D.SIDE_CELLS[side]]
        full = bool((cells == D.WALL).all())
        if done >> side & 1 and not full:
            _fail(f"seat {seat}: side {D.SIDE_NAMES[side]} done without five walls")
        if full and not done >> side & 1 and not walls_pending:
            _fail(f"seat {seat}: side {D.SIDE_NAMES[side]} has five walls but is not done")
        has_other = ((cells != D.WALL) & (cells != D.EMPTY)).any()
        if has_other != bool(broken >> side & 1):
            _fail(f"seat {seat}: side {D.SIDE_NAMES[side]} broken flag disagrees with its cells")
    inner = board.reshape(7, 7)[1:6, 1:6]
    if (inner == D.WALL).any():
        _fail(f"seat {seat}: a wall on an inner space")                  # SM-2.5
    _validate_room(state, block, board, open_sides=~(done | broken) & 0xF)


def _validate_room(state: np.ndarray, block: np.ndarray, board: np.ndarray,
                   open_sides: int) -> None:
    """Coins, logs and VP are unbounded in the rules (SM-2.9 .. SM-2.11) but each gain uses
    up an empty space or a side's reward, so a state is refused unless what it holds plus
    all it can still gain fits the bounds: play can then never leave them.  A space yields
    at most 14 VP (a juggler among 7 character types, SM-7.5.2) or 8 coins (a merchant
    among 8 crates, SM-7.5.4); a delivery turns 2 or more coins into at most 5 logs
    (SM-7.1), so logs + 3 * coins never grows."""
    empty = int((board[~D.IS_TOWER] == D.EMPTY).sum())
    kinds = state[D.C_TOWER_KIND:D.C_TOWER_KIND + 4]
    amounts = state[D.C_TOWER_AMOUNT:D.C_TOWER_AMOUNT + 4]
    reward = {kind: sum(int(amounts[s]) for s in range(4) if open_sides >> s & 1
                        and kinds[s] == kind) for kind in (D.REWARD_COINS, D.REWARD_VP)}
    vp_room = int(block[D.P_VP]) + D.MAX_VP_PER_SPACE * empty + reward[D.REWARD_VP]
    coins = int(block[D.P_COINS]) + D.MAX_COINS_PER_SPACE * empty + reward[D.REWARD_COINS]
    if vp_room > D.BIG or int(block[D.P_LOGS]) + 3 * coins > D.BIG:
        _fail(f"VP, coins or logs too near the {D.BIG} bound for what the game can still add")
