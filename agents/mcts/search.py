"""One compiled MCTS for every game, written against the kernel contract.

This module is a template (see ``meeplezoo.envs.core.specialize``): the game's kernels
(``legal_mask``, ``apply_action``, ``sample_chance``, ``apply_chance``,
``chance_outcomes``, ``scores``, ``tiebreaks``) and the search's own choices
(``policy`` for rollouts, ``leaf_value``, ``prior_policy`` for the heuristic prior) are
free names, bound per game in a generated copy that numba caches on disk, so nothing here
knows a game and a new process loads the compiled search instead of compiling it.  The
game-free parts (edge selection, backup, the parameters) are in ``uct.py``, compiled once
for every game; this module re-exports them.
Phases, as in mctx: ``simulate`` (descend from the root, replaying actions on a copy of
the root state, adding one node), ``expand`` (edges from the legal mask, or the exact
chance outcomes), evaluate (a rollout, or values from a network via the leaf hook), and
``backward`` (max^n: every node keeps one value sum per seat; a node's player picks the
child best for itself).

``params`` (float64): see ``uct.py``.
"""

# ruff: noqa: F821 - the kernels and policies are bound by the per-game copy
# (no ``from __future__`` and no relative imports: the copy lives outside the package)

import numpy as np

from meeplezoo.agents.mcts.tree import (
    ACTION,
    CHILD,
    DEPTH,
    FIRST_EDGE,
    M_EDGES,
    M_NODES,
    M_ROOT,
    NOT_EXPANDED,
    NUM_EDGES,
    PLAYER,
    VIRTUAL,
    VISITS,
    reset_node,
)
from meeplezoo.agents.mcts.uct import (  # noqa: F401 (re-exported: bindings, agent)
    P_BACKUP,
    P_C,
    P_CHANCE_MODE,
    P_FPU,
    P_FPU_PARENT,
    P_HORIZON,
    P_LEAF_VALUE,
    P_OWNER_SLOT,
    P_PRIOR,
    P_PUCT,
    P_ROLLOUT_DEPTH,
    P_ROOT_ACTION,
    P_ROOT_OWNER,
    PARAM_COUNT,
    add_virtual_loss,
    backward,
    finish_leaf_rows,
    finish_leaves,
    no_leaf_value,
    random_policy,
    root_edge_of,
    select_decision_edge,
)
from meeplezoo.envs.core.contract import CHANCE, H_NUM_PLAYERS, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rewards import final_rewards


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
        elif node == meta[M_ROOT] and params[P_ROOT_ACTION] >= 0:
            edge = root_edge_of(node, nodes, edges, int(params[P_ROOT_ACTION]))
            apply_action(state, edges[edge, ACTION])
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
    if params[P_LEAF_VALUE] > 1.5 and state[H_TO_MOVE] != TERMINAL:
        while state[H_TO_MOVE] == CHANCE:          # the leaf values decision points
            apply_chance(state, sample_chance(state, rng))
        leaf_value(state, params[PARAM_COUNT:], value)    # a cut valued by the leaf
    else:
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
def simulate(num_simulations, root_state, nodes, values, edges, priors, meta, params, rng,
             state, mask, codes, probs):
    """Run simulations with rollouts (or a compiled leaf value), all in compiled code."""
    players = root_state[H_NUM_PLAYERS]
    value = np.zeros(players, dtype=np.float64)
    for _ in range(num_simulations):
        state[:] = root_state
        leaf = descend(state, nodes, values, edges, priors, meta, params, rng, mask, codes,
                       probs, True)
        if 0.5 < params[P_LEAF_VALUE] < 1.5:
            leaf_value(state, params[PARAM_COUNT:], value)
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
def select_leaf_rows(rows_tree, rows_root_action, root_states, nodes, values, edges, priors,
                     meta, params, rngs, leaf_states, leaf_nodes, leaf_values, terminal,
                     masks, mask, codes, probs):
    """``select_leaves`` over the trees of a forest (lockstep search), one leaf per row:
    row ``k`` descends tree ``rows_tree[k]`` (from ``root_states[tree]``, with
    ``params[tree]`` and ``rngs[tree]``) taking ``rows_root_action[k]`` at the root
    (-1: select it), and gets its leaf's legal mask in ``masks[k]``."""
    for k in range(rows_tree.shape[0]):
        g = rows_tree[k]
        params[g, P_ROOT_ACTION] = rows_root_action[k]
        select_leaves(1, root_states[g], nodes[g], values[g], edges[g], priors[g], meta[g],
                      params[g], rngs[g], leaf_states[k:k + 1], leaf_nodes[k:k + 1],
                      leaf_values[k:k + 1], terminal[k:k + 1], mask, codes, probs)
        legal_mask(leaf_states[k], masks[k])


@njit
def heuristic_values(states, params, rng, rollouts, mask, out):
    """The search's own value of each row of ``states`` (absolute seats), as it values a
    leaf without a network: the exact result of a finished game, the compiled leaf value,
    or the mean of ``rollouts`` rollouts (the game's rollout policy and depth from
    ``params``).  The network search mixes it with the network's value."""
    players = states[0, H_NUM_PLAYERS] if states.shape[0] else 0
    value = np.zeros(players, dtype=np.float64)
    state = np.empty_like(states[0]) if states.shape[0] else np.empty(0, states.dtype)
    for row in range(states.shape[0]):
        state[:] = states[row]
        for seat in range(players):
            out[row, seat] = 0.0
        if state[H_TO_MOVE] == TERMINAL:
            terminal_value(state, value)
            out[row, :players] = value
        elif 0.5 < params[P_LEAF_VALUE] < 1.5:
            leaf_value(state, params[PARAM_COUNT:], value)
            out[row, :players] = value
        else:
            for _ in range(rollouts):
                state[:] = states[row]
                rollout(state, params, rng, mask, value)
                for seat in range(players):
                    out[row, seat] += value[seat] / rollouts


@njit
def heuristic_moves(states, masks, rng, out):
    """The move the game's heuristic picks in each row (-1 where no one decides): the move
    the tuned search puts a share of its prior on."""
    for row in range(states.shape[0]):
        out[row] = -1
        if states[row, H_TO_MOVE] >= 0:
            out[row] = prior_policy(states[row], masks[row], rng)


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
