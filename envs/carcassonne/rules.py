"""Carcassonne turn kernels: setup, the two-step turn, tile draws, end of game (§2, §6-§12).

A turn is: a tile draw (chance, CA-6.5; unplaceable tiles leave the game and the same
player draws again, CA-6.4), the placement decision (DEC-2), the meeple decision (DEC-3,
skipped when only "no meeple" is legal and ``auto_pass_meeple`` is on), then scoring
(CA-6.1 d).  The game ends when the pile is empty after a turn or a discard (CA-6.6).

Decision cap: after ``max_decisions`` decisions (config, 178 by default: the most a complete
game holds, so it never cuts a full game) the turn in progress is finished (its meeple
decision skipped, its scoring done) and the game ends with final scoring, flagged in
``G_TRUNCATED`` so the env reports a truncation.
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
from ..core.rng import rand_below
from .board import has_legal_placement, placement_cell
from .data import (
    BOARD_WIDTH,
    C_AUTO_PASS,
    C_EXPANSION,
    C_MAX_DECISIONS,
    CENTER,
    CONFIG_SIZE,
    G_ACTIVE,
    G_DISCARDED,
    G_HAND,
    G_LARGE,
    G_NORMAL,
    G_PILE,
    G_PILE_LEFT,
    G_PLACED,
    G_SCORE,
    G_START_SEAT,
    G_TRUNCATED,
    GAME_ID,
    IS_EXPANSION,
    MAX_PLAYERS,
    MAX_PLAYERS_BASE,
    MAX_SLOTS,
    N_FIGURES,
    N_MEEPLE,
    N_ROOT,
    NORMAL_MEEPLES,
    NUM_TYPES,
    PH_DRAW,
    PH_GAME_OVER,
    PH_MEEPLE,
    PH_PLACE,
    START_TYPE,
    TILE_COUNT,
)
from .features import add_tile, final_points, return_all_meeples, score_turn
from .masks import (
    check_mask_size,
    clear_legal,
    has_meeple_option,
    legal_mask,
    meeple_base,
    set_legal,
)

START_CELL = CENTER * BOARD_WIDTH + CENTER


@njit
def init_state(state, num_players, config, start_seat):
    """CA-2.3..2.5, CA-4.4: start tile at (0,0) r0, the pile as counts per type (each draw
    picks uniformly among the tiles left, CA-6.5), supplies; a draw is due."""
    if num_players > MAX_PLAYERS_BASE and config[0] == 0:      # config[0]: expansion
        raise ValueError("six players need Inns & Cathedrals (CA-2.5)")
    state.fill(0)
    state[H_GAME_ID] = GAME_ID
    state[H_NUM_PLAYERS] = num_players
    for i in range(CONFIG_SIZE):
        state[C_EXPANSION + i] = config[i]
    state[G_START_SEAT] = start_seat
    state[G_ACTIVE] = start_seat
    state[G_HAND] = -1
    left = 0
    for tile_type in range(NUM_TYPES):
        if state[C_EXPANSION] or not IS_EXPANSION[tile_type]:
            count = TILE_COUNT[tile_type] - (1 if tile_type == START_TYPE else 0)
            state[G_PILE + tile_type] = count
            left += count
    state[G_PILE_LEFT] = left
    for seat in range(num_players):
        state[G_NORMAL + seat] = NORMAL_MEEPLES
        state[G_LARGE + seat] = state[C_EXPANSION]           # CA-11.1
    add_tile(state, 0, START_TYPE, 0, START_CELL)
    state[G_PLACED] = 1
    state[H_PHASE] = PH_DRAW
    state[H_TO_MOVE] = CHANCE


@njit
def apply_action(state, action):
    """One decision of the seat to move: a placement (PH_PLACE, in the state's layout) or a
    meeple (PH_MEEPLE)."""
    state[H_PLY] += 1
    if state[H_PHASE] == PH_PLACE:
        index = state[G_PLACED]
        add_tile(state, index, state[G_HAND], action % 4, placement_cell(state, action))
        state[G_PLACED] = index + 1
        state[G_HAND] = -1
        if (state[C_AUTO_PASS] and not has_meeple_option(state, state[G_ACTIVE])) \
                or state[H_PLY] >= state[C_MAX_DECISIONS]:
            finish_turn(state)                # DEC-4: nothing to decide, or the cap is hit
        else:
            state[H_PHASE] = PH_MEEPLE
        return
    base = meeple_base(state)
    if action != base + 2 * MAX_SLOTS:                       # not "no meeple"
        slot = (action - base) // 2
        large = (action - base) % 2
        place_meeple(state, (state[G_PLACED] - 1) * MAX_SLOTS + slot, state[G_ACTIVE], large)
    finish_turn(state)


@njit
def place_meeple(state, node, seat, large):
    """CA-7.1: one meeple from the supply onto a free slot of the new tile."""
    state[N_MEEPLE + node] = 1 + 2 * seat + large
    state[N_FIGURES + state[N_ROOT + node]] += 1
    if large:
        state[G_LARGE + seat] -= 1
    else:
        state[G_NORMAL + seat] -= 1


@njit
def finish_turn(state):
    """CA-6.1 (d): score, then the next seat draws, or the game ends (CA-6.6)."""
    score_turn(state, state[G_PLACED] - 1)
    if state[G_PILE_LEFT] == 0:
        end_game(state)
        return
    if state[H_PLY] >= state[C_MAX_DECISIONS]:   # the cap: cut off with the scores as now
        state[G_TRUNCATED] = 1
        end_game(state)
        return
    state[G_ACTIVE] = (state[G_ACTIVE] + 1) % state[H_NUM_PLAYERS]
    state[H_PHASE] = PH_DRAW
    state[H_TO_MOVE] = CHANCE


@njit
def end_game(state):
    """CA-12: add the final points, return every meeple, terminal."""
    points = state[G_SCORE:G_SCORE + MAX_PLAYERS].copy()
    final_points(state, points)
    for seat in range(MAX_PLAYERS):
        state[G_SCORE + seat] += points[seat]
    return_all_meeples(state)
    state[G_HAND] = -1
    state[H_PHASE] = PH_GAME_OVER
    state[H_TO_MOVE] = TERMINAL


# --- chance: the tile draw (DEC-1) ------------------------------------------------------------

@njit
def chance_outcomes(state, codes, probs):
    """Tile types left in the pile, weighted by their counts (CA-6.5)."""
    if state[H_TO_MOVE] != CHANCE:
        return 0
    total = state[G_PILE_LEFT]
    count = 0
    for tile_type in range(NUM_TYPES):
        left = state[G_PILE + tile_type]
        if left > 0:
            codes[count] = tile_type
            probs[count] = left / total
            count += 1
    return count


@njit
def sample_chance(state, rng):
    pick = rand_below(rng, state[G_PILE_LEFT])
    for tile_type in range(NUM_TYPES):
        pick -= state[G_PILE + tile_type]
        if pick < 0:
            return tile_type
    return -1


@njit
def apply_chance(state, tile_type):
    """Draw ``tile_type``; an unplaceable tile is removed and the draw repeats (CA-6.4)."""
    state[G_PILE + tile_type] -= 1
    state[G_PILE_LEFT] -= 1
    if has_legal_placement(state, tile_type):
        state[G_HAND] = tile_type
        state[H_PHASE] = PH_PLACE
        state[H_TO_MOVE] = state[G_ACTIVE]
        return
    state[G_DISCARDED] += 1
    if state[G_PILE_LEFT] == 0:
        end_game(state)                                       # EX-27


@njit
def resolve_chance(state, rng):
    while state[H_TO_MOVE] == CHANCE:
        apply_chance(state, sample_chance(state, rng))


# --- scores and the fused env step --------------------------------------------------------------

@njit
def scores(state, out):
    """Score per seat: final at the end; before that, as if the game ended now (CA-12)."""
    players = state[H_NUM_PLAYERS]
    extra = state[G_SCORE:G_SCORE + MAX_PLAYERS].copy()
    if state[H_PHASE] == PH_GAME_OVER:
        extra[:] = 0
    else:
        final_points(state, extra)
    for seat in range(players):
        out[seat] = state[G_SCORE + seat] + extra[seat]


@njit
def tiebreaks(state, out):
    """AMB-10: no tie-break, tied players share the win."""
    for seat in range(state[H_NUM_PLAYERS]):
        out[seat] = 0


@njit
def env_step(state, action, rng, mask):
    """One AEC step in one compiled call: apply, draw what is due, write the next mask.

    ``mask`` must hold this state's legal mask, as ``env_reset`` and ``env_step`` leave it:
    in the grid layout only those entries are cleared (a full clear of 131,061 bytes would
    dominate the step).
    """
    check_mask_size(state, mask)
    if mask[action] == 0:
        return ILLEGAL              # nothing applied; the env raises with the legal moves
    clear_legal(state, mask)
    apply_action(state, action)
    resolve_chance(state, rng)
    if state[H_TO_MOVE] >= 0:
        set_legal(state, mask)
    return state[H_TO_MOVE]


@njit
def env_reset(state, num_players, config, start_seat, rng, mask):
    init_state(state, num_players, config, start_seat)
    check_mask_size(state, mask)
    resolve_chance(state, rng)
    if state[H_TO_MOVE] >= 0:
        legal_mask(state, mask)
    else:
        mask.fill(0)
    return state[H_TO_MOVE]
