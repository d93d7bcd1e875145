"""Per-seat trajectories: linking, final rewards, GAE along each seat's chain."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

torch = pytest.importorskip("torch")


from meeplezoo.training.ppo.collect import Collector, compute_gae  # noqa: E402


def test_gae_interleaved_seats_hand_computed():
    # One game (copied into two games to exercise the per-step vectorisation):
    # i0 seat 0, i1 seat 0, i2 seat 1, i3 seat 0 -> game over (seat 0 +1, seat 1 -1);
    # i4 seat 1 in the next game, pending at the end of the rollout (bootstrap 0.5).
    nxt = [1, 3, -1, -1, -1]
    rewards, dones = [0, 0, -1, 1, 0], [0, 0, 1, 1, 0]
    values, boot = [0.1, 0.2, 0.3, 0.4, 0.6], [0, 0, 0, 0, 0.5]
    expected_adv = [0.50624, 0.592, -1.3, 0.6, -0.15]
    expected_ret = [0.60624, 0.792, -1.0, 1.0, 0.45]

    def two(xs, index=False):     # flat index t * 2 + game
        out = []
        for x in xs:
            out += [x * 2, x * 2 + 1] if index and x >= 0 else [x, x]
        return out

    adv, ret = compute_gae(torch.tensor(two(rewards), dtype=torch.float64),
                           torch.tensor(two(values), dtype=torch.float64),
                           torch.tensor(two(dones), dtype=torch.float64),
                           torch.tensor(two(nxt, index=True)),
                           torch.tensor(two(boot), dtype=torch.float64),
                           gamma=0.9, gae_lambda=0.8, num_envs=2)
    np.testing.assert_allclose(adv.numpy(), two(expected_adv), atol=1e-12)
    np.testing.assert_allclose(ret.numpy(), two(expected_ret), atol=1e-12)


class ScriptedEnv:
    """A BatchEnv stand-in: per game a script of (seat to move, game ends after it)."""

    def __init__(self, scripts, num_players=2, obs_size=3, num_actions=4):
        self.scripts, self.cursor = scripts, [0] * len(scripts)
        self.batch_size, self.num_players = len(scripts), num_players

        def observe(state, seat, out):
            out[:] = 0.0
            out[0] = 10.0 * (1 + seat) + state[0]   # value net reads obs[0]

        self.spec = SimpleNamespace(obs_size=obs_size, num_actions=num_actions,
                                    kernels={"observe": observe})
        self.obs = np.zeros((self.batch_size, obs_size), dtype=np.float32)
        self.masks = np.ones((self.batch_size, num_actions), dtype=np.int8)
        self.to_move = np.zeros(self.batch_size, dtype=np.int64)
        self.states = np.zeros((self.batch_size, 1), dtype=np.int64)

    def _write(self):
        for game, script in enumerate(self.scripts):
            self.to_move[game] = script[self.cursor[game]][0]
            self.states[game, 0] = self.cursor[game]
            self.spec.kernels["observe"](self.states[game], self.to_move[game], self.obs[game])

    def reset(self):
        self._write()

    def step(self, actions):
        rewards = np.zeros((self.batch_size, self.num_players))
        done = np.zeros(self.batch_size, dtype=np.int8)
        for game, script in enumerate(self.scripts):
            if script[self.cursor[game]][1]:
                done[game] = 1
                rewards[game] = [1.0, -1.0]
            self.cursor[game] += 1
        self._write()
        return rewards, done


class ObsValue(torch.nn.Module):
    def forward(self, obs):
        return torch.zeros(obs.shape[0], 4), obs[:, 0]

    def get_value(self, obs):
        return obs[:, 0]


def test_collector_links_seats_and_assigns_final_rewards():
    scripts = [
        [(0, False), (0, False), (1, False), (0, True), (1, False), (0, False)],
        [(1, False), (0, True), (0, False), (1, False), (1, False), (0, False)],
    ]
    collector = Collector(ScriptedEnv(scripts), num_steps=5)
    r = collector.collect(ObsValue())
    # flat index = t * 2 + game
    assert r.seats.tolist() == [0, 1, 0, 0, 1, 0, 0, 1, 1, 1]
    assert r.next_index.tolist() == [2, -1, 6, -1, -1, -1, -1, 9, -1, -1]
    assert r.dones.tolist() == [0, 1, 0, 1, 1, 0, 1, 0, 0, 0]
    assert r.rewards.tolist() == [0, -1, 0, 1, -1, 0, 1, 0, 0, 0]
    # Pending chains, valued from their own seat at the current state (cursor 5, where
    # seat 0 is to move in both games): game 0 seat 1 (i8, observed from seat 1), game 1
    # seat 0 (i5, the obs of the seat to move) and game 1 seat 1 (i9, from seat 1).
    expected = torch.zeros(10)
    expected[8], expected[5], expected[9] = 20.0 + 5, 10.0 + 5, 20.0 + 5
    assert r.bootstrap.tolist() == expected.tolist()
    # Every link stays in its game and seat and goes forward in time.
    for i, j in enumerate(r.next_index.tolist()):
        if j >= 0:
            assert j > i and j % 2 == i % 2 and r.seats[j] == r.seats[i]
