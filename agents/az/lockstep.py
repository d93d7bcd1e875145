"""Many network-guided searches in lockstep: their trees are one forest, and each round
selects the next leaves of every search in one compiled call, values all of them in one
evaluator call (one forward pass of the network) and backs them up in one compiled call.

A search says what to simulate through its ``root_schedule`` generator (the Gumbel root's
sequential halving): arrays of root moves, one simulation below each.  A round takes up
to ``leaf_batch`` of them from every search that still has work, so the network sees
about ``games x leaf_batch`` leaves per call while the Python per round is a few list
operations per game; the descent, expansion, chance handling (the game's exact outcomes)
and backup are compiled.  Per game the order of work is the same as alone, so a search
plays the same moves in a forest of one (``GumbelMCTS.act``) as in self-play's forest.
"""

from __future__ import annotations

import time

import numpy as np

from meeplezoo.agents.mcts.agent import search_module
from meeplezoo.agents.mcts.tree import Forest
from meeplezoo.agents.mcts.uct import finish_leaf_rows
from meeplezoo.envs.core.contract import H_NUM_PLAYERS, MASK_DTYPE, GameSpec


class LockstepSearch:
    """The searches ``searches`` (``GumbelMCTS``) over one forest (module docstring); a
    search's tree, parameters and generator state become views into it."""

    def __init__(self, spec: GameSpec, searches: list, capacity: int | None = None):
        if not searches:
            raise ValueError("a lockstep search needs at least one search")
        self.spec, self.searches = spec, list(searches)
        self.capacity = int(capacity or max(s.simulations for s in self.searches))
        # one node per simulation, plus the root; a node's edges are its legal moves
        per_node = min(spec.num_actions, 256)
        nodes = max(self.capacity + 2, -(-spec.num_actions // per_node) + 1)
        self.forest = Forest(len(self.searches), nodes, per_node)
        self.params = np.stack([s.params for s in self.searches])
        self.rngs = np.stack([s._rng for s in self.searches])
        for g, search in enumerate(self.searches):
            search.tree, search.params, search._rng = \
                self.forest.trees[g], self.params[g], self.rngs[g]
        first = self.searches[0]
        self.module = search_module(spec, first.rollout, first.leaf_value)
        outcomes = max(spec.max_chance_outcomes, 1)
        self._scratch = (np.zeros(spec.num_actions, dtype=MASK_DTYPE),
                         np.zeros(outcomes, dtype=np.int64), np.zeros(outcomes, np.float64))
        self.network_seconds = 0.0        # time inside the evaluator, for profiles
        self.rounds = 0
        self.leaves = 0

    def run(self, states: np.ndarray, evaluator, next_position=None) -> None:
        """Search ``states[g]`` with search ``g`` (all of them), answering every round's
        leaves with ``evaluator(leaf_states, masks) -> (values [L, P], priors [L, A])``.

        ``next_position(g)``, if given, is called as soon as search ``g`` is done (its
        result is then in the search); a state it returns is searched next by the same
        search in the same run, ``None`` ends that game's part (self-play keeps every
        game busy this way instead of waiting for the slowest search of each move)."""
        searches = self.searches
        if len(states) != len(searches):
            raise ValueError(f"{len(states)} positions for {len(searches)} searches")
        for search in searches:
            if search.simulations > self.capacity:
                raise ValueError(f"{search.simulations} simulations do not fit a forest "
                                 f"sized for {self.capacity}")
        root_states = np.array(states, copy=True, order="C")
        players = int(root_states[0, H_NUM_PLAYERS])
        schedules = [s.root_schedule(self.spec, root_states[g])
                     for g, s in enumerate(searches)]
        work: dict[int, np.ndarray] = {}

        def next_work(g: int) -> None:
            """Search ``g``'s next non-empty array of root moves, or drop it once done."""
            while True:
                for todo in schedules[g]:
                    if len(todo):
                        work[g] = todo
                        return
                state = None if next_position is None else next_position(g)
                if state is None:
                    work.pop(g, None)
                    return
                root_states[g] = state
                schedules[g] = searches[g].root_schedule(self.spec, root_states[g])

        for g in range(len(searches)):
            next_work(g)
        nodes, values, edges, priors, meta = self.forest.arrays
        mask, codes, probs = self._scratch
        while work:
            takes = {g: todo[:searches[g].leaf_batch] for g, todo in work.items()}
            rows_tree = np.concatenate([np.full(len(t), g, dtype=np.int64)
                                        for g, t in takes.items()])
            rows_action = np.concatenate(list(takes.values())).astype(np.float64)
            count = len(rows_tree)
            leaf_states = np.empty((count, root_states.shape[1]), dtype=root_states.dtype)
            leaf_nodes = np.zeros(count, dtype=np.int64)
            leaf_values = np.zeros((count, players), dtype=np.float64)
            terminal = np.zeros(count, dtype=np.int8)
            masks = np.zeros((count, self.spec.num_actions), dtype=MASK_DTYPE)
            self.module.select_leaf_rows(rows_tree, rows_action, root_states, nodes, values,
                                         edges, priors, meta, self.params, self.rngs,
                                         leaf_states, leaf_nodes, leaf_values, terminal,
                                         masks, mask, codes, probs)
            asked = time.perf_counter()
            net_values, net_priors = evaluator(leaf_states, masks)
            self.network_seconds += time.perf_counter() - asked
            open_leaves = terminal == 0
            leaf_values[open_leaves] = np.asarray(net_values, np.float64)[open_leaves]
            finish_leaf_rows(rows_tree, players, nodes, values, edges, priors, leaf_nodes,
                             leaf_values, np.ascontiguousarray(net_priors, np.float64),
                             self.params)
            self.rounds += 1
            self.leaves += count
            for g, taken in takes.items():
                rest = work[g][len(taken):]
                work[g] = rest
                if not len(rest):
                    next_work(g)
