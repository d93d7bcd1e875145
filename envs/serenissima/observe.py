"""The observation kernel: what one seat sees, seats rotated so the observer is seat 0.

The only hidden information is the Doge pile's order (never in the state: the state keeps
the pile's public composition, SE-8.7) and, with ``hidden_money``, the other players'
ducats (SE-4.1.7).  The map itself is in the observation (port goods, sizes, zones and
the adjacency matrix), so one network can play on any map.

Layout (float32, ``OBS_SIZE``): 15 galleys x 38 (present, owner one-hot x4, zone one-hot
x24, sailors/5, goods/4 x6, is active, is attacked); 24 ports x 47 (owner one-hot x4,
neutral, closed, sailors/5, warehouse goods x6, fort, basilica, good produced x6, size/5,
start port, zone one-hot x24, exists); adjacency 24x24; 4 players x 8 (present, ducats/20
or 0 if hidden, sailor supply/30, galleys/6, ports/5, turn owner, to move, first player);
global block of 93 (see ``observe``).
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from ..core.seats import relative_seat, seat_after
from .board import galleys_owned, ports_owned
from .data import (
    A_ASKED,
    A_BATTLES,
    A_CAP_GOODS,
    A_CLAIM_BLOCKED,
    A_FREE_USED,
    A_GAL,
    A_LAND_MIN,
    A_LAND_PORT,
    A_MOVED,
    A_OPT,
    A_SALE_BLOCKED,
    A_START_ZONE,
    A_TARGET,
    A_UNMANNED,
    A_V0,
    CLOSED,
    G_ATT_DICE,
    G_DEF_DICE,
    G_FIRST,
    G_LAST_CARD,
    G_PILE,
    G_ROUND,
    G_SCORINGS,
    G_TRACK,
    G_TURN_OWNER,
    G_WHEEL,
    K_ADJ,
    K_BLOCK_IN_START,
    K_CAPACITY,
    K_HIDDEN_MONEY,
    K_NUM_PORTS,
    K_NUM_ZONES,
    K_PORT_GOOD,
    K_PORT_SIZE,
    K_PORT_START,
    K_PORT_ZONE,
    K_SCORING_4P,
    K_SCORING_23P,
    K_SELL_AFTER_BREAK,
    K_TRACK_LAST,
    MAX_PLAYERS,
    MAX_PORTS,
    MAX_ZONES,
    NEUTRAL,
    NO_V0,
    NUM_GALLEYS,
    NUM_GOODS,
    OBS_GALLEY,
    OBS_PLAYER,
    OBS_PORT,
    PHASE_NAMES,
    S_DUCATS,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_GOODS,
    S_P_BAS,
    S_P_FORT,
    S_P_OWNER,
    S_P_SAIL,
    S_P_WH,
    S_SUPPLY,
)

NUM_PHASES = len(PHASE_NAMES)
# The eight bits of each byte as floats: the adjacency rows are copied a byte at a time
# (a bit-by-bit loop was a third of the kernel).
BYTE_BITS = ((np.arange(256)[:, None] >> np.arange(8)) & 1).astype(np.float32)
assert MAX_ZONES % 8 == 0


@njit
def observe(state, seat, out):
    out[:] = 0.0
    n = state[H_NUM_PLAYERS]
    i = 0
    for g in range(NUM_GALLEYS):
        owner = state[S_G_OWNER + g]
        if owner >= 0:
            out[i] = 1.0
            out[i + 1 + relative_seat(owner, seat, n)] = 1.0
            if state[S_G_ZONE + g] >= 0:
                out[i + 5 + state[S_G_ZONE + g]] = 1.0
            out[i + 5 + MAX_ZONES] = state[S_G_SAIL + g] / 5.0
            for t in range(NUM_GOODS):
                out[i + 6 + MAX_ZONES + t] = state[S_G_GOODS + NUM_GOODS * g + t] / 4.0
            out[i + 12 + MAX_ZONES] = 1.0 if state[A_GAL] == g else 0.0
            out[i + 13 + MAX_ZONES] = 1.0 if state[A_TARGET] == g else 0.0
        i += OBS_GALLEY
    for p in range(MAX_PORTS):
        if p < state[K_NUM_PORTS]:
            owner = state[S_P_OWNER + p]
            if owner >= 0:
                out[i + relative_seat(owner, seat, n)] = 1.0
            elif owner == NEUTRAL:
                out[i + 4] = 1.0
            elif owner == CLOSED:
                out[i + 5] = 1.0
            out[i + 6] = state[S_P_SAIL + p] / 5.0
            for t in range(NUM_GOODS):
                out[i + 7 + t] = (state[S_P_WH + p] >> t) & 1
            out[i + 13] = state[S_P_FORT + p]
            out[i + 14] = state[S_P_BAS + p]
            out[i + 15 + state[K_PORT_GOOD + p]] = 1.0
            out[i + 21] = state[K_PORT_SIZE + p] / 5.0
            out[i + 22] = state[K_PORT_START + p]
            out[i + 23 + state[K_PORT_ZONE + p]] = 1.0
            out[i + 23 + MAX_ZONES] = 1.0
        i += OBS_PORT
    for z in range(state[K_NUM_ZONES]):
        row = state[K_ADJ + z]
        for k in range(MAX_ZONES // 8):                   # a byte of the row at a time
            bits = BYTE_BITS[(row >> (8 * k)) & 255]
            start = i + MAX_ZONES * z + 8 * k
            for y in range(8):
                out[start + y] = bits[y]
    i += MAX_ZONES * MAX_ZONES
    for rel in range(MAX_PLAYERS):
        if rel < n:
            other = seat_after(seat, rel, n)
            out[i] = 1.0
            if rel == 0 or state[K_HIDDEN_MONEY] == 0:
                out[i + 1] = state[S_DUCATS + other] / 20.0
            out[i + 2] = state[S_SUPPLY + other] / 30.0
            out[i + 3] = galleys_owned(state, other) / 6.0
            out[i + 4] = ports_owned(state, other) / 5.0
            out[i + 5] = 1.0 if state[G_TURN_OWNER] == other else 0.0
            out[i + 6] = 1.0 if state[H_TO_MOVE] == other else 0.0
            out[i + 7] = 1.0 if state[G_FIRST] == other else 0.0
        i += OBS_PLAYER
    i = observe_global(state, seat, out, i)
    return i


@njit
def observe_global(state, seat, out, i):
    n = state[H_NUM_PLAYERS]
    out[i + state[H_PHASE]] = 1.0
    i += NUM_PHASES
    for c in range(4):
        out[i + c] = state[G_PILE + c] / 2.0
        out[i + 4 + c] = 1.0 if state[G_LAST_CARD] == c else 0.0
    i += 8
    out[i + n - 1] = 1.0
    i += 4
    last = state[K_TRACK_LAST]
    spaces = state[K_SCORING_4P] if n == 4 else state[K_SCORING_23P]
    gap = 0
    for s in range(state[G_TRACK] + 1, last + 1):
        if (spaces >> s) & 1:
            gap = s - state[G_TRACK]
            break
    out[i] = state[G_TRACK] / last
    out[i + 1] = state[G_SCORINGS] / 3.0
    out[i + 2] = state[G_ROUND] / 12.0
    out[i + 3] = max(state[G_WHEEL], -1) / 15.0
    out[i + 4] = gap / 10.0
    out[i + 5] = 1.0 if n == 4 else 0.0
    out[i + 6] = last / 10.0
    out[i + 7] = 1.0 if state[H_TO_MOVE] < 0 else 0.0
    i += 8
    g = state[A_GAL]
    if g >= 0:
        out[i] = state[A_MOVED] / 5.0
        if state[A_V0] != NO_V0:
            out[i + 1] = state[A_V0] / 5.0
            out[i + 2] = 1.0
        out[i + 3] = state[A_FREE_USED]
        out[i + 4 + state[A_OPT]] = 1.0
        out[i + 7] = min(1, state[A_SALE_BLOCKED]) + 0.5 * min(1, state[A_CLAIM_BLOCKED])
        out[i + 8] = state[A_BATTLES] / 3.0
        out[i + 9] = state[G_ATT_DICE] / 5.0
        out[i + 10] = state[G_DEF_DICE] / 5.0
        if state[A_START_ZONE] >= 0:
            out[i + 11 + state[A_START_ZONE]] = 1.0
    i += 11 + MAX_ZONES
    for t in range(NUM_GOODS):
        out[i + t] = state[A_CAP_GOODS + t] / 4.0
        out[i + NUM_GOODS + t] = state[S_GOODS + t] / 14.0
    i += 2 * NUM_GOODS
    out[i] = state[A_LAND_MIN]
    if g >= 0 and state[A_LAND_PORT] >= 0:
        out[i + 1] = min(state[S_G_SAIL + g], state[K_PORT_SIZE + state[A_LAND_PORT]]) / 5.0
    out[i + 2] = 1.0 if state[A_UNMANNED] >= 0 else 0.0
    i += 3
    for rel in range(n):
        out[i + rel] = (state[A_ASKED] >> seat_after(seat, rel, n)) & 1
    i += MAX_PLAYERS
    out[i] = state[K_CAPACITY] / 5.0
    out[i + 1] = state[K_BLOCK_IN_START]
    out[i + 2] = state[K_SELL_AFTER_BREAK]
    i += 3
    return i
