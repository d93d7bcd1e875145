"""Hansa Teutonica through the PettingZoo API: conformance, seeding, rendering, bad input."""

from __future__ import annotations

import json

import numpy as np
from envtest import play_random

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0


def test_regions_load_from_a_json_file(tmp_path):
    from meeplezoo.envs.hansa_teutonica import data as D

    path = tmp_path / "regions.json"
    path.write_text(json.dumps({"borders": [list(r) for r in D.DEFAULT_REGION_ROUTES],
                                "adjacent": [list(a) for a in D.DEFAULT_REGION_ADJ]}))
    env = hansa_teutonica_v0.env(num_players=2, two_player_regions=True, regions=str(path),
                                 start_seat=0)
    default = hansa_teutonica_v0.env(num_players=2, two_player_regions=True, start_seat=0)
    env.reset(seed=3)
    default.reset(seed=3)
    assert np.array_equal(env.state, default.state)
    assert env.phase == "pawn_setup" and env.agent_selection == "player_1"   # WE-28


def test_tavern_markers_are_a_chance_event():
    env = hansa_teutonica_v0.env(num_players=3)
    layouts = set()
    for seed in range(12):
        env.reset(seed=seed)
        layouts.add(tuple(env.state[env.spec.state_fields["route_marker"][0]:][:34]))
    assert len(layouts) > 1


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
            displacing = [a for a in legal if D.A_DISPLACE <= a < D.A_PAY
                          and env.state[D.G_SPACE_OWNER + (a - D.A_DISPLACE) // 2] >= 0]
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
