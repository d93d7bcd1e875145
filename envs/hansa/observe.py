"""The observation kernel: what one seat sees, seats rotated so the observer is slot 0.

Everything in the state is public (HS-12.1): the state holds no order of the face-down
stacks, only the multiset of undrawn tokens, which players can work out anyway.  The
vector is padded to four player slots so one network serves every player count.

Layout (float32, ``OBS_SIZE`` = 781):

* 4 player slots (observer first, then clockwise), 71 each: present, thalers/10, stalls
  in supply/15, stalls on the board/15; stalls per city/5 (9); holds the plurality per
  city (9); cities used in the initial placement (9); unsold tokens per type/3 (18); sold
  tokens per type/4 (18); is active, is start player, score-if-ended-now/50, is the last
  seat of a round;
* global block: ship city one-hot (9); warehouse space (2 per city) x token type one-hot
  (324); the board: route matrix (81), board number/9 (9), spaces/2 (9); thalers the
  ship needs to reach each city from where it lies/8 (9, -1/8 if never); undrawn tokens
  per type/5 (18); tokens left per stack/13 (5); end triggered, action used this visit,
  draws/70; pending sale per type/3 (18); phase one-hot (8); player count one-hot (3);
  turns/100.

Every board the generator makes (``board="generated:..."``) has the printed board's nine
cities, so the board block describes any of them with no padding: a policy sees which
board it plays.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from ..core.seats import seat_after
from .data import (
    C_EXITS,
    C_NUMBER,
    C_SPACES,
    G_ACTED,
    G_ACTIVE,
    G_DRAWS,
    G_END_TRIGGERED,
    G_PENDING,
    G_SHIP,
    G_STACK_END,
    G_START_SEAT,
    G_SUPPLY,
    G_TURNS,
    G_WAREHOUSE,
    MAX_PLAYERS,
    MAX_SPACES,
    NUM_CITIES,
    NUM_STACKS,
    NUM_TYPES,
    OBS_PLAYER_SIZE,
    OBS_SIZE,
    P_HAND,
    P_INIT_USED,
    P_MONEY,
    P_SOLD,
    P_STALL_SUPPLY,
    P_STALLS,
    PHASE_NAMES,
    STALLS_PER_PLAYER,
)
from .masks import player_base, plurality, route_costs
from .rules import player_score


@njit
def observe(state, seat, out):
    out[:] = 0.0
    players = state[H_NUM_PLAYERS]
    for slot in range(players):
        write_player(state, seat_after(seat, slot, players), out, slot * OBS_PLAYER_SIZE)
    write_global(state, out, MAX_PLAYERS * OBS_PLAYER_SIZE)


@njit
def write_player(state, player, out, at):
    base = player_base(player)
    players = state[H_NUM_PLAYERS]
    out[at] = 1.0
    out[at + 1] = state[base + P_MONEY] / 10.0
    out[at + 2] = state[base + P_STALL_SUPPLY] / 15.0
    out[at + 3] = (STALLS_PER_PLAYER - state[base + P_STALL_SUPPLY]) / 15.0
    at += 4
    for city in range(NUM_CITIES):
        out[at + city] = state[base + P_STALLS + city] / 5.0
        out[at + NUM_CITIES + city] = 1.0 if plurality(state, city) == player else 0.0
        out[at + 2 * NUM_CITIES + city] = (state[base + P_INIT_USED] >> city) & 1
    at += 3 * NUM_CITIES
    for t in range(NUM_TYPES):
        out[at + t] = state[base + P_HAND + t] / 3.0
        out[at + NUM_TYPES + t] = state[base + P_SOLD + t] / 4.0
    at += 2 * NUM_TYPES
    out[at] = 1.0 if player == state[G_ACTIVE] else 0.0
    out[at + 1] = 1.0 if player == state[G_START_SEAT] else 0.0
    out[at + 2] = player_score(state, player) / 50.0
    out[at + 3] = 1.0 if player == (state[G_START_SEAT] + players - 1) % players else 0.0


@njit
def write_global(state, out, at):
    out[at + state[G_SHIP]] = 1.0
    at += NUM_CITIES
    for space in range(NUM_CITIES * MAX_SPACES):
        token = state[G_WAREHOUSE + space]
        if token >= 0:
            out[at + space * NUM_TYPES + token] = 1.0
    at += NUM_CITIES * MAX_SPACES * NUM_TYPES
    for a in range(NUM_CITIES):
        for b in range(NUM_CITIES):
            out[at + a * NUM_CITIES + b] = (state[C_EXITS + a] >> b) & 1
    at += NUM_CITIES * NUM_CITIES
    for city in range(NUM_CITIES):
        out[at + city] = state[C_NUMBER + city] / 9.0
        out[at + NUM_CITIES + city] = state[C_SPACES + city] / 2.0
    at += 2 * NUM_CITIES
    costs = np.zeros(NUM_CITIES, dtype=np.int64)
    route_costs(state, state[G_SHIP], costs)
    for city in range(NUM_CITIES):
        out[at + city] = costs[city] / 8.0
    at += NUM_CITIES
    for t in range(NUM_TYPES):
        out[at + t] = state[G_SUPPLY + t] / 5.0
    at += NUM_TYPES
    previous = 0
    for stack in range(NUM_STACKS):
        end = state[G_STACK_END + stack]
        left = end - max(previous, min(end, state[G_DRAWS]))
        out[at + stack] = left / 13.0
        previous = end
    at += NUM_STACKS
    out[at] = state[G_END_TRIGGERED]
    out[at + 1] = state[G_ACTED]
    out[at + 2] = state[G_DRAWS] / 70.0
    at += 3
    for t in range(NUM_TYPES):
        out[at + t] = state[G_PENDING + t] / 3.0
    at += NUM_TYPES
    out[at + state[H_PHASE]] = 1.0
    at += len(PHASE_NAMES)
    out[at + state[H_NUM_PLAYERS] - 2] = 1.0
    at += 3
    out[at] = state[G_TURNS] / 100.0
    at += 1
    assert at == OBS_SIZE
