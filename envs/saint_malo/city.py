"""Kernels over one city board: bitboards, placement tests, character effects, scoring.

A city is the 49 cell codes of one player inside the flat state (``state[base:base+49]``);
bitboards are int64 with bit ``7r + c`` (49 bits, so no sign trouble).
"""

from __future__ import annotations

from ..core.jit import njit
from .data import (
    C_CHURCH_T,
    CHURCH_1,
    CITIZEN,
    EMPTY,
    N8,
    NOBLE,
    NUM_CELLS,
    OUTER_BB,
    P_BOARD,
    P_CANNONS_LOST,
    P_COINS,
    P_LOGS,
    P_SIDES_DONE,
    P_SOLDIERS,
    P_VP,
    SPACES_BB,
)

_M1, _M2, _M4, _H01 = (0x5555555555555555, 0x3333333333333333, 0x0F0F0F0F0F0F0F0F,
                       0x0101010101010101)
_NOT_COL0 = sum(1 << (7 * r + c) for r in range(7) for c in range(1, 7))
_NOT_COL6 = sum(1 << (7 * r + c) for r in range(7) for c in range(6))


@njit
def popcount(x):
    """Bit count of a non-negative bitboard (< 2**49), branch-free."""
    x = x - ((x >> 1) & _M1)
    x = (x & _M2) + ((x >> 2) & _M2)
    x = (x + (x >> 4)) & _M4
    return ((x * _H01) >> 56) & 0xFF      # the mask keeps it right in plain Python too


@njit
def lowest_cell(x):
    """Index of the lowest set bit of a non-zero bitboard."""
    cell = 0
    while not (x >> cell) & 1:
        cell += 1
    return cell


@njit
def empty_bb(state, base):
    """Bitboard of the empty spaces of the city starting at ``base``."""
    bb = 0
    for cell in range(NUM_CELLS):
        if state[base + P_BOARD + cell] == EMPTY:
            bb |= 1 << cell
    return bb & SPACES_BB


@njit
def code_bb(state, base, code):
    bb = 0
    for cell in range(NUM_CELLS):
        if state[base + P_BOARD + cell] == code:
            bb |= 1 << cell
    return bb


@njit
def spread_n4(bb):
    """``bb`` and its N4 neighbours, bit-parallel (shifts never wrap across a row)."""
    return bb | ((bb << 1) & _NOT_COL0) | ((bb >> 1) & _NOT_COL6) | (bb << 7) | (bb >> 7)


@njit
def grow_n4(region, within):
    """Cells of ``within`` N4-connected to ``region`` (a subset of it; SM-8.1)."""
    while True:
        grown = spread_n4(region) & within
        if grown == region:
            return region
        region = grown


@njit
def largest_component(bb):
    """Size of the largest N4-connected component of ``bb``."""
    best = 0
    rest = bb
    while rest:
        component = grow_n4(rest & -rest, bb)
        rest &= ~component
        size = popcount(component)
        if size > best:
            best = size
    return best


@njit
def empty_outer_count(state, base):
    return popcount(empty_bb(state, base) & OUTER_BB)


@njit
def count_n8(state, base, cell, code_low, code_high):
    """Neighbours (N8) of ``cell`` whose code lies in [code_low, code_high]."""
    count = 0
    neighbours = N8[cell]
    while neighbours:
        other = lowest_cell(neighbours)
        neighbours &= neighbours - 1
        code = state[base + P_BOARD + other]
        if code_low <= code <= code_high:
            count += 1
    return count


@njit
def distinct_character_types_n8(state, base, cell):
    """Distinct character types among the N8 neighbours of ``cell`` (SM-7.5.2, A-18)."""
    seen = 0
    neighbours = N8[cell]
    while neighbours:
        other = lowest_cell(neighbours)
        neighbours &= neighbours - 1
        code = state[base + P_BOARD + other]
        if CITIZEN <= code <= NOBLE:
            seen |= 1 << (code - CITIZEN)
    return popcount(seen)


@njit
def defence(state, base):
    """SM-2.13: soldiers + 2 per completed side."""
    return state[base + P_SOLDIERS] + 2 * popcount(state[base + P_SIDES_DONE])


@njit
def church_rows_score(state, base):
    """SM-11.4: greedy rows 1..L over the church sizes; row of length L scores T[L]."""
    # Counted in locals, not an array: this runs in every observation (score if ended now).
    n1 = n2 = n3 = n4 = n5 = 0
    for cell in range(NUM_CELLS):
        size = state[base + P_BOARD + cell] - CHURCH_1 + 1
        if size == 1:
            n1 += 1
        elif size == 2:
            n2 += 1
        elif size == 3:
            n3 += 1
        elif size == 4:
            n4 += 1
        elif size == 5:
            n5 += 1
    return church_rows_of(n1, n2, n3, n4, n5, state[C_CHURCH_T:C_CHURCH_T + 6])


@njit
def church_rows_of(n1, n2, n3, n4, n5, row_values):
    """Row q has length max{L : n_j >= q for all j <= L} (SM-11.4); sum T[length]."""
    return church_rows_detail(n1, n2, n3, n4, n5, row_values)[0]


@njit
def church_rows_detail(n1, n2, n3, n4, n5, row_values):
    """(score of the rows, churches that sit in a row) for n_s churches of size s."""
    total = 0
    in_rows = 0
    for row in range(1, n1 + 1):
        length = 1
        if n2 >= row:
            length = 2
            if n3 >= row:
                length = 3
                if n4 >= row:
                    length = 4
                    if n5 >= row:
                        length = 5
        total += row_values[length]
        in_rows += length
    return total, in_rows


@njit
def church_rows_value(size_counts, row_values):
    """Score of churches with ``size_counts[s]`` churches of size s (index 1..5)."""
    return church_rows_of(size_counts[1], size_counts[2], size_counts[3], size_counts[4],
                          size_counts[5], row_values)


@njit
def end_score(state, base):
    """SM-11.3: the VP track plus the final-scoring terms, as if the game ended now."""
    return score_from_parts(state, base, popcount(empty_bb(state, base)),
                            church_rows_score(state, base))


@njit
def score_from_parts(state, base, empty_spaces, church_rows):
    score = state[base + P_VP] + church_rows
    if empty_spaces == 0:
        score += 5
    score += state[base + P_COINS] // 2                  # EC-11
    score += state[base + P_LOGS]
    score -= 5 * state[base + P_CANNONS_LOST]            # EC-19: never clamped
    return score


@njit
def crate_start_cells(empty, k):
    """Empty cells whose N4 component of empty cells has at least ``k`` cells (§13)."""
    allowed = 0
    rest = empty
    while rest:
        component = grow_n4(rest & -rest, empty)
        rest &= ~component
        if popcount(component) >= k:
            allowed |= component
    return allowed
