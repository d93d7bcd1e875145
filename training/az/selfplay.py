"""Self-play for the AlphaZero-style trainer: many games searched in lockstep, a replay
buffer, and the targets.

Every game keeps a :class:`~meeplezoo.agents.az.gumbel.GumbelMCTS`; their trees are one
forest of a :class:`~meeplezoo.agents.az.lockstep.LockstepSearch`, so a move of all games
at once selects the next leaves of every game in one compiled call, values them in one
forward pass and backs them up in another (:meth:`LockstepSelfPlay.play_moves`).  Chance
nodes come from the game's exact outcomes inside the search; the network only values
positions.

Playout-cap randomisation (KataGo): a move gets the full budget with probability
``full_fraction`` and is then recorded as a training position (its target policy is the
search's improved policy); the other moves use ``fast_simulations`` and are not recorded.
When a game ends, each recorded position gets its targets from the seat that was to move,
in that seat's rotated order (see ``agents/az/network.py``): every seat's value, and every
seat's score margin over the best other seat at the end.  The value target is
``(1 - value_mix) * final reward + value_mix * search value`` (win/loss, ties shared; the
search value is every seat's mean below the move played).  With the outcome alone
(``value_mix = 0``) each game's positions all share one target, and a network trained on a
few thousand games learns to recognise the games instead of judging positions: the first
shipped bots' values averaged |v| = 0.9 on their buffers and 0.99 at move one.  Mixing in
the search's value ("Value targets in off-policy AlphaZero", Willemsen et al. 2021) gives
each position its own, less noisy target.

``rule_options`` go to every self-play game, e.g. ``{"max_decisions": 600}`` for Hansa
Teutonica, whose games between untrained players otherwise run to its 3,000-decision cap
(the first shipped bot's 256 opening games never ended in 1.45 M moves): a game cut off
is scored from the points at the cut (HT-9.5), as the env does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from meeplezoo.agents.az.evaluator import absolute_to_rotated, observers
from meeplezoo.agents.az.gumbel import GumbelMCTS
from meeplezoo.agents.az.knowledge import Knowledge, KnowledgeEvaluator
from meeplezoo.agents.az.lockstep import LockstepSearch
from meeplezoo.envs import make
from meeplezoo.envs.core.batch import observe_batch
from meeplezoo.envs.core.contract import GameSpec
from meeplezoo.envs.core.files import load_npz
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.training.run.checkpoint import atomic_write

BUFFER_FIELDS = ("obs", "masks", "policies", "values", "margins", "players")
"""A buffer row's arrays; ``players`` is the seat count of the row's game, so that one
buffer holds games at several counts and the value loss covers each row's own seats."""


def final_targets(env, margin_scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Per absolute seat: the final win/loss reward and the score margin over the best
    other seat (divided by ``margin_scale``)."""
    game = env.unwrapped
    players = game.num_players
    scores, tiebreaks = game.scores(), game.tiebreaks()
    rewards = np.zeros(players, dtype=np.float64)
    final_rewards(scores, tiebreaks, players, 0, 1.0, rewards)
    margins = np.array([scores[s] - np.delete(scores, s).max() for s in range(players)],
                       dtype=np.float64) / margin_scale
    return rewards, margins


@dataclass
class ReplayBuffer:
    """A ring of training positions (observations stored as float16 to halve memory)."""

    capacity: int
    obs_size: int
    num_actions: int
    seats: int
    size: int = 0
    cursor: int = 0
    arrays: dict = field(default_factory=dict)

    def __post_init__(self):
        if not self.arrays:
            self.arrays = {
                "obs": np.zeros((self.capacity, self.obs_size), dtype=np.float16),
                "masks": np.zeros((self.capacity, self.num_actions), dtype=np.int8),
                "policies": np.zeros((self.capacity, self.num_actions), dtype=np.float32),
                "values": np.zeros((self.capacity, self.seats), dtype=np.float32),
                "margins": np.zeros((self.capacity, self.seats), dtype=np.float32),
                "players": np.zeros(self.capacity, dtype=np.int8)}

    def add(self, **rows: np.ndarray) -> None:
        count = len(rows["obs"])
        for start in range(0, count, self.capacity):
            chunk = slice(start, min(count, start + self.capacity))
            n = chunk.stop - chunk.start
            where = (self.cursor + np.arange(n)) % self.capacity
            for name in BUFFER_FIELDS:
                self.arrays[name][where] = rows[name][chunk]
            self.cursor = int((self.cursor + n) % self.capacity)
            self.size = min(self.capacity, self.size + n)

    def sample(self, rng: np.random.Generator, batch: int) -> dict:
        rows = rng.integers(0, self.size, size=batch)
        return {name: self.arrays[name][rows] for name in BUFFER_FIELDS}

    def save(self, path: Path) -> None:
        arrays = {name: self.arrays[name][:self.size] for name in BUFFER_FIELDS}
        meta = np.array([self.capacity, self.cursor, self.size], dtype=np.int64)
        atomic_write(path, lambda file: np.savez(file, meta=meta, **arrays))

    @classmethod
    def load(cls, path: Path, capacity: int, obs_size: int, num_actions: int,
             seats: int, players: int = 2) -> ReplayBuffer:
        """The buffer saved at ``path``, every array checked (no pickles are read); a
        buffer saved before rows kept their seat count has ``players`` at every row."""
        buffer = cls(capacity, obs_size, num_actions, seats)
        try:               # a regular file, bounded, headers checked before allocating
            data = load_npz(path, "positions")
            saved_capacity, cursor, size = (int(x) for x in data["meta"])
            loaded = {name: data[name] for name in BUFFER_FIELDS if name != "players"}
            loaded["players"] = (data["players"] if "players" in data
                                 else np.full(size, players, dtype=np.int8))
        except (OSError, ValueError, KeyError, EOFError) as err:
            raise ValueError(f"{path} is not a readable replay buffer: {err}") from None
        shapes = {"obs": (size, obs_size), "masks": (size, num_actions),
                  "policies": (size, num_actions), "values": (size, seats),
                  "margins": (size, seats), "players": (size,)}
        for name, array in loaded.items():
            if array.shape != shapes[name] or array.dtype != buffer.arrays[name].dtype:
                raise ValueError(f"{path}: {name} has shape {array.shape} {array.dtype}, "
                                 f"expected {shapes[name]} {buffer.arrays[name].dtype}")
            if array.dtype.kind == "f" and not np.isfinite(array).all():
                raise ValueError(f"{path}: {name} holds NaN or infinite values")
        if size and not (2 <= loaded["players"].min() and loaded["players"].max() <= seats):
            raise ValueError(f"{path}: seat counts outside 2-{seats}")
        if saved_capacity != capacity or not 0 <= cursor < max(capacity, 1) or size > capacity:
            raise ValueError(f"{path}: saved for a buffer of {saved_capacity} positions "
                             f"(cursor {cursor}, size {size}); this run keeps {capacity}")
        for name, array in loaded.items():
            buffer.arrays[name][:size] = array
        buffer.size, buffer.cursor = size, cursor
        return buffer


class LockstepSelfPlay:
    """``num_games`` games of self-play, searched in lockstep (module docstring)."""

    def __init__(self, spec: GameSpec, num_games: int, players: int, simulations: int,
                 fast_simulations: int, full_fraction: float, considered: int,
                 margin_scale: float, seed: int, leaf_batch: int = 4,
                 rule_options: dict | None = None, value_mix: float = 0.0,
                 knowledge: dict | None = None, explore_moves: int = 0,
                 late_gumbel: float = 1.0, q_scale: float = 0.1,
                 opponents: tuple[str, ...] = (),
                 opponent_share: float = 0.0):
        if not 0.0 <= value_mix <= 1.0:
            raise ValueError(f"value_mix must be in [0, 1], got {value_mix}")
        # The search's knowledge (agents/az/knowledge.py), mixed into every leaf the
        # network values; its lam follows the trainer's schedule (set_lam).
        mix = Knowledge(**(knowledge or {}))
        self.knowledge = KnowledgeEvaluator(None, spec, mix, seed) if mix.used else None
        # Exploration: the first ``explore_moves`` decisions of a game pick the played
        # move with full Gumbel noise, later ones with ``late_gumbel`` (0: the search's
        # best), so self-play stops wandering once the opening has been varied; the
        # targets keep the full search either way.  0: noise at every move.
        self.explore_moves, self.late_gumbel = int(explore_moves), float(late_gumbel)
        # A share of the games seats one of ``opponents`` (greedy, mcts:N...) at a random
        # seat: values learnt only from games against itself did not transfer to other
        # players.  Its moves are played, never searched nor recorded.
        # ``past`` is the learner itself as it was at earlier checkpoints (remember()).
        from meeplezoo.agents.registry import make_agent

        self.past = PastSelves(spec, seed) if PAST in opponents else None
        self.opponents = [self.past if name == PAST else make_agent(name, spec.name, seed=seed + k)
                          for k, name in enumerate(opponents)]
        self.opponent_share = float(opponent_share) if self.opponents else 0.0
        self.opponent_of: list[tuple | None] = [None] * num_games
        self.opponent_moves = 0
        self.spec, self.players, self.value_mix = spec, players, float(value_mix)
        self.simulations, self.fast_simulations = simulations, fast_simulations
        self.full_fraction, self.margin_scale = full_fraction, margin_scale
        self.rng = np.random.default_rng(seed)
        self.envs = [make(spec.name, num_players=players, **(rule_options or {}))
                     for _ in range(num_games)]
        self.searches = [GumbelMCTS(simulations, evaluator=_unused, considered=considered,
                                    leaf_batch=leaf_batch, c_scale=q_scale,
                                    seed=seed * 7919 + g)
                         for g in range(num_games)]
        self.lockstep = LockstepSearch(spec, self.searches,
                                       capacity=max(simulations, fast_simulations))
        self.pending: list[list[tuple]] = [[] for _ in range(num_games)]
        for g, env in enumerate(self.envs):
            env.reset(seed=int(self.rng.integers(1 << 62)))
            self._deal(g)
        self.games_finished = 0
        self.moves_played = 0
        self.moves_by_game = np.zeros(num_games, dtype=np.int64)
        self.moves_in_game = np.zeros(num_games, dtype=np.int64)
        self.positions_recorded = 0     # full-budget moves: training positions

    def set_lam(self, lam: float) -> None:
        """The network's share of the leaf value from now on (the heuristic has the rest)."""
        if self.knowledge is not None:
            self.knowledge.set_lam(lam)

    def play_moves(self, evaluator, moves: int | None = None) -> dict:
        """Play ``moves`` moves in all (default: one per game); returns the positions of
        the games that ended (targets filled in) as arrays ready for the buffer.

        The games do not wait for each other: a game whose search is done plays its move
        and starts its next search within the same lockstep run, so a cheap move (the
        fast playout cap) never idles while another game's full search goes on, and every
        network call sees leaves of nearly every game.  Once ``moves`` moves are played,
        the searches under way finish and play their moves too (none is wasted), so a
        call may play up to ``num_games - 1`` more.
        """
        target = self.moves_played + (len(self.envs) if moves is None else int(moves))
        full = np.zeros(len(self.envs), dtype=bool)
        finished: list[dict] = []

        def begin(g: int) -> None:
            full[g] = self.rng.random() < self.full_fraction
            search = self.searches[g]
            search.simulations = self.simulations if full[g] else self.fast_simulations
            if self.explore_moves:
                search.gumbel_scale = 1.0 if self.moves_in_game[g] < self.explore_moves \
                    else self.late_gumbel

        def move_made(g: int):
            """Search ``g`` is done: play its move; the next position to search, if any."""
            env, search = self.envs[g], self.searches[g]
            if full[g]:
                self.pending[g].append(self._position(env, search))
                self.positions_recorded += 1
            env.step(search.best_action())
            self.moves_played += 1
            self.moves_by_game[g] += 1
            self.moves_in_game[g] += 1
            if env.game_over:
                self._next_game(g, finished)
            self._advance(g, finished)
            if self.moves_played >= target:
                return None
            begin(g)
            return env.unwrapped.state

        if self.knowledge is not None:
            self.knowledge.evaluator, evaluator = evaluator, self.knowledge
        for g in range(len(self.envs)):
            self._advance(g, finished)
            begin(g)
        self.lockstep.run(np.stack([env.unwrapped.state for env in self.envs]), evaluator,
                          next_position=move_made)
        return {name: np.concatenate([rows[name] for rows in finished])
                for name in BUFFER_FIELDS} if finished else {}

    def _next_game(self, g: int, finished: list) -> None:
        """Game ``g`` is over: its positions to ``finished``, a new deal in its place."""
        rows = self._close(g)
        if rows:
            finished.append(rows)
        self.envs[g].reset(seed=int(self.rng.integers(1 << 62)))
        self.moves_in_game[g] = 0
        self._deal(g)

    def _deal(self, g: int) -> None:
        """Whether game ``g`` seats an opponent, which one, and where."""
        self.opponent_of[g] = None
        if self.opponent_share and self.rng.random() < self.opponent_share:
            opponent = self.opponents[int(self.rng.integers(len(self.opponents)))]
            if opponent is self.past:
                opponent = self.past.pick()            # None before the first checkpoint
            if opponent is not None:
                self.opponent_of[g] = (int(self.rng.integers(self.players)), opponent)

    def remember(self, network) -> None:
        """Add the learner's network as it is now to the ``past`` opponents (if any)."""
        if self.past is not None:
            self.past.add(network)

    def _advance(self, g: int, finished: list) -> None:
        """Play game ``g``'s opponent moves until the network's seat is to move."""
        env = self.envs[g]
        while self.opponent_of[g] is not None:
            seat, agent = self.opponent_of[g]
            if env.game_over:
                self._next_game(g, finished)
            elif env.agent_name_mapping[env.agent_selection] == seat:
                env.step(int(agent.act(env)))
                self.opponent_moves += 1
            else:
                return

    def _position(self, env, search) -> tuple:
        """What a training position needs, kept small until its game ends: the state and
        the search's improved policy and value (observation and mask come in one batch at
        the end)."""
        actions, probabilities = search.improved_policy()
        return (env.unwrapped.state.copy(), actions, probabilities.astype(np.float32),
                search.chosen_values(self.players))

    def _close(self, g: int) -> dict | None:
        """The finished game's recorded positions as buffer rows (None if it recorded
        none), targets from each position's mover (rotated order)."""
        self.games_finished += 1
        pending, self.pending[g] = self.pending[g], []
        if not pending:
            return None
        rewards, margins = final_targets(self.envs[g], self.margin_scale)
        states = np.stack([position[0] for position in pending])
        seats = observers(self.spec, states)
        masks = np.zeros((len(states), self.spec.num_actions), dtype=np.int8)
        self.lockstep.module.masks_of(states, masks)
        policies = np.zeros((len(states), self.spec.num_actions), dtype=np.float32)
        for row, (_, actions, probabilities, _) in enumerate(pending):
            policies[row, actions] = probabilities
        searched = np.stack([position[3] for position in pending])
        values = (1.0 - self.value_mix) * rewards[None, :] + self.value_mix * searched
        width = self.spec.max_players
        return {"obs": observe_batch(self.spec, states, seats), "masks": masks,
                "policies": policies,
                "values": absolute_to_rotated(values, seats, width),
                "margins": absolute_to_rotated(np.tile(margins, (len(seats), 1)), seats, width),
                "players": np.full(len(seats), self.players, dtype=np.int8)}


PAST = "past"
"""The ``--opponents`` name of the learner's own earlier networks."""


class PastSelf:
    """A frozen copy of the learner's network playing its policy: it samples its move
    from the network's priors (with its own generator), so past selves vary the games."""

    def __init__(self, network, spec: GameSpec, seed: int):
        import copy

        from meeplezoo.agents.az.play_evaluator import play_evaluator

        self.evaluator = play_evaluator(copy.deepcopy(network).cpu().eval(), spec)
        self.rng = np.random.default_rng(seed)

    def act(self, env) -> int:
        game = env.unwrapped
        mask = np.asarray(game.action_mask(), np.int8)
        priors = self.evaluator(game.state[None, :], mask[None, :])[1][0]
        priors = np.where(mask != 0, np.maximum(priors, 0.0), 0.0)
        if priors.sum() <= 0:
            return int(self.rng.choice(np.flatnonzero(mask)))
        return int(self.rng.choice(len(priors), p=priors / priors.sum()))


class PastSelves:
    """The last :data:`POOL_SIZE` networks the trainer remembered; a game against the
    past meets one of them, drawn uniformly."""

    POOL_SIZE = 4

    def __init__(self, spec: GameSpec, seed: int):
        self.spec, self.seed, self.pool = spec, seed, []
        self.rng = np.random.default_rng(seed)

    def add(self, network) -> None:
        self.pool = [*self.pool, PastSelf(network, self.spec, self.seed + len(self.pool))
                     ][-self.POOL_SIZE:]

    def pick(self):
        return self.pool[int(self.rng.integers(len(self.pool)))] if self.pool else None


def _unused(states, masks):
    raise RuntimeError("lockstep searches are answered by play_moves, not called directly")
