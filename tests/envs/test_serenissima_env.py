"""Serenissima through the PettingZoo API: conformance, seeding, off-turn agents, JSON,
notation, observation, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.core.state_io import StateFormatError
from meeplezoo.envs.serenissima import data as D

PLAYER_COUNTS = [2, 3, 4]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_api(num_players):
    api_test(serenissima_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_seed(num_players):
    seed_test(lambda: serenissima_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_render(num_players):
    render_test(lambda render_mode=None: serenissima_v0.env(num_players=num_players,
                                                            render_mode=render_mode))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_performance_benchmark(num_players):
    performance_benchmark(serenissima_v0.env(num_players=num_players))


def play_random(env, seed, policy_seed=0, max_steps=20_000):
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = []
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, env.phase))
        env.step(action)
    return trace


def test_same_seed_same_game_and_different_seed_different_game():
    env = serenissima_v0.env(num_players=3)
    first = play_random(env, seed=7)
    scores = env.scores().tolist()
    again = play_random(env, seed=7)
    assert first == again and env.scores().tolist() == scores
    assert play_random(env, seed=8) != first


def test_off_turn_decisions_select_that_agent():
    """Blocks and a defender's capture are decisions of that agent (DP-07/09/10/12)."""
    env = serenissima_v0.env(num_players=4)
    seen = 0
    for seed in range(40):
        trace = play_random(env, seed=seed, policy_seed=seed)
        for i, (agent, _, phase) in enumerate(trace):
            if phase == "block":
                owner = next(a for a, _, p in reversed(trace[:i]) if p in ("move", "sell_or_combat",
                                                                          "load"))
                assert agent != owner
                seen += 1
    assert seen > 20


def test_illegal_action_raises_naming_action_agent_phase():
    env = serenissima_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    message = str(err.value)
    assert env.agent_selection in message and str(illegal) in message and env.phase in message
    assert np.array_equal(env.state, before)
    for bad in (-1, D.NUM_ACTIONS, 3.5, "claim", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(env.state, before)


def test_illegal_penalty_option_terminates_the_offender():
    env = serenissima_v0.env(num_players=2, illegal="penalty")
    env.reset(seed=0)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0


@pytest.mark.parametrize("kwargs, match", [
    ({"num_players": 1}, "2-4 players"),
    ({"num_players": 5}, "2-4 players"),
    ({"num_players": "3"}, "2-4 players"),
    ({"colour": "red"}, "unknown Serenissima option"),
    ({"render_mode": "window"}, "render_mode"),
    ({"reward_scheme": "elo"}, "reward scheme"),
    ({"start_seat": 4}, "start_seat"),
    ({"illegal": "ignore"}, "illegal"),
    ({"galley_capacity": 6}, "galley_capacity"),
    ({"close_ports": "vote"}, "close_ports"),
    ({"block_in_start_zone": "yes"}, "True or False"),
    ({"goods_supply": (1, 2, 3)}, "goods_supply"),
    ({"map": 42}, "map must be"),
])
def test_bad_construction_is_rejected_clearly(kwargs, match):
    with pytest.raises(ValueError, match=match):
        serenissima_v0.env(**kwargs)


def test_json_round_trip_mid_game_continues_identically():
    env = serenissima_v0.env(num_players=4)
    play_random(env, seed=3, max_steps=150)
    saved = env.state_to_json()
    twin = serenissima_v0.env(num_players=4)
    twin.reset(seed=99)
    twin.state_from_json(saved)
    assert np.array_equal(twin.state, env.state) and twin.agent_selection == env.agent_selection
    rng = np.random.default_rng(5)
    for _ in range(400):
        if all(env.terminations.values()):
            break
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        twin.step(action)
        assert np.array_equal(twin.state, env.state)


def test_json_carries_its_own_map():
    env = serenissima_v0.env(num_players=3, map="generated:4")
    play_random(env, seed=1, max_steps=100)
    twin = serenissima_v0.env(num_players=3)               # the placeholder map
    twin.state_from_json(env.state_to_json())
    assert np.array_equal(twin.state, env.state)


def corrupt(saved: str, edit) -> str:
    data = json.loads(saved)
    edit(data)
    return json.dumps(data)


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(game="hansa_v0"), "hansa_v0"),
    (lambda d: d["fields"].pop("ducats"), "missing"),
    (lambda d: d["fields"].update(ducats=[-1, 5, 0, 0]), "negative ducats|ledger"),
    (lambda d: d["fields"].update(galley_sailors=[9] + [0] * 14), "galley"),
    (lambda d: d["fields"].update(goods_supply=[0] * 6), "goods not conserved"),
    (lambda d: d["fields"].update(sailor_supply=[1, 1, 0, 0]), "sailors not conserved"),
    (lambda d: d["fields"].update(header=[5, 7, 0, 0, 0]), "num_players"),
    (lambda d: d["fields"].update(header=[1, 2, 0, 0, 0]), "game id"),
    (lambda d: d["fields"].update(doge_pile=[0, 0, 0, 0]), "Doge pile"),
])
def test_corrupt_state_json_is_rejected_and_env_untouched(edit, match):
    env = serenissima_v0.env(num_players=2)
    play_random(env, seed=0, max_steps=60)
    saved = env.state_to_json()
    before = env.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(corrupt(saved, edit))
    assert np.array_equal(env.state, before)


def test_notation_round_trip_for_every_legal_move():
    env = serenissima_v0.env(num_players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(400):
        if all(env.terminations.values()):
            break
        for action in env.legal_actions():
            assert env.str_to_action(env.action_to_str(action)) == action
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(ValueError, match="legal moves"):
        env.str_to_action("fly away")


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
