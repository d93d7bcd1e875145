"""Decisions inside an activation (SE-6: Load, Move, blocks, Sell or Combat, capture,
landing) and the Investment (SE-7, SE-10).  The mask guarantees legality."""

from __future__ import annotations

from ..core.contract import CHANCE, H_PHASE, H_TO_MOVE
from ..core.jit import njit
from .board import next_blocker, popcount, port_at, sink
from .data import (
    A_ACTIVE_TO_PORT,
    A_ASKED,
    A_ATTACK_PORT,
    A_BATTLES,
    A_BLOCK,
    A_CAP_GOODS,
    A_CAPTOR,
    A_CLAIM,
    A_CLAIM_BLOCKED,
    A_CONTINUE,
    A_FREE_USED,
    A_GAL,
    A_GALLEY,
    A_GOOD_FROM,
    A_GOOD_TO,
    A_JETTISON,
    A_LAND,
    A_LAND_PORT,
    A_LOAD,
    A_LOAD_STEPS,
    A_MOVE,
    A_MOVED,
    A_OCC,
    A_OPT,
    A_PASS,
    A_PENDING,
    A_PORT_TO_ACTIVE,
    A_SAILOR_FROM,
    A_SAILOR_TO,
    A_SALE_BLOCKED,
    A_SELL,
    A_TAKE,
    A_TARGET,
    A_TARGET_PORT,
    A_V0,
    CK_BATTLE,
    CK_FORT,
    G_ATT_DICE,
    G_CHANCE_KIND,
    G_DEF_DICE,
    K_PORT_GOOD,
    K_SLOT,
    L_FEES_IN,
    L_FEES_OUT,
    L_LOAD_BANK,
    L_SALES,
    LEDGER_KINDS,
    MAX_LOAD_STEPS,
    MAX_SIZE,
    NO_V0,
    NUM_GOODS,
    OCC_CLAIM,
    OCC_MOVE,
    OCC_NONE,
    OCC_SELL,
    OPT_COMBAT,
    OPT_SELL,
    PH_CHANCE,
    PH_CONTINUE,
    PH_MOVE,
    S_DUCATS,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_GOODS,
    S_LEDGER,
    S_P_FORT,
    S_P_OWNER,
    S_P_SAIL,
    S_P_WH,
    SPICE_BONUS,
    SPICES,
)
from .flow import (
    ask_blocker,
    begin_capture,
    capture_over,
    end_activation,
    enter_land,
    enter_move,
    enter_step3,
    finish_capture,
    scratch,
    to_owner,
)
from .masks import only_pass


@njit
def pay(state, seat, amount, kind):
    state[S_DUCATS + seat] -= amount
    state[S_LEDGER + LEDGER_KINDS * seat + kind] += amount


@njit
def earn(state, seat, amount, kind):
    state[S_DUCATS + seat] += amount
    state[S_LEDGER + LEDGER_KINDS * seat + kind] += amount


@njit
def move_good(state, src, dst, t):
    state[S_G_GOODS + NUM_GOODS * src + t] -= 1
    state[S_G_GOODS + NUM_GOODS * dst + t] += 1


# --- step 1: Load (SE-6.2) ---------------------------------------------------------------

@njit
def apply_load(state, action):
    g = state[A_GAL]
    seat = state[S_G_OWNER + g]
    p = port_at(state, state[S_G_ZONE + g])
    if action == A_PASS:
        enter_move(state)
        return
    # Counted for v0's guard only (masks.load_mask); saturates so v1's longer Load steps
    # keep the field in its saved range.
    state[A_LOAD_STEPS] = min(state[A_LOAD_STEPS] + 1, MAX_LOAD_STEPS)
    if action == A_PORT_TO_ACTIVE:
        state[S_P_SAIL + p] -= 1
        state[S_G_SAIL + g] += 1
    elif action == A_ACTIVE_TO_PORT:
        state[S_G_SAIL + g] -= 1
        state[S_P_SAIL + p] += 1
    elif action == A_LOAD:
        owner = state[S_P_OWNER + p]
        if owner == seat and state[A_FREE_USED] == 0:
            state[A_FREE_USED] = 1                        # SE-6.2.5 / A-13
        elif owner >= 0 and owner != seat:
            pay(state, seat, 1, L_FEES_OUT)               # SE-6.2.7
            state[S_DUCATS + owner] += 1
            state[S_LEDGER + LEDGER_KINDS * owner + L_FEES_IN] += 1
        else:
            pay(state, seat, 1, L_LOAD_BANK)              # SE-6.2.5/6
        good = state[K_PORT_GOOD + p]
        state[S_GOODS + good] -= 1
        state[S_G_GOODS + NUM_GOODS * g + good] += 1
    elif action < A_SELL:                                 # jettison (SE-6.2.9)
        t = action - A_JETTISON
        state[S_G_GOODS + NUM_GOODS * g + t] -= 1
        state[S_GOODS + t] += 1
    elif action < A_SAILOR_TO:
        h = action - A_SAILOR_FROM
        state[S_G_SAIL + h] -= 1
        state[S_G_SAIL + g] += 1
        if state[S_G_SAIL + h] == 0:
            sink(state, h, -1)                            # emptied on purpose
    elif action < A_GOOD_FROM:
        h = action - A_SAILOR_TO
        state[S_G_SAIL + g] -= 1
        state[S_G_SAIL + h] += 1
    elif action < A_GOOD_TO:
        code = action - A_GOOD_FROM
        move_good(state, code // NUM_GOODS, g, code % NUM_GOODS)
    else:
        code = action - A_GOOD_TO
        move_good(state, g, code // NUM_GOODS, code % NUM_GOODS)
    if state[S_G_SAIL + g] == 0:                          # SE-6.1.3/6.1.4: active sank
        sink(state, g, -1)
        end_activation(state)
    elif only_pass(state, scratch()):
        enter_move(state)


# --- step 2: Move (SE-6.3) and blocking (SE-6.4) -----------------------------------------

@njit
def apply_move(state, action):
    if action == A_PASS:
        enter_step3(state)
        return
    g = state[A_GAL]
    state[S_G_ZONE + g] = action - A_MOVE
    state[A_MOVED] += 1
    start_block_query(state, OCC_MOVE)


@njit
def start_block_query(state, occasion):
    state[A_OCC] = occasion
    state[A_ASKED] = 0
    seat = next_blocker(state)
    if seat >= 0:
        ask_blocker(state, seat)
    else:
        unblocked(state)


@njit
def unblocked(state):
    """Nobody blocked: the occasion goes ahead."""
    occasion = state[A_OCC]
    state[A_OCC] = OCC_NONE
    if occasion == OCC_MOVE:
        g = state[A_GAL]
        if state[A_MOVED] < state[S_G_SAIL + g]:
            to_owner(state, PH_MOVE)
            if only_pass(state, scratch()):
                enter_step3(state)
        else:
            enter_step3(state)
    elif occasion == OCC_SELL:
        do_sale(state, state[A_PENDING])
    else:
        g = state[A_GAL]
        enter_land(state, port_at(state, state[S_G_ZONE + g]), 1)


@njit
def apply_block(state, action):
    if action == A_BLOCK:
        if state[A_OCC] == OCC_SELL:
            state[A_SALE_BLOCKED] = 1 + state[A_BATTLES]  # SE-6.5.6 / A-10
        elif state[A_OCC] == OCC_CLAIM:
            state[A_CLAIM_BLOCKED] = 1 + state[A_BATTLES]  # SE-6.7.2: fight, then retry
        enter_step3(state)                                # a move block stops there (6.3.2)
        return
    state[A_ASKED] |= 1 << state[H_TO_MOVE]               # ask the next one
    seat = next_blocker(state)
    if seat >= 0:
        ask_blocker(state, seat)
    else:
        unblocked(state)


# --- step 3: Sell (SE-6.5) or Combat (SE-6.6, SE-6.7) ------------------------------------

@njit
def do_sale(state, t):
    g = state[A_GAL]
    seat = state[S_G_OWNER + g]
    p = port_at(state, state[S_G_ZONE + g])
    slot = popcount(state[S_P_WH + p])                    # SE-6.5.3: lowest free slot
    income = 0 if state[S_P_OWNER + p] == seat else state[K_SLOT + MAX_SIZE * p + slot]
    if t == SPICES:
        income += SPICE_BONUS                             # SE-6.5.5
    earn(state, seat, income, L_SALES)
    state[S_P_WH + p] |= 1 << t
    state[S_G_GOODS + NUM_GOODS * g + t] -= 1
    state[A_OPT] = OPT_SELL
    enter_step3(state)


@njit
def fix_v0(state):
    """SE-6.6.2 / A-11: fatigue once, at the activation's first battle round."""
    if state[A_V0] == NO_V0:
        g = state[A_GAL]
        state[A_V0] = state[S_G_SAIL + g] - state[A_MOVED]


@njit
def start_round(state):
    g = state[A_GAL]
    state[G_ATT_DICE] = max(0, min(state[A_V0], state[S_G_SAIL + g]))
    if state[A_TARGET] >= 0:
        state[G_DEF_DICE] = state[S_G_SAIL + state[A_TARGET]]
    else:
        state[G_DEF_DICE] = state[S_P_SAIL + state[A_TARGET_PORT]]
    state[G_CHANCE_KIND] = CK_BATTLE
    state[H_PHASE] = PH_CHANCE
    state[H_TO_MOVE] = CHANCE


@njit
def apply_step3(state, action):
    g = state[A_GAL]
    if action == A_PASS:
        end_activation(state)
    elif A_SELL <= action < A_TAKE:
        t = action - A_SELL
        if state[A_OPT] == OPT_SELL:
            do_sale(state, t)                             # one block decision per sale
        else:
            state[A_PENDING] = t
            start_block_query(state, OCC_SELL)
    elif action == A_CLAIM:
        state[A_OPT] = OPT_COMBAT
        start_block_query(state, OCC_CLAIM)
    elif action == A_ATTACK_PORT:
        state[A_OPT] = OPT_COMBAT
        state[A_TARGET] = -1
        p = port_at(state, state[S_G_ZONE + g])
        state[A_TARGET_PORT] = p
        if state[S_P_FORT + p]:                           # SE-6.7.4: fort fires first
            state[G_CHANCE_KIND] = CK_FORT
            state[H_PHASE] = PH_CHANCE
            state[H_TO_MOVE] = CHANCE
        else:
            fix_v0(state)
            start_round(state)
    else:
        state[A_OPT] = OPT_COMBAT
        state[A_TARGET] = action - A_GALLEY
        state[A_TARGET_PORT] = -1
        fix_v0(state)
        start_round(state)


@njit
def after_round(state):
    """SE-6.6.5, SE-6.7.5: who is left after a battle round (losses already applied)."""
    g = state[A_GAL]
    alive = state[S_G_SAIL + g] > 0
    h = state[A_TARGET]
    if h >= 0:
        other = state[S_G_SAIL + h] > 0
        if not alive and not other:
            sink(state, g, -1)
            sink(state, h, -1)
            end_activation(state)
        elif not other:
            state[A_BATTLES] += 1
            sink(state, h, A_CAP_GOODS)
            begin_capture(state, g, 0)
        elif not alive:
            sink(state, g, A_CAP_GOODS)
            begin_capture(state, h, 1)                    # the defender decides off-turn
        else:
            to_owner(state, PH_CONTINUE)
        return
    p = state[A_TARGET_PORT]
    held = state[S_P_SAIL + p] > 0
    if not held:
        state[S_P_OWNER + p] = -1                         # card back to the supply
    if not alive:
        sink(state, g, -1)
        end_activation(state)
    elif not held:
        state[A_BATTLES] += 1
        enter_land(state, p, 0)                           # landing 0 allowed
    else:
        to_owner(state, PH_CONTINUE)


@njit
def apply_continue(state, action):
    if action == A_CONTINUE:
        start_round(state)
    else:
        end_activation(state)                             # SE-6.6.4 / A-34


@njit
def apply_capture(state, action):
    if action == A_PASS:
        finish_capture(state)
        return
    t = action - A_TAKE
    state[A_CAP_GOODS + t] -= 1
    state[S_G_GOODS + NUM_GOODS * state[A_CAPTOR] + t] += 1
    if capture_over(state):
        finish_capture(state)


@njit
def apply_land(state, action):
    k = action - A_LAND
    g = state[A_GAL]
    p = state[A_LAND_PORT]
    if k > 0:
        state[S_P_OWNER + p] = state[S_G_OWNER + g]
        state[S_P_SAIL + p] = k
        state[S_G_SAIL + g] -= k
        if state[S_G_SAIL + g] == 0:
            sink(state, g, -1)
    end_activation(state)                                 # SE-6.7.3 / SE-6.7.8
