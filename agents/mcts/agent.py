"""``MCTSAgent``: the compiled search as an agent, with subtree reuse and a leaf hook.

Budget by simulations (``simulations=200``) or by time (``seconds=0.5``); deterministic
for a given seed.  ``evaluator(states, masks) -> (values [B, P], priors [B, A])`` switches
to PUCT with batched leaf evaluation (a network plugs in here); without it, leaves are
valued by rollouts (random, or the game's heuristic policy when ``rollout="heuristic"``
and the game provides one), or by a compiled ``leaf_value(state, weights, out)`` (a
heuristic position value, e.g. ``agents/saint_malo_value.py``; ``leaf_weights`` reach it
as ``weights``, e.g. a value fitted to game results, ``training/value/fit.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import cache

import numpy as np

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, MASK_DTYPE, GameSpec
from meeplezoo.envs.core.rng import new_rng, seed_rng

from ..base import Agent
from . import search
from .search import P_OWNER_SLOT, P_ROOT_OWNER
from .tree import M_ROOT, Tree


@cache
def search_module(spec: GameSpec, policy_name: str = "random", leaf_value=None,
                  cached: bool = True):
    """The game's copy of the search (``search.py`` is its template), cached on disk by
    numba when every bound function is importable by name (a leaf value defined in a
    notebook is compiled per process instead)."""
    from meeplezoo.envs.core.specialize import game_module

    k = spec.kernels
    # The heuristic is also the prior's favourite move (a game without one cannot use prior).
    heuristic = k.get("rollout_policy", search.random_policy)
    if policy_name == "random":
        policy = search.random_policy
    elif "rollout_policy" in k:
        policy = heuristic
    else:
        raise ValueError(f"{spec.name} has no heuristic rollout policy")
    leaf = search.no_leaf_value if leaf_value is None else leaf_value
    return game_module(spec, "meeplezoo.agents.mcts.search",
                       {"policy": policy, "leaf_value": leaf, "prior_policy": heuristic},
                       cached=cached)


def compiled_search(spec: GameSpec, policy_name: str = "random", leaf_value=None,
                    cached: bool = True):
    """simulate, select_leaves, find_position and masks_of of the game's search."""
    module = search_module(spec, policy_name, leaf_value, cached)
    return module.simulate, module.select_leaves, module.find_position, module.masks_of


def drive(steps, evaluator) -> None:
    """Run a search generator (``leaf_round``) to its end, answering each batch of leaves
    it yields with ``evaluator(states, masks)``."""
    try:
        request = next(steps)
        while True:
            request = steps.send(evaluator(*request))
    except StopIteration:
        pass


class MCTSAgent(Agent):
    """Monte Carlo tree search over the game's kernels (see the module docstring)."""

    def __init__(self, simulations: int = 200, seconds: float | None = None,
                 c: float | None = None, rollout: str = "random", rollout_depth: int = -1,
                 chance: str = "sample", max_nodes: int = 100_000, reuse: bool = True,
                 evaluator: Callable | None = None, leaf_batch: int = 16, fpu: float = 0.0,
                 leaf_value: Callable | None = None, backup: str = "mean",
                 horizon: str = "game", prior: float = 0.0, fpu_mode: str = "fixed",
                 leaf_weights: np.ndarray | None = None, cut: str = "score",
                 seed: int | None = None):
        super().__init__(seed)
        if simulations < 1 and seconds is None:
            raise ValueError("simulations must be >= 1 (or give seconds)")
        if chance not in ("sample", "stratified"):
            raise ValueError("chance must be 'sample' or 'stratified'")
        if backup not in ("mean", "max"):
            raise ValueError("backup must be 'mean' or 'max' (max/expectation)")
        if horizon not in ("game", "turn"):
            raise ValueError("horizon must be 'game' or 'turn'")
        if fpu_mode not in ("fixed", "parent"):
            raise ValueError("fpu_mode must be 'fixed' (unvisited moves valued at fpu) or "
                             "'parent' (at the parent's value minus fpu)")
        if cut not in ("score", "leaf"):
            raise ValueError("cut must be 'score' (a rollout cut at its depth is valued by "
                             "the running scores) or 'leaf' (by the leaf value)")
        if cut == "leaf" and leaf_value is None:
            raise ValueError("cut=leaf values rollout cuts with the leaf value: give one "
                             "(e.g. leaf=fitted)")
        if not 0.0 <= prior < 1.0:
            raise ValueError("prior (the heuristic move's share of the priors) must be in [0, 1)")
        self.simulations, self.seconds = int(simulations), seconds
        self.rollout, self.reuse, self.evaluator = rollout, reuse, evaluator
        self.leaf_batch = int(leaf_batch)
        puct = evaluator is not None or prior > 0.0
        default_c = 1.5 if puct else 2.0
        self.leaf_value = leaf_value
        self.params = np.array([default_c if c is None else c, 1.0 if puct else 0.0,
                                rollout_depth, 1.0 if chance == "stratified" else 0.0, fpu,
                                (2.0 if cut == "leaf" else 1.0) if leaf_value is not None
                                else 0.0,
                                1.0 if backup == "max" else 0.0,
                                1.0 if horizon == "turn" else 0.0, 0.0, 0.0, prior, -1.0,
                                1.0 if fpu_mode == "parent" else 0.0],
                               dtype=np.float64)
        if leaf_weights is not None:
            self.params = np.concatenate([self.params, np.asarray(leaf_weights, np.float64)])
        self.tree = Tree(max_nodes)
        self._rng = new_rng(0)        # reseeded in place per move (a forest holds a view)
        self.name = f"mcts:{simulations}" if seconds is None else f"mcts:{seconds}s"
        self._root_state: np.ndarray | None = None
        self.last_simulations = 0

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.tree.clear()
        self._root_state = None

    # --- acting ---------------------------------------------------------------------------

    def set_time_budget(self, seconds: float) -> bool:
        self.seconds = float(seconds)
        return True

    def act(self, env) -> int:
        self._move_started = time.perf_counter()    # a time budget counts the whole move
        game = env.unwrapped                  # PettingZoo wrappers hide the kernel env
        spec = game.spec
        state = game.state.copy()
        self._prepare_root(spec, state)
        self._search(spec, state)
        return self.best_action()

    def best_action(self) -> int:
        """Most visited root move; ties go to the higher mean value."""
        children = self.tree.root_children()
        if not children:
            raise ValueError("the root has no legal move")
        return max(children, key=lambda c: (c[1], c[2]))[0]

    def _prepare_root(self, spec: GameSpec, state: np.ndarray) -> None:
        if self.params[search.P_PRIOR] > 0.0 and "rollout_policy" not in spec.kernels:
            raise ValueError(f"prior needs a heuristic move; {spec.name} has no rollout policy")
        _, _, find, _ = compiled_search(spec, self.rollout, self.leaf_value)
        tree = self.tree
        found = -1
        if self.reuse and self._root_state is not None and \
                self._root_state.shape == state.shape:
            found = int(find(self._root_state, state, tree.nodes, tree.edges, tree.meta, 64))
        if found > 0:
            tree.reroot(found)
        elif found < 0:
            tree.clear()
        self._root_state = state
        self.params[P_OWNER_SLOT] = spec.turn_owner_slot
        self.params[P_ROOT_OWNER] = state[spec.turn_owner_slot]
        seed_rng(self._rng, np.uint64(int(self.rng.integers(2**63))))

    def _search(self, spec: GameSpec, state: np.ndarray) -> None:
        simulate, select_leaves, _, masks_of = compiled_search(spec, self.rollout, self.leaf_value)
        tree = self.tree
        work = np.empty_like(state)
        mask = np.zeros(spec.num_actions, dtype=MASK_DTYPE)
        codes = np.zeros(max(spec.max_chance_outcomes, 1), dtype=np.int64)
        probs = np.zeros(max(spec.max_chance_outcomes, 1), dtype=np.float64)
        started = getattr(self, "_move_started", None) or time.perf_counter()
        deadline = None if self.seconds is None else started + self.seconds
        done = 0
        chunk = self.leaf_batch if self.evaluator else 64
        searching = time.perf_counter()
        while True:
            todo = min(chunk, self.simulations - done) if deadline is None else \
                self._timed_chunk(chunk, done, searching, deadline)
            if todo <= 0:
                break
            if self.evaluator is None:
                simulate(todo, state, tree.nodes, tree.values, tree.edges, tree.priors,
                         tree.meta, self.params, self._rng, work, mask, codes, probs)
            else:
                self._evaluate_leaves(spec, todo, state, select_leaves, masks_of, mask,
                                      codes, probs)
            done += todo
            if deadline and time.perf_counter() >= deadline and done >= 1:
                break
        self.last_simulations = done
        self._move_started = None

    def _timed_chunk(self, chunk: int, done: int, searching: float, deadline: float) -> int:
        """Simulations for the next step of a timed search: what the time left allows at
        the speed so far (a few to start), so the move overshoots its budget by about one
        simulation rather than a whole chunk."""
        if done == 0:
            return min(chunk, 4)
        per_simulation = (time.perf_counter() - searching) / done
        left = deadline - time.perf_counter()
        return max(1, min(chunk, int(left / max(per_simulation, 1e-9))))

    def _evaluate_leaves(self, spec, batch, state, select_leaves, masks_of, mask, codes,
                         probs):
        drive(self.leaf_round(spec, batch, state, select_leaves, masks_of, mask, codes, probs),
              self.evaluator)

    def leaf_round(self, spec, batch, state, select_leaves, masks_of, mask, codes, probs):
        """One round of the leaf hook as a generator: yields ``(leaf_states, masks)``, takes
        ``(values, priors)`` back, backs them up (a lockstep driver batches many searches'
        rounds into one network call)."""
        tree = self.tree
        players = int(state[H_NUM_PLAYERS])
        leaf_states = np.empty((batch, state.shape[0]), dtype=state.dtype)
        leaf_nodes = np.zeros(batch, dtype=np.int64)
        leaf_values = np.zeros((batch, players), dtype=np.float64)
        terminal = np.zeros(batch, dtype=np.int8)
        select_leaves(batch, state, tree.nodes, tree.values, tree.edges, tree.priors,
                      tree.meta, self.params, self._rng, leaf_states, leaf_nodes, leaf_values,
                      terminal, mask, codes, probs)
        masks = np.zeros((batch, spec.num_actions), dtype=MASK_DTYPE)
        masks_of(leaf_states, masks)
        values, priors = yield leaf_states, masks
        values = np.asarray(values, dtype=np.float64).reshape(batch, players)
        leaf_values[terminal == 0] = values[terminal == 0]
        priors = np.ascontiguousarray(priors, dtype=np.float64).reshape(batch, spec.num_actions)
        search.finish_leaves(batch, players, tree.nodes, tree.values, tree.edges, tree.priors,
                             leaf_nodes, leaf_values, priors, True, self.params)

    @property
    def root(self) -> int:
        return int(self.tree.meta[M_ROOT])
