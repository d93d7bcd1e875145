"""Saint Malo through the PettingZoo API: conformance, seeding, rendering, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

from meeplezoo.envs import make, names, saint_malo_v0
from meeplezoo.envs.core.state_io import StateFormatError

PLAYER_COUNTS = [2, 3, 4, 5]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_api(num_players):
    api_test(saint_malo_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_seed(num_players):
    seed_test(lambda: saint_malo_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_render(num_players):
    render_test(lambda render_mode=None: saint_malo_v0.env(num_players=num_players,
                                                            render_mode=render_mode))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_performance_benchmark(num_players):
    performance_benchmark(saint_malo_v0.env(num_players=num_players))


def test_registry():
    assert "saint_malo_v0" in names()
    env = make("saint_malo_v0", num_players=3)
    assert env.metadata["name"] == "saint_malo_v0" and env.num_players == 3
    with pytest.raises(ValueError, match="unknown environment"):
        make("saint_malo_v9")


def play_random(env, seed, policy_seed=0, max_steps=10_000):
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = []
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action))
        env.step(action)
    return trace


def test_same_seed_same_game_and_different_seed_different_game():
    env = saint_malo_v0.env(num_players=3)
    first = play_random(env, seed=7)
    scores = env.unwrapped.scores().tolist() if hasattr(env, "unwrapped") else None
    again = play_random(env, seed=7)
    assert first == again and env.scores().tolist() == scores
    assert play_random(env, seed=8) != first


def test_illegal_action_raises_naming_action_agent_phase():
    env = saint_malo_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    message = str(err.value)
    assert env.agent_selection in message and str(illegal) in message and env.phase in message
    assert np.array_equal(env.state, before)               # nothing half-applied
    for bad in (-1, 110, 3.5, "stop", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(env.state, before)


def test_illegal_penalty_option_terminates_the_offender():
    env = saint_malo_v0.env(num_players=2, illegal="penalty")
    env.reset(seed=0)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0


@pytest.mark.parametrize("kwargs, match", [
    ({"num_players": 1}, "2-5 players"),
    ({"num_players": 6}, "2-5 players"),
    ({"num_players": "3"}, "2-5 players"),
    ({"colour": "red"}, "unknown Saint Malo option"),
    ({"render_mode": "window"}, "render_mode"),
    ({"reward_scheme": "elo"}, "reward scheme"),
    ({"start_seat": 4}, "start_seat"),
    ({"illegal": "ignore"}, "illegal"),
    ({"start_crates": [(0, 0)]}, "not a space"),
    ({"attack_strengths": (1, 2, 3)}, "attack_strengths"),
    ({"tower_rewards": (("gold", 2),) * 4}, "tower reward"),
])
def test_bad_construction_is_rejected_clearly(kwargs, match):
    with pytest.raises(ValueError, match=match):
        saint_malo_v0.env(**kwargs)


def test_options_change_the_rules():
    env = saint_malo_v0.env(num_players=2, start_coins=9, start_logs=0, start_crates=())
    env.reset(seed=1)
    assert env.scores().tolist() == [4, 4]                 # 9 // 2 coins, no logs


def test_json_round_trip_mid_game_continues_identically():
    env = saint_malo_v0.env(num_players=4)
    play_random(env, seed=3, max_steps=150)
    saved = env.state_to_json()
    twin = saint_malo_v0.env(num_players=4)
    twin.reset(seed=99)
    twin.state_from_json(saved)
    assert np.array_equal(twin.state, env.state) and twin.agent_selection == env.agent_selection
    rng = np.random.default_rng(5)
    for _ in range(200):
        if all(env.terminations.values()):
            break
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        twin.step(action)
        assert np.array_equal(twin.state, env.state)


def test_clone_is_independent():
    env = saint_malo_v0.env(num_players=2)
    env.reset(seed=4)
    twin = env.clone()
    env.step(env.legal_actions()[0])
    assert not np.array_equal(env.state, twin.state) or env.agent_selection != twin.agent_selection
    twin.step(twin.legal_actions()[0])
    assert np.array_equal(env.state, twin.state)


def corrupt(saved: str, edit) -> str:
    data = json.loads(saved)
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(game="hansa_v0"), "hansa_v0"),
    (lambda d: d.update(format_version=99), "format_version"),
    (lambda d: d["fields"].pop("dice"), "missing"),
    (lambda d: d["fields"].update(extra=1), "unknown"),
    (lambda d: d["fields"].update(dice=[0, 1]), "dice"),
    (lambda d: d["fields"].update(dice=[5, 4, 3, 2, 1]), "ascending"),
    (lambda d: d["fields"].update(p0_coins=-1), "negative"),
    (lambda d: d["fields"].update(p0_board=[0] * 49), "tower"),
    (lambda d: d["fields"].update(to_move=1, phase=0), "to_move"),
    (lambda d: d["fields"].update(pirate_boxes=5), "attacks_done"),
    (lambda d: d["fields"].update(num_players=7), "num_players"),
    (lambda d: d["fields"].update(p0_coins="3"), "integers"),
    (lambda d: d.update(rng=["x", "y"]), "rng"),
])
def test_corrupt_state_json_is_rejected_and_env_untouched(edit, match):
    env = saint_malo_v0.env(num_players=2)
    env.reset(seed=0)
    saved = env.state_to_json()
    env.step(env.legal_actions()[-1])
    before = env.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(corrupt(saved, edit))
    with pytest.raises(StateFormatError, match="JSON"):
        env.state_from_json(saved[:-5])
    assert np.array_equal(env.state, before)


def test_wrong_player_count_state_is_rejected():
    env3 = saint_malo_v0.env(num_players=3)
    env3.reset(seed=0)
    env2 = saint_malo_v0.env(num_players=2)
    env2.reset(seed=0)
    with pytest.raises(ValueError, match="3 players"):
        env2.state_from_json(env3.state_to_json())


def test_notation_round_trip_for_every_legal_move():
    env = saint_malo_v0.env(num_players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if all(env.terminations.values()):
            break
        names_seen = set()
        for action in env.legal_actions():
            text = env.action_to_str(action)
            assert env.str_to_action(text) == action or text in names_seen
            names_seen.add(text)
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(ValueError, match="legal moves"):
        env.str_to_action("fly away")


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
