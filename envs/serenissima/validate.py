"""Consistency checks of a Serenissima state (JSON loading, tests).

``validate_state`` raises ``ValueError`` saying what is wrong: the header, the config block
(map tables and options in range), the phase and seat to move, the activation fields, and
every invariant of spec §13 via the compiled ``check_invariants``.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from . import data as D
from .invariants import ERRORS, check_invariants


def _fail(message: str):
    raise ValueError(message)


def validate_config(state: np.ndarray) -> None:
    nz, n_ports = int(state[D.K_NUM_ZONES]), int(state[D.K_NUM_PORTS])
    if not 2 <= nz <= D.MAX_ZONES or not 1 <= n_ports <= D.MAX_PORTS:
        _fail(f"map has {nz} zones and {n_ports} ports (limits {D.MAX_ZONES}, {D.MAX_PORTS})")
    adj = state[D.K_ADJ:D.K_ADJ + D.MAX_ZONES]
    for z in range(D.MAX_ZONES):
        row = int(adj[z])
        if row < 0 or row >> nz or (z >= nz and row) or (row >> z) & 1:
            _fail(f"adjacency of zone {z} is invalid")
        for y in range(nz):
            if (row >> y) & 1 and not (int(adj[y]) >> z) & 1:
                _fail(f"adjacency {z}-{y} is not symmetric")
    zone_port = state[D.K_ZONE_PORT:D.K_ZONE_PORT + D.MAX_ZONES]
    for p in range(n_ports):
        z = int(state[D.K_PORT_ZONE + p])
        if not 0 <= z < nz or zone_port[z] != p:
            _fail(f"port {p} and zone {z} disagree")
        if not 0 <= state[D.K_PORT_GOOD + p] < D.NUM_GOODS:
            _fail(f"port {p} produces an unknown good")
        if not 1 <= state[D.K_PORT_SIZE + p] <= D.MAX_SIZE:
            _fail(f"port {p} has size {int(state[D.K_PORT_SIZE + p])}")
    last = int(state[D.K_TRACK_LAST])
    if not 1 <= last <= 60 or not (int(state[D.K_SCORING_4P]) >> last) & 1 \
            or not (int(state[D.K_SCORING_23P]) >> last) & 1:
        _fail("round track: the last space must be a scoring space")
    if int(state[D.K_CAPACITY]) not in (4, 5):
        _fail("galley capacity must be 4 or 5")
    for slot in (D.K_BLOCK_IN_START, D.K_SELL_AFTER_BREAK, D.K_NEW_ACTS, D.K_CLOSE_CHOOSE,
                 D.K_HIDDEN_MONEY):
        if state[slot] not in (0, 1):
            _fail("option flags must be 0 or 1")
    if (state[D.K_SUPPLY0:D.K_SUPPLY0 + D.NUM_GOODS] < 0).any():
        _fail("initial goods supply must be >= 0")


def validate_state(state: np.ndarray) -> None:
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        _fail(f"game id {int(state[H_GAME_ID])} is not Serenissima's ({D.GAME_ID})")
    n = int(state[H_NUM_PLAYERS])
    if not D.MIN_PLAYERS <= n <= D.MAX_PLAYERS:
        _fail(f"num_players {n} outside {D.MIN_PLAYERS}..{D.MAX_PLAYERS}")
    validate_config(state)
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    if not 0 <= phase < len(D.PHASE_NAMES):
        _fail(f"unknown phase {phase}")
    expected = {D.PH_CHANCE: CHANCE, D.PH_GAME_OVER: TERMINAL}.get(phase)
    if expected is not None and to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]}")
    if expected is None and not 0 <= to_move < n:
        _fail(f"to_move {to_move} is not a seat in phase {D.PHASE_NAMES[phase]}")
    if phase == D.PH_CHANCE and not 1 <= state[D.G_CHANCE_KIND] <= 4:
        _fail("a pending chance event needs a chance kind")
    for seat in range(n, D.MAX_PLAYERS):
        if state[D.S_DUCATS + seat] or state[D.S_SUPPLY + seat]:
            _fail(f"seat {seat} is not in the game but has ducats or sailors")
    for p in range(int(state[D.K_NUM_PORTS]), D.MAX_PORTS):
        if state[D.S_P_OWNER + p] != D.CLOSED or state[D.S_P_SAIL + p] \
                or state[D.S_P_WH + p]:
            _fail(f"port slot {p} is not on the map but is in use")
    active = int(state[D.A_GAL])
    in_activation = phase in (D.PH_CHOOSE, D.PH_LOAD, D.PH_MOVE, D.PH_BLOCK, D.PH_STEP3,
                              D.PH_CONTINUE, D.PH_LAND, D.PH_INVEST)
    if in_activation and not (0 <= active < D.NUM_GALLEYS and state[D.S_G_OWNER + active] >= 0):
        _fail(f"phase {D.PHASE_NAMES[phase]} needs an active galley in play")
    if phase == D.PH_BLOCK and to_move == int(state[D.A_OWNER]):
        _fail("a player cannot block his own galley")
    if phase == D.PH_CAPTURE and not 0 <= state[D.A_CAPTOR] < D.NUM_GALLEYS:
        _fail("capture without a capturing galley")
    error = int(check_invariants(np.ascontiguousarray(state, dtype=np.int64)))
    if error:
        _fail(ERRORS[error])
