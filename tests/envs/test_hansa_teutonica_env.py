"""Hansa Teutonica through the PettingZoo API: conformance, seeding, rendering, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.envs.core.state_io import StateFormatError

CONFIGS = [(2, {}), (3, {}), (4, {}), (5, {}), (2, {"two_player_regions": True})]
IDS = ["2p", "3p", "4p", "5p", "2p-regions"]


@pytest.mark.parametrize("num_players, options", CONFIGS, ids=IDS)
def test_pettingzoo_api(num_players, options):
    api_test(hansa_teutonica_v0.env(num_players=num_players, **options), num_cycles=300)


@pytest.mark.parametrize("num_players, options", CONFIGS, ids=IDS)
def test_pettingzoo_seed(num_players, options):
    seed_test(lambda: hansa_teutonica_v0.env(num_players=num_players, **options),
              num_cycles=300)


@pytest.mark.parametrize("num_players, options", CONFIGS, ids=IDS)
def test_pettingzoo_render(num_players, options):
    render_test(lambda render_mode=None: hansa_teutonica_v0.env(
        num_players=num_players, render_mode=render_mode, **options))


@pytest.mark.parametrize("num_players, options", CONFIGS, ids=IDS)
def test_pettingzoo_performance_benchmark(num_players, options):
    performance_benchmark(hansa_teutonica_v0.env(num_players=num_players, **options))


def play_random(env, seed, policy_seed=0, max_steps=3_000):
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
    env = hansa_teutonica_v0.env(num_players=3)
    first = play_random(env, seed=7)
    state = env.state.copy()
    again = play_random(env, seed=7)
    assert first == again and np.array_equal(env.state, state)
    layouts = set()
    for seed in range(12):                      # the tavern markers are a chance event
        env.reset(seed=seed)
        layouts.add(tuple(env.state[env.spec.state_fields["route_marker"][0]:][:34]))
    assert len(layouts) > 1


def test_illegal_action_raises_naming_action_agent_phase():
    env = hansa_teutonica_v0.env(num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    message = str(err.value)
    assert env.agent_selection in message and str(illegal) in message and env.phase in message
    assert np.array_equal(env.state, before)
    for bad in (-1, 727, 3.5, "end", None):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(env.state, before)


def test_illegal_penalty_option_terminates_the_offender():
    env = hansa_teutonica_v0.env(num_players=2, illegal="penalty")
    env.reset(seed=0)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0


@pytest.mark.parametrize("kwargs, match", [
    ({"num_players": 1}, "2-5 players"),
    ({"num_players": 6}, "2-5 players"),
    ({"num_players": "3"}, "2-5 players"),
    ({"colour": "red"}, "unknown Hansa Teutonica option"),
    ({"render_mode": "window"}, "render_mode"),
    ({"reward_scheme": "elo"}, "reward scheme"),
    ({"tie_break": "coin"}, "tie_break"),
    ({"max_decisions": 5}, "max_decisions"),
    ({"num_players": 3, "two_player_regions": True}, "2-player variant"),
    ({"regions": {"borders": []}}, "keys"),
    ({"regions": {"borders": [[0]] * 11, "adjacent": [[1]] + [[]] * 10}}, "symmetric"),
    ({"regions": {"borders": [[40]] * 11, "adjacent": [[]] * 11}}, "not routes"),
    ({"regions": "/nonexistent/regions.json"}, "cannot read"),
])
def test_bad_construction_is_rejected_clearly(kwargs, match):
    with pytest.raises(ValueError, match=match):
        hansa_teutonica_v0.env(**kwargs)


def test_regions_load_from_a_json_file(tmp_path):
    from meeplezoo.envs.hansa_teutonica import data as D

    path = tmp_path / "regions.json"
    path.write_text(json.dumps({"borders": [list(r) for r in D.DEFAULT_REGION_ROUTES],
                                "adjacent": [list(a) for a in D.DEFAULT_REGION_ADJ]}))
    env = hansa_teutonica_v0.env(num_players=2, two_player_regions=True, regions=str(path))
    default = hansa_teutonica_v0.env(num_players=2, two_player_regions=True)
    env.reset(seed=3)
    default.reset(seed=3)
    assert np.array_equal(env.state, default.state)
    assert env.phase == "pawn_setup" and env.agent_selection == "player_1"   # WE-28


def test_json_round_trip_mid_game_continues_identically():
    env = hansa_teutonica_v0.env(num_players=4)
    play_random(env, seed=11, max_steps=400)
    saved = env.state_to_json()
    twin = hansa_teutonica_v0.env(num_players=4)
    twin.reset(seed=0)
    twin.state_from_json(saved)
    assert np.array_equal(twin.state, env.state) and np.array_equal(twin.action_mask(),
                                                                       env.action_mask())
    rng = np.random.default_rng(1)
    for _ in range(200):
        if all(env.terminations.values()):
            break
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        twin.step(action)
        assert np.array_equal(twin.state, env.state)


def test_corrupt_json_is_rejected():
    env = hansa_teutonica_v0.env(num_players=3)
    env.reset(seed=1)
    data = json.loads(env.state_to_json())
    data["fields"]["player_0"][5] += 1                  # a trader from nowhere (HT-4.5)
    with pytest.raises(StateFormatError, match="27"):
        env.state_from_json(json.dumps(data))
    data = json.loads(env.state_to_json())
    data["fields"]["marker_supply"][0] += 1
    with pytest.raises(StateFormatError, match="16"):
        env.state_from_json(json.dumps(data))
    with pytest.raises(StateFormatError):
        env.state_from_json('{"game": "saint_malo_v0"}')


def test_clone_is_independent():
    env = hansa_teutonica_v0.env(num_players=3)
    play_random(env, seed=5, max_steps=50)
    twin = env.clone()
    action = env.legal_actions()[0]
    twin.step(action)
    assert not np.array_equal(twin.state, env.state)


def test_notation_round_trip_for_every_legal_move():
    env = hansa_teutonica_v0.env(num_players=5)
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(300):
        if all(env.terminations.values()):
            break
        names = env.legal_move_names()
        assert len(names) == len(env.legal_actions())       # names are unique
        legal = env.legal_actions()
        for action in rng.choice(legal, size=min(8, len(legal)), replace=False):
            assert env.str_to_action(env.action_to_str(int(action))) == action
        env.step(int(rng.choice(env.legal_actions())))


def test_rgb_and_ansi_render():
    env = hansa_teutonica_v0.env(num_players=4, render_mode="rgb_array")
    play_random(env, seed=2, max_steps=200)
    image = env.render()
    assert image.shape == (720, 960, 3) and image.dtype == np.uint8
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 8
    text = hansa_teutonica_v0.env(num_players=4, render_mode="ansi")
    text.reset(seed=2)
    out = text.render()
    assert "Hamburg" in out and "completed cities" in out and "routes:" in out


def test_a_game_cut_off_at_max_decisions_is_a_truncation():
    env = hansa_teutonica_v0.env(num_players=2, max_decisions=100)
    play_random(env, seed=1, max_steps=500)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(info.get("truncated") for info in env.infos.values()) or not env.agents
    assert int(env.state[env.spec.state_fields["ply"][0]]) == 100


def test_displaced_player_is_selected_off_turn_then_the_active_player_again():
    from meeplezoo.envs.hansa_teutonica import data as D

    env = hansa_teutonica_v0.env(num_players=3)
    rng = np.random.default_rng(3)
    seen = 0
    for seed in range(20):
        env.reset(seed=seed)
        while not all(env.terminations.values()) and seen < 5 and env.state[4] < 2_000:
            legal = env.legal_actions()
            displacing = [a for a in legal if D.A_DISPLACE <= a < D.A_PAY]
            action = int(rng.choice(displacing)) if displacing else int(rng.choice(legal))
            active = env.agent_selection
            env.step(action)
            if env.phase != "pay":
                continue
            while env.phase == "pay":
                assert env.agent_selection == active
                env.step(env.legal_actions()[0])
            if env.phase == "compensate":
                victim = env.possible_agents[int(env.state[D.G_DISP_VICTIM])]
                assert env.agent_selection == victim != active
                assert env.observe(active)["action_mask"].sum() == 0
                while env.phase == "compensate":
                    assert env.agent_selection == victim
                    env.step(int(rng.choice(env.legal_actions())))
                turn_goes_on = env.possible_agents[int(env.state[D.G_ACTIVE])] == active
                # Back to the active player, unless their turn just ended by itself (no
                # action left and nothing else to do: the engine ends it).
                assert env.agent_selection == active or not turn_goes_on
                seen += turn_goes_on
        if seen >= 5:
            break
    assert seen >= 5
