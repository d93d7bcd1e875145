"""Legal-action masks for Hansa (spec §14) and the small queries they share, as kernels.

Every board fact is read from the state's config block (``C_EXITS``, ``C_SPACES``, ...),
never from a global table: boards vary per env.
"""

from __future__ import annotations

from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from .data import (
    A_BUY,
    A_END,
    A_INIT_PLACE,
    A_MOVE,
    A_PLACE,
    A_REFILL,
    A_SELL_COMMIT,
    A_SELL_MARK,
    A_SKIP_REFILL,
    A_TAX,
    C_EXITS,
    C_PLACE_EXACT,
    C_SELL_WHOLE,
    C_SPACES,
    G_ACTED,
    G_PENDING,
    G_SHIP,
    G_SUPPLY,
    G_WAREHOUSE,
    MAX_SPACES,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_TYPES,
    P_HAND,
    P_INIT_USED,
    P_MONEY,
    P_STALL_SUPPLY,
    P_STALLS,
    PH_ACTIONS,
    PH_INIT_PLACE,
    PH_REFILL,
    PH_SELL,
    PH_TAX,
    PLAYER_SIZE,
    PLAYERS_BASE,
    START_CITY,
)


@njit
def player_base(seat):
    return PLAYERS_BASE + seat * PLAYER_SIZE


@njit
def plurality(state, city):
    """HS-8.5b / A-9: the unique holder of the most stalls in ``city``, else -1."""
    best, holder, tied = 0, -1, False
    for seat in range(state[H_NUM_PLAYERS]):
        count = state[player_base(seat) + P_STALLS + city]
        if count > best:
            best, holder, tied = count, seat, False
        elif count == best and count > 0:
            tied = True
    return -1 if tied else holder


@njit
def buy_price(state, seat, city):
    """0 when ``seat`` holds the plurality, else 1 (to the holder or the bank)."""
    return 0 if plurality(state, city) == seat else 1


@njit
def colour_count(state, base, colour):
    return (state[base + P_HAND + 3 * colour] + state[base + P_HAND + 3 * colour + 1]
            + state[base + P_HAND + 3 * colour + 2])


@njit
def hand_size(state, base):
    total = 0
    for t in range(NUM_TYPES):
        total += state[base + P_HAND + t]
    return total


@njit
def supply_size(state):
    total = 0
    for t in range(NUM_TYPES):
        total += state[G_SUPPLY + t]
    return total


@njit
def empty_spaces(state):
    """(empty, filled) warehouse spaces on the board."""
    empty, filled = 0, 0
    for city in range(NUM_CITIES):
        for j in range(state[C_SPACES + city]):
            if state[G_WAREHOUSE + MAX_SPACES * city + j] < 0:
                empty += 1
            else:
                filled += 1
    return empty, filled


@njit
def refill_options(state):
    """HS-7.1 / HS-7.5 / A-5: (refill allowed, refill compulsory)."""
    if supply_size(state) == 0:
        return False, False
    empty, filled = empty_spaces(state)
    return empty > 0, filled == 0


@njit
def pending_colour(state, colour):
    return (state[G_PENDING + 3 * colour] + state[G_PENDING + 3 * colour + 1]
            + state[G_PENDING + 3 * colour + 2])


@njit
def legal_mask(state, mask):
    mask[:] = 0
    seat = state[H_TO_MOVE]
    if seat < 0:
        return 0
    phase = state[H_PHASE]
    base = player_base(seat)
    if phase == PH_INIT_PLACE:                              # HS-4.2, HS-4.3
        used = state[base + P_INIT_USED]
        for city in range(NUM_CITIES):
            if city != START_CITY and not (used >> city) & 1:
                mask[A_INIT_PLACE + city] = 1
    elif phase == PH_REFILL:
        allowed, compulsory = refill_options(state)
        mask[A_REFILL] = 1 if allowed else 0
        mask[A_SKIP_REFILL] = 0 if compulsory else 1
    elif phase == PH_ACTIONS:
        actions_mask(state, base, seat, mask)
    elif phase == PH_SELL:
        sell_marks(state, base, mask)
        commit = True
        for colour in range(NUM_COLOURS):
            marked = pending_colour(state, colour)
            if marked == 1:
                commit = False                                # HS-8.7b: at least 2 a colour
        mask[A_SELL_COMMIT] = 1 if commit else 0
    elif phase == PH_TAX:                                   # HS-9.2
        for colour in range(NUM_COLOURS):
            if colour_count(state, base, colour) > 0:
                mask[A_TAX + colour] = 1
    count = 0
    for action in range(mask.shape[0]):
        count += mask[action]
    return count


@njit
def actions_mask(state, base, seat, mask):
    ship = state[G_SHIP]
    money = state[base + P_MONEY]
    mask[A_END] = 1                                         # HS-8.8
    if money >= 1:                                          # HS-8.2: along an arrow, 1 thaler
        exits = state[C_EXITS + ship]
        for city in range(NUM_CITIES):
            if (exits >> city) & 1:
                mask[A_MOVE + city] = 1
    if state[G_ACTED]:
        return                                              # HS-8.3: one action per visit
    if money >= 1 or buy_price(state, seat, ship) == 0:     # HS-8.5, EC-1, EC-2
        for j in range(state[C_SPACES + ship]):
            if state[G_WAREHOUSE + MAX_SPACES * ship + j] >= 0:
                mask[A_BUY + j] = 1
    stalls = state[base + P_STALL_SUPPLY]
    if stalls >= 1:                                         # HS-8.6, A-10, EC-9
        exact = state[C_PLACE_EXACT]
        for colour in range(NUM_COLOURS):
            held_from = 0                                   # tokens with barrels >= k
            for k in range(3, 0, -1):
                count = state[base + P_HAND + 3 * colour + k - 1]
                held_from += count
                if exact:
                    if count > 0:
                        mask[A_PLACE + 3 * colour + k - 1] = 1
                elif held_from > 0 and stalls >= k:
                    mask[A_PLACE + 3 * colour + k - 1] = 1
    if state[base + P_STALLS + ship] >= 1:                  # HS-8.7a
        sell_marks(state, base, mask)


@njit
def sell_marks(state, base, mask):
    """SELL_MARK[t]: a colour held at least twice, an unmarked token of type t left."""
    whole = state[C_SELL_WHOLE]
    for colour in range(NUM_COLOURS):
        if colour_count(state, base, colour) < 2:
            continue
        if whole and pending_colour(state, colour) > 0:
            continue
        for k in range(3):
            t = 3 * colour + k
            if state[base + P_HAND + t] - state[G_PENDING + t] >= 1:
                mask[A_SELL_MARK + t] = 1


@njit
def route_costs(state, start, out):
    """Thalers (moves, HS-8.2) the ship needs from ``start`` to each city along the one-way
    routes of the board in play; -1 where no route path leads (breadth-first search)."""
    out[:] = -1
    out[start] = 0
    frontier = 1 << start
    seen = frontier
    cost = 0
    while frontier:
        cost += 1
        reached = 0
        for city in range(NUM_CITIES):
            if (frontier >> city) & 1:
                reached |= state[C_EXITS + city]
        frontier = reached & ~seen
        seen |= frontier
        for city in range(NUM_CITIES):
            if (frontier >> city) & 1:
                out[city] = cost
