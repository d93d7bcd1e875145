"""Subtree reuse: find the node of the old tree whose state is the new position."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.contract import CHANCE, H_PLY
from meeplezoo.envs.core.jit import njit_generic

from .tree import ACTION, CHILD, FIRST_EDGE, M_ROOT, NUM_EDGES, PLAYER


@njit_generic
def find_position(old_root_state, target, nodes, edges, meta, max_depth,
                  apply_action, apply_chance):
    """Depth-first search of the expanded tree for ``target``; -1 if it is not there.

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
