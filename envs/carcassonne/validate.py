"""Consistency checks of a Carcassonne state (JSON loading and the test invariants).

``validate_state`` raises ``ValueError`` saying what is wrong.  Core has already checked
each field against ``data.FIELD_BOUNDS``; this checks how the fields fit together.  The
grid, frontier and feature arrays are checked by replaying the placements into a fresh
state with the same merge kernel and comparing, so a loaded state can never carry a
union-find that the board does not imply (every root and member list points inside the
arrays and each member list is one cycle through its feature, so the kernels' walks end).
The turn counters must fit the placements and the decision cap, and a decision point must
offer a legal action, so no kernel can index outside its arrays or loop forever.
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
from .board import has_legal_placement, occupied_around, tile_at
from .features import add_tile


def _fail(message: str):
    raise ValueError(message)


def validate_config(state: np.ndarray) -> None:
    for name, slot, top in (("expansion_inns_cathedrals", D.C_EXPANSION, 1),
                            ("farmers", D.C_FARMERS, 1), ("auto_pass_meeple", D.C_AUTO_PASS, 1),
                            ("dedupe_rotations", D.C_DEDUPE, 1),
                            ("placement_layout", D.C_LAYOUT, len(D.PLACEMENT_LAYOUTS) - 1),
                            ("farm_scoring", D.C_FARM_RULE, len(D.FARM_RULES) - 1),
                            ("small_city_rule", D.C_SMALL_CITY, len(D.SMALL_CITY_RULES) - 1),
                            ("ic_tjunction_inn", D.C_IC_INN, len(D.IC_INN_RULES) - 1)):
        if not 0 <= state[slot] <= top:
            _fail(f"config {name} = {int(state[slot])} outside 0..{top}")
    if not 1 <= state[D.C_MAX_DECISIONS] <= D.MAX_DECISIONS:
        _fail(f"config max_decisions = {int(state[D.C_MAX_DECISIONS])} outside "
              f"1..{D.MAX_DECISIONS}")


def tile_total(state: np.ndarray) -> np.ndarray:
    counts = D.TILE_COUNT.copy()
    if not state[D.C_EXPANSION]:
        counts[D.IS_EXPANSION] = 0
    return counts


def validate_state(state: np.ndarray) -> None:
    """Any consistent state, in either action layout."""
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        _fail(f"game id {int(state[H_GAME_ID])} is not Carcassonne's ({D.GAME_ID})")
    players = int(state[H_NUM_PLAYERS])
    if not D.MIN_PLAYERS <= players <= D.MAX_PLAYERS:
        _fail(f"num_players {players} outside {D.MIN_PLAYERS}..{D.MAX_PLAYERS}")
    validate_config(state)
    if players > D.MAX_PLAYERS_BASE and not state[D.C_EXPANSION]:
        _fail("six players need Inns & Cathedrals (CA-2.5)")
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    if not 0 <= phase < len(D.PHASE_NAMES):
        _fail(f"unknown phase {phase}")
    for name, slot in (("start_seat", D.G_START_SEAT), ("active_seat", D.G_ACTIVE)):
        if not 0 <= state[slot] < players:
            _fail(f"{name} {int(state[slot])} is not a seat")
    expected = {D.PH_DRAW: CHANCE, D.PH_GAME_OVER: TERMINAL}.get(phase, int(state[D.G_ACTIVE]))
    if to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]} (expected {expected})")
    hand = int(state[D.G_HAND])
    if (phase == D.PH_PLACE) != (0 <= hand < D.NUM_TYPES) or (phase != D.PH_PLACE and hand != -1):
        _fail(f"hand {hand} does not fit phase {D.PHASE_NAMES[phase]}")
    _validate_tiles(state, hand)
    _validate_progress(state, phase, hand)
    _validate_meeples(state, players, phase)
    if phase in (D.PH_DRAW, D.PH_PLACE):
        _validate_scored(state)
    if (state[D.G_SCORE:D.G_SCORE + D.MAX_PLAYERS] < 0).any():
        _fail("scores must be >= 0")
    if state[D.G_SCORE + players:D.G_SCORE + D.MAX_PLAYERS].any():
        _fail("a seat not in the game has a score")


def _validate_tiles(state: np.ndarray, hand: int) -> None:
    placed = int(state[D.G_PLACED])
    total = tile_total(state)
    if not 1 <= placed <= int(total.sum()):
        _fail(f"placed {placed} outside 1..{int(total.sum())}")
    pile = state[D.G_PILE:D.G_PILE + D.NUM_TYPES]
    if (pile < 0).any() or int(pile.sum()) != state[D.G_PILE_LEFT]:
        _fail("pile counts must be >= 0 and add up to pile_left")
    types = state[D.T_TYPE:D.T_TYPE + placed]
    if ((types < 0) | (types >= D.NUM_TYPES)).any():
        _fail("a placed tile has an unknown type")
    used = np.bincount(types, minlength=D.NUM_TYPES) + pile
    if hand >= 0:
        used[hand] += 1
    if (used > total).any():
        _fail(f"more tiles of type {D.TILE_NAMES[int(np.argmax(used > total))]} than exist")
    if int(total.sum() - used.sum()) != state[D.G_DISCARDED]:
        _fail("placed + pile + hand + discarded does not add up to the tile set")
    if types[0] != D.START_TYPE or state[D.T_ROT] != 0 or state[D.T_CELL] != D.cell_of(0, 0):
        _fail("placement 0 must be the start tile D at (0,0) r0 (CA-4.4)")
    rebuilt = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rebuilt[:D.G_START_SEAT] = state[:D.G_START_SEAT]
    for index in range(placed):
        cell, rot = int(state[D.T_CELL + index]), int(state[D.T_ROT + index])
        if not 0 <= rot < 4:
            _fail(f"tile {index}: rotation {rot} outside 0..3")
        x, y = D.xy_of(cell)
        if not (0 <= cell < D.NUM_CELLS and abs(x) + abs(y) <= index):
            _fail(f"tile {index}: cell {cell} is off the reachable board")
        if tile_at(rebuilt, cell) >= 0:
            _fail(f"tile {index}: cell ({x},{y}) already holds a tile")
        neighbours = 0
        for side in range(4):
            other = tile_at(rebuilt, cell + int(D.STEP[side]))
            if other < 0:
                continue
            neighbours += 1
            facing = D.ROT_EDGE[rebuilt[D.T_TYPE + other], rebuilt[D.T_ROT + other], (side + 2) % 4]
            if D.ROT_EDGE[types[index], rot, side] != facing:
                _fail(f"tile {index} at ({x},{y}) does not match its neighbour on side "
                      f"{'NESW'[side]} (CA-6.3)")
        if index > 0 and neighbours == 0:
            _fail(f"tile {index} at ({x},{y}) touches no earlier tile (CA-6.3)")
        add_tile(rebuilt, index, int(types[index]), rot, cell)
    rebuilt[D.G_PLACED] = placed
    grid = slice(D.GRID, D.GRID + D.GRID_WORDS)
    if not np.array_equal(rebuilt[grid], state[grid]):
        _fail("the grid does not match the placement list")
    if not np.array_equal(rebuilt[D.G_BOX:D.G_BOX + 4], state[D.G_BOX:D.G_BOX + 4]):
        _fail("the bounding box does not match the board")
    frontier = slice(D.G_FRONTIER, D.STATE_SIZE)
    if not np.array_equal(rebuilt[frontier], state[frontier]):
        _fail("the frontier (cells, order or keys) does not match the board")
    for name in ("tile_type", "tile_rotation", "tile_cell"):
        offset = D.STATE_FIELDS[name][0]
        if state[offset + placed:offset + D.MAX_TILES].any():
            _fail(f"{name} is set beyond the placed tiles")
    # The union-find (roots, member cycles) and the roots' aggregates, exactly as implied.
    for name in ("node_root", "node_next", "node_size", "node_open", "node_shields",
                 "node_flags"):
        offset = D.STATE_FIELDS[name][0]
        block = slice(offset, offset + D.NUM_NODES)
        if not np.array_equal(rebuilt[block], state[block]):
            node = int(np.flatnonzero(rebuilt[block] != state[block])[0])
            _fail(f"feature table {name} does not match the board (node {node})")


def _validate_progress(state: np.ndarray, phase: int, hand: int) -> None:
    """Decisions so far, the cap and the end (CA-6.6): each placement was one decision and
    at most one meeple decision followed it; a live game is below its cap; a draw needs a
    tile in the pile; the tile in hand fits somewhere (CA-6.4 removes those that do not)."""
    ply, cap = int(state[H_PLY]), int(state[D.C_MAX_DECISIONS])
    placements = int(state[D.G_PLACED]) - 1
    most = 2 * placements - (phase == D.PH_MEEPLE)
    if not placements <= ply <= most:
        _fail(f"ply {ply} does not fit {placements} placements (expected {placements}..{most})")
    truncated, pile_left = int(state[D.G_TRUNCATED]), int(state[D.G_PILE_LEFT])
    if truncated not in (0, 1):
        _fail(f"truncated must be 0 or 1, got {truncated}")
    if phase != D.PH_GAME_OVER:
        if truncated or ply >= cap:
            _fail(f"a live game at ply {ply} must be below its cap max_decisions={cap}")
    elif truncated != (pile_left > 0) or (truncated and ply != cap):
        _fail("a finished game has an empty pile, or was cut off at exactly max_decisions "
              f"(truncated {truncated}, pile_left {pile_left}, ply {ply}, cap {cap})")
    if phase == D.PH_DRAW and pile_left == 0:
        _fail("a draw is due but the pile is empty (CA-6.6)")
    if phase == D.PH_PLACE and not has_legal_placement(state, hand):
        _fail(f"the tile in hand {D.TILE_NAMES[hand]} fits nowhere (CA-6.4 removes it)")


def _validate_meeples(state: np.ndarray, players: int, phase: int) -> None:
    codes = state[D.N_MEEPLE:D.N_MEEPLE + D.NUM_NODES]
    roots = state[D.N_ROOT:D.N_ROOT + D.NUM_NODES]
    figures = np.zeros(D.NUM_NODES, dtype=np.int64)
    on_board = np.zeros((D.MAX_PLAYERS, 2), dtype=np.int64)
    for node in np.flatnonzero(codes):
        code = int(codes[node]) - 1
        owner, large = divmod(code, 2)
        index, slot = divmod(int(node), D.MAX_SLOTS)
        if not 0 <= owner < players or index >= state[D.G_PLACED] \
                or slot >= D.NUM_SLOTS[state[D.T_TYPE + index]]:
            _fail(f"meeple code {code + 1} on node {node} is not valid")
        figures[roots[node]] += 1
        on_board[owner, large] += 1
    if not np.array_equal(figures, state[D.N_FIGURES:D.N_FIGURES + D.NUM_NODES]):
        _fail("node_figures does not match the meeples on the board")
    if phase == D.PH_GAME_OVER and on_board.any():
        _fail("meeples left on the board after final scoring (CA-12.4)")
    large_total = int(state[D.C_EXPANSION])
    for seat in range(D.MAX_PLAYERS):
        normal, large = state[D.G_NORMAL + seat], state[D.G_LARGE + seat]
        if seat >= players:
            if normal or large:
                _fail(f"seat {seat} is not in the game but has meeples")
            continue
        if normal < 0 or normal + on_board[seat, 0] != D.NORMAL_MEEPLES:
            _fail(f"seat {seat}: normal meeples not conserved")
        if large < 0 or large + on_board[seat, 1] != large_total:
            _fail(f"seat {seat}: large meeple not conserved")


def _validate_scored(state: np.ndarray) -> None:
    """Between turns every completed road or city and every surrounded monastery has been
    scored and its meeples sent home (CA-9.1, CA-9.6)."""
    for node in np.flatnonzero(state[D.N_FIGURES:D.N_FIGURES + D.NUM_NODES]):
        index, slot = divmod(int(node), D.MAX_SLOTS)
        kind = D.SEG_KIND[state[D.T_TYPE + index], slot]
        if kind in (D.CITY, D.ROAD) and state[D.N_OPEN + node] == 0:
            _fail(f"a completed {D.KIND_NAMES[kind]} (node {node}) still holds meeples after "
                  "its turn was scored (CA-9.6)")
        if kind == D.MONASTERY and occupied_around(state, int(state[D.T_CELL + index])) == 8:
            _fail(f"a surrounded monastery (tile {index}) still holds a meeple (CA-9.5)")


def validator_for(layout: int):
    """``validate_state`` for one layout's GameSpec: a state of the other layout is refused
    (its actions would not fit that spec's masks)."""

    def validate(state: np.ndarray) -> None:
        validate_state(state)
        if int(state[D.C_LAYOUT]) != layout:
            _fail(f"this state uses placement_layout "
                  f"{D.PLACEMENT_LAYOUTS[int(state[D.C_LAYOUT])]!r}; load it into an env made "
                  f"with placement_layout={D.PLACEMENT_LAYOUTS[int(state[D.C_LAYOUT])]!r}")

    validate.__doc__ = validate_state.__doc__
    return validate
