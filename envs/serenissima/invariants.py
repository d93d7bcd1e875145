"""Compiled state invariants (spec §13) and a checked random-playout loop.

``check_invariants`` returns 0 or the number of the first broken rule (``ERRORS`` says
what it means): galleys, ports and warehouses well formed (INV-1..3), every player keeps a
port (INV-4), at most 6 galleys (INV-5), goods and sailors conserved (INV-6), ducats never
negative and fully explained by the money ledger, with loading fees paid equal to fees
received (money is not conserved: the bank is unlimited, SE-2.2.6), token limits (INV-7),
the Doge pile and the round track in range.
"""

from __future__ import annotations

import numpy as np

from ..core.batch import pick_random_legal
from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from ..core.jit import njit
from .board import awaits_sailor, galley_slots, goods_on, popcount
from .data import (
    A_CAP_GOODS,
    A_UNMANNED,
    CLOSED,
    G_PILE,
    G_ROUND,
    G_SETUP_STEP,
    G_TRACK,
    G_TURN_OWNER,
    GALLEYS_AT_START,
    K_CAPACITY,
    K_NUM_PORTS,
    K_NUM_ZONES,
    K_PORT_GOOD,
    K_PORT_SIZE,
    K_SUPPLY0,
    K_TRACK_LAST,
    L_FEES_IN,
    L_FEES_OUT,
    LEDGER_KINDS,
    MAX_BASILICAS,
    MAX_FORTS,
    MAX_OWNED_GALLEYS,
    NEUTRAL,
    NUM_ACTIONS,
    NUM_GALLEYS,
    NUM_GOODS,
    PH_CONTINUE,
    PH_GAME_OVER,
    S_DUCATS,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_GOODS,
    S_LEDGER,
    S_P_BAS,
    S_P_FORT,
    S_P_OWNER,
    S_P_SAIL,
    S_P_WH,
    S_SUPPLY,
    SAILORS_BY_PLAYERS,
    START_DUCATS,
)
from .rules import env_reset, env_step

ERRORS = ("ok", "galley owner/zone invalid (INV-1)", "galley sailors out of range (INV-1)",
          "galley over capacity (INV-1)", "owned port sailors out of range (INV-2)",
          "neutral or closed port holds sailors (INV-2)", "warehouse invalid (INV-3)",
          "a player owns no port (INV-4)", "more than 6 galleys (INV-5)",
          "goods not conserved (INV-6)", "sailors not conserved (INV-6)",
          "negative ducats (INV-7)", "ducats disagree with the ledger",
          "loading fees paid != received", "token limit broken (INV-7)",
          "Doge pile out of range", "round track out of range",
          "galley number unused at this player count is in play")
INCOME_KINDS = 4                     # ledger kinds 0..3 are income, 4..9 spending


@njit
def check_invariants(state):
    n = state[H_NUM_PLAYERS]
    cap = state[K_CAPACITY]
    goods = np.zeros(NUM_GOODS, dtype=np.int64)
    sailors = np.zeros(n, dtype=np.int64)
    galleys = np.zeros(n, dtype=np.int64)
    for g in range(NUM_GALLEYS):
        owner = state[S_G_OWNER + g]
        if owner < 0:
            if state[S_G_SAIL + g] != 0 or goods_on(state, g) != 0:
                return 1
            continue
        if g >= galley_slots(state):
            return 17
        if owner >= n:
            return 1
        unmanned = g == state[A_UNMANNED]
        zone = state[S_G_ZONE + g]
        if not (0 <= zone < state[K_NUM_ZONES]) and not unmanned:
            return 1
        low = 0 if awaits_sailor(state, g) else 1
        if not low <= state[S_G_SAIL + g] <= cap:
            return 2
        if state[S_G_SAIL + g] + goods_on(state, g) > cap:
            return 3
        galleys[owner] += 1
        sailors[owner] += state[S_G_SAIL + g]
        for t in range(NUM_GOODS):
            if state[S_G_GOODS + NUM_GOODS * g + t] < 0:
                return 3
            goods[t] += state[S_G_GOODS + NUM_GOODS * g + t]
    ports = np.zeros(n, dtype=np.int64)
    forts = 0
    basilicas = 0
    for p in range(state[K_NUM_PORTS]):
        owner = state[S_P_OWNER + p]
        sail = state[S_P_SAIL + p]
        if owner >= 0:
            if owner >= n or not 1 <= sail <= state[K_PORT_SIZE + p]:
                return 4
            ports[owner] += 1
            sailors[owner] += sail
        elif (owner == NEUTRAL or owner == CLOSED) and sail != 0:
            return 5
        elif owner != NEUTRAL and owner != CLOSED:
            return 4
        wh = state[S_P_WH + p]
        if wh < 0 or wh >= 1 << NUM_GOODS or (wh >> state[K_PORT_GOOD + p]) & 1 \
                or popcount(wh) > state[K_PORT_SIZE + p]:
            return 6
        for t in range(NUM_GOODS):
            goods[t] += (wh >> t) & 1
        if not (0 <= state[S_P_FORT + p] <= 1 and 0 <= state[S_P_BAS + p] <= 1):
            return 14
        forts += state[S_P_FORT + p]
        basilicas += state[S_P_BAS + p]
    if forts > MAX_FORTS or basilicas > MAX_BASILICAS:
        return 14
    setup_done = state[G_SETUP_STEP] >= GALLEYS_AT_START[n] * n
    fees_in = 0
    fees_out = 0
    for seat in range(n):
        if setup_done and ports[seat] == 0:
            return 7
        if galleys[seat] > MAX_OWNED_GALLEYS:
            return 8
        if sailors[seat] + state[S_SUPPLY + seat] != SAILORS_BY_PLAYERS[n] \
                or state[S_SUPPLY + seat] < 0:
            return 10
        if state[S_DUCATS + seat] < 0:
            return 11
        money = START_DUCATS
        for kind in range(LEDGER_KINDS):
            amount = state[S_LEDGER + LEDGER_KINDS * seat + kind]
            money += amount if kind < INCOME_KINDS else -amount
        if money != state[S_DUCATS + seat]:
            return 12
        fees_in += state[S_LEDGER + LEDGER_KINDS * seat + L_FEES_IN]
        fees_out += state[S_LEDGER + LEDGER_KINDS * seat + L_FEES_OUT]
    if fees_in != fees_out:
        return 13
    for t in range(NUM_GOODS):
        if state[S_GOODS + t] < 0 or state[A_CAP_GOODS + t] < 0:
            return 9
        if goods[t] + state[S_GOODS + t] + state[A_CAP_GOODS + t] != state[K_SUPPLY0 + t]:
            return 9
    pile = 0
    for c in range(4):
        if state[G_PILE + c] < 0:
            return 15
        pile += state[G_PILE + c]
    if not 1 <= pile <= 5:
        return 15
    if not 0 <= state[G_TRACK] <= state[K_TRACK_LAST]:
        return 16
    return 0


@njit
def checked_random_games(num_games, num_players, config, rng, state, mask, stats):
    """Play random games, checking every invariant after every step.  Returns 0 or
    ``1000 * step_error + game``-style code: ``-(error * 100000 + game)`` on failure.
    ``stats``: [decisions, longest game, rounds, off-turn decisions, battle rounds
    continued]."""
    for game in range(num_games):
        env_reset(state, num_players, config, game % num_players, rng, mask)
        steps = 0
        while True:
            seat = state[H_TO_MOVE]
            if seat < 0 or seat >= num_players:
                return -(90 * 100000 + game)
            count = 0
            for a in range(NUM_ACTIONS):
                count += mask[a]
            if count == 0:
                return -(91 * 100000 + game)
            action = pick_random_legal(mask, rng)
            if seat != state[G_TURN_OWNER]:               # an off-turn decision
                stats[3] += 1
            if state[H_PHASE] == PH_CONTINUE:
                stats[4] += 1
            done = env_step(state, action, rng, mask) == TERMINAL
            steps += 1
            error = check_invariants(state)
            if error:
                return -(error * 100000 + game)
            if done:
                break
            if steps > 200000:
                return -(92 * 100000 + game)
        if state[H_PHASE] != PH_GAME_OVER or state[G_TRACK] != state[K_TRACK_LAST]:
            return -(93 * 100000 + game)
        stats[0] += steps
        stats[1] = max(stats[1], steps)
        stats[2] += state[G_ROUND]
    return 0
