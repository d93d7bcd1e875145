"""The game-free parts of the compiled MCTS: edge selection, backup, the leaf hook's
second half.  A normal module (compiled and cached once), imported by the search template
``search.py``, whose per-game copies hold only what calls a game's kernels.

``params`` (float64): [0] exploration constant, [1] 1 = PUCT with priors, 0 = UCT, [2]
rollout depth in decisions (< 0: to the end), [3] chance mode (0 = sample the outcome
with the game's sampler, 1 = stratified: the outcome furthest below its share of visits,
an expectation-like low-variance schedule), [4] first-play urgency for PUCT, [5] 1 =
value leaves with the compiled ``leaf_value(state, weights, out)`` instead of a rollout,
2 = roll out and value a rollout cut at the depth limit with it (instead of by the
running scores' win/loss), [6] backup: 0 = mean of the simulations (plain UCT), 1 = max
at decision nodes and the probability-weighted expectation over the visited outcomes at
chance nodes (selection then compares those backed-up values), [7] 1 = plan the current
turn only: a node whose turn owner (state slot [8]) differs from the root's ([9]) is
valued, never expanded, [10] heuristic prior weight w: when > 0, a new decision node's
priors are (1 - w) / n for every legal move plus w on the move the game's heuristic
policy picks there (PUCT then spends the budget near the heuristic's line instead of
spreading it over every move), [11] root action: when >= 0, every simulation takes that
move at the root instead of selecting one (a Gumbel root's sequential halving chooses
which move to visit), [12] 1 = first-play urgency from the parent: an unvisited move is
valued at the node's mean value for its player minus [4] (a side that is behind then
tries its likeliest moves first instead of spreading the budget over every move valued
at a fixed [4]), [13:] the leaf value's ``weights`` (empty for a hand-written leaf; a
leaf fitted to game results, ``training/value/fit.py``, reads its terms' weights there,
so one compiled search serves every fit).
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.envs.core.batch import pick_random_legal
from meeplezoo.envs.core.contract import CHANCE
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rng import rand_float

from .tree import ACTION, BACKED, CHILD, FIRST_EDGE, NUM_EDGES, PARENT, PLAYER, VIRTUAL, VISITS

(P_C, P_PUCT, P_ROLLOUT_DEPTH, P_CHANCE_MODE, P_FPU, P_LEAF_VALUE, P_BACKUP, P_HORIZON,
 P_OWNER_SLOT, P_ROOT_OWNER, P_PRIOR, P_ROOT_ACTION, P_FPU_PARENT) = range(13)
PARAM_COUNT = 13


@njit
def random_policy(state, mask, rng):
    return pick_random_legal(mask, rng)


@njit
def select_decision_edge(node, nodes, values, edges, priors, params, rng):
    # (params[P_BACKUP] picks mean values or the backed-up max/expectation values)
    """UCT (or PUCT) from the point of view of the node's player; virtual losses count."""
    player = nodes[node, PLAYER]
    first, count = nodes[node, FIRST_EDGE], nodes[node, NUM_EDGES]
    parent_visits = nodes[node, VISITS] + nodes[node, VIRTUAL]
    c = params[P_C]
    puct = params[P_PUCT] > 0.5
    log_n = math.log(max(parent_visits, 1))
    sqrt_n = math.sqrt(max(parent_visits, 1))
    unvisited = params[P_FPU]
    if params[P_FPU_PARENT] > 0.5 and nodes[node, VISITS] > 0:
        unvisited = values[node, player] / nodes[node, VISITS] - params[P_FPU]
    best, best_score, ties = -1, -np.inf, 0
    for edge in range(first, first + count):
        child = edges[edge, CHILD]
        visits = 0
        virtual = 0
        value = 0.0
        if child >= 0:
            visits = nodes[child, VISITS]
            virtual = nodes[child, VIRTUAL]
            if params[P_BACKUP] > 0.5 and visits > 0:
                value = values[child, BACKED + player] * (visits + virtual) - virtual
            else:
                value = values[child, player] - virtual      # a virtual visit is a loss
        n = visits + virtual
        if puct:
            q = value / n if n > 0 else unvisited
            score = q + c * priors[edge] * sqrt_n / (1.0 + n)
        elif n == 0:
            score = np.inf                                   # try every move once
        else:
            score = value / n + c * math.sqrt(log_n / n)
        if score > best_score:
            best, best_score, ties = edge, score, 1
        elif score == best_score:
            ties += 1                                        # reservoir tie-break
            if rand_float(rng) * ties < 1.0:
                best = edge
    return best


# The most a leaf's value may count for in a sum.  Values are win/loss shares or scaled
# margins of a few units; a leaf hook gone wrong (a fit whose weights overflow, a network
# that diverged) could return NaN or an infinity, which would make every comparison in the
# tree false and selection pick nothing: such a value is clipped (NaN counts as 0), so the
# search still ends, merely uninformed.
VALUE_LIMIT = 1e6


@njit
def bounded_value(value):
    if not value == value:                 # NaN
        return 0.0
    return min(max(value, -VALUE_LIMIT), VALUE_LIMIT)


@njit
def backward(node, value, players, nodes, values, virtual, edges, priors, params):
    max_backup = params[P_BACKUP] > 0.5
    while node >= 0:
        nodes[node, VISITS] += 1
        nodes[node, VIRTUAL] -= virtual
        for seat in range(players):
            values[node, seat] += bounded_value(value[seat])
        if max_backup:
            refresh_backed(node, players, nodes, values, edges, priors)
        node = nodes[node, PARENT]


@njit
def refresh_backed(node, players, nodes, values, edges, priors):
    """Max over visited children (decision) or their expectation (chance); else the mean."""
    first, count = nodes[node, FIRST_EDGE], nodes[node, NUM_EDGES]
    player = nodes[node, PLAYER]
    best, weight = -1, 0.0
    best_value = -np.inf
    for edge in range(first, first + max(count, 0)):
        child = edges[edge, CHILD]
        if child < 0 or nodes[child, VISITS] == 0:
            continue
        if player == CHANCE:
            weight += priors[edge]
        elif values[child, BACKED + player] > best_value:
            best, best_value = child, values[child, BACKED + player]
    if player == CHANCE and weight > 0.0:
        for seat in range(players):
            values[node, BACKED + seat] = 0.0
        for edge in range(first, first + count):
            child = edges[edge, CHILD]
            if child >= 0 and nodes[child, VISITS] > 0:
                for seat in range(players):
                    values[node, BACKED + seat] += priors[edge] / weight * \
                        values[child, BACKED + seat]
    elif best >= 0:
        for seat in range(players):
            values[node, BACKED + seat] = values[best, BACKED + seat]
    else:
        for seat in range(players):
            values[node, BACKED + seat] = values[node, seat] / nodes[node, VISITS]


@njit
def root_edge_of(node, nodes, edges, action):
    """The edge of ``node`` that plays ``action`` (the first edge if none does: callers
    pass a legal root move)."""
    first, count = nodes[node, FIRST_EDGE], nodes[node, NUM_EDGES]
    for edge in range(first, first + count):
        if edges[edge, ACTION] == action:
            return edge
    return first


@njit
def add_virtual_loss(node, nodes):
    while node >= 0:
        nodes[node, VIRTUAL] += 1
        node = nodes[node, PARENT]


@njit
def no_leaf_value(state, weights, out):
    out[:] = 0.0


@njit
def finish_leaves(batch, players, nodes, values, edges, priors, leaf_nodes, leaf_values,
                  leaf_priors, use_priors, params):
    """The leaf hook, part 2: store the evaluator's priors, back the values up."""
    for k in range(batch):
        leaf = leaf_nodes[k]
        if use_priors and nodes[leaf, PLAYER] >= 0 and nodes[leaf, NUM_EDGES] > 0:
            first, count = nodes[leaf, FIRST_EDGE], nodes[leaf, NUM_EDGES]
            if nodes[leaf, VISITS] == 0:
                total = 0.0
                for edge in range(first, first + count):
                    total += leaf_priors[k, edges[edge, ACTION]]
                for edge in range(first, first + count):
                    p = leaf_priors[k, edges[edge, ACTION]]
                    priors[edge] = p / total if total > 0 else 1.0 / count
        backward(leaf, leaf_values[k], players, nodes, values, 1, edges, priors, params)


@njit
def finish_leaf_rows(rows_tree, players, nodes, values, edges, priors, leaf_nodes,
                     leaf_values, leaf_priors, params):
    """``finish_leaves`` for leaves of many trees of a forest (lockstep search): row ``k``
    belongs to tree ``rows_tree[k]``, whose search parameters are ``params[tree]``."""
    for k in range(rows_tree.shape[0]):
        g = rows_tree[k]
        finish_leaves(1, players, nodes[g], values[g], edges[g], priors[g],
                      leaf_nodes[k:k + 1], leaf_values[k:k + 1], leaf_priors[k:k + 1], True,
                      params[g])


@njit
def completed_root_q(nodes, values, edges, root, player, root_value, prior, q, visits):
    """A Gumbel root's completed q (``agents/az/gumbel.py``): for each root edge its
    visits and mean value for ``player``; an unvisited edge gets the mixed value (the
    root's own value blended with the ``prior``-weighted q of the visited edges)."""
    first, count = nodes[root, FIRST_EDGE], nodes[root, NUM_EDGES]
    total, weighted, weight = 0, 0.0, 0.0
    for k in range(count):
        child = edges[first + k, CHILD]
        seen = nodes[child, VISITS] if child >= 0 else 0
        visits[k] = seen
        if seen > 0:
            q[k] = values[child, player] / seen
            total += seen
            weighted += prior[k] * q[k]
            weight += prior[k]
    mixed = root_value
    if total > 0:
        mixed = (root_value + total * weighted / weight) / (1 + total)
    for k in range(count):
        if visits[k] == 0:
            q[k] = mixed
