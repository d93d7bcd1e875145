"""Saint Malo through the PettingZoo API: conformance, seeding, rendering, bad input."""

from __future__ import annotations

import numpy as np

from meeplezoo.envs import saint_malo_v0


def test_options_change_the_rules():
    env = saint_malo_v0.env(num_players=2, start_coins=9, start_logs=0, start_crates=())
    env.reset(seed=1)
    assert env.scores().tolist() == [4, 4]                 # 9 // 2 coins, no logs


def test_observation_hides_nothing_and_rotates_seats():
    env = saint_malo_v0.env(num_players=3)
    env.reset(seed=2)
    obs = [env.observe(a)["observation"] for a in env.possible_agents]
    from meeplezoo.envs.saint_malo.data import OBS_PLAYER_SIZE
    slot = lambda o, i: o[i * OBS_PLAYER_SIZE:(i + 1) * OBS_PLAYER_SIZE]  # noqa: E731
    assert np.array_equal(slot(obs[1], 0), slot(obs[0], 1))
    assert np.array_equal(slot(obs[2], 0), slot(obs[0], 2))
    assert np.array_equal(slot(obs[0], 0), slot(obs[1], 2))
    on_turn = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and (mask.any() == (agent == on_turn))
