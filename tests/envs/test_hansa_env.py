"""Hansa through the PettingZoo API: conformance, seeding, rendering, bad input, JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.envs.core.state_io import StateFormatError
from meeplezoo.envs.hansa import data as D

PLAYER_COUNTS = [2, 3, 4]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_api(num_players):
    api_test(hansa_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_seed(num_players):
    seed_test(lambda: hansa_v0.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_render(num_players):
    render_test(lambda render_mode=None: hansa_v0.env(num_players=num_players,
                                                       render_mode=render_mode))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_performance_benchmark(num_players):
    performance_benchmark(hansa_v0.env(num_players=num_players))


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
        trace.append((agent, action))
        env.step(action)
    return trace


def test_same_seed_same_game_and_different_seed_different_game():
    env = hansa_v0.env(num_players=3)
    first = play_random(env, seed=7)
    scores = env.scores().tolist()
    again = play_random(env, seed=7)
    assert first == again and env.scores().tolist() == scores
    assert play_random(env, seed=8) != first


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


def test_illegal_action_raises_naming_action_agent_phase():
    env = hansa_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    illegal = D.A_INIT_PLACE + D.CPH                       # never legal (HS-4.2)
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    message = str(err.value)
    assert env.agent_selection in message and str(illegal) in message and env.phase in message
    assert "start CPH" in message
    assert np.array_equal(env.state, before)
    for bad in (-1, 66, 3.5, "sail", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(env.state, before)


def test_illegal_penalty_option_terminates_the_offender():
    env = hansa_v0.env(num_players=2, illegal="penalty")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(D.A_INIT_PLACE + D.CPH)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0


@pytest.mark.parametrize("kwargs, match", [
    ({"num_players": 1}, "2-4 players"),
    ({"num_players": 5}, "2-4 players"),
    ({"num_players": "3"}, "2-4 players"),
    ({"colour": "red"}, "unknown Hansa option"),
    ({"render_mode": "window"}, "render_mode"),
    ({"reward_scheme": "elo"}, "reward scheme"),
    ({"start_seat": 4}, "start_seat"),
    ({"illegal": "ignore"}, "illegal"),
    ({"init_order": "snake"}, "init_order"),
    ({"stack_sizes": "equal"}, "stack_sizes"),
    ({"place_exact": "yes"}, "place_exact"),
    ({"max_turns": 0}, "max_turns"),
    ({"board": {"cities": []}}, "routes"),
])
def test_bad_construction_is_rejected_clearly(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hansa_v0.env(**kwargs)


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


def test_json_round_trip_mid_game_continues_identically():
    env = hansa_v0.env(num_players=4)
    play_random(env, seed=3, max_steps=150)
    saved = env.state_to_json()
    twin = hansa_v0.env(num_players=4)
    twin.reset(seed=99)
    twin.state_from_json(saved)
    assert np.array_equal(twin.state, env.state) and twin.agent_selection == env.agent_selection
    rng = np.random.default_rng(5)
    for _ in range(300):
        if all(env.terminations.values()):
            break
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        twin.step(action)
        assert np.array_equal(twin.state, env.state)


def test_clone_is_independent():
    env = hansa_v0.env(num_players=2)
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


def _more_money(d):
    d["fields"]["p0_money"] += 1


def _extra_token(d):
    d["fields"]["supply"][0] += 1


def _lost_stall(d):
    d["fields"]["p1_stall_supply"] -= 1


def _bad_route(d):
    d["fields"]["board_exits"][5] = 0


@pytest.mark.parametrize("edit, match", [
    (lambda d: d.update(game="saint_malo_v0"), "saint_malo_v0"),
    (lambda d: d.update(format_version=99), "format_version"),
    (lambda d: d["fields"].pop("supply"), "missing"),
    (lambda d: d["fields"].update(extra=1), "unknown"),
    (_more_money, "thalers are not conserved"),
    (_extra_token, "tokens are not conserved"),
    (_lost_stall, "do not make 15"),
    (_bad_route, "no exit"),
    (lambda d: d["fields"].update(ship=9), "not a city"),
    (lambda d: d["fields"].update(to_move=-1), "to_move"),
    (lambda d: d["fields"].update(num_players=7), "num_players"),
    (lambda d: d["fields"].update(p0_money="3"), "integers"),
    (lambda d: d.update(rng=["x", "y"]), "rng"),
])
def test_corrupt_state_json_is_rejected_and_env_untouched(edit, match):
    env = hansa_v0.env(num_players=2)
    play_random(env, seed=0, max_steps=60)
    saved = env.state_to_json()
    env.step(env.legal_actions()[-1])
    before = env.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(corrupt(saved, edit))
    with pytest.raises(StateFormatError, match="JSON"):
        env.state_from_json(saved[:-5])
    assert np.array_equal(env.state, before)


def test_wrong_player_count_state_is_rejected():
    env3 = hansa_v0.env(num_players=3)
    env3.reset(seed=0)
    env2 = hansa_v0.env(num_players=2)
    env2.reset(seed=0)
    with pytest.raises(ValueError, match="3 players"):
        env2.state_from_json(env3.state_to_json())


def test_notation_round_trip_for_every_legal_move():
    env = hansa_v0.env(num_players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(400):
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


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
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
