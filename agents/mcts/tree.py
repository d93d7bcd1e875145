"""The search tree as preallocated arrays (mctx style), shared by every game.

Nodes live in rows of ``nodes`` (int32 columns below) and ``values`` (float64: one value
sum per seat, for max^n with mean backups, then one backed-up value per seat for the
max/expectation backup option).  A node's children are a contiguous run of edges in
``edges`` (action or chance outcome, child node or -1) with ``priors``.  ``meta`` holds the
counters.  Nothing here is a Python object, so the whole search runs in compiled code, and
the tree is reused between moves by compacting the subtree under the new root.

Memory: a node is 7 int32 + 12 float64 = 124 bytes, an edge 2 int32 + 1 float32 = 12
bytes; with the default ``edges_per_node`` of 24 a node costs 124 + 24 * 12 = 412 bytes,
so a 100,000-node tree takes about 41 MB.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.jit import njit

MAX_SEATS = 6
BACKED = MAX_SEATS          # first column of the backed-up values in ``values``

# node columns
VISITS, PLAYER, PARENT, FIRST_EDGE, NUM_EDGES, VIRTUAL, DEPTH = range(7)
NODE_COLUMNS = 7
NOT_EXPANDED = -1           # NUM_EDGES before expansion
# edge columns
ACTION, CHILD = 0, 1
# meta slots
M_NODES, M_EDGES, M_ROOT = range(3)

NODE_BYTES = NODE_COLUMNS * 4 + 2 * MAX_SEATS * 8
EDGE_BYTES = 2 * 4 + 4


class Tree:
    """The arrays of one search tree (see the module docstring)."""

    def __init__(self, max_nodes: int = 100_000, edges_per_node: int = 24):
        if max_nodes < 2:
            raise ValueError("max_nodes must be at least 2")
        self.max_nodes = int(max_nodes)
        self.max_edges = int(max_nodes * edges_per_node)
        self.nodes = np.zeros((self.max_nodes, NODE_COLUMNS), dtype=np.int32)
        self.values = np.zeros((self.max_nodes, 2 * MAX_SEATS), dtype=np.float64)
        self.edges = np.zeros((self.max_edges, 2), dtype=np.int32)
        self.priors = np.zeros(self.max_edges, dtype=np.float32)
        self.meta = np.zeros(3, dtype=np.int64)
        # spare arrays for compaction (subtree reuse)
        self._spare = (np.zeros_like(self.nodes), np.zeros_like(self.values),
                       np.zeros_like(self.edges), np.zeros_like(self.priors))
        self.clear()

    @classmethod
    def over(cls, nodes, values, edges, priors, meta) -> Tree:
        """A tree whose arrays are given (views into a :class:`Forest`); it cannot be
        rerooted, since compaction swaps arrays."""
        tree = cls.__new__(cls)
        tree.max_nodes, tree.max_edges = nodes.shape[0], edges.shape[0]
        tree.nodes, tree.values, tree.edges, tree.priors, tree.meta = \
            nodes, values, edges, priors, meta
        tree._spare = None
        tree.clear()
        return tree

    @property
    def nbytes(self) -> int:
        arrays = (self.nodes, self.values, self.edges, self.priors, *(self._spare or ()))
        return int(sum(a.nbytes for a in arrays))

    @property
    def arrays(self):
        return self.nodes, self.values, self.edges, self.priors, self.meta

    def clear(self) -> None:
        clear_tree(self.nodes, self.values, self.meta)

    def reroot(self, new_root: int) -> None:
        """Keep only the subtree under ``new_root`` (compacted to the front)."""
        if self._spare is None:
            raise ValueError("a tree inside a forest cannot be rerooted (no subtree reuse)")
        n2, v2, e2, p2 = self._spare
        compact_subtree(self.nodes, self.values, self.edges, self.priors, self.meta,
                        new_root, n2, v2, e2, p2)
        self._spare = (self.nodes, self.values, self.edges, self.priors)
        self.nodes, self.values, self.edges, self.priors = n2, v2, e2, p2

    @property
    def root(self) -> int:
        return int(self.meta[M_ROOT])

    @property
    def num_nodes(self) -> int:
        return int(self.meta[M_NODES])

    def root_children(self) -> list[tuple[int, int, float]]:
        """(action, visits, mean value for the root's player) for each root edge."""
        root = self.root
        player = int(self.nodes[root, PLAYER])
        out = []
        first, count = int(self.nodes[root, FIRST_EDGE]), int(self.nodes[root, NUM_EDGES])
        for edge in range(first, first + max(count, 0)):
            child = int(self.edges[edge, CHILD])
            visits = int(self.nodes[child, VISITS]) if child >= 0 else 0
            mean = float(self.values[child, player] / visits) if visits else 0.0
            out.append((int(self.edges[edge, ACTION]), visits, mean))
        return out


class Forest:
    """The trees of many searches stacked into one set of arrays (leading axis: the tree),
    so one compiled call can select or back up leaves in all of them (lockstep search);
    ``trees[g]`` is tree ``g`` as a :class:`Tree` over views of those arrays."""

    def __init__(self, count: int, max_nodes: int, edges_per_node: int = 24):
        if count < 1 or max_nodes < 2:
            raise ValueError("a forest needs at least one tree of at least two nodes")
        edges = max_nodes * edges_per_node
        self.nodes = np.zeros((count, max_nodes, NODE_COLUMNS), dtype=np.int32)
        self.values = np.zeros((count, max_nodes, 2 * MAX_SEATS), dtype=np.float64)
        self.edges = np.zeros((count, edges, 2), dtype=np.int32)
        self.priors = np.zeros((count, edges), dtype=np.float32)
        self.meta = np.zeros((count, 3), dtype=np.int64)
        self.trees = [Tree.over(self.nodes[g], self.values[g], self.edges[g],
                                self.priors[g], self.meta[g]) for g in range(count)]

    @property
    def arrays(self):
        return self.nodes, self.values, self.edges, self.priors, self.meta


@njit
def clear_tree(nodes, values, meta):
    meta[M_NODES] = 1
    meta[M_EDGES] = 0
    meta[M_ROOT] = 0
    reset_node(nodes, values, 0, -1, 0)


@njit
def reset_node(nodes, values, node, parent, depth):
    nodes[node, VISITS] = 0
    nodes[node, PLAYER] = 0
    nodes[node, PARENT] = parent
    nodes[node, FIRST_EDGE] = 0
    nodes[node, NUM_EDGES] = NOT_EXPANDED
    nodes[node, VIRTUAL] = 0
    nodes[node, DEPTH] = depth
    values[node, :] = 0.0


@njit
def compact_subtree(nodes, values, edges, priors, meta, new_root, n2, v2, e2, p2):
    """Copy the subtree under ``new_root`` into the spare arrays, breadth first."""
    queue = np.empty(meta[M_NODES], dtype=np.int64)      # old node ids, in new-id order
    queue[0] = new_root
    head, tail, edge_count = 0, 1, 0
    while head < tail:
        old = queue[head]
        n2[head, :] = nodes[old, :]
        v2[head, :] = values[old, :]
        n2[head, DEPTH] = nodes[old, DEPTH] - nodes[new_root, DEPTH]
        if head == 0:
            n2[head, PARENT] = -1
        count = nodes[old, NUM_EDGES]
        if count > 0:
            first = nodes[old, FIRST_EDGE]
            n2[head, FIRST_EDGE] = edge_count
            for k in range(count):
                e2[edge_count + k, ACTION] = edges[first + k, ACTION]
                p2[edge_count + k] = priors[first + k]
                child = edges[first + k, CHILD]
                if child >= 0:
                    queue[tail] = child
                    e2[edge_count + k, CHILD] = tail
                    n2[tail, PARENT] = head        # fixed again when the child is copied
                    tail += 1
                else:
                    e2[edge_count + k, CHILD] = -1
            edge_count += count
        head += 1
    # parents were written before the child rows were copied over them: set them again
    for node in range(tail):
        count = n2[node, NUM_EDGES]
        for k in range(max(count, 0)):
            child = e2[n2[node, FIRST_EDGE] + k, CHILD]
            if child >= 0:
                n2[child, PARENT] = node
    n2[0, PARENT] = -1
    meta[M_NODES] = tail
    meta[M_EDGES] = edge_count
    meta[M_ROOT] = 0
