"""One compiled MCTS for every game, written against the kernel contract.

This module is a template (see ``meeplezoo.envs.core.specialize``): the game's kernels
(``legal_mask``, ``apply_action``, ``sample_chance``, ``apply_chance``,
``chance_outcomes``, ``scores``, ``tiebreaks``) and the search's own choices
(``policy`` for rollouts, ``leaf_value``, ``prior_policy`` for the heuristic prior) are
free names, bound per game in a generated copy that numba caches on disk, so nothing here
knows a game and a new process loads the compiled search instead of compiling it.  Only
the constants and the game-free helpers are used from this module directly.
Phases, as in mctx: ``simulate`` (descend from the root, replaying actions on a copy of
the root state, adding one node), ``expand`` (edges from the legal mask, or the exact
chance outcomes), evaluate (a rollout, or values from a network via the leaf hook), and
``backward`` (max^n: every node keeps one value sum per seat; a node's player picks the
child best for itself).

``params`` (float64): [0] exploration constant, [1] 1 = PUCT with priors, 0 = UCT,
[2] rollout depth in decisions (< 0: to the end), [3] chance mode (0 = sample the
outcome with the game's sampler, 1 = stratified: the outcome furthest below its share of
visits, an expectation-like low-variance schedule), [4] first-play urgency for PUCT,
[5] 1 = value leaves with the compiled ``leaf_value(state, out)`` instead of a rollout,
[6] backup: 0 = mean of the simulations (plain UCT), 1 = max at decision nodes and the
probability-weighted expectation over the visited outcomes at chance nodes (selection
then compares those backed-up values), [7] 1 = plan the current turn only: a node whose
turn owner (state slot [8]) differs from the root's ([9]) is valued, never expanded,
[10] heuristic prior weight w: when > 0, a new decision node's priors are (1 - w) / n for
every legal move plus w on the move the game's heuristic policy picks there (PUCT then
spends the budget near the heuristic's line instead of spreading it over every move).
"""

# ruff: noqa: F821 - the kernels and policies are bound by the per-game copy
# (no ``from __future__`` and no relative imports: the copy lives outside the package)
import math

import numpy as np

from meeplezoo.agents.mcts.tree import (
    ACTION,
    BACKED,
    CHILD,
    DEPTH,
    FIRST_EDGE,
    M_EDGES,
    M_NODES,
    M_ROOT,
    NOT_EXPANDED,
    NUM_EDGES,
    PARENT,
    PLAYER,
    VIRTUAL,
    VISITS,
    reset_node,
)
from meeplezoo.envs.core.batch import pick_random_legal
from meeplezoo.envs.core.contract import CHANCE, H_NUM_PLAYERS, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.core.rng import rand_float

(P_C, P_PUCT, P_ROLLOUT_DEPTH, P_CHANCE_MODE, P_FPU, P_LEAF_VALUE, P_BACKUP, P_HORIZON,
 P_OWNER_SLOT, P_ROOT_OWNER, P_PRIOR) = range(11)
PARAM_COUNT = 11


@njit
def random_policy(state, mask, rng):
    return pick_random_legal(mask, rng)


@njit
def expand(node, state, nodes, edges, priors, meta, params, rng, mask, codes, probs,
           heuristic_prior):
    """Create the node's edges.  False when the edge pool is full (the node stays a leaf)."""
    to_move = state[H_TO_MOVE]
    nodes[node, PLAYER] = to_move
    if to_move == TERMINAL:
        nodes[node, NUM_EDGES] = 0
        return True
    if to_move == CHANCE:
        count = chance_outcomes(state, codes, probs)
        if meta[M_EDGES] + count > edges.shape[0]:
            return False
        first = meta[M_EDGES]
        for k in range(count):
            edges[first + k, ACTION] = codes[k]
            edges[first + k, CHILD] = -1
            priors[first + k] = probs[k]
    else:
        count = legal_mask(state, mask)
        if meta[M_EDGES] + count > edges.shape[0]:
            return False
        first = meta[M_EDGES]
        weight = params[P_PRIOR]
        favourite = -1
        if weight > 0.0:
            favourite = prior_policy(state, mask, rng) if heuristic_prior else \
                random_policy(state, mask, rng)
        k = 0
        for action in range(mask.shape[0]):
            if mask[action]:
                edges[first + k, ACTION] = action
                edges[first + k, CHILD] = -1
                priors[first + k] = (1.0 - weight) / count + (weight if action == favourite
                                                               else 0.0)
                k += 1
    nodes[node, FIRST_EDGE] = first
    nodes[node, NUM_EDGES] = count
    meta[M_EDGES] += count
    return True


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
            q = value / n if n > 0 else params[P_FPU]
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


@njit
def select_chance_edge(node, state, nodes, edges, priors, params, rng):
    first, count = nodes[node, FIRST_EDGE], nodes[node, NUM_EDGES]
    if params[P_CHANCE_MODE] > 0.5:
        total = nodes[node, VISITS] + nodes[node, VIRTUAL] + 1
        best, best_gap = first, -np.inf
        for edge in range(first, first + count):
            child = edges[edge, CHILD]
            seen = 0 if child < 0 else nodes[child, VISITS] + nodes[child, VIRTUAL]
            gap = priors[edge] * total - seen
            if gap > best_gap:
                best, best_gap = edge, gap
        return best
    code = sample_chance(state, rng)
    for edge in range(first, first + count):
        if edges[edge, ACTION] == code:
            return edge
    return first                                             # unreachable for exact lists


@njit
def descend(state, nodes, values, edges, priors, meta, params, rng, mask, codes, probs,
            heuristic_prior):
    """Walk from the root to a leaf, replaying moves on ``state``; add and expand one node.

    Returns the leaf; ``state`` is then the leaf's state.
    """
    node = meta[M_ROOT]
    while True:
        count = nodes[node, NUM_EDGES]
        if count == NOT_EXPANDED:
            if params[P_HORIZON] > 0.5 and node != meta[M_ROOT] and \
                    state[int(params[P_OWNER_SLOT])] != params[P_ROOT_OWNER]:
                return node                                   # past this turn: a leaf
            if not expand(node, state, nodes, edges, priors, meta, params, rng, mask, codes,
                          probs, heuristic_prior):
                return node                                   # edge pool full: evaluate here
            return node
        if count == 0:
            return node                                       # terminal
        if nodes[node, PLAYER] == CHANCE:
            edge = select_chance_edge(node, state, nodes, edges, priors, params, rng)
            apply_chance(state, edges[edge, ACTION])
        else:
            edge = select_decision_edge(node, nodes, values, edges, priors, params, rng)
            apply_action(state, edges[edge, ACTION])
        child = edges[edge, CHILD]
        if child < 0:
            if meta[M_NODES] >= nodes.shape[0]:
                return node                                   # node pool full
            child = meta[M_NODES]
            meta[M_NODES] += 1
            reset_node(nodes, values, child, node, nodes[node, DEPTH] + 1)
            edges[edge, CHILD] = child
        node = child


@njit
def rollout(state, params, rng, mask, value):
    """Play on from ``state`` (to the end, or ``params`` depth) and write seat values."""
    depth = 0
    limit = params[P_ROLLOUT_DEPTH]
    while state[H_TO_MOVE] != TERMINAL and (limit < 0 or depth < limit):
        if state[H_TO_MOVE] == CHANCE:
            apply_chance(state, sample_chance(state, rng))
        else:
            legal_mask(state, mask)
            apply_action(state, policy(state, mask, rng))
            depth += 1
    terminal_value(state, value)


@njit
def terminal_value(state, value):
    """Win/loss values (zero-sum, ties shared) from the scores, final or running."""
    players = state[H_NUM_PLAYERS]
    score = np.zeros(players, dtype=np.int64)
    tiebreak = np.zeros(players, dtype=np.int64)
    scores(state, score)
    tiebreaks(state, tiebreak)
    final_rewards(score, tiebreak, players, 0, 1.0, value)


@njit
def backward(node, value, players, nodes, values, virtual, edges, priors, params):
    max_backup = params[P_BACKUP] > 0.5
    while node >= 0:
        nodes[node, VISITS] += 1
        nodes[node, VIRTUAL] -= virtual
        for seat in range(players):
            values[node, seat] += value[seat]
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
def add_virtual_loss(node, nodes):
    while node >= 0:
        nodes[node, VIRTUAL] += 1
        node = nodes[node, PARENT]


@njit
def no_leaf_value(state, out):
    out[:] = 0.0


@njit
def simulate(num_simulations, root_state, nodes, values, edges, priors, meta, params, rng,
             state, mask, codes, probs):
    """Run simulations with rollouts (or a compiled leaf value), all in compiled code."""
    players = root_state[H_NUM_PLAYERS]
    value = np.zeros(players, dtype=np.float64)
    for _ in range(num_simulations):
        state[:] = root_state
        leaf = descend(state, nodes, values, edges, priors, meta, params, rng, mask, codes,
                       probs, True)
        if params[P_LEAF_VALUE] > 0.5:
            leaf_value(state, value)
        else:
            rollout(state, params, rng, mask, value)
        backward(leaf, value, players, nodes, values, 0, edges, priors, params)


@njit
def select_leaves(batch, root_state, nodes, values, edges, priors, meta, params, rng,
                  leaf_states, leaf_nodes, leaf_values, terminal, mask, codes, probs):
    """The leaf hook, part 1: pick ``batch`` leaves (virtual loss keeps them apart).

    Writes each leaf's state to ``leaf_states`` for an evaluator; terminal leaves get
    their exact value in ``leaf_values`` and ``terminal`` = 1.
    """
    for k in range(batch):
        state = leaf_states[k]
        state[:] = root_state
        leaf = descend(state, nodes, values, edges, priors, meta, params, rng, mask, codes,
                       probs, False)                         # priors come from the evaluator
        leaf_nodes[k] = leaf
        terminal[k] = 1 if state[H_TO_MOVE] == TERMINAL else 0
        if terminal[k]:
            terminal_value(state, leaf_values[k])
        add_virtual_loss(leaf, nodes)


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
def masks_of(states, masks):
    """The legal mask of every row of ``states`` (for a leaf evaluator)."""
    for row in range(states.shape[0]):
        legal_mask(states[row], masks[row])


@njit
def find_position(old_root_state, target, nodes, edges, meta, max_depth):
    """Subtree reuse: depth-first search of the expanded tree for the node whose state is
    ``target`` (the new position); -1 if it is not there.

    Decisions only move the ply forward, so a branch is cut once its ply passes the
    target's.  ``max_depth`` bounds the search (plies plus chance events).
    """
    size = old_root_state.shape[0]
    states = np.empty((max_depth + 1, size), dtype=old_root_state.dtype)
    node_stack = np.empty(max_depth + 1, dtype=np.int64)
    edge_cursor = np.empty(max_depth + 1, dtype=np.int64)
    states[0, :] = old_root_state
    node_stack[0] = meta[M_ROOT]
    edge_cursor[0] = 0
    depth = 0
    while depth >= 0:
        node = node_stack[depth]
        if edge_cursor[depth] == 0 and np.array_equal(states[depth], target):
            return node
        count = nodes[node, NUM_EDGES]
        if depth == max_depth or count <= 0 or states[depth][H_PLY] > target[H_PLY] \
                or edge_cursor[depth] >= count:
            depth -= 1
            if depth >= 0:
                edge_cursor[depth] += 1
            continue
        edge = nodes[node, FIRST_EDGE] + edge_cursor[depth]
        child = edges[edge, CHILD]
        if child < 0:
            edge_cursor[depth] += 1
            continue
        states[depth + 1, :] = states[depth]
        if nodes[node, PLAYER] == CHANCE:
            apply_chance(states[depth + 1], edges[edge, ACTION])
        else:
            apply_action(states[depth + 1], edges[edge, ACTION])
        node_stack[depth + 1] = child
        edge_cursor[depth + 1] = 0
        depth += 1
    return -1
