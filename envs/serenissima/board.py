"""Small compiled helpers on the board: galleys, ports, zone aggregates, blocking order.

Every function reads the map from the state's own config block (``data.K_*``), so the
same compiled code serves the placeholder, a user's real board and generated maps.
"""

from __future__ import annotations

from ..core.contract import H_NUM_PLAYERS
from ..core.jit import njit
from .data import (
    A_ASKED,
    A_GAL,
    A_OCC,
    A_START_ZONE,
    A_UNMANNED,
    G_RULES,
    GALLEYS_23P,
    K_ADJ,
    K_BLOCK_IN_START,
    K_CAPACITY,
    K_NUM_PORTS,
    K_NUM_ZONES,
    K_PORT_GOOD,
    K_PORT_SIZE,
    K_ZONE_PORT,
    NUM_GALLEYS,
    NUM_GOODS,
    OCC_MOVE,
    RULES_V0,
    S_G_GOODS,
    S_G_OWNER,
    S_G_SAIL,
    S_G_ZONE,
    S_GOODS,
    S_P_OWNER,
    S_P_WH,
    S_SUPPLY,
)


@njit
def popcount(x):
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit
def galley_slots(state):
    """SE-12.1.2: galleys 1..12 with 2/3 players, 1..15 with 4."""
    return NUM_GALLEYS if state[H_NUM_PLAYERS] == 4 else GALLEYS_23P


@njit
def goods_on(state, g):
    total = 0
    for t in range(NUM_GOODS):
        total += state[S_G_GOODS + NUM_GOODS * g + t]
    return total


@njit
def free_places(state, g):
    """SE-6.1.2: places left of the capacity (5 by default, A-01)."""
    return state[K_CAPACITY] - state[S_G_SAIL + g] - goods_on(state, g)


@njit
def port_at(state, zone):
    return state[K_ZONE_PORT + zone]


@njit
def port_has(state, p, good):
    """A port 'has' a good if it produces it or holds it (SE-7.4, SE-7.5, SE-6.5.8)."""
    return state[K_PORT_GOOD + p] == good or (state[S_P_WH + p] >> good) & 1 == 1


@njit
def warehouse_full(state, p):
    return popcount(state[S_P_WH + p]) >= state[K_PORT_SIZE + p]


@njit
def seat_zone_sailors(state, seat, zone):
    """Sailors on ``seat``'s galleys in ``zone`` (port sailors never count, SE-6.4.1)."""
    total = 0
    for g in range(NUM_GALLEYS):
        if state[S_G_OWNER + g] == seat and state[S_G_ZONE + g] == zone:
            total += state[S_G_SAIL + g]
    return total


@njit
def seat_has_galley_in(state, seat, zone):
    for g in range(NUM_GALLEYS):
        if state[S_G_OWNER + g] == seat and state[S_G_ZONE + g] == zone:
            return True
    return False


@njit
def galleys_owned(state, seat):
    count = 0
    for g in range(NUM_GALLEYS):
        count += state[S_G_OWNER + g] == seat
    return count


@njit
def awaits_sailor(state, g):
    """Galley ``g`` was bought in this Investment and has no sailor yet (SE-7.3, A-23):
    ``A_UNMANNED`` (the last one bought), and in v1's special investment (SE-10.2) any
    other galley of the same player without sailors (a galley with none sinks at once
    everywhere else, SE-6.1.3)."""
    u = state[A_UNMANNED]
    if u < 0:
        return False
    if g == u:
        return True
    return state[G_RULES] != RULES_V0 and state[S_G_OWNER + g] == state[S_G_OWNER + u] \
        and state[S_G_SAIL + g] == 0


@njit
def galleys_awaiting_sailor(state):
    """How many bought galleys still wait for their sailor (0, 1, or 2 in v1's special
    investment): each needs 1 ducat and 1 sailor before the Investment may end."""
    if state[A_UNMANNED] < 0:
        return 0
    count = 0
    for g in range(NUM_GALLEYS):
        count += awaits_sailor(state, g)
    return count


@njit
def ports_owned(state, seat):
    count = 0
    for p in range(state[K_NUM_PORTS]):
        count += state[S_P_OWNER + p] == seat
    return count


@njit
def block_exempt(state):
    """SE-6.4.3 / A-08: no block in the active galley's starting zone.  The seed says so
    in the Movement paragraph, so a movement block never happens there, even on coming
    back after leaving it; ``block_in_start_zone`` only adds sale and claim blocks."""
    g = state[A_GAL]
    if state[S_G_ZONE + g] != state[A_START_ZONE]:
        return False
    return state[K_BLOCK_IN_START] == 0 or state[A_OCC] == OCC_MOVE


@njit
def next_blocker(state):
    """SE-6.4.4: the next eligible opponent not yet asked: most galley sailors in the zone
    first, ties to the owner of the lowest-numbered galley there; -1 if none."""
    g = state[A_GAL]
    if block_exempt(state):
        return -1
    zone = state[S_G_ZONE + g]
    owner = state[S_G_OWNER + g]
    mine = state[S_G_SAIL + g]
    best, best_sailors, best_low = -1, 0, NUM_GALLEYS
    for seat in range(state[H_NUM_PLAYERS]):
        if seat == owner or (state[A_ASKED] >> seat) & 1:
            continue
        sailors = seat_zone_sailors(state, seat, zone)
        if sailors <= mine:                              # SE-6.4.1: strictly more
            continue
        low = NUM_GALLEYS
        for h in range(NUM_GALLEYS):
            if state[S_G_OWNER + h] == seat and state[S_G_ZONE + h] == zone:
                low = h
                break
        if sailors > best_sailors or (sailors == best_sailors and low < best_low):
            best, best_sailors, best_low = seat, sailors, low
    return best


@njit
def kill(state, g, n):
    """n sailors of galley g die and go back to their owner's supply (SE-6.6.3)."""
    state[S_G_SAIL + g] -= n
    state[S_SUPPLY + state[S_G_OWNER + g]] += n


@njit
def sink(state, g, stash_base):
    """SE-6.1.3: off the board, wheel cube removed.  Goods go to the capture stash at
    ``stash_base`` (when someone may capture them) or else back to the supply (A-15)."""
    for t in range(NUM_GOODS):
        n = state[S_G_GOODS + NUM_GOODS * g + t]
        if stash_base >= 0:
            state[stash_base + t] += n
        else:
            state[S_GOODS + t] += n
        state[S_G_GOODS + NUM_GOODS * g + t] = 0
    state[S_SUPPLY + state[S_G_OWNER + g]] += state[S_G_SAIL + g]
    state[S_G_SAIL + g] = 0
    state[S_G_OWNER + g] = -1
    state[S_G_ZONE + g] = -1


@njit
def blockable(state, zone):
    """An opponent could stop the active galley on entering ``zone`` (SE-6.4.1)."""
    g = state[A_GAL]
    owner = state[S_G_OWNER + g]
    if zone == state[A_START_ZONE]:                      # SE-6.4.3: never a movement block
        return False
    for seat in range(state[H_NUM_PLAYERS]):
        if seat != owner and seat_zone_sailors(state, seat, zone) > state[S_G_SAIL + g]:
            return True
    return False


@njit
def reachable(state, steps, out):
    """Movement reachability with blocking: ``out[z]`` = fewest steps for the active
    galley to reach zone z within ``steps`` moves without ever being stoppable before z
    (a zone where it may be blocked can be entered, not crossed); -1 if none."""
    nz = state[K_NUM_ZONES]
    out[:] = -1
    here = state[S_G_ZONE + state[A_GAL]]
    out[here] = 0
    frontier = 1 << here
    for step in range(1, steps + 1):
        nxt = 0
        for z in range(nz):
            if (frontier >> z) & 1 and (step == 1 or not blockable(state, z)):
                nxt |= state[K_ADJ + z]
        frontier = 0
        for z in range(nz):
            if (nxt >> z) & 1 and out[z] < 0:
                out[z] = step
                frontier |= 1 << z
    return out
