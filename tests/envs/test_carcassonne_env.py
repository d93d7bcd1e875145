"""Carcassonne through the PettingZoo API: conformance, seeding, rendering, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.core.state_io import StateFormatError

PLAYER_COUNTS = [2, 3, 4, 5, 6]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_api(num_players):
    api_test(carcassonne_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 6])
def test_pettingzoo_seed(num_players):
    seed_test(lambda: carcassonne_v0.env(num_players=num_players), num_cycles=200)


@pytest.mark.parametrize("num_players", [2, 4])
def test_pettingzoo_render(num_players):
    render_test(lambda render_mode=None: carcassonne_v0.env(num_players=num_players,
                                                             render_mode=render_mode))


@pytest.mark.parametrize("num_players", [2, 5])
def test_pettingzoo_performance_benchmark(num_players):
    performance_benchmark(carcassonne_v0.env(num_players=num_players))


def play_random(env, seed, policy_seed=0, max_steps=10_000):
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = []
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(env.legal_actions()))
        trace.append((agent, action))
        env.step(action)
    return trace


def test_same_seed_same_game_and_different_seed_different_game():
    env = carcassonne_v0.env(num_players=3)
    first = play_random(env, seed=7)
    scores = env.scores().tolist()
    assert play_random(env, seed=7) == first and env.scores().tolist() == scores
    assert play_random(env, seed=8) != first


def test_illegal_action_raises_naming_action_agent_phase():
    env = carcassonne_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    message = str(err.value)
    assert env.agent_selection in message and str(illegal) in message
    assert "place_tile" in message and env.action_to_str(illegal) in message
    for bad in (-1, D.NUM_ACTIONS, 3.5, "stop", None, D.A_NO_MEEPLE):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(env.state, before)
    env.step(env.legal_actions()[0])
    if env.phase == "place_meeple":
        with pytest.raises(ValueError, match="place_meeple"):
            env.step(env.legal_actions()[0] - 1 if env.legal_actions()[0] > D.A_MEEPLE else 0)


def test_illegal_penalty_option_terminates_the_offender():
    env = carcassonne_v0.env(num_players=2, illegal="penalty")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(0)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0


@pytest.mark.parametrize("kwargs, match", [
    ({"num_players": 1}, "2-6 players"),
    ({"num_players": 7}, "2-6 players"),
    ({"num_players": 6, "expansion_inns_cathedrals": False}, "Inns & Cathedrals"),
    ({"colour": "red"}, "unknown Carcassonne option"),
    ({"farm_scoring": "v4"}, "farm_scoring"),
    ({"small_city_rule": "c9"}, "small_city_rule"),
    ({"ic_tjunction_inn": "west"}, "ic_tjunction_inn"),
    ({"unplaceable": "reshuffle"}, "unplaceable"),
    ({"farmers": "yes"}, "farmers"),
    ({"render_mode": "window"}, "render_mode"),
    ({"reward_scheme": "elo"}, "reward scheme"),
])
def test_bad_construction_is_rejected_clearly(kwargs, match):
    with pytest.raises(ValueError, match=match):
        carcassonne_v0.env(**kwargs)


def test_base_game_options_and_farmers_off():
    env = carcassonne_v0.env(num_players=5, expansion_inns_cathedrals=False, farmers=False)
    play_random(env, seed=5)
    assert int(env.state[D.G_PLACED]) + int(env.state[D.G_DISCARDED]) == 72
    assert not env.state[D.T_TYPE:D.T_TYPE + 72][env.state[D.T_TYPE:D.T_TYPE + 72]
                                                  >= D.NUM_BASE_TYPES].any()


def test_json_round_trip_mid_game_continues_identically():
    env = carcassonne_v0.env(num_players=4)
    play_random(env, seed=3, max_steps=90)
    saved = env.state_to_json()
    twin = carcassonne_v0.env(num_players=4)
    twin.reset(seed=99)
    twin.state_from_json(saved)
    assert np.array_equal(twin.state, env.state) and twin.agent_selection == env.agent_selection
    rng = np.random.default_rng(5)
    while not all(env.terminations.values()):
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        twin.step(action)
        assert np.array_equal(twin.state, env.state)


def test_clone_is_independent():
    env = carcassonne_v0.env(num_players=2)
    env.reset(seed=4)
    twin = env.clone()
    env.step(env.legal_actions()[0])
    assert not np.array_equal(env.state, twin.state)
    twin.step(twin.legal_actions()[0])
    assert np.array_equal(env.state, twin.state)


def corrupt(saved: str, edit) -> str:
    data = json.loads(saved)
    edit(data)
    return json.dumps(data)


def _bump(name, index, delta):
    def edit(d):
        d["fields"][name][index] += delta
    return edit


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(game="hansa_v0"), "hansa_v0"),
    (lambda d: d.update(format_version=99), "format_version"),
    (lambda d: d["fields"].pop("grid"), "missing"),
    (lambda d: d["fields"].update(extra=1), "unknown"),
    (lambda d: d["fields"].update(num_players=7), "num_players"),
    (lambda d: d["fields"].update(to_move=1, phase=0), "to_move"),
    (_bump("normal_meeples", 0, 1), "conserved"),
    (_bump("pile", 0, 1), "pile"),
    (_bump("tile_rotation", 3, 1), "match|rotation|feature"),
    (_bump("node_open", 0, 1), "feature table"),
    (_bump("scores", 0, -100), "scores"),
    (_bump("grid", 0, 1), "grid"),
    (lambda d: d["fields"].update(farm_scoring=5), "farm_scoring"),
    (lambda d: d.update(rng=["x", "y"]), "rng"),
])
def test_corrupt_state_json_is_rejected_and_env_untouched(edit, match):
    env = carcassonne_v0.env(num_players=2)
    play_random(env, seed=0, max_steps=30)
    saved = env.state_to_json()
    env.step(env.legal_actions()[-1])
    before = env.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(corrupt(saved, edit))
    with pytest.raises(StateFormatError, match="JSON"):
        env.state_from_json(saved[:-5])
    assert np.array_equal(env.state, before)


def test_notation_round_trip_for_every_legal_move():
    env = carcassonne_v0.env(num_players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(60):
        for action in env.legal_actions():
            assert env.str_to_action(env.action_to_str(action)) == action
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(ValueError, match="legal moves"):
        env.str_to_action("fly away")


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
    on_turn = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.dtype == np.int8 and (mask.any() == (agent == on_turn))
    if env.phase == "place_tile":
        seen = obs[0][D.PL_LEGAL * D.OBS_CELLS:(D.PL_LEGAL + 4) * D.OBS_CELLS].sum()
        assert seen == len(env.legal_actions())              # all inside the window here
        assert obs[0][D.V_HAND + int(env.state[D.G_HAND])] == 1
