"""The greedy agent's static evaluation of a Saint Malo position (see __init__)."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ...envs.core.jit import njit
from ...envs.saint_malo.city import (
    church_rows_detail,
    defence,
    empty_bb,
    end_score,
    largest_component,
    popcount,
)
from ...envs.saint_malo.data import (
    C_BOXES_PER_PLAYER,
    C_CHURCH_T,
    C_STRENGTH,
    C_TOWER_AMOUNT,
    C_TOWER_KIND,
    CHURCH_1,
    CITIZEN,
    CRATE,
    EMPTY,
    G_ATTACKS_DONE,
    G_END_TRIGGERED,
    G_PIRATE_BOXES,
    N8,
    NOBLE,
    NUM_ATTACKS,
    NUM_CELLS,
    P_BOARD,
    P_CANNONS_LOST,
    P_COINS,
    P_LOGS,
    P_SIDES_BROKEN,
    P_SIDES_DONE,
    P_VP,
    PH_BONUS_CHOICE,
    PH_GAME_OVER,
    REWARD_CHARACTER,
    REWARD_COINS,
    SIDE_BB,
    WALL,
)
from ...envs.saint_malo.masks import player_base

# --- evaluation weights (VP units) ---------------------------------------------------------
COIN_W = 0.6            # a coin beyond its end value floor(coins / 2): it buys changes
LOG_W = 0.8             # a log beyond its 1 VP, for the first 3 logs (one architect's worth)
LOG_W_EXTRA = 0.3       # logs 4..6
DEFENCE_DECAY = 0.85    # weight of holding against an attack, per expected round until it
SWORDS_PER_TURN = 0.6   # rough pirate clock (PR-8) for "rounds until the attack"
SIDE_BASE = 0.05        # an untouched side is worth a little (breaking it costs this)
SIDE_GROWTH = 0.6       # ... and grows with the square of its walls
SIDE_DEFENCE = 3.0      # the +2 defence of a completed side, priced for the side potential
MERCHANT_W = 0.25       # per crate around the best empty cell
JUGGLER_W = 0.4         # per character type around the best empty cell
PRIEST_W = 0.9          # per church around the best empty cell
CHURCH_W = 0.5          # per church not (yet) in a scoring row
SPACE_W = 0.03          # per cell of the largest empty region
BONUS_PENDING = 3.0     # a tower character still to be chosen
FUTURE_SPACES = 15.0    # the future terms fade once some city has fewer empty spaces
WIN_BONUS = 30.0        # a finished game: winning matters more than the margin
NEG = -1e18


# --- static evaluation ---------------------------------------------------------------------

@njit
def context(state, seat):
    """What the active player cannot change this turn: the opponents' scores before
    cannons (slots 0..4), their empty spaces (5..9) and the fewest of those (10)."""
    ctx = np.zeros(11)
    least = NUM_CELLS
    for other in range(state[H_NUM_PLAYERS]):
        if other == seat:
            continue
        base = player_base(other)
        ctx[other] = end_score(state, base) + 5 * state[base + P_CANNONS_LOST]
        empty = popcount(empty_bb(state, base))
        ctx[5 + other] = empty
        least = min(least, empty)
    ctx[10] = least
    return ctx


@njit
def _coin_part(coins, future):
    """The part of the evaluation that depends on the coins (separable, see roll values)."""
    return coins // 2 + COIN_W * future * coins


@njit
def static_eval(state, seat, ctx):
    """Score as if the game ended now, minus the best opponent's, plus tie-break terms."""
    base = player_base(seat)
    empty = 0
    crates = 0
    walls = 0
    churches = 0
    c1 = c2 = c3 = c4 = c5 = 0
    for cell in range(NUM_CELLS):
        code = state[base + P_BOARD + cell]
        if code == EMPTY:
            empty |= 1 << cell
        elif code == CRATE:
            crates |= 1 << cell
        elif code == WALL:
            walls |= 1 << cell
        elif CHURCH_1 <= code <= CHURCH_1 + 4:
            churches |= 1 << cell
            size = code - CHURCH_1 + 1
            if size == 1:
                c1 += 1
            elif size == 2:
                c2 += 1
            elif size == 3:
                c3 += 1
            elif size == 4:
                c4 += 1
            else:
                c5 += 1
    n_empty = popcount(empty)
    coins = state[base + P_COINS]
    logs = state[base + P_LOGS]
    # SM-11.3 / SM-11.4, as city.end_score (church rows: greedy split)
    rows_value, in_rows = church_rows_detail(c1, c2, c3, c4, c5,
                                             state[C_CHURCH_T:C_CHURCH_T + 6])
    mine = (state[base + P_VP] + (5 if n_empty == 0 else 0) + coins // 2 + logs + rows_value
            - 5 * state[base + P_CANNONS_LOST])
    best_opp = NEG
    opp_best_empty = 0
    for other in range(state[H_NUM_PLAYERS]):
        if other != seat:
            score = ctx[other] - 5 * state[player_base(other) + P_CANNONS_LOST]
            if score > best_opp or (score == best_opp and ctx[5 + other] > opp_best_empty):
                best_opp = score
                opp_best_empty = ctx[5 + other]
    value = mine - best_opp
    if state[H_PHASE] == PH_GAME_OVER:                 # SM-11.5: win, then the margin
        if mine > best_opp or (mine == best_opp and n_empty > opp_best_empty):
            return value + WIN_BONUS
        if mine == best_opp and n_empty == opp_best_empty:
            return value
        return value - WIN_BONUS
    future = 0.0
    if not state[G_END_TRIGGERED]:
        future = min(1.0, min(n_empty, ctx[10]) / FUTURE_SPACES)
    value += COIN_W * future * coins
    value += future * (LOG_W * min(logs, 3) + LOG_W_EXTRA * min(max(logs - 3, 0), 3))
    value += _defence_value(state, base, future)
    if state[H_PHASE] == PH_BONUS_CHOICE and state[H_TO_MOVE] == seat:
        value += BONUS_PENDING
    if future > 0.0:
        potential = _sides_potential(state, base, walls)
        potential += _cells_potential(state, base, empty, crates, churches)
        potential += CHURCH_W * (c1 + c2 + c3 + c4 + c5 - in_rows)
        potential += SPACE_W * largest_component(empty)
        value += future * potential
    return value


@njit
def _future(state, seat, ctx):
    """The ``future`` factor of ``static_eval`` (needed to price coins in roll values)."""
    if state[G_END_TRIGGERED] or state[H_PHASE] == PH_GAME_OVER:
        return 0.0
    n_empty = popcount(empty_bb(state, player_base(seat)))
    return min(1.0, min(n_empty, ctx[10]) / FUTURE_SPACES)


@njit
def _defence_value(state, base, future):
    """5 VP per coming attack this defence holds, weighted by how soon the attack comes."""
    done = state[G_ATTACKS_DONE]
    if done >= NUM_ATTACKS:
        return 0.0
    d = defence(state, base)
    players = state[H_NUM_PLAYERS]
    row = state[C_BOXES_PER_PLAYER] * players
    boxes = state[G_PIRATE_BOXES]
    value = 0.0
    for attack in range(done, NUM_ATTACKS):
        if d < state[C_STRENGTH + attack]:
            break                                      # strengths never decrease
        left = (attack + 1) * row - boxes
        rounds = left / (SWORDS_PER_TURN * players)
        weight = DEFENCE_DECAY ** rounds
        if attack > done:
            weight *= future
        value += 5.0 * weight
    return value


@njit
def _sides_potential(state, base, walls):
    """Unbroken sides, worth more the more walls they hold (a broken one is worth 0)."""
    value = 0.0
    done = state[base + P_SIDES_DONE]
    broken = state[base + P_SIDES_BROKEN]
    for side in range(4):
        bit = 1 << side
        if done & bit or broken & bit:
            continue
        kind = state[C_TOWER_KIND + side]
        amount = state[C_TOWER_AMOUNT + side]
        if kind == REWARD_CHARACTER:
            reward = 3.0
        elif kind == REWARD_COINS:
            reward = 0.75 * amount
        else:
            reward = float(amount)
        w = popcount(walls & SIDE_BB[side]) / 5.0
        value += (reward + SIDE_DEFENCE) * (SIDE_BASE + SIDE_GROWTH * w * w)
    return value


@njit
def _cells_potential(state, base, empty, crates, churches):
    """The best empty cell for a later merchant, juggler and priest."""
    best_crates = 0
    best_types = 0
    best_churches = 0
    rest = empty
    while rest:
        low = rest & -rest
        rest ^= low
        cell = popcount(low - 1)
        around = N8[cell]
        best_crates = max(best_crates, popcount(around & crates))
        if churches:
            best_churches = max(best_churches, popcount(around & churches))
        seen = 0
        others = around & ~empty & ~crates & ~churches
        while others:
            low_other = others & -others
            others ^= low_other
            code = state[base + P_BOARD + popcount(low_other - 1)]
            if CITIZEN <= code <= NOBLE:
                seen |= 1 << (code - CITIZEN)
        best_types = max(best_types, popcount(seen))
    return MERCHANT_W * best_crates + JUGGLER_W * best_types + PRIEST_W * best_churches
