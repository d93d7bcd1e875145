"""Hansa rules as numba kernels on the flat state array (the kernel contract).

Flow: the setup deal fills the warehouses (chance, HS-3.2); three initial placements per
player (HS-4); then turns of income (HS-6), refill (HS-7, its draws are chance events),
ship moves and one action per visit (HS-8), taxes (HS-9), until the round in which the
fifth stack was first touched is complete (HS-10).  Forced steps are applied by the engine
(spec §14 "Forced steps"): a refill that is impossible is skipped, a compulsory one is
made, and a tax discard is automatic when the goods in hand are all of one colour.
"""

from __future__ import annotations

from ..core.contract import (
    CHANCE,
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    HEADER_SIZE,
    ILLEGAL,
    TERMINAL,
)
from ..core.jit import njit
from .chance import placement_seat, resolve_chance
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
    C_MAX_TURNS,
    C_PLACE_EXACT,
    C_SELL_WHOLE,
    C_SPACES,
    C_STACK_SIZES,
    CONFIG_SIZE,
    G_ACTED,
    G_ACTIVE,
    G_BANK_PAID,
    G_BANK_TAKEN,
    G_END_TRIGGERED,
    G_INIT_STEP,
    G_PENDING,
    G_REMOVED,
    G_SHIP,
    G_STACK_END,
    G_START_SEAT,
    G_SUPPLY,
    G_TRUNCATED,
    G_TURNS,
    G_WAREHOUSE,
    GAME_ID,
    HAND_LIMIT,
    INCOME,
    INIT_PLACEMENTS,
    INIT_STALLS,
    MAX_SPACES,
    MONEY_LIMIT,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_STACKS,
    NUM_TYPES,
    P_HAND,
    P_INIT_USED,
    P_MONEY,
    P_SOLD,
    P_STALL_SUPPLY,
    P_STALLS,
    PH_ACTIONS,
    PH_DEAL,
    PH_DRAW,
    PH_GAME_OVER,
    PH_REFILL,
    PH_SELL,
    PH_TAX,
    STALLS_PER_PLAYER,
    START_CITY,
    START_MONEY,
    TOKENS_OF_BARRELS,
)
from .masks import (
    colour_count,
    hand_size,
    legal_mask,
    player_base,
    plurality,
    refill_options,
)

# --- start ---------------------------------------------------------------------------------


@njit
def init_state(state, num_players, config, start_seat):
    """HS-3: tokens of n + 2 colours in the supply, ship on Copenhagen; the deal is due."""
    state[:] = 0
    state[H_GAME_ID] = GAME_ID
    state[H_NUM_PLAYERS] = num_players
    state[HEADER_SIZE:HEADER_SIZE + CONFIG_SIZE] = config
    total = 0
    for colour in range(num_players + 2):                     # HS-3.1
        for k in range(3):
            state[G_SUPPLY + 3 * colour + k] = TOKENS_OF_BARRELS[k]
            total += TOKENS_OF_BARRELS[k]
    spaces = 0
    for city in range(NUM_CITIES):
        spaces += state[C_SPACES + city]
        for j in range(MAX_SPACES):
            state[G_WAREHOUSE + MAX_SPACES * city + j] = -1
    rest = total - spaces                                      # HS-3.3 / A-6
    size, extra = rest // NUM_STACKS, rest % NUM_STACKS
    end = 0
    for stack in range(NUM_STACKS):
        larger = stack < extra if state[C_STACK_SIZES] == 0 else stack >= NUM_STACKS - extra
        end += size + (1 if larger else 0)
        state[G_STACK_END + stack] = end
    for seat in range(num_players):
        base = player_base(seat)
        state[base + P_MONEY] = START_MONEY                    # HS-3.5
        state[base + P_STALL_SUPPLY] = STALLS_PER_PLAYER
    state[G_START_SEAT] = start_seat
    state[G_ACTIVE] = start_seat
    state[G_SHIP] = START_CITY                                 # HS-3.4
    state[H_PHASE] = PH_DEAL
    state[H_TO_MOVE] = CHANCE


@njit
def begin_turn(state, seat):
    """HS-6 income, then HS-7 (skipped when impossible, drawn at once when compulsory)."""
    base = player_base(seat)
    state[G_ACTIVE] = seat
    state[G_ACTED] = 0                       # HS-8.3: a visit begins where the ship lies
    state[base + P_MONEY] += INCOME
    state[G_BANK_PAID] += INCOME
    allowed, compulsory = refill_options(state)
    if compulsory:
        start_refill(state, base)
    elif allowed:
        state[H_PHASE] = PH_REFILL
        state[H_TO_MOVE] = seat
    else:
        state[H_PHASE] = PH_ACTIONS
        state[H_TO_MOVE] = seat


@njit
def start_refill(state, base):
    state[base + P_MONEY] -= 1                                # HS-7.2
    state[G_BANK_TAKEN] += 1
    state[H_PHASE] = PH_DRAW
    state[H_TO_MOVE] = CHANCE


# --- applying a decision ---------------------------------------------------------------------


@njit
def apply_action(state, action):
    state[H_PLY] += 1
    seat = state[H_TO_MOVE]
    base = player_base(seat)
    if action < A_MOVE:                                        # HS-4
        initial_placement(state, base, action - A_INIT_PLACE)
    elif action < A_REFILL:                                    # HS-8.2
        state[base + P_MONEY] -= 1
        state[G_BANK_TAKEN] += 1
        state[G_SHIP] = action - A_MOVE
        state[G_ACTED] = 0
    elif action == A_REFILL:
        start_refill(state, base)
    elif action == A_SKIP_REFILL:
        state[H_PHASE] = PH_ACTIONS
    elif action < A_PLACE:
        buy(state, seat, base, action - A_BUY)
    elif action < A_SELL_MARK:
        place(state, base, (action - A_PLACE) // 3, (action - A_PLACE) % 3 + 1)
    elif action < A_SELL_COMMIT:
        mark(state, base, action - A_SELL_MARK)
    elif action == A_SELL_COMMIT:
        sell(state, seat, base)
    elif action == A_END:
        pay_taxes(state, base)
    else:
        discard(state, base, action - A_TAX)
        settle_hand(state, base)


@njit
def initial_placement(state, base, city):
    state[base + P_STALLS + city] += INIT_STALLS               # HS-4.1
    state[base + P_STALL_SUPPLY] -= INIT_STALLS
    state[base + P_INIT_USED] |= 1 << city
    state[G_INIT_STEP] += 1
    if state[G_INIT_STEP] == INIT_PLACEMENTS * state[H_NUM_PLAYERS]:
        begin_turn(state, state[G_START_SEAT])                 # HS-4.5
    else:
        state[G_ACTIVE] = placement_seat(state, state[G_INIT_STEP])
        state[H_TO_MOVE] = state[G_ACTIVE]


@njit
def buy(state, seat, base, space):
    """HS-8.5: take the token; free with the plurality, else 1 to its holder or the bank."""
    ship = state[G_SHIP]
    slot = G_WAREHOUSE + MAX_SPACES * ship + space
    state[base + P_HAND + state[slot]] += 1
    state[slot] = -1
    holder = plurality(state, ship)
    if holder != seat:
        state[base + P_MONEY] -= 1
        if holder >= 0:
            state[player_base(holder) + P_MONEY] += 1
        else:
            state[G_BANK_TAKEN] += 1
    state[G_ACTED] = 1


@njit
def place(state, base, colour, k):
    """HS-8.6: spend one token of the colour; place k stalls (spec §14 PLACE notes)."""
    t = 3 * colour + k - 1
    if state[C_PLACE_EXACT]:                                   # k = the token's barrels
        stalls = min(k, state[base + P_STALL_SUPPLY])
    else:                                                      # fewest barrels >= k
        while state[base + P_HAND + t] == 0:
            t += 1
        stalls = k
    state[base + P_HAND + t] -= 1
    state[G_REMOVED + t] += 1
    state[base + P_STALLS + state[G_SHIP]] += stalls
    state[base + P_STALL_SUPPLY] -= stalls
    state[G_ACTED] = 1


@njit
def mark(state, base, t):
    if state[C_SELL_WHOLE]:                                   # A-11 variant: whole colour
        for u in range(3 * (t // 3), 3 * (t // 3) + 3):
            state[G_PENDING + u] = state[base + P_HAND + u]
    else:
        state[G_PENDING + t] += 1
    state[H_PHASE] = PH_SELL


@njit
def sell(state, seat, base):
    """HS-8.7: the marked tokens are sold, one stall comes home, rivals lose one a colour."""
    for t in range(NUM_TYPES):
        count = state[G_PENDING + t]
        state[base + P_HAND + t] -= count
        state[base + P_SOLD + t] += count
    ship = state[G_SHIP]
    state[base + P_STALLS + ship] -= 1
    state[base + P_STALL_SUPPLY] += 1
    for colour in range(NUM_COLOURS):
        pending = (state[G_PENDING + 3 * colour] + state[G_PENDING + 3 * colour + 1]
                   + state[G_PENDING + 3 * colour + 2])
        if pending == 0:
            continue
        for other in range(state[H_NUM_PLAYERS]):
            if other != seat:
                discard(state, player_base(other), colour)    # HS-8.7d, A-12
    for t in range(NUM_TYPES):
        state[G_PENDING + t] = 0
    state[G_ACTED] = 1
    state[H_PHASE] = PH_ACTIONS


@njit
def discard(state, base, colour):
    """Remove the player's token of ``colour`` with the fewest barrels, if any."""
    for t in range(3 * colour, 3 * colour + 3):
        if state[base + P_HAND + t] > 0:
            state[base + P_HAND + t] -= 1
            state[G_REMOVED + t] += 1
            return


@njit
def pay_taxes(state, base):
    """HS-9: thalers above 3 to the bank; goods above 3 discarded (a choice, or forced)."""
    money = state[base + P_MONEY]
    if money > MONEY_LIMIT:
        state[G_BANK_TAKEN] += money - MONEY_LIMIT
        state[base + P_MONEY] = MONEY_LIMIT
    settle_hand(state, base)


@njit
def settle_hand(state, base):
    """HS-9.2: end the turn at 3 goods; with one colour left the discards are forced."""
    held, only = 0, -1
    for colour in range(NUM_COLOURS):
        if colour_count(state, base, colour) > 0:
            held += 1
            only = colour
    while held == 1 and hand_size(state, base) > HAND_LIMIT:
        discard(state, base, only)
    if hand_size(state, base) > HAND_LIMIT:
        state[H_PHASE] = PH_TAX
    else:
        end_turn(state)


@njit
def end_turn(state):
    """HS-10.2: after the trigger, the round ends with seat s - 1; HS-10.3 turn cap."""
    players = state[H_NUM_PLAYERS]
    seat = state[G_ACTIVE]
    state[G_TURNS] += 1
    last_seat = (state[G_START_SEAT] + players - 1) % players
    if state[G_END_TRIGGERED] and seat == last_seat:
        finish(state)
    elif state[G_TURNS] >= state[C_MAX_TURNS]:
        state[G_TRUNCATED] = 1
        finish(state)
    else:
        begin_turn(state, (seat + 1) % players)


@njit
def finish(state):
    state[H_PHASE] = PH_GAME_OVER
    state[H_TO_MOVE] = TERMINAL


# --- scores and the fused env step -------------------------------------------------------------


@njit
def player_score(state, seat):
    """HS-11.1 .. HS-11.3: unsold 1, sold 1 + barrels, 2 a city with a stall (4 if alone)."""
    base = player_base(seat)
    total = 0
    for t in range(NUM_TYPES):
        total += state[base + P_HAND + t] + state[base + P_SOLD + t] * (2 + t % 3)
    for city in range(NUM_CITIES):
        if state[base + P_STALLS + city] == 0:
            continue
        alone = True
        for other in range(state[H_NUM_PLAYERS]):
            if other != seat and state[player_base(other) + P_STALLS + city] > 0:
                alone = False
        total += 4 if alone else 2
    return total


@njit
def scores(state, out):
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat] = player_score(state, seat)


@njit
def tiebreaks(state, out):
    """HS-11.5: more stalls on the board wins a tie on VP."""
    for seat in range(state[H_NUM_PLAYERS]):
        base = player_base(seat)
        out[seat] = STALLS_PER_PLAYER - state[base + P_STALL_SUPPLY]


@njit
def env_step(state, action, rng, mask):
    """One AEC step in one compiled call: apply, draw what is due, write the next mask."""
    if mask[action] == 0:
        return ILLEGAL              # nothing applied; the env raises with the legal moves
    apply_action(state, action)
    resolve_chance(state, rng)
    if state[H_TO_MOVE] >= 0:
        legal_mask(state, mask)
    else:
        mask[:] = 0
    return state[H_TO_MOVE]


@njit
def env_reset(state, num_players, config, start_seat, rng, mask):
    init_state(state, num_players, config, start_seat)
    resolve_chance(state, rng)
    legal_mask(state, mask)
    return state[H_TO_MOVE]
