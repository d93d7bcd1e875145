"""The search's game knowledge inside the network search.

``mcts:1000`` is strong because it values leaves with the game's compiled heuristic (Saint
Malo, Hansa Teutonica, Carcassonne) or heuristic rollouts (Hansa, Serenissima) and puts a
share of each prior on the heuristic's move (``agents/mcts_spec.py``
``GAME_MCTS_DEFAULTS``).  A network trained from nothing knows none of that, so the
network search can borrow it:

* leaf value ``lam * network + (1 - lam) * heuristic`` (``lam`` = 1: the network alone;
  0: the heuristic alone, as ``mcts:N`` values its leaves);
* priors ``(1 - prior_mix) * network + prior_mix * one-hot(heuristic move)``.

The heuristic is the game's own, with the tuned search's settings (its leaf value, or its
rollout policy and depth), computed for a whole batch of leaves in one compiled call of
the game's copy of the search (``search.py``: ``heuristic_values`` / ``heuristic_moves``,
cached on disk like the rest).  :class:`KnowledgeEvaluator` wraps any evaluator
``(states, masks) -> (values, priors)``, so self-play's lockstep forest and the play-time
search use the same mixing.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from meeplezoo.agents.mcts_spec import mcts_agent
from meeplezoo.envs.core.contract import H_NUM_PLAYERS, MASK_DTYPE, GameSpec
from meeplezoo.envs.core.rng import new_rng


@dataclasses.dataclass(frozen=True)
class Knowledge:
    """How much of the search's knowledge a network search uses."""

    lam: float = 1.0
    """weight of the network's leaf value against the heuristic's (1: network alone)"""
    prior_mix: float = 0.0
    """share of each prior put on the heuristic's move (0: the network's priors alone)"""
    rollouts: int = 1
    """heuristic rollouts per leaf, in games valued by rollouts"""
    leaf: str = ""
    """the heuristic's leaf: "" the tuned search's, "heuristic" the hand-set leaf value,
    "fitted" the value fitted to game results that ships for the game"""
    depth: int = 0
    """the heuristic rollouts' depth (0: the tuned search's)"""
    cut: str = "score"
    """a rollout cut at its depth valued by the running scores or by the ``leaf``"""

    def __post_init__(self):
        for name, value, low, high in (("lam", self.lam, 0.0, 1.0),
                                       ("prior_mix", self.prior_mix, 0.0, 1.0)):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or \
                    not math.isfinite(value) or not low <= value <= high:
                raise ValueError(f"{name} must be a number in [{low:g}, {high:g}], "
                                 f"got {value!r}")
        if isinstance(self.rollouts, bool) or not isinstance(self.rollouts, int) or \
                not 1 <= self.rollouts <= 64:
            raise ValueError(f"rollouts must be an integer in 1..64, got {self.rollouts!r}")
        if self.leaf not in ("", "heuristic", "fitted"):
            raise ValueError(f"leaf must be '', 'heuristic' or 'fitted', got {self.leaf!r}")
        if self.cut not in ("score", "leaf") or isinstance(self.depth, bool) or \
                not isinstance(self.depth, int) or not 0 <= self.depth <= 100_000:
            raise ValueError(f"cut must be 'score' or 'leaf' and depth in 0..100,000, got "
                             f"{self.cut!r} and {self.depth!r}")

    @property
    def used(self) -> bool:
        return self.lam < 1.0 or self.prior_mix > 0.0

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    def search_options(self) -> list[str]:
        """The ``mcts:`` options that make the tuned search's heuristic this one."""
        return ([f"leaf={self.leaf}"] if self.leaf else []) + \
            ([f"depth={self.depth}"] if self.depth else []) + \
            (["cut=leaf"] if self.cut == "leaf" else [])


class HeuristicLeaves:
    """The game's heuristic values and moves for batches of positions (compiled)."""

    def __init__(self, spec: GameSpec, rollouts: int = 1, seed: int | None = 0,
                 leaf: str | None = None, options: tuple[str, ...] = ()):
        """``leaf``: ``heuristic`` (the compiled leaf value), ``fitted[:file]`` or
        ``rollout`` in place of what the game's tuned search uses (None); ``options``:
        more ``mcts:`` options (``depth=12``, ``cut=leaf``)."""
        from meeplezoo.agents.mcts.agent import search_module

        # the game's search defaults, the leaf's kind (and options) replaced where asked
        chosen = ([f"leaf={leaf}"] if leaf is not None else []) + list(options)
        tuned = mcts_agent(spec.name, None, ",".join(["1", *chosen]))
        module = search_module(spec, tuned.rollout, tuned.leaf_value)
        self.spec, self.rollouts = spec, int(rollouts)
        self._values, self._moves = module.heuristic_values, module.heuristic_moves
        self.params = tuned.params.copy()
        self.rng = new_rng(seed)
        self._mask = np.zeros(spec.num_actions, dtype=MASK_DTYPE)

    def values(self, states: np.ndarray) -> np.ndarray:
        """``[B, players]`` heuristic values in absolute seats."""
        states = np.ascontiguousarray(states)
        out = np.zeros((states.shape[0], int(states[0, H_NUM_PLAYERS])) if len(states)
                       else (0, 0), dtype=np.float64)
        self._values(states, self.params, self.rng, self.rollouts, self._mask, out)
        return out

    def moves(self, states: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The heuristic's move per row (-1 at chance nodes and finished games)."""
        out = np.full(states.shape[0], -1, dtype=np.int64)
        self._moves(np.ascontiguousarray(states), np.ascontiguousarray(masks, MASK_DTYPE),
                    self.rng, out)
        return out


class KnowledgeEvaluator:
    """``evaluator`` with the heuristic mixed into its values and priors (module doc)."""

    def __init__(self, evaluator, spec: GameSpec, knowledge: Knowledge,
                 seed: int | None = 0):
        self.evaluator, self.spec, self.knowledge = evaluator, spec, knowledge
        self.heuristic = HeuristicLeaves(spec, knowledge.rollouts, seed, None,
                                         tuple(knowledge.search_options()))

    def set_lam(self, lam: float) -> None:
        """A schedule's next weight (training hands the values over to the network)."""
        self.knowledge = dataclasses.replace(self.knowledge, lam=float(lam))

    def __call__(self, states: np.ndarray, masks: np.ndarray):
        values, priors = self.evaluator(states, masks)
        return self.mix(states, masks, values, priors)

    def mix(self, states, masks, values, priors):
        lam, prior_mix = self.knowledge.lam, self.knowledge.prior_mix
        if lam < 1.0:
            values = lam * np.asarray(values, np.float64) + \
                (1.0 - lam) * self.heuristic.values(states)
        if prior_mix > 0.0:
            moves = self.heuristic.moves(states, masks)
            rows = np.flatnonzero(moves >= 0)
            priors = np.array(priors, dtype=np.float64, copy=True)
            priors[rows] *= 1.0 - prior_mix
            priors[rows, moves[rows]] += prior_mix
        return values, priors
