"""Saint Malo rules as numba kernels on the flat state array (the kernel contract).

Turn flow (SM-5 .. SM-11): dice are rolled (a chance event), the active player stops or
re-rolls a subset up to twice (DP-1), chooses one scoring option (DP-2), places the items
one cell at a time (DP-3), builds houses after an architect (DP-4), takes a tower's
character reward (DP-5/DP-6); then the swords are marked and pirates attack (SM-6.8).
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
from .chance import resolve_chance
from .city import (
    code_bb,
    count_n8,
    defence,
    distinct_character_types_n8,
    empty_bb,
    end_score,
    popcount,
)
from .data import (
    A_CHARACTER,
    A_CHURCH,
    A_CRATE,
    A_LOG,
    A_PASS,
    A_PLACE,
    A_STOP_HOUSES,
    A_STOP_ROLLING,
    A_WALL,
    ARCHITECT,
    C_BOXES_PER_PLAYER,
    C_MAX_DECISIONS,
    C_START_COINS,
    C_START_CRATES,
    C_START_LOGS,
    C_STRENGTH,
    C_TOWER_AMOUNT,
    C_TOWER_KIND,
    CELL_SIDE,
    CHARACTER_LEVEL,
    CHURCH_1,
    CITIZEN,
    CONFIG_SIZE,
    CRATE,
    CRATE_FACE,
    CROSS,
    G_ACTIVE,
    G_ARCHITECT_CELL,
    G_ATTACKS_DONE,
    G_BONUS_DUE,
    G_DICE,
    G_END_TRIGGERED,
    G_HOUSES_BUILT,
    G_LAST_ATTACKS,
    G_PENDING_CODE,
    G_PENDING_LEFT,
    G_PIRATE_BOXES,
    G_PLACED_BB,
    G_PLACING_BONUS,
    G_ROLL_MASK,
    G_ROLLS_USED,
    G_START_SEAT,
    G_TRUNCATED,
    G_TURNS,
    GAME_ID,
    HEAD,
    HOUSE,
    JUGGLER,
    LOG,
    MERCHANT,
    NOBLE,
    NUM_ATTACKS,
    NUM_CELLS,
    NUM_DICE,
    P_BOARD,
    P_CANNONS_LOST,
    P_COINS,
    P_LOGS,
    P_SIDES_BROKEN,
    P_SIDES_DONE,
    P_SOLDIERS,
    P_VP,
    PH_BONUS_CHOICE,
    PH_GAME_OVER,
    PH_HOUSES,
    PH_PLACE,
    PH_ROLL,
    PH_ROLL_DECISION,
    PH_SCORE,
    PRIEST,
    REWARD_CHARACTER,
    REWARD_COINS,
    SIDE_BB,
    SOLDIER,
    SWORD,
    TOWER_CELLS,
    WALL,
    WALL_FACE,
)
from .masks import (
    ALL_DICE,
    active_base,
    change_cost,
    face_counts,
    house_cells,
    legal_mask,
    player_base,
)

# --- start ---------------------------------------------------------------------------------

@njit
def init_state(state, num_players, config, start_seat):
    """SM-4: every city with its crates, 3 coins, 2 logs; the first roll is pending."""
    state[:] = 0
    state[H_GAME_ID] = GAME_ID
    state[H_NUM_PLAYERS] = num_players
    state[HEADER_SIZE:HEADER_SIZE + CONFIG_SIZE] = config
    for seat in range(num_players):
        base = player_base(seat)
        for tower in TOWER_CELLS:
            state[base + P_BOARD + tower] = -1
        for cell in range(NUM_CELLS):
            if (state[C_START_CRATES] >> cell) & 1:
                state[base + P_BOARD + cell] = CRATE          # SM-2.8
                side = CELL_SIDE[cell]
                if side >= 0:                                 # SM-7.3.4: an outer crate
                    state[base + P_SIDES_BROKEN] |= 1 << side
        state[base + P_COINS] = state[C_START_COINS]
        state[base + P_LOGS] = state[C_START_LOGS]
    state[G_START_SEAT] = start_seat
    begin_turn(state, start_seat)


@njit
def begin_turn(state, seat):
    state[G_ACTIVE] = seat
    state[G_ROLLS_USED] = 0
    state[G_ROLL_MASK] = ALL_DICE                             # SM-5.2
    state[G_PENDING_CODE] = 0
    state[G_PENDING_LEFT] = 0
    state[G_PLACED_BB] = 0
    state[G_ARCHITECT_CELL] = -1
    state[G_HOUSES_BUILT] = 0
    state[G_BONUS_DUE] = 0
    state[G_PLACING_BONUS] = 0
    state[H_PHASE] = PH_ROLL
    state[H_TO_MOVE] = CHANCE


# --- applying a decision -------------------------------------------------------------------

@njit
def apply_action(state, action):
    state[H_PLY] += 1
    phase = state[H_PHASE]
    if phase == PH_ROLL_DECISION:
        if action == A_STOP_ROLLING:
            state[H_PHASE] = PH_SCORE
        else:
            state[G_ROLL_MASK] = action
            state[H_PHASE] = PH_ROLL
            state[H_TO_MOVE] = CHANCE
    elif phase == PH_SCORE:
        apply_score(state, action)
    elif phase == PH_PLACE:
        place_item(state, action - A_PLACE)
    elif phase == PH_HOUSES:
        if action == A_STOP_HOUSES:
            finish_houses(state)
        else:
            build_house(state, action - A_PLACE)
    elif phase == PH_BONUS_CHOICE:
        due = state[G_BONUS_DUE]
        state[G_BONUS_DUE] = due & (due - 1)                   # the lowest side's reward
        state[G_PLACING_BONUS] = 1
        start_placing(state, CITIZEN + action - A_CHARACTER, 1)
    # The decision cap (option max_decisions): one compare per decision, here in the kernel
    # so the AEC env, the batched env and MCTS rollouts all end.  A natural end wins a tie.
    if state[H_PLY] >= state[C_MAX_DECISIONS] and state[H_TO_MOVE] != TERMINAL:
        truncate(state)


@njit
def truncate(state):
    """End the game at the cap; scores are those of the moment (a PettingZoo truncation)."""
    state[G_TRUNCATED] = 1
    state[G_ROLL_MASK] = 0                                     # a roll that never happens
    state[H_PHASE] = PH_GAME_OVER
    state[H_TO_MOVE] = TERMINAL


@njit
def apply_score(state, action):
    base = active_base(state)
    counts = face_counts(state)
    if action == A_PASS:
        end_turn(state)
    elif action < A_CRATE:                                     # SM-7.1: 2 coins per delivery
        k = action - A_LOG + 1
        state[base + P_COINS] -= 2 + change_cost(k, counts[LOG])
        state[base + P_LOGS] += k
        end_turn(state)
    elif action < A_WALL:
        k = action - A_CRATE + 1
        state[base + P_COINS] -= change_cost(k, counts[CRATE_FACE])
        start_placing(state, CRATE, k)
    elif action < A_CHURCH:
        k = action - A_WALL + 1
        state[base + P_COINS] -= change_cost(k, counts[WALL_FACE])
        start_placing(state, WALL, k)
    elif action < A_CHARACTER:                                 # SM-7.4: one church of size k
        k = action - A_CHURCH + 1
        state[base + P_COINS] -= change_cost(k, counts[CROSS])
        start_placing(state, CHURCH_1 + k - 1, 1)
    else:
        kind = action - A_CHARACTER
        state[base + P_COINS] -= change_cost(CHARACTER_LEVEL[kind], counts[HEAD])
        start_placing(state, CITIZEN + kind, 1)


@njit
def start_placing(state, code, count):
    state[G_PENDING_CODE] = code
    state[G_PENDING_LEFT] = count
    state[G_PLACED_BB] = 0
    state[H_PHASE] = PH_PLACE


@njit
def draw(state, base, cell, code):
    """Fill a space; anything but a wall on an outer space breaks that side (SM-7.3.4)."""
    state[base + P_BOARD + cell] = code
    state[G_PLACED_BB] |= 1 << cell
    side = CELL_SIDE[cell]
    if side >= 0 and code != WALL:
        state[base + P_SIDES_BROKEN] |= 1 << side


@njit
def place_item(state, cell):
    base = active_base(state)
    code = state[G_PENDING_CODE]
    draw(state, base, cell, code)
    state[G_PENDING_LEFT] -= 1
    if code >= CITIZEN:
        state[G_PLACING_BONUS] = 0
        if place_character(state, base, cell, code):
            return                                             # the architect builds first
    elif state[G_PENDING_LEFT] > 0:
        return
    elif code == WALL:
        complete_sides(state, base)                            # SM-7.3.5: after all k walls
    continue_turn(state)


@njit
def place_character(state, base, cell, code):
    """SM-7.5: the effect happens now and never again. True if houses may follow."""
    if code == CITIZEN:
        state[base + P_VP] += 1
    elif code == SOLDIER:
        state[base + P_SOLDIERS] += 1
    elif code == PRIEST:                                       # SM-7.5.1
        state[base + P_VP] += count_n8(state, base, cell, CHURCH_1, CHURCH_1 + 4)
    elif code == MERCHANT:                                     # SM-7.5.4
        state[base + P_COINS] += count_n8(state, base, cell, CRATE, CRATE)
    elif code == JUGGLER:                                      # SM-7.5.2
        state[base + P_VP] += 2 * distinct_character_types_n8(state, base, cell)
    elif code == NOBLE:
        state[base + P_VP] += 7
    elif code == ARCHITECT:                                    # SM-7.5.3
        state[G_ARCHITECT_CELL] = cell
        state[G_HOUSES_BUILT] = 0
        state[G_PLACED_BB] = 0
        if house_cells(state) != 0:
            state[H_PHASE] = PH_HOUSES
            return True
        state[G_ARCHITECT_CELL] = -1
    return False


@njit
def build_house(state, cell):
    base = active_base(state)
    draw(state, base, cell, HOUSE)
    state[base + P_LOGS] -= 1
    state[base + P_VP] += 3
    state[G_HOUSES_BUILT] += 1
    if house_cells(state) == 0:                                # nothing left but STOP
        finish_houses(state)


@njit
def finish_houses(state):
    state[G_ARCHITECT_CELL] = -1
    continue_turn(state)


@njit
def complete_sides(state, base):
    """SM-7.3.2: rewards for every side that now holds five walls and is not broken."""
    walls = code_bb(state, base, WALL)
    for side in range(4):
        bit = 1 << side
        if state[base + P_SIDES_DONE] & bit or state[base + P_SIDES_BROKEN] & bit:
            continue
        if walls & SIDE_BB[side] != SIDE_BB[side]:
            continue
        state[base + P_SIDES_DONE] |= bit
        kind = state[C_TOWER_KIND + side]
        amount = state[C_TOWER_AMOUNT + side]
        if kind == REWARD_CHARACTER:
            state[G_BONUS_DUE] |= bit                          # granted last (SM-7.3.5)
        elif kind == REWARD_COINS:
            state[base + P_COINS] += amount
        else:
            state[base + P_VP] += amount


@njit
def continue_turn(state):
    """Grant a pending tower character if a space is free (SM-7.3.6), else end the turn."""
    if state[G_BONUS_DUE] > 0:
        if empty_bb(state, active_base(state)) != 0:
            state[H_PHASE] = PH_BONUS_CHOICE
            return
        state[G_BONUS_DUE] = 0                                 # the character is lost
    end_turn(state)


@njit
def end_turn(state):
    """SM-9: mark swords, resolve attacks; SM-11: end trigger and the last round."""
    num_players = state[H_NUM_PLAYERS]
    swords = 0
    for die in range(NUM_DICE):
        swords += state[G_DICE + die] == SWORD
    row_length = state[C_BOXES_PER_PLAYER] * num_players
    attacks = 0
    for _ in range(swords):
        if state[G_ATTACKS_DONE] >= NUM_ATTACKS:
            break                                              # SM-9.4
        state[G_PIRATE_BOXES] += 1
        if state[G_PIRATE_BOXES] == (state[G_ATTACKS_DONE] + 1) * row_length:
            pirate_attack(state, state[C_STRENGTH + state[G_ATTACKS_DONE]])
            state[G_ATTACKS_DONE] += 1
            attacks += 1
    state[G_LAST_ATTACKS] = attacks
    state[G_TURNS] += 1
    seat = state[G_ACTIVE]
    if empty_bb(state, player_base(seat)) == 0:
        state[G_END_TRIGGERED] = 1
    last_seat = (state[G_START_SEAT] + num_players - 1) % num_players
    if state[G_END_TRIGGERED] and seat == last_seat:           # SM-11.2
        state[H_PHASE] = PH_GAME_OVER
        state[H_TO_MOVE] = TERMINAL
        return
    begin_turn(state, (seat + 1) % num_players)


@njit
def pirate_attack(state, strength):
    """SM-9.3: every player with defence below the strength loses one cannon."""
    for seat in range(state[H_NUM_PLAYERS]):
        base = player_base(seat)
        if defence(state, base) < strength:
            state[base + P_CANNONS_LOST] += 1


# --- scores and the fused env step --------------------------------------------------------------

@njit
def scores(state, out):
    """SM-11.3 for every seat (at the end: the final score; before: as if it ended now)."""
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat] = end_score(state, player_base(seat))


@njit
def tiebreaks(state, out):
    """SM-11.5: more empty spaces wins a tie."""
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat] = popcount(empty_bb(state, player_base(seat)))


@njit
def env_step(state, action, rng, mask):
    """One AEC step in one compiled call: apply, roll what is due, write the next mask."""
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

