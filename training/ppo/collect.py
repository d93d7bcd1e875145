"""Self-play rollouts from a batched env: N games advanced by one compiled call per step.

Every step the policy is evaluated in one torch batch over the seat to move of each game,
``BatchEnv.step`` advances all N games, and one transition per game is stored.  The buffer
is flat (index ``t * N + game``); turns are multi-step and seats interleave, so each
transition also records its ``seat`` and ``next_index``, the index of the same seat's next
transition in the same game (-1 when the game ended there or the chain is still pending
at the end of the rollout).

Rewards: 0 on every intermediate step; when a game ends, each seat's final reward is added
to that seat's *last* transition in the game, which is marked ``done``.  (A seat whose
last decision of the game fell in an earlier rollout does not get it: that earlier rollout
bootstrapped its chain instead; see below.)

Bootstrap: a chain still pending when the rollout ends is bootstrapped with the value of
the seat's own observation of the current state of its game.  For the seat to move this is
exactly the value of its next decision; for the other seats it is their value estimate now
(their next decision has not come yet), computed by observing the state from their seat.

Opponents: ``collect(policy, opponent=net)`` with ``opponent_fraction`` > 0 plays the
first ``round(opponent_fraction * N)`` games as learner-vs-opponent: the learner holds one
seat per game (drawn at random, re-drawn whenever the game resets) and ``net`` plays the
others, with one extra batched forward over the opponent's rows.  The buffer keeps its
``[T*N]`` layout; ``weights`` is 1 on learner transitions and 0 on opponent ones, which are
never linked into a chain and get no reward (the learner seat's last transition gets its
final reward).  Each finished opponent game appends the learner's score (1 win, 0.5 tie,
0 loss, averaged over the other seats) to ``opponent_results``.  With no ``opponent`` (or
fraction 0) every seat of every game is the learner, every weight is 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from meeplezoo.agents.layers import masked_distribution
from meeplezoo.envs.core.batch import BatchEnv
from meeplezoo.envs.core.contract import OBS_DTYPE


@dataclass
class Rollout:
    """Flat tensors of ``T * N`` transitions (index ``t * N + game``)."""

    obs: torch.Tensor          # float32 [T*N, O], from the acting seat's point of view
    masks: torch.Tensor        # bool [T*N, A]
    actions: torch.Tensor      # int64 [T*N]
    logprobs: torch.Tensor     # float32 [T*N]
    values: torch.Tensor       # float32 [T*N]
    rewards: torch.Tensor      # float32 [T*N]
    dones: torch.Tensor        # float32 [T*N]: 1 on a seat's last transition of a game
    seats: torch.Tensor        # int64 [T*N]
    next_index: torch.Tensor   # int64 [T*N]: same seat's next transition, -1 if none
    bootstrap: torch.Tensor    # float32 [T*N]: value after a pending chain, 0 elsewhere
    weights: torch.Tensor      # float32 [T*N]: 1 learner transition, 0 opponent's


def compute_gae(rewards: torch.Tensor, values: torch.Tensor, dones: torch.Tensor,
                next_index: torch.Tensor, bootstrap: torch.Tensor, gamma: float,
                gae_lambda: float, num_envs: int, weights: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE along each seat's own chain; returns (advantages, returns).

    For transition i with next transition j = ``next_index[i]``: the next value is
    ``values[j]`` (or ``bootstrap[i]`` if j is -1 and i is not done, 0 if done), and
    ``A_i = delta_i + gamma * lambda * (1 - done_i) * A_j`` (0 past a pending chain).
    A chain's next transition always lies in a later step, so a backward sweep over the
    ``T`` steps (each vectorised over the N games) is enough.  Transitions of weight 0
    (an opponent's) are in no chain; their advantage is set to 0 and return to their value.
    """
    total = rewards.shape[0]
    has_next = next_index >= 0
    safe_next = torch.where(has_next, next_index, 0)
    next_values = torch.where(has_next, values[safe_next], bootstrap)
    not_done = 1.0 - dones
    deltas = rewards + gamma * next_values * not_done - values
    advantages = torch.zeros(total + 1, dtype=values.dtype)          # slot -1 is a 0
    continuation = torch.where(has_next, next_index, total)
    for t in reversed(range(total // num_envs)):
        rows = slice(t * num_envs, (t + 1) * num_envs)
        advantages[rows] = deltas[rows] + gamma * gae_lambda * not_done[rows] * \
            advantages[continuation[rows]]
    advantages = advantages[:total]
    if weights is not None:
        advantages = torch.where(weights > 0, advantages, torch.zeros_like(advantages))
    return advantages, advantages + values


class Collector:
    """Steps a :class:`BatchEnv` with a policy and fills a :class:`Rollout` per call."""

    def __init__(self, env: BatchEnv, num_steps: int, opponent_fraction: float = 0.0,
                 rng: np.random.Generator | None = None):
        if not 0.0 <= opponent_fraction <= 1.0:
            raise ValueError(f"opponent_fraction must lie in [0, 1], got {opponent_fraction}")
        self.env, self.num_steps = env, num_steps
        self.num_envs, self.num_players = env.batch_size, env.num_players
        spec = env.spec
        self.observe = spec.kernels["observe"]
        total = num_steps * self.num_envs
        self.obs = torch.zeros((num_steps, self.num_envs, spec.obs_size))
        self.masks = torch.zeros((num_steps, self.num_envs, spec.num_actions), dtype=torch.bool)
        self.actions = torch.zeros((num_steps, self.num_envs), dtype=torch.int64)
        self.logprobs = torch.zeros(total)
        self.values = torch.zeros(total)
        self.rewards = torch.zeros(total)
        self.dones = torch.zeros(total)
        self.seats = torch.zeros((num_steps, self.num_envs), dtype=torch.int64)
        self.next_index = torch.full((total,), -1, dtype=torch.int64)
        self.games = np.arange(self.num_envs)
        self.episodes: list[int] = []          # lengths (decisions) of games finished
        self.episode_length = np.zeros(self.num_envs, dtype=np.int64)
        self.weights = torch.ones(total)
        self.opponent_games = int(round(opponent_fraction * self.num_envs))
        self.rng = rng if rng is not None else np.random.default_rng()
        self.learner_seat = self.rng.integers(self.num_players, size=self.opponent_games)
        self.opponent_results: list[float] = []   # learner scores of finished opponent games
        env.reset()

    @torch.no_grad()
    def collect(self, policy: torch.nn.Module, device: torch.device | str = "cpu",
                opponent: torch.nn.Module | None = None) -> Rollout:
        """Play ``num_steps`` decisions in every game with ``policy`` (and ``opponent`` in
        the opponent games, if given); see the module doc."""
        env, n, k = self.env, self.num_envs, self.opponent_games if opponent is not None else 0
        weights = np.ones(self.num_steps * n, dtype=np.float32)
        last = np.full((n, self.num_players), -1, dtype=np.int64)   # per game, per seat
        next_index = np.full(self.num_steps * n, -1, dtype=np.int64)
        rewards = np.zeros(self.num_steps * n, dtype=np.float32)
        dones = np.zeros(self.num_steps * n, dtype=np.float32)
        for t in range(self.num_steps):
            obs, mask = torch.from_numpy(env.obs), torch.from_numpy(env.masks)
            self.obs[t].copy_(obs)
            self.masks[t].copy_(mask)
            self.seats[t].copy_(torch.from_numpy(env.to_move))
            logits, value = policy(self.obs[t].to(device))
            dist = masked_distribution(logits.cpu(), self.masks[t])
            action = dist.sample()
            seats = env.to_move
            theirs = np.zeros(n, dtype=bool)
            theirs[:k] = seats[:k] != self.learner_seat
            if theirs.any():
                opp = torch.from_numpy(np.flatnonzero(theirs))
                their_logits, _ = opponent(self.obs[t][opp].to(device))
                action[opp] = masked_distribution(their_logits.cpu(), self.masks[t][opp]).sample()
            rows = slice(t * n, (t + 1) * n)
            self.actions[t] = action
            self.logprobs[rows] = dist.log_prob(action)
            self.values[rows] = value.cpu()
            weights[rows] = ~theirs
            learner = np.flatnonzero(~theirs)
            index = t * n + learner
            previous = last[learner, seats[learner]]
            linked = previous >= 0
            next_index[previous[linked]] = index[linked]
            last[learner, seats[learner]] = index
            step_rewards, done = env.step(action.numpy())
            self.episode_length += 1
            finished = np.flatnonzero(done)
            if finished.size:
                ends = last[finished]                                # [k, P]
                valid = ends >= 0
                rewards[ends[valid]] += step_rewards[finished][valid]
                dones[ends[valid]] = 1.0
                last[finished] = -1
                if k:
                    self._report(finished[finished < k], step_rewards)
                if self.opponent_games:
                    redraw = finished[finished < self.opponent_games]
                    self.learner_seat[redraw] = self.rng.integers(self.num_players,
                                                                  size=redraw.size)
                self.episodes.extend(self.episode_length[finished].tolist())
                self.episode_length[finished] = 0
        bootstrap = self._bootstrap(policy, last, device)
        self.rewards.copy_(torch.from_numpy(rewards))
        self.dones.copy_(torch.from_numpy(dones))
        self.next_index.copy_(torch.from_numpy(next_index))
        self.weights.copy_(torch.from_numpy(weights))
        return Rollout(self.obs.view(-1, self.obs.shape[-1]),
                       self.masks.view(-1, self.masks.shape[-1]), self.actions.view(-1),
                       self.logprobs, self.values, self.rewards, self.dones,
                       self.seats.view(-1), self.next_index, bootstrap, self.weights)

    def _report(self, games: np.ndarray, step_rewards: np.ndarray) -> None:
        """The learner's score in each finished opponent game (vs the other seats)."""
        for game in games:
            rewards = np.asarray(step_rewards[game], dtype=np.float64)
            mine = rewards[self.learner_seat[game]]
            others = np.delete(rewards, self.learner_seat[game])
            score = ((mine > others).sum() + 0.5 * (mine == others).sum()) / max(others.size, 1)
            self.opponent_results.append(float(score))

    def _bootstrap(self, policy, last: np.ndarray, device) -> torch.Tensor:
        """Value of each pending chain's seat at the current state of its game."""
        bootstrap = torch.zeros(self.num_steps * self.num_envs)
        games, seats = np.nonzero(last >= 0)
        if games.size == 0:
            return bootstrap
        views = np.empty((games.size, self.env.spec.obs_size), dtype=OBS_DTYPE)
        for row, (game, seat) in enumerate(zip(games, seats, strict=True)):
            if seat == self.env.to_move[game]:
                views[row] = self.env.obs[game]
            else:
                self.observe(self.env.states[game], int(seat), views[row])
        values = policy.get_value(torch.from_numpy(views).to(device)).cpu()
        bootstrap[torch.from_numpy(last[games, seats])] = values
        return bootstrap
