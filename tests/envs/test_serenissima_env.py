"""Serenissima through the PettingZoo API: conformance, seeding, off-turn agents, JSON,
notation, observation, bad input."""

from __future__ import annotations

import numpy as np
from envtest import play_random

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.serenissima import data as D


def test_off_turn_decisions_select_that_agent():
    """Blocks and a defender's capture are decisions of that agent (DP-07/09/10/12)."""
    env = serenissima_v0.env(num_players=4)
    seen = 0
    for seed in range(40):
        trace = play_random(env, seed=seed, policy_seed=seed, max_steps=20_000)
        for i, (agent, _, phase) in enumerate(trace):
            if phase == "block":
                owner = next(a for a, _, p in reversed(trace[:i]) if p in ("move", "sell_or_combat",
                                                                          "load"))
                assert agent != owner
                seen += 1
    assert seen > 20


def test_json_carries_its_own_map():
    env = serenissima_v0.env(num_players=3, map="generated:4")
    play_random(env, seed=1, max_steps=100)
    twin = serenissima_v0.env(num_players=3)               # the placeholder map
    twin.state_from_json(env.state_to_json())
    assert np.array_equal(twin.state, env.state)


def test_observation_rotates_seats_and_hides_money_when_asked():
    env = serenissima_v0.env(num_players=3)
    env.reset(seed=2)
    obs = [env.observe(a)["observation"] for a in env.possible_agents]
    base = D.NUM_GALLEYS * D.OBS_GALLEY + D.MAX_PORTS * D.OBS_PORT + D.MAX_ZONES ** 2
    slot = lambda o, i: o[base + i * D.OBS_PLAYER:base + (i + 1) * D.OBS_PLAYER]  # noqa: E731
    assert np.array_equal(slot(obs[1], 0)[1:5], slot(obs[0], 1)[1:5])
    assert np.array_equal(slot(obs[2], 0)[1:5], slot(obs[0], 2)[1:5])
    assert obs[0].shape == (D.OBS_SIZE,) and np.isfinite(obs[0]).all()
    hidden = serenissima_v0.env(num_players=3, hidden_money=True)
    hidden.reset(seed=2)
    seen = hidden.observe("player_0")["observation"]
    assert slot(seen, 0)[1] > 0 and slot(seen, 1)[1] == 0 and slot(seen, 2)[1] == 0
    on_turn = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and (mask.any() == (agent == on_turn))
