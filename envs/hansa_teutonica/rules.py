"""Hansa Teutonica rules as numba kernels on the flat state array (the kernel contract).

Turn flow (§5): the active player takes up to their Actiones value of actions (§6), using
bonus markers between actions (HT-5.5).  Multi-step actions are phases: a displacement
asks the active player to PAY, then selects the displaced player for COMPENSATE (off
turn) and returns to the active player; Move is MOVE_PICK then MOVE_DROP; Establish runs
steps (a) and (b) at once and asks for the REWARD (c); Remove 3 is a REMOVE3 phase.  At
the end of the turn each plate marker is revealed (a chance event) and placed (HT-7.4).
The game ends after the Establish action that fires T1, T2 or T3 (HT-9.2).

Engine conveniences (no rule change): a turn ends by itself when END_TURN is the only
legal move, and the REWARD phase is skipped when "none" is the only option.
"""

from __future__ import annotations

from ..core.contract import (
    CHANCE,
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    TERMINAL,
)
from ..core.jit import njit
from .actions import (
    apply_reward,
    compensate,
    displace,
    establish,
    finish_establish,
    game_over,
    pay,
    put,
    upgrade,
    use_marker,
)
from .board import (
    player_base,
    track_value,
)
from .data import (
    A_DONE,
    A_END_TURN,
    A_ESTABLISH,
    A_INCOME,
    A_MARKER,
    A_MOVE_BEGIN,
    A_PAWN,
    A_PAY,
    A_PICK,
    A_PLACE,
    A_PLUS3,
    A_PLUS4,
    A_REMOVE3,
    A_REWARD,
    A_SWAP,
    A_UPGRADE,
    ACTIONES,
    BURSA,
    C_MAX_DECISIONS,
    C_REGIONS_ON,
    CONFIG_SIZE,
    CONFIG_START,
    G_ACTIONS_LEFT,
    G_ACTIONS_TAKEN,
    G_ACTIVE,
    G_COELLEN,
    G_COMP_HAND,
    G_DISP_ORIGIN,
    G_DISP_PENDING,
    G_DISP_VICTIM,
    G_EST_ROUTE,
    G_EXTRA_OWNER,
    G_HAND,
    G_MARKERS_LOST,
    G_MOVE_PICKED,
    G_OFFICE_OWNER,
    G_OFFICE_TYPE,
    G_PAWN,
    G_PAWN_FREE_USED,
    G_PLATE,
    G_REMOVE_LEFT,
    G_REVEALED,
    G_ROUTE_MARKER,
    G_SIDE,
    G_SPACE_OWNER,
    G_SPACE_TYPE,
    G_START_SEAT,
    G_SUPPLY,
    G_TRUNCATED,
    G_TURNS,
    GAME_ID,
    LIBER,
    MAX_EXTRA,
    MAX_OFFICES,
    MK_PLUS3,
    MK_PLUS4,
    MK_REMOVE3,
    MK_SWAP,
    MK_UPGRADE,
    NUM_CITIES,
    NUM_MARKER_KINDS,
    NUM_ROUTES,
    NUM_SPACES,
    P_GENERAL,
    P_PERSONAL,
    PH_COMPENSATE,
    PH_MAIN,
    PH_MARKER_DRAW,
    PH_MARKER_PLACE,
    PH_MOVE_DROP,
    PH_MOVE_PICK,
    PH_PAWN_END,
    PH_PAWN_SETUP,
    PH_PAY,
    PH_REMOVE3,
    PH_REWARD,
    PH_SETUP,
    SUPPLY_START,
)
from .masks import (
    any_removable,
    free_pawn_move_ok,
    main_has_choice,
    marker_route_ok,
)

# --- start --------------------------------------------------------------------------------

@njit
def init_state(state, num_players, config, start_seat):
    """HT-4: supplies by seat order from the start player; markers wait for a chance event."""
    state[:] = 0
    state[H_GAME_ID] = GAME_ID
    state[H_NUM_PLAYERS] = num_players
    state[CONFIG_START:CONFIG_START + CONFIG_SIZE] = config
    if num_players != 2:
        state[C_REGIONS_ON] = 0                        # HT-11: a 2-player variant only
    state[G_SIDE] = 0 if num_players <= 3 else 1       # HT-4.1
    state[G_START_SEAT] = start_seat
    state[G_ACTIVE] = start_seat
    for slot in (G_REVEALED, G_EST_ROUTE, G_DISP_VICTIM, G_DISP_ORIGIN, G_DISP_PENDING,
                 G_COMP_HAND):
        state[slot] = -1
    state[G_ROUTE_MARKER:G_ROUTE_MARKER + NUM_ROUTES] = -1
    state[G_SPACE_OWNER:G_SPACE_OWNER + NUM_SPACES] = -1
    state[G_OFFICE_OWNER:G_OFFICE_OWNER + NUM_CITIES * MAX_OFFICES] = -1
    state[G_EXTRA_OWNER:G_EXTRA_OWNER + NUM_CITIES * MAX_EXTRA] = -1
    state[G_COELLEN:G_COELLEN + 4] = -1
    state[G_SUPPLY:G_SUPPLY + NUM_MARKER_KINDS] = SUPPLY_START       # HT-4.2
    for seat in range(num_players):
        base = player_base(seat)
        k = (seat - start_seat) % num_players                      # HT-4.4
        state[base + P_PERSONAL] = 5 + k
        state[base + P_PERSONAL + 1] = 1
        state[base + P_GENERAL] = 6 - k
    state[H_PHASE] = PH_SETUP
    state[H_TO_MOVE] = CHANCE


@njit
def after_setup(state):
    """HT-11.3: in the regions variant the second player places the pawn first."""
    start = state[G_START_SEAT]
    if state[C_REGIONS_ON] != 0:
        state[H_PHASE] = PH_PAWN_SETUP
        state[H_TO_MOVE] = (start + 1) % state[H_NUM_PLAYERS]
    else:
        begin_turn(state, start)


@njit
def begin_turn(state, seat):
    state[G_ACTIVE] = seat
    state[G_ACTIONS_LEFT] = track_value(state, seat, ACTIONES)        # HT-5.2
    state[G_ACTIONS_TAKEN] = 0
    state[G_PAWN_FREE_USED] = 0
    state[G_TURNS] += 1
    state[H_PHASE] = PH_MAIN
    state[H_TO_MOVE] = seat


# --- applying a decision ------------------------------------------------------------------

@njit
def apply_action(state, action):
    state[H_PLY] += 1
    phase = state[H_PHASE]
    if phase == PH_MAIN:
        apply_main(state, action)
    elif phase == PH_PAY:
        pay(state, action - A_PAY)
    elif phase == PH_COMPENSATE:
        compensate(state, action)
    elif phase == PH_MOVE_PICK:
        if action == A_DONE:
            state[H_PHASE] = PH_MOVE_DROP
        else:
            lift_for_move(state, action - A_PICK)
    elif phase == PH_MOVE_DROP:
        drop_for_move(state, action - A_PLACE)
    elif phase == PH_REWARD:
        apply_reward(state, action - A_REWARD)
        finish_establish(state)
    elif phase == PH_REMOVE3:
        remove_piece(state, action)
    elif phase == PH_MARKER_PLACE:
        state[G_ROUTE_MARKER + action - A_MARKER] = state[G_REVEALED]      # HT-7.4
        state[G_REVEALED] = -1
        finish_turn(state)
    elif phase == PH_PAWN_SETUP:
        state[G_PAWN] = action - A_PAWN
        begin_turn(state, state[G_START_SEAT])
    elif phase == PH_PAWN_END:
        if action != A_PAWN + 11:                                          # not PAWN_SKIP
            state[G_PAWN] = action - A_PAWN
        state[G_PAWN_FREE_USED] = 1
        finish_turn(state)
    if state[H_PHASE] == PH_MAIN and not main_has_choice(state):
        end_turn(state)
    if state[H_PLY] >= state[C_MAX_DECISIONS] and state[H_TO_MOVE] != TERMINAL:
        state[G_TRUNCATED] = 1                                             # HT-9.5
        game_over(state)


@njit
def start_action(state):
    state[G_ACTIONS_LEFT] -= 1
    state[G_ACTIONS_TAKEN] += 1


@njit
def apply_main(state, action):
    seat = state[G_ACTIVE]
    base = player_base(seat)
    if action == A_END_TURN:
        end_turn(state)
    elif action < A_PLACE:
        start_action(state)
        income(state, base, action - A_INCOME)
    elif action < A_PAY:
        start_action(state)
        s, t = (action - A_PLACE) // 2, (action - A_PLACE) % 2
        if state[G_SPACE_OWNER + s] < 0:                        # HT-6.2
            state[base + P_PERSONAL + t] -= 1
            put(state, s, seat, t)
        else:                                                   # HT-6.3: a rival is there
            displace(state, seat, s, t)
    elif action == A_MOVE_BEGIN:                                # HT-6.4
        start_action(state)
        state[G_MOVE_PICKED] = 0
        state[H_PHASE] = PH_MOVE_PICK
    elif A_ESTABLISH <= action < A_REWARD:
        start_action(state)
        establish(state, action - A_ESTABLISH)
    elif action == A_PLUS3 or action == A_PLUS4:                # HT-7.6.1
        use_marker(state, base, MK_PLUS3 if action == A_PLUS3 else MK_PLUS4)
        state[G_ACTIONS_LEFT] += 3 if action == A_PLUS3 else 4
    elif A_UPGRADE <= action < A_SWAP:                          # HT-7.6.2
        use_marker(state, base, MK_UPGRADE)
        upgrade(state, seat, action - A_UPGRADE)
    elif A_SWAP <= action < A_REMOVE3:                          # HT-7.6.3
        use_marker(state, base, MK_SWAP)
        city, i = (action - A_SWAP) // 3, (action - A_SWAP) % 3
        a = G_OFFICE_OWNER + city * MAX_OFFICES + i
        b = G_OFFICE_TYPE + city * MAX_OFFICES + i
        state[a], state[a + 1] = state[a + 1], state[a]
        state[b], state[b + 1] = state[b + 1], state[b]
    elif action == A_REMOVE3:                                   # HT-7.6.5
        use_marker(state, base, MK_REMOVE3)
        state[G_REMOVE_LEFT] = 3
        state[H_PHASE] = PH_REMOVE3
    else:                                                       # HT-11.3: pawn
        region = action - A_PAWN
        if state[G_PAWN_FREE_USED] == 0 and state[G_ACTIONS_TAKEN] == 0 \
                and free_pawn_move_ok(state, region):
            state[G_PAWN_FREE_USED] = 1
        else:
            start_action(state)
        state[G_PAWN] = region


@njit
def income(state, base, merchants):
    """HT-6.1.1: min(Bursa, stock) pieces to the personal supply, ``merchants`` of them M."""
    stock = state[base + P_GENERAL] + state[base + P_GENERAL + 1]
    n = min(track_value(state, state[G_ACTIVE], BURSA), stock)
    state[base + P_GENERAL + 1] -= merchants
    state[base + P_PERSONAL + 1] += merchants
    state[base + P_GENERAL] -= n - merchants
    state[base + P_PERSONAL] += n - merchants


# --- move (HT-6.4) and remove 3 (HT-7.6.5) --------------------------------------------------------

@njit
def lift_for_move(state, space):
    state[G_HAND + state[G_SPACE_TYPE + space]] += 1
    state[G_SPACE_OWNER + space] = -1
    state[G_MOVE_PICKED] += 1
    if state[G_MOVE_PICKED] >= track_value(state, state[G_ACTIVE], LIBER):
        state[H_PHASE] = PH_MOVE_DROP


@njit
def drop_for_move(state, code):
    s, t = code // 2, code % 2
    state[G_HAND + t] -= 1
    put(state, s, state[G_ACTIVE], t)
    if state[G_HAND] + state[G_HAND + 1] == 0:
        state[G_MOVE_PICKED] = 0
        state[H_PHASE] = PH_MAIN


@njit
def remove_piece(state, action):
    if action == A_DONE:
        state[G_REMOVE_LEFT] = 0
    else:
        s = action - A_PICK
        owner = state[G_SPACE_OWNER + s]
        state[player_base(owner) + P_PERSONAL + state[G_SPACE_TYPE + s]] += 1
        state[G_SPACE_OWNER + s] = -1
        state[G_REMOVE_LEFT] -= 1
    if state[G_REMOVE_LEFT] == 0 or not any_piece_removable(state):
        state[G_REMOVE_LEFT] = 0
        state[H_PHASE] = PH_MAIN


@njit
def any_piece_removable(state):
    return any_removable(state, state[G_ACTIVE])


# --- end of turn and of the game ----------------------------------------------------------

@njit
def end_turn(state):
    if state[C_REGIONS_ON] != 0 and state[G_PAWN_FREE_USED] == 0:
        state[H_PHASE] = PH_PAWN_END                              # HT-11.3: free move after
        return
    finish_turn(state)


@njit
def finish_turn(state):
    """HT-5.7: reveal and place the plate markers one by one, then the next turn."""
    if state[G_PLATE] > 0:
        state[H_PHASE] = PH_MARKER_DRAW
        state[H_TO_MOVE] = CHANCE
        return
    begin_turn(state, (state[G_ACTIVE] + 1) % state[H_NUM_PLAYERS])


@njit
def place_revealed(state, kind):
    """After a marker is revealed: the active player places it, or A-9 removes it."""
    side_routes = 32 if state[G_SIDE] == 0 else 34
    for r in range(side_routes):
        if marker_route_ok(state, r):
            state[G_REVEALED] = kind
            state[H_PHASE] = PH_MARKER_PLACE
            state[H_TO_MOVE] = state[G_ACTIVE]
            return
    state[G_MARKERS_LOST] += 1
    finish_turn(state)
