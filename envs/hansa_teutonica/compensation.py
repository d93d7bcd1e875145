"""The displaced player's compensation (HT-6.3.3, A-5, A-6, A-29): the legal placements
and relocations, and whether a decision is left."""

from __future__ import annotations

from ..core.jit import njit
from .board import compensation_distance, player_base
from .data import (
    A_DONE,
    A_PICK,
    A_PLACE,
    COMP_BITS,
    G_COMP_HAND,
    G_COMP_PLACED,
    G_DISP_EXTRAS,
    G_DISP_ORIGIN,
    G_DISP_PENDING,
    G_DISP_VICTIM,
    G_SIDE,
    G_SPACE_OWNER,
    P_GENERAL,
    P_PERSONAL,
    ROUTE_DIST,
    SPACE_ROUTE,
    SPACES_ON_SIDE,
)


@njit
def compensation_source(state, victim):
    """HT-6.3.3(b): 0 general stock, 1 personal supply, 2 own pieces on other routes."""
    vb = player_base(victim)
    if state[vb + P_GENERAL] + state[vb + P_GENERAL + 1] > 0:
        return 0
    if state[vb + P_PERSONAL] + state[vb + P_PERSONAL + 1] > 0:
        return 1
    return 2


@njit
def placed_in_compensation(state, space):
    """Pieces placed during this compensation are not "already on other routes" (A-29)."""
    return (state[G_COMP_PLACED + space // COMP_BITS] >> (space % COMP_BITS)) & 1 == 1


@njit
def relocatable(state, victim, origin, space):
    return (state[G_SPACE_OWNER + space] == victim and SPACE_ROUTE[space] != origin
            and not placed_in_compensation(state, space))


@njit
def board_source_pieces(state, victim, origin):
    """Pieces of the displaced player on routes other than the origin route (A-29)."""
    n = 0
    for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
        if relocatable(state, victim, origin, s):
            n += 1
    return n


@njit
def free_compensation_spaces(state, origin):
    """Empty spaces on routes other than the origin route (HT-6.3.3(c) targets)."""
    n = 0
    for s in range(SPACES_ON_SIDE[state[G_SIDE]]):
        n += (state[G_SPACE_OWNER + s] < 0) & (SPACE_ROUTE[s] != origin)
    return n


@njit
def compensation_mask(state, mask):
    """HT-6.3.3 / A-6: the pieces still to place (the displaced piece, a relocated piece
    in hand) go one at a time in any order; an extra from the stock or supply is offered
    only while a space is left over for every piece that must still be placed, so the
    displaced piece never loses its place to an extra (HT-6.3.3(a): it must go back on
    the board; A-5's personal supply is only for a board with no space at all)."""
    victim = state[G_DISP_VICTIM]
    origin = state[G_DISP_ORIGIN]
    side = state[G_SIDE]
    d = compensation_distance(state, origin)
    hand = state[G_COMP_HAND]
    pending = state[G_DISP_PENDING]
    extras = state[G_DISP_EXTRAS]
    vb = player_base(victim)
    source = compensation_source(state, victim)
    can = [False, False]
    if hand >= 0:
        can[hand] = True
    if pending >= 0:
        can[pending] = True
    must = (hand >= 0) + (pending >= 0)
    if hand < 0 and extras > 0 and source < 2 \
            and free_compensation_spaces(state, origin) > must:
        offset = P_GENERAL if source == 0 else P_PERSONAL
        for t in range(2):
            can[t] |= state[vb + offset + t] > 0
    if d >= 0:
        for s in range(SPACES_ON_SIDE[side]):
            r = SPACE_ROUTE[s]
            if state[G_SPACE_OWNER + s] < 0 and r != origin and ROUTE_DIST[side, origin, r] == d:
                for t in range(2):
                    mask[A_PLACE + 2 * s + t] = can[t]
    if hand < 0 and extras > 0 and source == 2:
        # Relocating frees the space it leaves, so it never costs a needed space.
        for s in range(SPACES_ON_SIDE[side]):
            mask[A_PICK + s] = relocatable(state, victim, origin, s)
    mask[A_DONE] = hand < 0 and pending < 0


@njit
def compensation_can_continue(state):
    """Whether the displaced player still has a decision (else compensation ends)."""
    if state[G_COMP_HAND] >= 0:
        return True
    if compensation_distance(state, state[G_DISP_ORIGIN]) < 0:
        return False
    if state[G_DISP_PENDING] >= 0:
        return True
    if state[G_DISP_EXTRAS] == 0:
        return False
    victim = state[G_DISP_VICTIM]
    if compensation_source(state, victim) < 2:
        return True
    return board_source_pieces(state, victim, state[G_DISP_ORIGIN]) > 0
