"""Compiled policies: the greedy one-turn look-ahead, a cheap rollout policy for MCTS, and
random playouts that enumerate the legal list instead of writing a mask.  All of them work
in either action layout (they read actions through the state's layout).

Greedy value of a position for a seat: its score as if the game ended now (running score
plus CA-12 final points of its incomplete features and farms) minus the best opponent's,
plus a small value for meeples still in the supply (worth more early in the game).  The
greedy placement looks one meeple decision ahead: each legal placement is tried on a
copy, then each meeple choice on a copy of that, and the best pair wins.

The MCTS leaf value (``heuristic_value``) expects more than greedy counts: an open city or
road is worth its completed value with a chance that falls with its open ports and the
tiles left, a monastery part of its empty neighbours (``expected_points``), and a leaf
between placement and meeple is valued after greedy's meeple choice.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from ..core.jit import njit
from ..core.rewards import final_rewards, squashed_margins
from ..core.rng import rand_below, rand_float
from .board import occupied_around, placement_cell
from .data import (
    C_FARMERS,
    FIELD,
    G_ACTIVE,
    G_LARGE,
    G_NORMAL,
    G_PILE_LEFT,
    G_PLACED,
    G_SCORE,
    MAX_PLAYERS,
    MAX_SLOTS,
    MAX_TILES,
    MONASTERY,
    N_FIGURES,
    N_OPEN,
    N_ROOT,
    NUM_SLOTS,
    PH_MEEPLE,
    PH_PLACE,
    SEG_KIND,
    T_CELL,
    T_TYPE,
)
from .features import (
    completed_points,
    farm_points,
    final_points,
    incomplete_points,
    pay_majority,
    strengths,
)
from .masks import MAX_PLACEMENT_ACTIONS, legal_actions, meeple_base
from .rules import apply_action, apply_chance, init_state, resolve_chance, sample_chance

MAX_LIST = MAX_PLACEMENT_ACTIONS + 2 * MAX_SLOTS + 1
NORMAL_RESERVE, LARGE_RESERVE = 1.5, 2.5      # points a meeple in hand is worth early on


@njit
def position_value(state, seat):
    """Greedy evaluation from ``seat``'s point of view (see the module docstring)."""
    points = np.zeros(MAX_PLAYERS, dtype=np.int64)
    final_points(state, points)
    players = state[H_NUM_PLAYERS]
    best_other = -1e9
    for other in range(players):
        if other != seat:
            best_other = max(best_other, float(state[G_SCORE + other] + points[other]))
    early = state[G_PILE_LEFT] / MAX_TILES
    reserve = early * (NORMAL_RESERVE * min(state[G_NORMAL + seat], 4)
                       + LARGE_RESERVE * state[G_LARGE + seat])
    return state[G_SCORE + seat] + points[seat] - best_other + reserve


@njit
def best_meeple(state, seat, rng):
    """(action, value) of the best meeple decision on the tile just placed."""
    actions = np.empty(MAX_LIST, dtype=np.int64)
    count = legal_actions(state, actions)
    work = np.empty_like(state)
    best_action, best_value = meeple_base(state) + 2 * MAX_SLOTS, -1e18
    for i in range(count):
        work[:] = state
        apply_action(work, actions[i])
        value = position_value(work, seat) + 1e-6 * rand_float(rng)
        if value > best_value:
            best_action, best_value = actions[i], value
    return best_action, best_value


@njit
def greedy_action(state, rng):
    """The greedy agent's move for the seat to move (placement or meeple)."""
    seat = state[G_ACTIVE]
    if state[H_PHASE] == PH_MEEPLE:
        return best_meeple(state, seat, rng)[0]
    actions = np.empty(MAX_LIST, dtype=np.int64)
    count = legal_actions(state, actions)
    work = np.empty_like(state)
    best_action, best_value = actions[0], -1e18
    for i in range(count):
        work[:] = state
        apply_action(work, actions[i])
        if work[H_PHASE] == PH_MEEPLE:
            value = best_meeple(work, seat, rng)[1]
        else:
            value = position_value(work, seat) + 1e-6 * rand_float(rng)
        if value > best_value:
            best_action, best_value = actions[i], value
    return best_action


@njit
def rollout_policy(state, mask, rng):
    """Cheap heuristic for MCTS rollouts: mostly the snuggest placement (most tiles on the
    8 cells around), else a random one; a meeple on a random free city, road or monastery
    slot while at least three remain (farmers and the large meeple only late)."""
    actions = np.empty(MAX_LIST, dtype=np.int64)
    count = legal_actions(state, actions)
    if state[H_PHASE] == PH_PLACE:
        if rand_float(rng) < 0.25:
            return actions[rand_below(rng, count)]
        # Snug placements (many tiles around) close features and monasteries more often.
        best, best_fit = actions[0], -1.0
        for i in range(count):
            fit = occupied_around(state, placement_cell(state, actions[i])) + rand_float(rng)
            if fit > best_fit:
                best, best_fit = actions[i], fit
        return best
    seat = state[G_ACTIVE]
    tile_type = state[T_TYPE + state[G_PLACED] - 1]
    late = state[G_PILE_LEFT] < 20
    base = meeple_base(state)
    keep = 0
    for i in range(count - 1):                       # the last entry is "no meeple"
        slot = (actions[i] - base) // 2
        large = (actions[i] - base) % 2
        if large and not late:
            continue
        if SEG_KIND[tile_type, slot] == FIELD and not late:
            continue
        actions[keep] = actions[i]
        keep += 1
    if keep == 0 or (state[G_NORMAL + seat] < 3 and not late) or rand_float(rng) < 0.3:
        return base + 2 * MAX_SLOTS
    return actions[rand_below(rng, keep)]


@njit
def random_playouts(num_games, num_players, config, rng, state):
    """Uniformly random full games in compiled code; returns the decisions made."""
    actions = np.empty(MAX_LIST, dtype=np.int64)
    decisions = 0
    for game in range(num_games):
        init_state(state, num_players, config, game % num_players)
        resolve_chance(state, rng)
        while state[H_TO_MOVE] != TERMINAL:
            count = legal_actions(state, actions)
            apply_action(state, actions[rand_below(rng, count)])
            decisions += 1
            while state[H_TO_MOVE] < 0 and state[H_TO_MOVE] != TERMINAL:
                apply_chance(state, sample_chance(state, rng))
    return decisions



# The MCTS leaf value.  Greedy's "as if the game ended now" count undervalues an open city
# or road (completed they pay double, or at all with an inn or cathedral) and a young
# monastery, so leaves expect completion instead; a 1-turn search with this value beat
# greedy 31/40 (+27 points a game), with the plain count it played even.
LEAF_SCALE = 20.0            # points of margin that count as a clear lead
COMPLETION_DECAY = 0.7       # chance an open feature completes: DECAY ** open ports ...
COMPLETION_REACH = 20.0      # ... times min(1, tiles left / REACH)
MONASTERY_FILL = 0.5         # share of a monastery's empty neighbours expected to fill


@njit
def expected_points(state, out):
    """Per seat (float ``out``): the points its meeples on the board should still bring,
    like ``final_points`` (CA-12, farms included) except that an open city or road counts
    as completed (CA-9.3, CA-9.4, CA-10.2, CA-10.4) with chance
    ``COMPLETION_DECAY ** open ports``, scaled down as the pile runs out, and a monastery
    expects ``MONASTERY_FILL`` of its empty neighbours likewise."""
    out[:] = 0.0
    power = np.zeros(MAX_PLAYERS, dtype=np.int64)
    time_left = min(1.0, state[G_PILE_LEFT] / COMPLETION_REACH)
    for index in range(state[G_PLACED]):
        tile_type = state[T_TYPE + index]
        for slot in range(NUM_SLOTS[tile_type]):
            node = index * MAX_SLOTS + slot
            if state[N_ROOT + node] != node or state[N_FIGURES + node] == 0:
                continue
            kind = SEG_KIND[tile_type, slot]
            if kind == FIELD:
                continue
            if kind == MONASTERY:
                near = occupied_around(state, state[T_CELL + index])
                points = 1.0 + near + (8 - near) * MONASTERY_FILL * time_left
            elif state[N_OPEN + node] > 0:
                now = incomplete_points(state, node, kind)
                done = completed_points(state, node, kind)
                chance = time_left * COMPLETION_DECAY ** state[N_OPEN + node]
                points = now + chance * (done - now)
            else:
                continue
            best = strengths(state, node, power)
            pay_majority(power, best, points, out)
    if state[C_FARMERS]:
        farms = np.zeros(MAX_PLAYERS, dtype=np.int64)
        farm_points(state, farms)
        for seat in range(MAX_PLAYERS):
            out[seat] += farms[seat]


@njit
def settle_meeple(state):
    """Between placement and meeple: apply the meeple decision greedy would take (without
    its random tie-break), so that a leaf there is valued as the turn's best completion
    rather than as a tile placed with no meeple option taken."""
    actions = np.empty(MAX_LIST, dtype=np.int64)
    count = legal_actions(state, actions)
    work = np.empty_like(state)
    seat = state[G_ACTIVE]
    best_action, best_value = actions[count - 1], -1e18
    for i in range(count):
        work[:] = state
        apply_action(work, actions[i])
        value = position_value(work, seat)
        if value > best_value:
            best_action, best_value = actions[i], value
    apply_action(state, best_action)


@njit
def leaf_position(state):
    """The position a leaf value judges: mid-turn (between placement and meeple) a copy
    with the meeple decision settled, else ``state`` itself."""
    if state[H_PHASE] == PH_MEEPLE:
        state = state.copy()
        settle_meeple(state)
    return state


@njit
def final_result(state, out):
    """At the end of the game, write the exact win/loss values and return True."""
    if state[H_TO_MOVE] != TERMINAL:
        return False
    players = state[H_NUM_PLAYERS]
    scores = np.zeros(players, dtype=np.int64)
    for seat in range(players):
        scores[seat] = state[G_SCORE + seat]
    final_rewards(scores, np.zeros(players, dtype=np.int64), players, 0, 1.0, out)
    return True


@njit
def heuristic_value(state, weights, out):
    """MCTS leaf value (``leaf_value(state, weights, out)``; no weights): per seat, tanh of
    (its running score + ``expected_points`` + meeples in supply) minus the best opponent's,
    over ``LEAF_SCALE``, centred to zero sum; mid-turn the meeple decision is settled first
    (``leaf_position``); exact win/loss values at the end."""
    players = state[H_NUM_PLAYERS]
    state = leaf_position(state)
    if final_result(state, out):
        return
    points = np.zeros(MAX_PLAYERS, dtype=np.float64)
    expected_points(state, points)
    early = state[G_PILE_LEFT] / MAX_TILES
    total = np.zeros(players, dtype=np.float64)
    for seat in range(players):
        total[seat] = state[G_SCORE + seat] + points[seat] + early * (
            NORMAL_RESERVE * min(state[G_NORMAL + seat], 4)
            + LARGE_RESERVE * state[G_LARGE + seat])
    squashed_margins(total, players, LEAF_SCALE, out)
