"""Carcassonne through the PettingZoo API: conformance, seeding, rendering, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from envtest import play_random

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.envs.carcassonne import data as D


def test_illegal_tile_then_meeple_choice_name_their_phase():
    """Beyond the shared check (test_env_conformance): both placement phases are named."""
    env = carcassonne_v0.env(num_players=2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError, match="place_tile"):
        env.step(illegal)
    env.step(env.legal_actions()[0])
    if env.phase == "place_meeple":
        with pytest.raises(ValueError, match="place_meeple"):
            env.step(env.legal_actions()[0] - 1 if env.legal_actions()[0] > D.A_MEEPLE else 0)


def test_base_game_options_and_farmers_off():
    env = carcassonne_v0.env(num_players=5, expansion_inns_cathedrals=False, farmers=False)
    play_random(env, seed=5)
    assert int(env.state[D.G_PLACED]) + int(env.state[D.G_DISCARDED]) == 72
    assert not env.state[D.T_TYPE:D.T_TYPE + 72][env.state[D.T_TYPE:D.T_TYPE + 72]
                                                  >= D.NUM_BASE_TYPES].any()


def test_observation_rotates_seats_and_marks_the_hand():
    env = carcassonne_v0.env(num_players=3)
    play_random(env, seed=2, max_steps=40)
    obs = [env.observe(a)["observation"] for a in env.possible_agents]
    planes = lambda o, c: o[c * D.OBS_CELLS:(c + 1) * D.OBS_CELLS]  # noqa: E731
    for rel in range(3):
        assert np.array_equal(planes(obs[1], D.PL_MEEPLE + rel),
                              planes(obs[0], D.PL_MEEPLE + (rel + 1) % 3))
        assert obs[1][D.V_SCORE + rel] == obs[0][D.V_SCORE + (rel + 1) % 3]
    assert obs[0][D.V_PRESENT:D.V_PRESENT + 6].tolist() == [1, 1, 1, 0, 0, 0]
    assert np.array_equal(obs[0][D.V_SLOTS:], obs[1][D.V_SLOTS:])   # seat-free slot table
    on_turn = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and (mask.any() == (agent == on_turn))
    if env.phase == "place_tile":
        seen = obs[0][D.PL_LEGAL * D.OBS_CELLS:(D.PL_LEGAL + 4) * D.OBS_CELLS].sum()
        outside = obs[0][D.V_OUTSIDE] > 0
        assert seen == len(env.legal_actions()) or outside   # all inside the window here
        assert obs[0][D.V_HAND + int(env.state[D.G_HAND])] == 1
