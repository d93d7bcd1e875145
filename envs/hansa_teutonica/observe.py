"""The observation: a flat float32 vector from one seat's point of view (seats rotated so
the observer is first, padded to five players).  Nothing is hidden in Hansa Teutonica
except the order of the face-down marker supply, whose contents every player can count;
plate markers are unseen until revealed, so only their number is shown.

Blocks, in order (sizes in ``data.OBS_*``): route spaces (owner one-hot, merchant), printed
offices (exists, owner one-hot, circle, colour), extra Kontors per city and seat, Coellen
spaces, route markers (kind one-hot), per seat (tracks, supplies, score, markers), globals
(phase one-hot, the route being established, the displacement's origin route, the 2p
pawn's region, the revealed marker).
"""

from __future__ import annotations

from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from ..core.seats import relative_seat, seat_after
from .board import player_base
from .data import (
    CITY_NOFF,
    G_ACTIONS_LEFT,
    G_ACTIONS_TAKEN,
    G_ACTIVE,
    G_COELLEN,
    G_COMP_HAND,
    G_COMPLETED,
    G_DISP_EXTRAS,
    G_DISP_ORIGIN,
    G_DISP_PENDING,
    G_EST_ROUTE,
    G_EW_COUNT,
    G_EXTRA_N,
    G_EXTRA_OWNER,
    G_HAND,
    G_MOVE_PICKED,
    G_OFFICE_OWNER,
    G_PAWN,
    G_PAY_LEFT,
    G_PLATE,
    G_REMOVE_LEFT,
    G_REVEALED,
    G_ROUTE_MARKER,
    G_SIDE,
    G_SPACE_OWNER,
    G_SPACE_TYPE,
    G_SUPPLY,
    MAX_EXTRA,
    MAX_OFFICES,
    MAX_PLAYERS,
    NUM_CITIES,
    NUM_MARKER_KINDS,
    NUM_REGIONS,
    NUM_ROUTES,
    NUM_SPACES,
    NUM_TRACKS,
    OFF_COLOUR,
    OFF_SHAPE,
    P_EW_DONE,
    P_GENERAL,
    P_PERSONAL,
    P_SCORE,
    P_TRACK,
    P_UNUSED,
    P_USED,
    PHASE_NAMES,
    TRACK_MAX,
    TRACK_VALUES,
)

NUM_PHASES = len(PHASE_NAMES)


@njit
def observe(state, seat, out):
    out[:] = 0.0
    n = state[H_NUM_PLAYERS]
    side = state[G_SIDE]
    at = 0
    for s in range(NUM_SPACES):                                  # route spaces
        owner = state[G_SPACE_OWNER + s]
        if owner >= 0:
            out[at + relative_seat(owner, seat, n)] = 1.0
            out[at + 5] = state[G_SPACE_TYPE + s]
        at += 6
    for city in range(NUM_CITIES):                               # printed offices
        for i in range(MAX_OFFICES):
            if i < CITY_NOFF[side, city]:
                out[at] = 1.0
                owner = state[G_OFFICE_OWNER + city * MAX_OFFICES + i]
                if owner >= 0:
                    out[at + 1 + relative_seat(owner, seat, n)] = 1.0
                out[at + 6] = OFF_SHAPE[side, city, i]
                out[at + 7] = OFF_COLOUR[side, city, i] / 3.0
            at += 8
    for city in range(NUM_CITIES):                               # extra Kontors
        for i in range(state[G_EXTRA_N + city]):
            owner = state[G_EXTRA_OWNER + city * MAX_EXTRA + i]
            out[at + relative_seat(owner, seat, n)] += 1.0
        at += MAX_PLAYERS
    for j in range(4):                                           # Coellen table
        owner = state[G_COELLEN + j]
        if owner >= 0:
            out[at + relative_seat(owner, seat, n)] = 1.0
        at += MAX_PLAYERS
    for r in range(NUM_ROUTES):                                  # markers on routes
        kind = state[G_ROUTE_MARKER + r]
        if kind >= 0:
            out[at + kind] = 1.0
        at += NUM_MARKER_KINDS
    for rel in range(MAX_PLAYERS):                               # seats, observer first
        if rel < n:
            p = seat_after(seat, rel, n)
            base = player_base(p)
            out[at] = 1.0
            out[at + 1] = p == state[G_ACTIVE]
            out[at + 2] = p == state[H_TO_MOVE]
            for t in range(NUM_TRACKS):
                level = state[base + P_TRACK + t]
                out[at + 3 + t] = level / TRACK_MAX[t]
                out[at + 8 + t] = min(TRACK_VALUES[t, level], 10) / 10.0
            out[at + 13] = state[base + P_PERSONAL] / 10.0
            out[at + 14] = state[base + P_PERSONAL + 1]
            out[at + 15] = state[base + P_GENERAL] / 10.0
            out[at + 16] = state[base + P_GENERAL + 1]
            out[at + 17] = state[base + P_SCORE] / 20.0
            markers = state[base + P_USED]
            for k in range(NUM_MARKER_KINDS):
                markers += state[base + P_UNUSED + k]
            out[at + 18] = markers / 10.0
            out[at + 19] = state[base + P_EW_DONE]
            out[at + 20] = state[base + P_UNUSED + 2] + state[base + P_UNUSED + 3]
            out[at + 21] = state[base + P_UNUSED + 0]
        at += 22
    supply = -state[G_PLATE]
    for k in range(NUM_MARKER_KINDS):
        supply += state[G_SUPPLY + k]
    out[at] = side
    out[at + 1] = n / 5.0
    out[at + 2] = state[G_ACTIONS_LEFT] / 5.0
    out[at + 3] = state[G_ACTIONS_TAKEN] / 5.0
    out[at + 4] = state[G_COMPLETED] / 10.0
    out[at + 5] = state[G_EW_COUNT] / 3.0
    out[at + 6] = state[G_PLATE]
    out[at + 7] = supply / 13.0
    out[at + 8] = state[G_PAY_LEFT]
    out[at + 9] = state[G_DISP_EXTRAS]
    out[at + 10] = state[G_DISP_PENDING] + 1.0
    out[at + 11] = state[G_COMP_HAND] + 1.0
    out[at + 12] = state[G_HAND]
    out[at + 13] = state[G_HAND + 1]
    out[at + 14] = state[G_MOVE_PICKED]
    out[at + 15] = state[G_REMOVE_LEFT]
    at += 16
    out[at + state[H_PHASE]] = 1.0
    at += NUM_PHASES
    if state[G_EST_ROUTE] >= 0:
        out[at + state[G_EST_ROUTE]] = 1.0
    at += NUM_ROUTES
    if state[G_DISP_ORIGIN] >= 0:
        out[at + state[G_DISP_ORIGIN]] = 1.0
    at += NUM_ROUTES
    out[at + state[G_PAWN]] = 1.0
    at += NUM_REGIONS
    if state[G_REVEALED] >= 0:
        out[at + state[G_REVEALED]] = 1.0
