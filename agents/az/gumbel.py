"""A Gumbel root for the network-guided search (Danihelka et al., "Policy improvement by
planning with Gumbel", ICLR 2022), for small simulation budgets.

At the root, ``considered`` moves are drawn without replacement by adding Gumbel noise
g(a) to the network's logits (the Gumbel-top-k trick).  Sequential halving then splits
the budget over ceil(log2(considered)) phases: in each, every remaining move gets an equal
share of the phase's simulations (the search's root-action parameter forces that move),
then the half with the lower g(a) + logit(a) + sigma(q(a)) is dropped.  The move played
is the best remaining one.  Below the root the search is the usual PUCT.

``improved_policy`` is the training target: softmax(logits + sigma(completed q)), where a
move never visited gets the mixed value estimate of the root in place of its q, and
sigma(q) = (c_visit + max visits) * c_scale * q', with q' the completed q rescaled to
[0, 1] over the root's moves (min to max) and c_visit = 50, c_scale = 0.1, as in the
paper's reference implementation (mctx's ``qtransform_completed_by_mix_value``).  Without
the rescaling and with c_scale = 1, one or two noisy visits made the target nearly
one-hot.  With it, noisy q are still stretched to the full scale: self-play sets c_scale
with ``--q-scale`` (a strong prior searched with noisy leaves, a rollout or a weak value
head, keeps itself at 0.005, not at 0.1; BENCHMARKS.md, Serenissima and Saint Malo).
"""

from __future__ import annotations

import math

import numpy as np

from meeplezoo.agents.mcts.agent import MCTSAgent
from meeplezoo.agents.mcts.search import P_ROOT_ACTION
from meeplezoo.agents.mcts.tree import ACTION, CHILD, FIRST_EDGE, NUM_EDGES, PLAYER, VISITS
from meeplezoo.agents.mcts.uct import completed_root_q


def halving_phases(simulations: int, considered: int) -> list[int]:
    """Simulations per remaining move in each phase: ceil(log2 m) phases, the moves halved
    after each, every phase an equal part of the budget (the last one what is left), then
    the rounding's remainder to the single move left.  The total never exceeds
    ``simulations``; phases stop when a round of one visit per remaining move no longer
    fits."""
    if considered <= 1:
        return [simulations] if simulations > 0 else []
    phases = math.ceil(math.log2(considered))
    shares, remaining, left = [], considered, simulations
    for phase in range(phases):
        budget = left if phase == phases - 1 else simulations // phases
        share = min(max(1, budget // remaining), left // remaining)
        if share < 1:
            break
        shares.append(share)
        left -= share * remaining
        remaining = math.ceil(remaining / 2)
    if len(shares) == phases and left > 0:
        shares.append(left)          # the rounding's remainder: to the one move left
    return shares


def _softmax(logits: np.ndarray) -> np.ndarray:
    p = np.exp(logits - logits.max())
    return p / p.sum()


def sigma(q: np.ndarray, max_visits: int, c_visit: float, c_scale: float) -> np.ndarray:
    """The monotone transform of the completed q: rescaled to [0, 1] over the moves, then
    scaled by the visits so far (more visits, more trust in q against the prior)."""
    low, high = q.min(), q.max()
    rescaled = (q - low) / max(high - low, 1e-8)
    return (c_visit + max_visits) * c_scale * rescaled


class GumbelMCTS(MCTSAgent):
    """``MCTSAgent`` with a Gumbel root (see the module docstring); needs an evaluator.

    Its tree lives in a :class:`~meeplezoo.agents.az.lockstep.LockstepSearch` forest: one
    of its own when it plays alone (``act``), or a slot of self-play's forest, where many
    games' leaves share each network call.  Both run the same code in the same order, so
    a game searched alone and in lockstep plays the same moves.
    """

    def __init__(self, simulations: int, evaluator, considered: int = 16,
                 c_visit: float = 50.0, c_scale: float = 0.1, gumbel_scale: float = 1.0,
                 **kwargs):
        if evaluator is None:
            raise ValueError("a Gumbel root needs a network evaluator (its priors)")
        if considered < 1:
            raise ValueError("considered must be >= 1")
        # the real tree comes from a forest (a search adds one node per simulation)
        super().__init__(simulations=simulations, evaluator=evaluator, reuse=False,
                         max_nodes=2, **kwargs)
        self.considered, self.c_visit, self.c_scale = int(considered), c_visit, c_scale
        self.gumbel_scale = gumbel_scale
        self.chosen = -1
        self._root_stats: tuple | None = None
        self._alone = None

    def set_time_budget(self, seconds: float) -> bool:
        return False        # sequential halving splits a number of simulations, not seconds

    def act(self, env) -> int:
        from .lockstep import LockstepSearch

        game = env.unwrapped
        if self._alone is None or self._alone.spec is not game.spec or \
                self._alone.capacity < self.simulations:
            self._alone = LockstepSearch(game.spec, [self])
        self._alone.run(game.state[None, :], self.evaluator)
        return self.best_action()

    def root_schedule(self, spec, state: np.ndarray):
        """The search of ``state`` as a generator of work: each item is an array of root
        moves, one simulation to run below each (-1: select it); the driver runs them
        (``LockstepSearch``) and resumes the generator once they are backed up.  When it
        stops, :meth:`best_action` and :meth:`improved_policy` hold the result."""
        self._prepare_root(spec, state)
        yield np.array([-1])                   # expand the root: the network's view
        tree, root = self.tree, self.root
        player = int(tree.nodes[root, PLAYER])
        root_value = float(tree.values[root, player])
        edges = self._root_edges()
        actions = tree.edges[edges, ACTION].astype(np.int64)
        logits = np.log(np.maximum(tree.priors[edges].astype(np.float64), 1e-30))
        noise = self.gumbel_scale * self.rng.gumbel(size=actions.size)
        # m <= budget, so every considered move is visited at least once
        considered = min(self.considered, max(1, self.simulations - 1))
        remaining = np.argsort(-(noise + logits), kind="stable")[:considered]
        prior = _softmax(logits)
        done = 1
        for share in halving_phases(self.simulations - 1, len(remaining)):
            # move by move, so each of a move's simulations sees the previous ones backed up
            yield np.tile(actions[remaining], share)
            done += share * len(remaining)
            q, visits = self._completed_q(edges, player, root_value, logits, prior)
            score = noise + logits + sigma(q, visits.max(), self.c_visit, self.c_scale)
            remaining = remaining[np.argsort(-score[remaining], kind="stable")]
            remaining = remaining[:max(1, math.ceil(len(remaining) / 2))]
        self.params[P_ROOT_ACTION] = -1
        self.chosen = int(actions[remaining[0]])
        self.last_simulations = done
        self._root_stats = (actions, edges, player, root_value, logits)

    def _root_edges(self) -> np.ndarray:
        first = int(self.tree.nodes[self.root, FIRST_EDGE])
        return np.arange(first, first + int(self.tree.nodes[self.root, NUM_EDGES]))

    def _completed_q(self, edges, player, root_value, logits, prior=None):
        """(q of each root move for the root's player, visits of each): unvisited moves
        get the mixed value (the network's root value blended with the prior-weighted
        visited q); compiled, as sequential halving asks for it after every phase."""
        prior = _softmax(logits) if prior is None else prior
        q = np.zeros(len(edges))
        visits = np.zeros(len(edges), dtype=np.int64)
        completed_root_q(self.tree.nodes, self.tree.values, self.tree.edges, self.root,
                         player, root_value, prior, q, visits)
        return q, visits

    def best_action(self) -> int:
        if self.chosen < 0:
            raise ValueError("no search has run")
        return self.chosen

    def chosen_values(self, players: int) -> np.ndarray:
        """Every seat's mean value (absolute seats) below the move played: the search's
        estimate of the position under its improved policy, a value target with far less
        noise than one game's outcome.  The root's mean if that move was never visited."""
        if self._root_stats is None:
            raise ValueError("no search has run")
        actions, edges, _, _, _ = self._root_stats
        tree = self.tree
        child = int(tree.edges[edges[np.flatnonzero(actions == self.chosen)[0]], CHILD])
        node = child if child >= 0 and tree.nodes[child, VISITS] > 0 else self.root
        return tree.values[node, :players] / tree.nodes[node, VISITS]

    def improved_policy(self) -> tuple[np.ndarray, np.ndarray]:
        """(root moves, their probabilities under the improved policy)."""
        if self._root_stats is None:
            raise ValueError("no search has run")
        actions, edges, player, root_value, logits = self._root_stats
        q, visits = self._completed_q(edges, player, root_value, logits)
        return actions, _softmax(logits + sigma(q, visits.max(), self.c_visit, self.c_scale))
