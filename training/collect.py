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

Opponent pool (later step): every seat is played by the current policy here.  To play
some seats with past checkpoints, pass ``opponent``, a callable ``(obs, masks) -> actions``
with ``learner_seat[game, seat]`` False for its seats; their decisions are then not stored.
This hook is declared but not implemented yet (``Collector`` refuses an opponent).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from meeplezoo.agents.ppo.network import masked_distribution
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


def compute_gae(rewards: torch.Tensor, values: torch.Tensor, dones: torch.Tensor,
                next_index: torch.Tensor, bootstrap: torch.Tensor, gamma: float,
                gae_lambda: float, num_envs: int) -> tuple[torch.Tensor, torch.Tensor]:
    """GAE along each seat's own chain; returns (advantages, returns).

    For transition i with next transition j = ``next_index[i]``: the next value is
    ``values[j]`` (or ``bootstrap[i]`` if j is -1 and i is not done, 0 if done), and
    ``A_i = delta_i + gamma * lambda * (1 - done_i) * A_j`` (0 past a pending chain).
    A chain's next transition always lies in a later step, so a backward sweep over the
    ``T`` steps (each vectorised over the N games) is enough.
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
    return advantages, advantages + values


class Collector:
    """Steps a :class:`BatchEnv` with a policy and fills a :class:`Rollout` per call."""

    def __init__(self, env: BatchEnv, num_steps: int, opponent=None):
        if opponent is not None:
            raise NotImplementedError("an opponent pool of past checkpoints is a later step")
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
        env.reset()

    @torch.no_grad()
    def collect(self, policy: torch.nn.Module, device: torch.device | str = "cpu") -> Rollout:
        """Play ``num_steps`` decisions in every game with ``policy``; see the module doc."""
        env, n = self.env, self.num_envs
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
            rows = slice(t * n, (t + 1) * n)
            self.actions[t] = action
            self.logprobs[rows] = dist.log_prob(action)
            self.values[rows] = value.cpu()
            index = t * n + self.games
            seats = env.to_move
            previous = last[self.games, seats]
            linked = previous >= 0
            next_index[previous[linked]] = index[linked]
            last[self.games, seats] = index
            step_rewards, done = env.step(action.numpy())
            self.episode_length += 1
            finished = np.flatnonzero(done)
            if finished.size:
                ends = last[finished]                                # [k, P]
                valid = ends >= 0
                rewards[ends[valid]] += step_rewards[finished][valid]
                dones[ends[valid]] = 1.0
                last[finished] = -1
                self.episodes.extend(self.episode_length[finished].tolist())
                self.episode_length[finished] = 0
        bootstrap = self._bootstrap(policy, last, device)
        self.rewards.copy_(torch.from_numpy(rewards))
        self.dones.copy_(torch.from_numpy(dones))
        self.next_index.copy_(torch.from_numpy(next_index))
        return Rollout(self.obs.view(-1, self.obs.shape[-1]),
                       self.masks.view(-1, self.masks.shape[-1]), self.actions.view(-1),
                       self.logprobs, self.values, self.rewards, self.dones,
                       self.seats.view(-1), self.next_index, bootstrap)

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
