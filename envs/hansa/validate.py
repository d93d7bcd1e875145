"""Consistency checks of a Hansa state: JSON loading and the test invariants.

``validate_state`` raises ``ValueError`` saying what is wrong.  It checks the board in the
config block with the same validator as a loaded board, and the conservation laws the
random-game tests rely on: every token in exactly one place (supply, warehouse, hand,
sold, removed), 15 stalls per player, and the thalers explained by the bank's ledger.
Core has already checked every field against ``data.FIELD_BOUNDS``; the checks here tie
the fields together (the stacks to the board and player count, income to the turns, the
initial placements to the placement order, each phase to what it needs), and every
decision point must offer a legal action, so no kernel indexes outside the board tables
or finds itself with nothing to do.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import (
    CHANCE,
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    TERMINAL,
)
from . import data as D
from .board import BoardError, board_from_state, parse_board
from .chance import placement_seat
from .masks import legal_mask, refill_options

TURN_PHASES = (D.PH_REFILL, D.PH_DRAW, D.PH_ACTIONS, D.PH_SELL, D.PH_TAX)


def _fail(message: str):
    raise ValueError(message)


def tokens_in_play(players: int) -> np.ndarray:
    """HS-3.1: 4 / 5 / 4 tokens of each type of the n + 2 colours in play."""
    counts = np.zeros(D.NUM_TYPES, dtype=np.int64)
    for colour in range(D.colours_in_play(players)):
        counts[3 * colour:3 * colour + 3] = D.TOKENS_OF_BARRELS
    return counts


def validate_config(state: np.ndarray) -> None:
    for name, slot in (("init_order", D.C_INIT_ORDER), ("place_exact", D.C_PLACE_EXACT),
                       ("sell_whole_colour", D.C_SELL_WHOLE), ("stack_sizes", D.C_STACK_SIZES),
                       ("board_kind", D.C_BOARD_KIND)):
        if state[slot] not in (0, 1):
            _fail(f"{name} must be 0 or 1, got {int(state[slot])}")
    if not 1 <= state[D.C_MAX_TURNS] <= D.MAX_TURNS_LIMIT:
        _fail(f"max_turns must be in 1..{D.MAX_TURNS_LIMIT}")
    exits = state[D.C_EXITS:D.C_EXITS + D.NUM_CITIES]
    if ((exits < 0) | (exits >= 1 << D.NUM_CITIES)).any():
        _fail("board_exits must be bitmasks of the nine cities")
    try:
        board = parse_board(board_from_state(state).to_dict())
    except BoardError as err:
        _fail(f"bad board: {err}")
    if state[D.C_FILL:D.C_FILL + D.NUM_CITIES].tolist() != board.fill_order():
        _fail("board_fill_order is not the cities in ascending board number")


def stack_ends(players: int, spaces: int, larger_last: int) -> list[int]:
    """HS-3.3 / A-6: the cumulative ends of the five stacks, as ``init_state`` deals them."""
    rest = int(tokens_in_play(players).sum()) - spaces
    size, extra = divmod(rest, D.NUM_STACKS)
    ends, end = [], 0
    for stack in range(D.NUM_STACKS):
        larger = stack >= D.NUM_STACKS - extra if larger_last else stack < extra
        end += size + int(larger)
        ends.append(end)
    return ends


def validate_state(state: np.ndarray) -> None:
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        _fail(f"game id {int(state[H_GAME_ID])} is not Hansa's ({D.GAME_ID})")
    players = int(state[H_NUM_PLAYERS])
    if not D.MIN_PLAYERS <= players <= D.MAX_PLAYERS:
        _fail(f"num_players {players} outside {D.MIN_PLAYERS}..{D.MAX_PLAYERS}")
    validate_config(state)
    phase, to_move, active = int(state[H_PHASE]), int(state[H_TO_MOVE]), int(state[D.G_ACTIVE])
    if not 0 <= phase < len(D.PHASE_NAMES):
        _fail(f"unknown phase {phase}")
    for name, slot in (("start_seat", D.G_START_SEAT), ("active_seat", D.G_ACTIVE)):
        if not 0 <= state[slot] < players:
            _fail(f"{name} {int(state[slot])} is not a seat")
    expected = {D.PH_DEAL: CHANCE, D.PH_DRAW: CHANCE, D.PH_GAME_OVER: TERMINAL}.get(phase, active)
    if to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]} (expected {expected})")
    if not 0 <= state[D.G_SHIP] < D.NUM_CITIES:
        _fail(f"ship {int(state[D.G_SHIP])} is not a city")
    for name, slot in (("acted", D.G_ACTED), ("end_triggered", D.G_END_TRIGGERED),
                       ("truncated", D.G_TRUNCATED)):
        if state[slot] not in (0, 1):
            _fail(f"{name} must be 0 or 1")
    if state[D.G_TRUNCATED] and phase != D.PH_GAME_OVER:
        _fail("truncated is set but the game is not over")
    if not 0 <= state[D.G_TURNS] <= state[D.C_MAX_TURNS]:
        _fail("turns outside 0..max_turns")
    _validate_tokens(state, players, phase)
    _validate_players(state, players, phase, active)
    _validate_progress(state, players, phase, active)
    _validate_phase(state, phase, active)


def _validate_tokens(state: np.ndarray, players: int, phase: int) -> None:
    warehouse = state[D.G_WAREHOUSE:D.G_WAREHOUSE + D.NUM_CITIES * D.MAX_SPACES]
    if ((warehouse < -1) | (warehouse >= D.NUM_TYPES)).any():
        _fail("warehouse spaces hold a token type 0..17 or -1")
    for city in range(D.NUM_CITIES):
        for j in range(int(state[D.C_SPACES + city]), D.MAX_SPACES):
            if warehouse[D.MAX_SPACES * city + j] != -1:
                _fail(f"city {D.CITY_CODES[city]} has no warehouse space {j + 1}")
    counts = state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_TYPES] + state[D.G_REMOVED:D.G_REMOVED + 18]
    for t in warehouse[warehouse >= 0]:
        counts[t] += 1
    for seat in range(players):
        base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
        counts = counts + state[base + D.P_HAND:base + D.P_HAND + 18]
        counts = counts + state[base + D.P_SOLD:base + D.P_SOLD + 18]
    blocks = [state[D.G_SUPPLY:D.G_SUPPLY + 18], state[D.G_REMOVED:D.G_REMOVED + 18],
              state[D.G_PENDING:D.G_PENDING + 18]]
    if any((block < 0).any() for block in blocks):
        _fail("token counts must be >= 0")
    if not np.array_equal(counts, tokens_in_play(players)):
        _fail(f"tokens are not conserved: {counts.tolist()} by type, expected "
              f"{tokens_in_play(players).tolist()}")
    ends = state[D.G_STACK_END:D.G_STACK_END + D.NUM_STACKS]
    spaces = int(state[D.C_SPACES:D.C_SPACES + D.NUM_CITIES].sum())
    if ends.tolist() != stack_ends(players, spaces, int(state[D.C_STACK_SIZES])):
        _fail(f"stack_ends {ends.tolist()} do not split the {players}-player supply "
              f"(HS-3.3, A-6)")
    draws, supply = int(state[D.G_DRAWS]), int(state[D.G_SUPPLY:D.G_SUPPLY + 18].sum())
    if phase == D.PH_DEAL:
        if draws != 0:
            _fail("no stack is drawn from before the deal ends")
    elif supply != ends[-1] - draws:
        _fail(f"supply holds {supply} tokens, but {draws} of {int(ends[-1])} were drawn")
    if bool(state[D.G_END_TRIGGERED]) != (draws > ends[3]):
        _fail("end_triggered must be set exactly when stack 5 has been drawn from")
    if phase in (D.PH_DRAW, D.PH_DEAL) and (supply == 0 or (warehouse >= 0).sum() == spaces):
        _fail("a draw is pending but there is nothing to draw or nowhere to put it")


def _validate_players(state: np.ndarray, players: int, phase: int, active: int) -> None:
    pending = state[D.G_PENDING:D.G_PENDING + D.NUM_TYPES]
    if phase != D.PH_SELL and pending.any():
        _fail("pending_sale is set outside the selling phase")
    money = 0
    placed = 0
    for seat in range(D.MAX_PLAYERS):
        base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
        block = state[base:base + D.PLAYER_SIZE]
        if seat >= players:
            if block.any():
                _fail(f"seat {seat} is not in the game but its block is not empty")
            continue
        stalls = block[D.P_STALLS:D.P_STALLS + D.NUM_CITIES]
        hand = block[D.P_HAND:D.P_HAND + D.NUM_TYPES]
        if block[D.P_MONEY] < 0 or block[D.P_STALL_SUPPLY] < 0 or (stalls < 0).any() \
                or (hand < 0).any() or (block[D.P_SOLD:D.P_SOLD + D.NUM_TYPES] < 0).any():
            _fail(f"seat {seat}: a count is negative")
        if block[D.P_STALL_SUPPLY] + stalls.sum() != D.STALLS_PER_PLAYER:
            _fail(f"seat {seat}: stalls on the board and in supply do not make 15 (HS-1.3)")
        if seat != active and hand.sum() > D.HAND_LIMIT:
            _fail(f"seat {seat}: {int(hand.sum())} unsold tokens outside its turn (HS-11.7)")
        used = int(block[D.P_INIT_USED])
        if used < 0 or used >> D.NUM_CITIES or used >> D.START_CITY & 1:
            _fail(f"seat {seat}: init_used must be a set of cities other than Copenhagen")
        placed += bin(used).count("1")
        money += int(block[D.P_MONEY])
        if seat == active and (pending > hand).any():
            _fail("the pending sale marks tokens the seller does not hold")
    step = int(state[D.G_INIT_STEP])
    if placed != step or not 0 <= step <= D.INIT_PLACEMENTS * players:
        _fail(f"init_step {step} disagrees with the {placed} initial placements made")
    if phase == D.PH_INIT_PLACE and step == D.INIT_PLACEMENTS * players:
        _fail("every initial placement is made but the phase is still init_place")
    if phase not in (D.PH_DEAL, D.PH_INIT_PLACE) and step != D.INIT_PLACEMENTS * players:
        _fail("turns began before every initial placement was made")
    expected = D.START_MONEY * players + int(state[D.G_BANK_PAID]) - int(state[D.G_BANK_TAKEN])
    if money != expected:
        _fail(f"thalers are not conserved: players hold {money}, the ledger says {expected}")


def _validate_progress(state: np.ndarray, players: int, phase: int, active: int) -> None:
    """Counters that follow from the course of the game: income once a turn (HS-6.1), at
    least one decision a turn, the placement order of HS-4.4, and how a game ends."""
    turns, cap = int(state[D.G_TURNS]), int(state[D.C_MAX_TURNS])
    begun = turns + (phase in TURN_PHASES)
    if state[D.G_BANK_PAID] != D.INCOME * begun:
        _fail(f"bank_paid {int(state[D.G_BANK_PAID])} is not {D.INCOME} thalers for each of "
              f"the {begun} turns begun (HS-6.1)")
    if state[H_PLY] < state[D.G_INIT_STEP] + turns:
        _fail(f"ply {int(state[H_PLY])} is fewer than the decisions made (initial placements "
              f"and at least one per turn)")
    step = int(state[D.G_INIT_STEP])
    for seat in range(players):
        used = int(state[D.PLAYERS_BASE + seat * D.PLAYER_SIZE + D.P_INIT_USED])
        made = sum(1 for k in range(step) if placement_seat(state, k) == seat)
        if bin(used).count("1") != made:
            _fail(f"seat {seat}: {bin(used).count('1')} initial placements, but the order of "
                  f"HS-4.4 gives it {made} of the first {step}")
        if phase in (D.PH_DEAL, D.PH_INIT_PLACE):
            stalls = state[D.PLAYERS_BASE + seat * D.PLAYER_SIZE + D.P_STALLS:][:D.NUM_CITIES]
            expected = [D.INIT_STALLS * (used >> city & 1) for city in range(D.NUM_CITIES)]
            if stalls.tolist() != expected:
                _fail(f"seat {seat}: stalls {stalls.tolist()} are not those of its initial "
                      "placements (HS-4.1)")
    if phase == D.PH_INIT_PLACE and active != placement_seat(state, step):
        _fail(f"seat {active} places, but placement {step + 1} is seat "
              f"{placement_seat(state, step)}'s (HS-4.4)")
    if phase != D.PH_GAME_OVER:
        if turns >= cap:
            _fail(f"a live game has played {turns} of its max_turns={cap}")
        return
    last_seat = (int(state[D.G_START_SEAT]) + players - 1) % players
    if state[D.G_TRUNCATED]:
        if turns != cap:
            _fail(f"a truncated game stops at max_turns={cap}, not after {turns} turns")
    elif not state[D.G_END_TRIGGERED] or active != last_seat:
        _fail("a finished game ends with the turn of the last seat after the end was "
              "triggered (HS-10.2), or at max_turns")


def _validate_phase(state: np.ndarray, phase: int, active: int) -> None:
    """What each decision phase needs, and at least one legal action in it."""
    base = D.PLAYERS_BASE + active * D.PLAYER_SIZE
    hand = state[base + D.P_HAND:base + D.P_HAND + D.NUM_TYPES]
    colours = hand.reshape(D.NUM_COLOURS, 3).sum(axis=1)
    if phase == D.PH_REFILL and refill_options(state) != (True, False):
        _fail("the refill phase needs a refill that is possible and not compulsory (HS-7)")
    if phase in (D.PH_REFILL, D.PH_DRAW):
        # The turn has just begun: income paid (HS-6.1), a refill paid for in a draw
        # (HS-7.2), no action yet, the goods kept under the limit since the last tax.
        least = D.INCOME - (phase == D.PH_DRAW)
        if state[base + D.P_MONEY] < least or state[D.G_ACTED] or hand.sum() > D.HAND_LIMIT:
            _fail(f"a turn's {D.PHASE_NAMES[phase]} phase comes right after the income: at "
                  f"least {least} thalers, no action used, at most {D.HAND_LIMIT} goods "
                  "(HS-6, HS-7)")
    if phase == D.PH_SELL:
        pending = state[D.G_PENDING:D.G_PENDING + D.NUM_TYPES].reshape(D.NUM_COLOURS, 3)
        marked = pending.sum(axis=1)
        if state[D.G_ACTED] or not state[base + D.P_STALLS + state[D.G_SHIP]]:
            _fail("a sale needs the visit's action unused and a stall in the ship's city "
                  "(HS-8.3, HS-8.7a)")
        if not marked.any() or (colours[marked > 0] < 2).any():
            _fail("a sale marks tokens of colours held at least twice (HS-8.7b)")
        if state[D.C_SELL_WHOLE] and (pending.sum(axis=1) != colours)[marked > 0].any():
            _fail("with sell_whole_colour a sale marks every token of a colour (A-11)")
    if phase == D.PH_TAX:
        if hand.sum() <= D.HAND_LIMIT or (colours > 0).sum() < 2 \
                or state[base + D.P_MONEY] > D.MONEY_LIMIT:
            _fail("the tax phase needs more than 3 goods of two colours or more, thalers "
                  "already taxed (HS-9)")
    if int(state[H_TO_MOVE]) >= 0:
        mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
        if legal_mask(state, mask) == 0:
            _fail(f"no legal action in phase {D.PHASE_NAMES[phase]}")
