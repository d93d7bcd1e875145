"""A fast heuristic policy for MCTS rollouts (``rollout="heuristic"``), and a position value.

The rollout policy looks at nothing but the current mask and a few counts: sell whenever a
sale is possible (sold goods score 1 + barrels, HS-11.2), take free goods, place stalls
where the player does not lead, buy while money lasts, sail on at random, else end.  The
``position_value`` kernel (VP now plus rough worth of thalers, goods and city leads) is
shared with the greedy agent.
"""

from __future__ import annotations

from ..core.batch import pick_random_legal
from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from ..core.rng import rand_float
from .data import (
    A_BUY,
    A_END,
    A_MOVE,
    A_PLACE,
    A_REFILL,
    A_SELL_COMMIT,
    A_SELL_MARK,
    A_SKIP_REFILL,
    A_TAX,
    G_ACTIVE,
    G_SHIP,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_TYPES,
    P_HAND,
    P_MONEY,
    P_STALL_SUPPLY,
    PH_ACTIONS,
    PH_REFILL,
    PH_SELL,
    PH_TAX,
)
from .masks import buy_price, colour_count, player_base, plurality
from .rules import player_score


@njit
def rollout_policy(state, mask, rng):
    phase = state[H_PHASE]
    if phase == PH_REFILL:
        return A_REFILL if mask[A_REFILL] and rand_float(rng) < 0.8 else (
            A_SKIP_REFILL if mask[A_SKIP_REFILL] else A_REFILL)
    if phase == PH_SELL:
        for t in range(NUM_TYPES - 1, -1, -1):
            if mask[A_SELL_MARK + t]:
                return A_SELL_MARK + t
        return A_SELL_COMMIT
    if phase == PH_TAX:
        return fewest_colour_discard(state, mask)
    if phase == PH_ACTIONS:
        return action_choice(state, mask, rng)
    return pick_random_legal(mask, rng)


@njit
def fewest_colour_discard(state, mask):
    """Drop a colour held least often (a single token cannot be sold)."""
    base = player_base(state[G_ACTIVE])
    best, fewest = A_TAX, 99
    for colour in range(NUM_COLOURS):
        if mask[A_TAX + colour]:
            count = colour_count(state, base, colour)
            if count < fewest:
                best, fewest = A_TAX + colour, count
    return best


@njit
def action_choice(state, mask, rng):
    seat = state[G_ACTIVE]
    base = player_base(seat)
    ship = state[G_SHIP]
    for t in range(NUM_TYPES - 1, -1, -1):
        if mask[A_SELL_MARK + t]:
            return A_SELL_MARK + t
    can_buy = mask[A_BUY] or mask[A_BUY + 1]
    if can_buy and buy_price(state, seat, ship) == 0:
        return A_BUY if mask[A_BUY] else A_BUY + 1
    if plurality(state, ship) != seat:
        for a in range(A_SELL_MARK - 1, A_PLACE - 1, -1):     # most stalls first
            if mask[a]:
                return a
    if can_buy and state[base + P_MONEY] >= 2:
        return A_BUY if mask[A_BUY] else A_BUY + 1
    if state[base + P_MONEY] >= 1 and rand_float(rng) < 0.75:
        moves = 0
        for city in range(NUM_CITIES):
            moves += mask[A_MOVE + city]
        if moves > 0:
            pick = int(rand_float(rng) * moves)
            for city in range(NUM_CITIES):
                if mask[A_MOVE + city]:
                    if pick == 0:
                        return A_MOVE + city
                    pick -= 1
    return A_END


@njit
def seat_worth(state, seat):
    """VP now plus rough worth of what the seat holds (thalers, goods, stalls, leads)."""
    base = player_base(seat)
    value = float(player_score(state, seat))
    value += 0.35 * min(state[base + P_MONEY], 6)
    for colour in range(NUM_COLOURS):
        count = colour_count(state, base, colour)
        for k in range(3):
            held = state[base + P_HAND + 3 * colour + k]
            # A pair can be sold for 1 + barrels; a single token is a stall payment.
            value += held * ((0.8 + 0.5 * k) if count >= 2 else (0.3 + 0.3 * k))
    value += 0.15 * state[base + P_STALL_SUPPLY]
    for city in range(NUM_CITIES):
        if plurality(state, city) == seat:
            value += 0.6
    return value


@njit
def position_value(state, seat):
    """The seat's worth minus the best opponent's (the greedy agent's evaluation)."""
    mine = seat_worth(state, seat)
    best_other = -1e9
    for other in range(state[H_NUM_PLAYERS]):
        if other != seat:
            worth = seat_worth(state, other)
            if worth > best_other:
                best_other = worth
    return mine - best_other

