"""Serenissima rules as numba kernels on the flat state array (the kernel contract).

Game flow: closing ports (2/3 players, SE-12.3), start-port and galley selection (SE-4,
SE-12.2.3), then rounds: the wheel activates galleys in number order (SE-5.1), each
owner choosing Action (Load, Move, Sell or Combat, SE-6) or Investment (SE-7); a Doge card
ends the round (SE-8), with scorings (SE-9), the special investment (SE-10) and the end
after the last scoring space (SE-11).  Off-turn decisions (a blocker, a defender taking
goods) make that seat the one to move.
"""

from __future__ import annotations

from ..core.contract import (
    CHANCE,
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    ILLEGAL,
    TERMINAL,
)
from ..core.jit import njit
from .actions import (
    after_round,
    apply_block,
    apply_capture,
    apply_continue,
    apply_land,
    apply_load,
    apply_move,
    apply_step3,
    fix_v0,
    start_round,
)
from .board import kill, popcount, port_has, ports_owned, sink
from .chance import sample_chance
from .data import (
    A_CAP_GOODS,
    A_GAL,
    A_INVEST,
    A_PORT,
    A_TARGET,
    A_TARGET_PORT,
    A_UNMANNED,
    A_V0,
    BASILICA_POINTS,
    CARD_SHUFFLE,
    CARD_STEPS,
    CARD_WINE,
    CK_BATTLE,
    CK_CLOSE,
    CK_DOGE,
    CK_FORT,
    CLOSED,
    CONFIG_BASE,
    CONFIG_SIZE,
    DECK,
    G_CHANCE_KIND,
    G_CLOSE_STEP,
    G_FIRST,
    G_LAST_CARD,
    G_LAST_ROLL,
    G_PILE,
    G_SCORINGS,
    G_SPECIAL_INDEX,
    G_TRACK,
    G_TRUNCATED,
    G_TURN_OWNER,
    G_WHEEL,
    GAME_ID,
    K_MAX_DECISIONS,
    K_NUM_PORTS,
    K_SCORE,
    K_SCORING_4P,
    K_SCORING_23P,
    K_START_23P,
    K_SUPPLY0,
    K_TRACK_LAST,
    L_SCORING,
    L_WINE,
    LEDGER_KINDS,
    MAX_PORTS,
    MAX_SIZE,
    NEUTRAL,
    NO_V0,
    NUM_GALLEYS,
    NUM_GOODS,
    PH_BLOCK,
    PH_CAPTURE,
    PH_CHOOSE,
    PH_CLOSE,
    PH_CONTINUE,
    PH_GAME_OVER,
    PH_INVEST,
    PH_LAND,
    PH_LOAD,
    PH_MOVE,
    PH_PLACE_GALLEY,
    PH_SETUP_GALLEY,
    PH_SETUP_PORT,
    PH_SPECIAL,
    PH_STEP3,
    S_DUCATS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_GOODS,
    S_LEDGER,
    S_P_BAS,
    S_P_OWNER,
    S_P_SAIL,
    S_P_WH,
    S_SUPPLY,
    SAILORS_BY_PLAYERS,
    START_DUCATS,
    WINE,
    WINE_INCOME,
)
from .flow import advance_special, end_activation, enter_load, scratch
from .invest import apply_invest, apply_place_galley
from .masks import legal_mask, only_pass
from .setup import advance_close, apply_setup, close_port

# --- start (SE-4, SE-12) -------------------------------------------------------------------

@njit
def init_state(state, num_players, config, start_seat):
    state[:] = 0
    state[H_GAME_ID] = GAME_ID
    state[H_NUM_PLAYERS] = num_players
    state[CONFIG_BASE:CONFIG_BASE + CONFIG_SIZE] = config
    for g in range(NUM_GALLEYS):
        state[S_G_OWNER + g] = -1
        state[S_G_ZONE + g] = -1
    for p in range(MAX_PORTS):
        state[S_P_OWNER + p] = NEUTRAL if p < state[K_NUM_PORTS] else CLOSED
    for seat in range(num_players):
        state[S_DUCATS + seat] = START_DUCATS
        state[S_SUPPLY + seat] = SAILORS_BY_PLAYERS[num_players]
    for t in range(NUM_GOODS):
        state[S_GOODS + t] = state[K_SUPPLY0 + t]
    for c in range(4):
        state[G_PILE + c] = DECK[c]
    state[G_FIRST] = start_seat
    state[G_TURN_OWNER] = start_seat
    state[G_LAST_CARD] = -1
    state[G_LAST_ROLL] = -1
    state[G_WHEEL] = -1
    state[A_GAL] = -1
    state[A_TARGET] = -1
    state[A_TARGET_PORT] = -1
    state[A_UNMANNED] = -1
    state[A_V0] = NO_V0
    state[G_TRACK] = 0 if num_players == 4 else state[K_START_23P]   # SE-12.1.3
    state[G_CLOSE_STEP] = 4 if num_players == 4 else 0
    advance_close(state)


# --- decisions ---------------------------------------------------------------------------

@njit
def apply_action(state, action):
    state[H_PLY] += 1
    phase = state[H_PHASE]
    if phase == PH_CLOSE:
        close_port(state, action - A_PORT)
    elif phase == PH_SETUP_PORT or phase == PH_SETUP_GALLEY:
        apply_setup(state, action)
    elif phase == PH_CHOOSE:
        if action == A_INVEST:
            state[H_PHASE] = PH_INVEST
            if only_pass(state, scratch()):
                end_activation(state)
        else:
            enter_load(state)
    elif phase == PH_LOAD:
        apply_load(state, action)
    elif phase == PH_MOVE:
        apply_move(state, action)
    elif phase == PH_BLOCK:
        apply_block(state, action)
    elif phase == PH_STEP3:
        apply_step3(state, action)
    elif phase == PH_CONTINUE:
        apply_continue(state, action)
    elif phase == PH_CAPTURE:
        apply_capture(state, action)
    elif phase == PH_LAND:
        apply_land(state, action)
    elif phase == PH_INVEST or phase == PH_SPECIAL:
        apply_invest(state, action)
    elif phase == PH_PLACE_GALLEY:
        apply_place_galley(state, action)
    if state[H_PLY] >= state[K_MAX_DECISIONS] and state[H_TO_MOVE] != TERMINAL:
        truncate(state)


@njit
def truncate(state):
    """The decision cap (data.DEFAULT_MAX_DECISIONS, option ``max_decisions``): the game
    ends here, scored by the ducats at the cut, flagged as a truncation (not a rule)."""
    for t in range(NUM_GOODS):                            # a capture cut short: A-15
        state[S_GOODS + t] += state[A_CAP_GOODS + t]
        state[A_CAP_GOODS + t] = 0
    state[G_CHANCE_KIND] = 0
    state[G_TRUNCATED] = 1
    state[H_PHASE] = PH_GAME_OVER
    state[H_TO_MOVE] = TERMINAL
    state[G_TURN_OWNER] = -1


# --- chance ------------------------------------------------------------------------------

@njit
def apply_chance(state, code):
    kind = state[G_CHANCE_KIND]
    state[G_CHANCE_KIND] = 0
    if kind == CK_BATTLE:
        state[G_LAST_ROLL] = code
        apply_battle(state, code // 6, code % 6)
    elif kind == CK_FORT:
        state[G_LAST_ROLL] = 100 + code
        g = state[A_GAL]
        kill(state, g, min(code, state[S_G_SAIL + g]))    # SE-6.7.4
        if state[S_G_SAIL + g] == 0:                      # EX-21: sunk before a round
            sink(state, g, -1)
            end_activation(state)
        else:
            fix_v0(state)                                  # SE-6.6.2: after the fort
            start_round(state)
    elif kind == CK_DOGE:
        apply_doge(state, code)
    elif kind == CK_CLOSE:
        close_port(state, code)


@njit
def apply_battle(state, attacker_skulls, defender_skulls):
    """SE-6.6.3: both sides roll at once; each skull kills one opposing sailor."""
    g = state[A_GAL]
    h = state[A_TARGET]
    lost = min(defender_skulls, state[S_G_SAIL + g])
    if h >= 0:
        kill(state, h, min(attacker_skulls, state[S_G_SAIL + h]))
    else:
        p = state[A_TARGET_PORT]
        dead = min(attacker_skulls, state[S_P_SAIL + p])
        state[S_P_SAIL + p] -= dead
        state[S_SUPPLY + state[S_P_OWNER + p]] += dead
    kill(state, g, lost)
    after_round(state)


@njit
def apply_doge(state, card):
    """SE-8: Wine income or the white marker; scorings (SE-5.4.2); the end (SE-11.1)."""
    state[G_PILE + card] -= 1
    state[G_LAST_CARD] = card
    n = state[H_NUM_PLAYERS]
    if card == CARD_WINE:                                 # SE-8.3
        for p in range(state[K_NUM_PORTS]):
            owner = state[S_P_OWNER + p]
            if owner >= 0 and port_has(state, p, WINE):
                state[S_DUCATS + owner] += WINE_INCOME
                state[S_LEDGER + LEDGER_KINDS * owner + L_WINE] += WINE_INCOME
    else:
        last = state[K_TRACK_LAST]
        spaces = state[K_SCORING_4P] if n == 4 else state[K_SCORING_23P]
        old = state[G_TRACK]
        new = min(old + CARD_STEPS[card], last)
        state[G_TRACK] = new
        for s in range(old + 1, new + 1):
            if (spaces >> s) & 1:
                score_ports(state)
    if card == CARD_SHUFFLE:                              # SE-8.6: all 5 cards again
        for c in range(4):
            state[G_PILE + c] = DECK[c]
    if state[G_TRACK] >= state[K_TRACK_LAST]:             # SE-11.1 / A-32
        state[H_PHASE] = PH_GAME_OVER
        state[H_TO_MOVE] = TERMINAL
        state[G_TURN_OWNER] = -1
        return
    state[G_SPECIAL_INDEX] = 0
    advance_special(state)


@njit
def port_score(state, p):
    """SE-9.1: the port's scale by warehouse cubes, +5 for a basilica."""
    cubes = popcount(state[S_P_WH + p])
    return state[K_SCORE + (MAX_SIZE + 1) * p + cubes] + BASILICA_POINTS * state[S_P_BAS + p]


@njit
def score_ports(state):
    state[G_SCORINGS] += 1
    for p in range(state[K_NUM_PORTS]):
        owner = state[S_P_OWNER + p]
        if owner >= 0:                                    # SE-9.3: neutral/closed score 0
            points = port_score(state, p)
            state[S_DUCATS + owner] += points
            state[S_LEDGER + LEDGER_KINDS * owner + L_SCORING] += points


@njit
def resolve_chance(state, rng):
    while state[H_TO_MOVE] == CHANCE:
        apply_chance(state, sample_chance(state, rng))


# --- scores and the fused env step ---------------------------------------------------------

@njit
def scores(state, out):
    """SE-11.1: ducats decide (the running score is the same number)."""
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat] = state[S_DUCATS + seat]


@njit
def tiebreaks(state, out):
    """SE-11.2: more Port cards wins a tie; still tied: shared (A-29)."""
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat] = ports_owned(state, seat)


@njit
def env_step(state, action, rng, mask):
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

