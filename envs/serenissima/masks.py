"""The legal-action mask (spec §15.2): every rule of §6-§12 that limits a choice."""

from __future__ import annotations

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from ..core.jit import njit
from .board import (
    awaits_sailor,
    free_places,
    galley_slots,
    galleys_awaiting_sailor,
    galleys_owned,
    port_at,
    port_has,
    ports_owned,
    seat_has_galley_in,
    warehouse_full,
)
from .data import (
    A_ACTION,
    A_ACTIVE_TO_PORT,
    A_ATTACK_PORT,
    A_BASILICA,
    A_BATTLES,
    A_BLOCK,
    A_BOUGHT,
    A_CAP_GOODS,
    A_CAPTOR,
    A_CLAIM,
    A_CLAIM_BLOCKED,
    A_CONTINUE,
    A_FORT,
    A_FREE_USED,
    A_GAL,
    A_GALLEY,
    A_GOOD_FROM,
    A_GOOD_TO,
    A_INVEST,
    A_JETTISON,
    A_LAND,
    A_LAND_MIN,
    A_LAND_PORT,
    A_LOAD,
    A_LOAD_STEPS,
    A_MOVE,
    A_MOVED,
    A_OPT,
    A_PASS,
    A_PORT,
    A_PORT_TO_ACTIVE,
    A_RECRUIT_GALLEY,
    A_RECRUIT_PORT,
    A_SAILOR_FROM,
    A_SAILOR_TO,
    A_SALE_BLOCKED,
    A_SELL,
    A_TAKE,
    A_UNMANNED,
    A_WITHDRAW,
    CLOSE_GOODS,
    CLOSED,
    G_CLOSE_STEP,
    G_RULES,
    G_TURN_OWNER,
    GOLD,
    K_ADJ,
    K_NUM_PORTS,
    K_NUM_ZONES,
    K_PORT_GOOD,
    K_PORT_SIZE,
    K_PORT_START,
    K_SELL_AFTER_BREAK,
    MARBLE,
    MAX_BASILICAS,
    MAX_FORTS,
    MAX_LOAD_STEPS,
    MAX_OWNED_GALLEYS,
    NEUTRAL,
    NUM_GALLEYS,
    NUM_GOODS,
    OPT_COMBAT,
    OPT_SELL,
    PH_BLOCK,
    PH_CAPTURE,
    PH_CHOOSE,
    PH_CLOSE,
    PH_CONTINUE,
    PH_INVEST,
    PH_LAND,
    PH_LOAD,
    PH_MOVE,
    PH_PLACE_GALLEY,
    PH_SETUP_GALLEY,
    PH_SETUP_PORT,
    PH_SPECIAL,
    PH_STEP3,
    RULES_V0,
    S_DUCATS,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_GOODS,
    S_P_BAS,
    S_P_FORT,
    S_P_OWNER,
    S_P_SAIL,
    S_P_WH,
    S_SUPPLY,
    STONE,
    WOOD,
)


@njit
def legal_mask(state, mask):
    mask[:] = 0
    phase = state[H_PHASE]
    if phase == PH_CLOSE:
        close_candidates(state, state[G_CLOSE_STEP], mask, A_PORT)
    elif phase == PH_SETUP_PORT:
        for p in range(state[K_NUM_PORTS]):
            if state[K_PORT_START + p] == 1 and state[S_P_OWNER + p] == NEUTRAL:
                mask[A_PORT + p] = 1
    elif phase == PH_SETUP_GALLEY:
        for g in range(galley_slots(state)):
            if state[S_G_OWNER + g] < 0:
                mask[A_GALLEY + g] = 1
    elif phase == PH_CHOOSE:
        mask[A_ACTION] = 1
        mask[A_INVEST] = 1
    elif phase == PH_LOAD:
        load_mask(state, mask)
    elif phase == PH_MOVE:
        move_mask(state, mask)
    elif phase == PH_BLOCK:
        mask[A_PASS] = 1
        mask[A_BLOCK] = 1
    elif phase == PH_STEP3:
        step3_mask(state, mask)
    elif phase == PH_CONTINUE:
        mask[A_CONTINUE] = 1
        mask[A_WITHDRAW] = 1
    elif phase == PH_CAPTURE:
        mask[A_PASS] = 1
        captor = state[A_CAPTOR]
        if free_places(state, captor) > 0:             # SE-6.6.6: only free places
            for t in range(NUM_GOODS):
                if state[A_CAP_GOODS + t] > 0:
                    mask[A_TAKE + t] = 1
    elif phase == PH_LAND:
        g = state[A_GAL]
        top = min(state[S_G_SAIL + g], state[K_PORT_SIZE + state[A_LAND_PORT]])
        for k in range(state[A_LAND_MIN], top + 1):     # SE-6.7.1, SE-6.7.5, EX-31
            mask[A_LAND + k] = 1
    elif phase == PH_INVEST or phase == PH_SPECIAL:
        invest_mask(state, mask, phase == PH_SPECIAL)
    elif phase == PH_PLACE_GALLEY:
        seat = state[G_TURN_OWNER]
        for p in range(state[K_NUM_PORTS]):
            if state[S_P_OWNER + p] == seat:
                mask[A_PORT + p] = 1
    count = 0
    for a in range(mask.shape[0]):
        count += mask[a]
    return count


@njit
def close_candidates(state, step, out, offset):
    """SE-12.3.3: non-start open ports of the step's good; start ports only as a fallback
    and only while more start ports stay open than there are players.  Returns the count."""
    good = CLOSE_GOODS[step]
    n_ports = state[K_NUM_PORTS]
    count = 0
    for p in range(n_ports):
        if state[K_PORT_GOOD + p] == good and state[K_PORT_START + p] == 0 \
                and state[S_P_OWNER + p] == NEUTRAL:
            out[offset + p] = 1
            count += 1
    if count > 0:
        return count
    open_starts = 0
    for p in range(n_ports):
        open_starts += state[K_PORT_START + p] == 1 and state[S_P_OWNER + p] == NEUTRAL
    if open_starts <= state[H_NUM_PLAYERS]:
        return 0
    for p in range(n_ports):
        if state[K_PORT_GOOD + p] == good and state[S_P_OWNER + p] == NEUTRAL:
            out[offset + p] = 1
            count += 1
    return count


@njit
def load_price(state, p, seat):
    """SE-6.2.5..7: own port first cube free then 1; neutral 1; opponent's 1 (to him)."""
    if state[S_P_OWNER + p] == seat and state[A_FREE_USED] == 0:
        return 0
    return 1


@njit
def load_mask(state, mask):
    mask[A_PASS] = 1
    if state[G_RULES] == RULES_V0 and state[A_LOAD_STEPS] >= MAX_LOAD_STEPS:
        return        # v0's engine guard (data.py); v1 follows SE-6.2, which sets no limit
    g = state[A_GAL]
    seat = state[S_G_OWNER + g]
    zone = state[S_G_ZONE + g]
    room = free_places(state, g) > 0
    p = port_at(state, zone)
    if p >= 0 and state[S_P_OWNER + p] != CLOSED:
        if state[S_P_OWNER + p] == seat:                  # SE-6.2.1
            if room and state[S_P_SAIL + p] >= 2:         # SE-6.2.3: keep one sailor
                mask[A_PORT_TO_ACTIVE] = 1
            if state[S_P_SAIL + p] < state[K_PORT_SIZE + p]:   # SE-6.2.4
                mask[A_ACTIVE_TO_PORT] = 1
        good = state[K_PORT_GOOD + p]
        if room and state[S_GOODS + good] > 0 and state[S_DUCATS + seat] >= load_price(
                state, p, seat):
            mask[A_LOAD] = 1
    for t in range(NUM_GOODS):                            # SE-6.2.9
        if state[S_G_GOODS + NUM_GOODS * g + t] > 0:
            mask[A_JETTISON + t] = 1
    for h in range(NUM_GALLEYS):                          # SE-6.2.1/2, SE-6.2.8, A-28
        if h == g or state[S_G_OWNER + h] != seat or state[S_G_ZONE + h] != zone:
            continue
        other_room = free_places(state, h) > 0
        if room:
            mask[A_SAILOR_FROM + h] = 1
        if other_room:
            mask[A_SAILOR_TO + h] = 1
        for t in range(NUM_GOODS):
            if room and state[S_G_GOODS + NUM_GOODS * h + t] > 0:
                mask[A_GOOD_FROM + NUM_GOODS * h + t] = 1
            if other_room and state[S_G_GOODS + NUM_GOODS * g + t] > 0:
                mask[A_GOOD_TO + NUM_GOODS * h + t] = 1


@njit
def move_mask(state, mask):
    mask[A_PASS] = 1
    g = state[A_GAL]
    if state[A_MOVED] >= state[S_G_SAIL + g]:             # SE-6.3.1
        return
    neighbours = state[K_ADJ + state[S_G_ZONE + g]]
    for z in range(state[K_NUM_ZONES]):
        if (neighbours >> z) & 1:
            mask[A_MOVE + z] = 1


@njit
def can_sell(state, t):
    """SE-6.5.2: the port of the zone takes good t from the active galley."""
    g = state[A_GAL]
    p = port_at(state, state[S_G_ZONE + g])
    if p < 0 or state[S_P_OWNER + p] == CLOSED or state[S_G_GOODS + NUM_GOODS * g + t] == 0:
        return False
    if state[K_PORT_GOOD + p] == t or (state[S_P_WH + p] >> t) & 1 or warehouse_full(state, p):
        return False
    opt = state[A_OPT]
    if opt == OPT_SELL:
        return True
    if state[A_SALE_BLOCKED]:
        # a blocked sale stays impossible, unless the flag lets a battle won or
        # lost after the block re-open it.
        return state[K_SELL_AFTER_BREAK] == 1 and state[A_BATTLES] >= state[A_SALE_BLOCKED]
    return opt != OPT_COMBAT                               # EX-38


@njit
def step3_mask(state, mask):
    mask[A_PASS] = 1
    for t in range(NUM_GOODS):
        if can_sell(state, t):
            mask[A_SELL + t] = 1
    if state[A_OPT] == OPT_SELL:                          # SE-6.5.7
        return
    g = state[A_GAL]
    seat = state[S_G_OWNER + g]
    zone = state[S_G_ZONE + g]
    for h in range(NUM_GALLEYS):                          # SE-6.6.1
        if state[S_G_OWNER + h] >= 0 and state[S_G_OWNER + h] != seat \
                and state[S_G_ZONE + h] == zone:
            mask[A_GALLEY + h] = 1
    p = port_at(state, zone)
    if p < 0:
        return
    owner = state[S_P_OWNER + p]
    if owner == NEUTRAL and (state[A_CLAIM_BLOCKED] == 0
                             or state[A_BATTLES] >= state[A_CLAIM_BLOCKED]):
        mask[A_CLAIM] = 1                                 # SE-6.7.1/2: retry after a fight
    elif owner >= 0 and owner != seat and not seat_has_galley_in(state, owner, zone) \
            and ports_owned(state, owner) >= 2:           # SE-6.7.4, SE-6.7.7 / A-26
        mask[A_ATTACK_PORT] = 1


@njit
def invest_mask(state, mask, special):
    """SE-7 (and SE-10 when ``special``): recruits, one galley, forts, basilicas."""
    seat = state[G_TURN_OWNER]
    unmanned = state[A_UNMANNED]
    mask[A_PASS] = 1 if unmanned < 0 else 0               # SE-7.3 / A-23
    money = state[S_DUCATS + seat]
    supply = state[S_SUPPLY + seat]
    # Until each new galley has its sailor, keep 1 ducat and 1 sailor for it (v0 never
    # has more than one such galley: it masks a second purchase until the first is manned).
    reserve = galleys_awaiting_sailor(state)
    if supply >= 1 + reserve and money >= 1 + reserve:
        for p in range(state[K_NUM_PORTS]):               # SE-7.2
            if state[S_P_OWNER + p] == seat and state[S_P_SAIL + p] < state[K_PORT_SIZE + p]:
                mask[A_RECRUIT_PORT + p] = 1
    if supply >= 1 and money >= 1:
        for g in range(NUM_GALLEYS):
            if state[S_G_OWNER + g] != seat or free_places(state, g) <= 0:
                continue
            if reserve and not awaits_sailor(state, g) and (supply < 1 + reserve
                                                            or money < 1 + reserve):
                continue
            p = port_at(state, state[S_G_ZONE + g])
            if p >= 0 and state[S_P_OWNER + p] == seat:
                mask[A_RECRUIT_GALLEY + g] = 1
    owned = galleys_owned(state, seat)
    # SE-7.3: the price, then a sailor for the new galley and for each still waiting.
    may_buy = (unmanned < 0 or state[G_RULES] != RULES_V0) and owned < MAX_OWNED_GALLEYS \
        and supply >= 1 + reserve and money >= owned + 1 + reserve \
        and ports_owned(state, seat) > 0
    if special:
        may_buy = may_buy and owned < 2                   # SE-10.2
    else:
        may_buy = may_buy and state[A_BOUGHT] == 0
    if may_buy:
        for g in range(galley_slots(state)):              # SE-2.2.4
            if state[S_G_OWNER + g] < 0:
                mask[A_GALLEY + g] = 1
    if special or money < 2 + reserve:                    # SE-10.2: no forts/basilicas
        return
    forts = 0
    basilicas = 0
    for p in range(state[K_NUM_PORTS]):
        forts += state[S_P_FORT + p]
        basilicas += state[S_P_BAS + p]
    for p in range(state[K_NUM_PORTS]):
        if state[S_P_OWNER + p] != seat:
            continue
        if forts < MAX_FORTS and state[S_P_FORT + p] == 0 and port_has(state, p, WOOD) \
                and port_has(state, p, STONE):            # SE-7.4
            mask[A_FORT + p] = 1
        if basilicas < MAX_BASILICAS and state[S_P_BAS + p] == 0 \
                and port_has(state, p, GOLD) and port_has(state, p, MARBLE):   # SE-7.5
            mask[A_BASILICA + p] = 1


@njit
def only_pass(state, mask):
    """True when PASS is the single legal action (the engine then skips the decision)."""
    return legal_mask(state, mask) == 1 and mask[A_PASS] == 1
