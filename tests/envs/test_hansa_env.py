"""Hansa through the PettingZoo API: conformance, seeding, rendering, bad input, JSON."""

from __future__ import annotations

import numpy as np
import pytest
from envtest import play_random

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.envs.hansa import data as D


def test_random_start_seat_and_full_game_rewards():
    env = hansa_v0.env(num_players=4, start_seat="random")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()) and not all(env.truncations.values()):
        env.step(int(rng.choice(env.legal_actions())))
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert abs(sum(env.rewards.values())) < 1e-9
    assert max(env.rewards.values()) > 0


def test_turn_cap_truncates_instead_of_terminating():
    env = hansa_v0.env(num_players=2, max_turns=3)
    play_random(env, seed=1)
    assert env.state[D.G_TRUNCATED] == 1 and env.state[D.G_TURNS] == 3
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_illegal_start_city_is_named():
    """Beyond the shared check (test_env_conformance): the move is named in notation."""
    env = hansa_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    with pytest.raises(ValueError, match="start CPH"):
        env.step(D.A_INIT_PLACE + D.CPH)                   # never legal (HS-4.2)
    assert np.array_equal(env.state, before)


def test_stack_sizes_option():
    env = hansa_v0.env(num_players=3, stack_sizes="larger_last")
    env.reset(seed=0)
    assert env.state[D.G_STACK_END:D.G_STACK_END + 5].tolist() == [10, 20, 30, 40, 51]
    env = hansa_v0.env(num_players=3)
    env.reset(seed=0)
    assert env.state[D.G_STACK_END:D.G_STACK_END + 5].tolist() == [11, 21, 31, 41, 51]
    env = hansa_v0.env(num_players=2)
    env.reset(seed=0)
    assert np.diff([0, *env.state[D.G_STACK_END:D.G_STACK_END + 5]]).tolist() == [8, 8, 8, 7, 7]


def test_observation_rotates_seats_and_masks_only_the_mover():
    env = hansa_v0.env(num_players=3)
    env.reset(seed=2)
    play_random(env, seed=2, max_steps=40)
    obs = [env.observe(a)["observation"] for a in env.possible_agents]
    size = D.OBS_PLAYER_SIZE
    slot = lambda o, i: o[i * size:(i + 1) * size]  # noqa: E731
    assert np.array_equal(slot(obs[1], 0), slot(obs[0], 1))
    assert np.array_equal(slot(obs[2], 0), slot(obs[0], 2))
    assert np.array_equal(slot(obs[0], 0), slot(obs[1], 2))
    assert not slot(obs[0], 3).any()                              # padding for 4 seats
    assert np.array_equal(obs[0][4 * size:], obs[1][4 * size:])   # the board is shared
    on_turn = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and (mask.any() == (agent == on_turn))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_batched_stepper_plays_whole_games(num_players):
    from meeplezoo.envs.core.batch import BatchEnv, random_playouts

    batch = BatchEnv(hansa_v0.SPEC, 16, num_players=num_players, seed=1)
    batch.reset()
    finished = 0
    for _ in range(3000):
        rewards, done = batch.step(batch.random_actions())
        finished += int(done.sum())
        assert np.allclose(rewards.sum(axis=1), 0.0)
    assert finished >= 16 and batch.obs.shape == (16, D.OBS_SIZE)
    assert random_playouts(hansa_v0.SPEC, 10, num_players, seed=2) > 1000
