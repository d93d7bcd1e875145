"""Building Hansa positions by hand for the rule tests (worked examples, edge cases)."""

from __future__ import annotations

import numpy as np
from envtest import legal_set, play_legal

from meeplezoo.envs.core.batch import pick_random_legal
from meeplezoo.envs.core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rng import rand_below
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa import rules
from meeplezoo.envs.hansa.chance import apply_chance, chance_outcomes, sample_chance
from meeplezoo.envs.hansa.masks import legal_mask
from meeplezoo.envs.hansa.options import make_config

CITY = {code: index for index, code in enumerate(D.CITY_CODES)}
COLOUR = {letter: index for index, letter in enumerate(D.COLOUR_LETTERS)}


def token(name: str) -> int:
    """token("B2") -> type of colour B with 2 barrels."""
    return 3 * COLOUR[name[0]] + int(name[1]) - 1


def new_game(num_players: int = 3, start_seat: int = 0, **options) -> np.ndarray:
    """A start position before the deal (the warehouses empty, the deal pending)."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, num_players, make_config(**options), start_seat)
    return state


def base(seat: int) -> int:
    return D.PLAYERS_BASE + seat * D.PLAYER_SIZE


def get(state, seat: int, slot: int) -> int:
    return int(state[base(seat) + slot])


def money(state, seat: int) -> int:
    return get(state, seat, D.P_MONEY)


def stalls(state, seat: int, city: str) -> int:
    return get(state, seat, D.P_STALLS + CITY[city])


def hand(state, seat: int) -> dict[str, int]:
    return {_name(t): int(c) for t, c in enumerate(state[base(seat) + D.P_HAND:][:18]) if c}


def sold(state, seat: int) -> dict[str, int]:
    return {_name(t): int(c) for t, c in enumerate(state[base(seat) + D.P_SOLD:][:18]) if c}


def _name(t: int) -> str:
    return f"{D.COLOUR_LETTERS[t // 3]}{t % 3 + 1}"


def deal(state, tokens) -> None:
    """Resolve pending draws with the given token names, in order."""
    for name in tokens:
        assert state[H_TO_MOVE] == CHANCE, "no draw is pending"
        apply_chance(state, token(name))


def skip_setup(state, placements=None) -> None:
    """Deal the warehouses (the highest token types first, so colours A-C stay in the
    supply for the tests) and make initial placements.

    ``placements``: seat -> three city codes; by default every seat places in the first
    cities it may use.  Afterwards stalls are whatever the test sets with ``put``.
    """
    codes = np.zeros(D.NUM_TYPES, dtype=np.int64)
    probs = np.zeros(D.NUM_TYPES)
    while state[H_PHASE] == D.PH_DEAL:
        count = chance_outcomes(state, codes, probs)
        apply_chance(state, int(codes[count - 1]))
    while state[H_PHASE] == D.PH_INIT_PLACE:
        seat = int(state[H_TO_MOVE])
        options = sorted(legal(state))
        if placements is not None:
            used = bin(get(state, seat, D.P_INIT_USED)).count("1")
            options = [D.A_INIT_PLACE + CITY[placements[seat][used]]]
        rules.apply_action(state, options[0])


def clear_board(state) -> None:
    """Take every stall off the board (back to supply) and empty every hand."""
    for seat in range(int(state[1])):
        b = base(seat)
        state[b + D.P_STALLS:b + D.P_STALLS + D.NUM_CITIES] = 0
        state[b + D.P_STALL_SUPPLY] = D.STALLS_PER_PLAYER


def put_stalls(state, seat: int, **cities) -> None:
    """put_stalls(state, 0, DAN=4): set stalls on the board, keeping 15 in all."""
    b = base(seat)
    for code, count in cities.items():
        state[b + D.P_STALL_SUPPLY] += state[b + D.P_STALLS + CITY[code]] - count
        state[b + D.P_STALLS + CITY[code]] = count


def give(state, seat: int, *names: str, sold_too: bool = False) -> None:
    """Move tokens from the supply into a hand (or the sold pile)."""
    slot = D.P_SOLD if sold_too else D.P_HAND
    for name in names:
        t = token(name)
        assert state[D.G_SUPPLY + t] > 0, f"no {name} left in the supply"
        state[D.G_SUPPLY + t] -= 1
        state[base(seat) + slot + t] += 1
        # Keep the stack accounting: the token counts as drawn from the stacks.
        state[D.G_DRAWS] += 1


def set_money(state, seat: int, amount: int) -> None:
    """Set a seat's thalers, recording the change in the bank ledger (conservation)."""
    delta = amount - money(state, seat)
    state[base(seat) + D.P_MONEY] = amount
    if delta > 0:
        state[D.G_BANK_PAID] += delta
    else:
        state[D.G_BANK_TAKEN] -= delta


def set_warehouse(state, city: str, *names: str | None) -> None:
    """Lay tokens on a city's spaces (None = empty), taking them from the supply."""
    for j, name in enumerate(names):
        slot = D.G_WAREHOUSE + D.MAX_SPACES * CITY[city] + j
        if state[slot] >= 0:
            state[D.G_SUPPLY + state[slot]] += 1
            state[D.G_DRAWS] -= 1
        state[slot] = -1
        if name is not None:
            t = token(name)
            state[D.G_SUPPLY + t] -= 1
            state[D.G_DRAWS] += 1
            state[slot] = t


def set_turn(state, seat: int, phase: int = D.PH_ACTIONS, ship: str | None = None) -> None:
    state[D.G_ACTIVE] = seat
    state[H_PHASE] = phase
    state[H_TO_MOVE] = seat
    state[D.G_ACTED] = 0
    if ship is not None:
        state[D.G_SHIP] = CITY[ship]


def finish_turn(state, draws=()) -> None:
    """Skip the refill (or make it when compulsory), end the actions, discard to 3 goods."""
    draws = list(draws)
    while state[H_PHASE] in (D.PH_REFILL, D.PH_DRAW):
        if state[H_PHASE] == D.PH_DRAW:
            deal(state, [draws.pop(0)])
        elif D.A_SKIP_REFILL in legal(state):
            play(state, D.A_SKIP_REFILL)
        else:
            play(state, D.A_REFILL)
    play(state, D.A_END)
    while state[H_PHASE] == D.PH_TAX:
        play(state, min(legal(state)))


def legal(state) -> set[int]:
    return legal_set(state, legal_mask, D.NUM_ACTIONS)


def play(state, *actions: int) -> None:
    """Apply actions, each of which must be legal at its turn."""
    play_legal(state, actions, legal, rules.apply_action)


def move(city: str) -> int:
    return D.A_MOVE + CITY[city]


def place(colour: str, k: int) -> int:
    return D.A_PLACE + 3 * COLOUR[colour] + k - 1


def mark(name: str) -> int:
    return D.A_SELL_MARK + token(name)


def init_place(city: str) -> int:
    return D.A_INIT_PLACE + CITY[city]


def tax(colour: str) -> int:
    return D.A_TAX + COLOUR[colour]


def small_board(numbers=None, spaces=None, routes=None) -> dict:
    """A test board: default routes unless given; numbers/spaces per city code."""
    from meeplezoo.envs.hansa.board import DEFAULT_BOARD

    doc = {"name": "test board", "cities": [dict(c) for c in DEFAULT_BOARD["cities"]],
           "routes": [list(r) for r in (routes or DEFAULT_BOARD["routes"])]}
    for city in doc["cities"]:
        if numbers and city["code"] in numbers:
            city["number"] = numbers[city["code"]]
        if spaces and city["code"] in spaces:
            city["warehouses"] = spaces[city["code"]]
    return doc


# --- compiled invariant checks for the random-game tests (kept out of the test module:
# numba caches kernels of plain modules, not of pytest-rewritten ones) ---------------------

@njit
def check(state, mask, expected):
    """0 when every invariant holds, else the number of the first broken one."""
    players = state[H_NUM_PLAYERS]
    to_move = state[H_TO_MOVE]
    if to_move >= 0:
        count = 0
        for a in range(D.NUM_ACTIONS):
            count += mask[a]
        if count == 0:
            return 1
    counts = np.zeros(D.NUM_TYPES, dtype=np.int64)
    for t in range(D.NUM_TYPES):
        counts[t] = state[D.G_SUPPLY + t] + state[D.G_REMOVED + t]
        if state[D.G_SUPPLY + t] < 0 or state[D.G_REMOVED + t] < 0 or state[D.G_PENDING + t] < 0:
            return 2
    for space in range(D.NUM_CITIES * D.MAX_SPACES):
        if state[D.G_WAREHOUSE + space] >= 0:
            counts[state[D.G_WAREHOUSE + space]] += 1
    money = 0
    for seat in range(players):
        base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
        held = 0
        for t in range(D.NUM_TYPES):
            if state[base + D.P_HAND + t] < 0 or state[base + D.P_SOLD + t] < 0:
                return 2
            counts[t] += state[base + D.P_HAND + t] + state[base + D.P_SOLD + t]
            held += state[base + D.P_HAND + t]
        stalls = state[base + D.P_STALL_SUPPLY]
        for city in range(D.NUM_CITIES):
            if state[base + D.P_STALLS + city] < 0:
                return 3
            stalls += state[base + D.P_STALLS + city]
        if stalls != D.STALLS_PER_PLAYER or state[base + D.P_STALL_SUPPLY] < 0:
            return 3
        if state[base + D.P_MONEY] < 0:
            return 4
        money += state[base + D.P_MONEY]
        if seat != state[D.G_ACTIVE] and held > D.HAND_LIMIT:
            return 5
    for t in range(D.NUM_TYPES):
        if counts[t] != expected[t]:
            return 6
    if money != D.START_MONEY * players + state[D.G_BANK_PAID] - state[D.G_BANK_TAKEN]:
        return 7
    draws = state[D.G_DRAWS]
    if state[D.G_END_TRIGGERED] != (1 if draws > state[D.G_STACK_END + 3] else 0):
        return 8
    supply = 0
    pending = 0
    for t in range(D.NUM_TYPES):
        supply += state[D.G_SUPPLY + t]
        pending += state[D.G_PENDING + t]
    if state[H_PHASE] != D.PH_DEAL and supply != state[D.G_STACK_END + 4] - draws:
        return 9
    if pending > 0 and state[H_PHASE] != D.PH_SELL:
        return 10
    if (to_move == CHANCE) != (state[H_PHASE] == D.PH_DEAL or state[H_PHASE] == D.PH_DRAW):
        return 11
    return 0


@njit
def play_checked(num_games, players, config, expected, seed, stats):
    """stats: [decisions, draws, errors, truncated, bad endings, first error code]."""
    rng = np.zeros(2, dtype=np.uint64)
    policy = np.zeros(2, dtype=np.uint64)
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for game in range(num_games):
        rng[0] = np.uint64(seed * 7919 + game * 104729 + 1)
        rng[1] = np.uint64(game * 31 + 17)
        policy[0] = np.uint64(seed * 31 + game + 3)
        policy[1] = np.uint64(game * 7 + 5)
        rules.init_state(state, players, config, rand_below(policy, players))
        while state[H_TO_MOVE] != TERMINAL:
            if state[H_TO_MOVE] == CHANCE:
                apply_chance(state, sample_chance(state, rng))
                stats[1] += 1
            else:
                legal_mask(state, mask)
                code = check(state, mask, expected)
                if code != 0:
                    stats[2] += 1
                    if stats[5] == 0:
                        stats[5] = code
                rules.apply_action(state, pick_random_legal(mask, policy))
                stats[0] += 1
        mask[:] = 0
        code = check(state, mask, expected)
        if code != 0:
            stats[2] += 1
        if state[D.G_TRUNCATED]:
            stats[3] += 1
        last = (state[D.G_START_SEAT] + players - 1) % players
        if (state[D.G_ACTIVE] != last or state[D.G_TURNS] % players != 0
                or state[D.G_END_TRIGGERED] != 1):
            stats[4] += 1
