"""Consistency checks of a Hansa Teutonica state (JSON loading and the test invariants).

``validate_state`` raises ``ValueError`` naming what is wrong.  It checks ranges, the
phase/seat agreement, the piece conservation of HT-4.5 for every player and the
conservation of the 16 bonus markers (HT-1.4).
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from . import data as D


def _fail(message: str):
    raise ValueError(message)


def player_block(state: np.ndarray, seat: int) -> np.ndarray:
    base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
    return state[base:base + D.PLAYER_SIZE]


def piece_totals(state: np.ndarray, seat: int) -> tuple[int, int]:
    """HT-4.5: every trader and merchant of ``seat``, wherever it is (score cube included)."""
    p = player_block(state, seat)
    track = p[D.P_TRACK:D.P_TRACK + 5]
    desk_t = sum(int(D.TRACK_MAX[t] - track[t]) for t in (0, 1, 2, 4))
    desk_m = int(D.TRACK_MAX[3] - track[3])
    counts = [desk_t + 1, desk_m]                     # + the score cube (HT-4.3)
    for t in range(2):
        counts[t] += int(p[D.P_PERSONAL + t] + p[D.P_GENERAL + t])
    n_space = D.NUM_SPACES
    owner = state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + n_space]
    kind = state[D.G_SPACE_TYPE:D.G_SPACE_TYPE + n_space]
    off_o = state[D.G_OFFICE_OWNER:D.G_OFFICE_OWNER + D.NUM_CITIES * D.MAX_OFFICES]
    off_t = state[D.G_OFFICE_TYPE:D.G_OFFICE_TYPE + D.NUM_CITIES * D.MAX_OFFICES]
    ext_o = state[D.G_EXTRA_OWNER:D.G_EXTRA_OWNER + D.NUM_CITIES * D.MAX_EXTRA]
    ext_t = state[D.G_EXTRA_TYPE:D.G_EXTRA_TYPE + D.NUM_CITIES * D.MAX_EXTRA]
    for t in range(2):
        counts[t] += int(((owner == seat) & (kind == t)).sum())
        counts[t] += int(((off_o == seat) & (off_t == t)).sum())
        counts[t] += int(((ext_o == seat) & (ext_t == t)).sum())
    counts[1] += int((state[D.G_COELLEN:D.G_COELLEN + 4] == seat).sum())
    if state[D.G_ACTIVE] == seat:                     # pieces lifted by a Move
        counts[0] += int(state[D.G_HAND])
        counts[1] += int(state[D.G_HAND + 1])
    if state[D.G_DISP_VICTIM] == seat:                # a displaced piece not yet placed
        for slot in (D.G_DISP_PENDING, D.G_COMP_HAND):
            if state[slot] >= 0:
                counts[int(state[slot])] += 1
    return counts[0], counts[1]


def marker_total(state: np.ndarray, players: int) -> int:
    total = int(state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_MARKER_KINDS].sum())
    total += int((state[D.G_ROUTE_MARKER:D.G_ROUTE_MARKER + D.NUM_ROUTES] >= 0).sum())
    for seat in range(players):
        p = player_block(state, seat)
        total += int(p[D.P_UNUSED:D.P_UNUSED + D.NUM_MARKER_KINDS].sum() + p[D.P_USED])
    total += int(state[D.G_MARKERS_LOST]) + (1 if state[D.G_REVEALED] >= 0 else 0)
    return total


def validate_state(state: np.ndarray) -> None:
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        _fail(f"game id {int(state[H_GAME_ID])} is not Hansa Teutonica's ({D.GAME_ID})")
    players = int(state[H_NUM_PLAYERS])
    if not D.MIN_PLAYERS <= players <= D.MAX_PLAYERS:
        _fail(f"num_players {players} outside {D.MIN_PLAYERS}..{D.MAX_PLAYERS}")
    side = int(state[D.G_SIDE])
    if side != (0 if players <= 3 else 1):
        _fail(f"board side {side} does not fit {players} players (HT-4.1)")
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    if not 0 <= phase < len(D.PHASE_NAMES):
        _fail(f"unknown phase {phase}")
    active = int(state[D.G_ACTIVE])
    if not 0 <= active < players:
        _fail(f"active seat {active} is not a seat")
    expected = {D.PH_SETUP: CHANCE, D.PH_MARKER_DRAW: CHANCE, D.PH_GAME_OVER: TERMINAL,
                D.PH_COMPENSATE: int(state[D.G_DISP_VICTIM]),
                D.PH_PAWN_SETUP: (int(state[D.G_START_SEAT]) + 1) % players}.get(phase, active)
    if to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]} (expected {expected})")
    if state[D.C_REGIONS_ON] not in (0, 1) or (state[D.C_REGIONS_ON] and players != 2):
        _fail("the regions variant is for 2 players only")
    if not 0 <= state[D.G_PAWN] < D.NUM_REGIONS:
        _fail("pawn region out of range")
    spaces = D.SPACES_ON_SIDE[side]
    owner = state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + D.NUM_SPACES]
    if ((owner < -1) | (owner >= players)).any() or (owner[spaces:] >= 0).any():
        _fail("a route space holds an unknown owner or lies off this board side")
    if ((state[D.G_SPACE_TYPE:D.G_SPACE_TYPE + D.NUM_SPACES] < 0)
            | (state[D.G_SPACE_TYPE:D.G_SPACE_TYPE + D.NUM_SPACES] > 1)).any():
        _fail("piece types must be 0 (trader) or 1 (merchant)")
    _validate_cities(state, players, side)
    for seat in range(players):
        p = player_block(state, seat)
        track = p[D.P_TRACK:D.P_TRACK + 5]
        if (track < 0).any() or (track > D.TRACK_MAX).any():
            _fail(f"seat {seat}: a track level is out of range")
        if (p[D.P_PERSONAL:D.P_GENERAL + 2] < 0).any() or (p[D.P_UNUSED:D.P_USED + 1] < 0).any():
            _fail(f"seat {seat}: a negative supply or marker count")
        t, m = piece_totals(state, seat)
        if (t, m) != (D.TRADERS_PER_PLAYER, D.MERCHANTS_PER_PLAYER):
            _fail(f"seat {seat}: {t} traders and {m} merchants, not 27 and 4 (HT-4.5)")
    for seat in range(players, D.MAX_PLAYERS):
        if player_block(state, seat).any():
            _fail(f"seat {seat} is not in the game but has pieces")
    if phase != D.PH_SETUP and marker_total(state, players) != D.MARKER_TOTAL:
        _fail(f"{marker_total(state, players)} bonus markers accounted for, not 16 (HT-1.4)")
    supply = state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_MARKER_KINDS]
    if (supply < 0).any() or not 0 <= state[D.G_PLATE] <= supply.sum():
        _fail("the marker supply or plate count is inconsistent")
    if not 0 <= state[D.G_COMPLETED] <= D.COMPLETED_LIMIT:
        _fail("completed cities out of range")


def _validate_cities(state: np.ndarray, players: int, side: int) -> None:
    completed = 0
    for city in range(D.NUM_CITIES):
        n = int(D.CITY_NOFF[side, city])
        owners = state[D.G_OFFICE_OWNER + city * D.MAX_OFFICES:][:D.MAX_OFFICES]
        if ((owners < -1) | (owners >= players)).any() or (owners[n:] >= 0).any():
            _fail(f"{D.CITY_NAMES[city]}: an office holds an unknown owner")
        filled = owners[:n] >= 0
        if filled.sum() and not filled[:filled.sum()].all():
            _fail(f"{D.CITY_NAMES[city]}: offices must fill from the left")
        completed += bool(filled.all())
        extra = int(state[D.G_EXTRA_N + city])
        if not 0 <= extra <= D.MAX_EXTRA or (extra and not filled[0]):
            _fail(f"{D.CITY_NAMES[city]}: extra offices need an occupied office (A-11)")
        ext = state[D.G_EXTRA_OWNER + city * D.MAX_EXTRA:][:D.MAX_EXTRA]
        if (ext[:extra] < 0).any() or (ext[:extra] >= players).any() or (ext[extra:] >= 0).any():
            _fail(f"{D.CITY_NAMES[city]}: extra office owners are inconsistent")
    if completed != state[D.G_COMPLETED]:
        _fail(f"completed cities {int(state[D.G_COMPLETED])} but {completed} cities are full")
