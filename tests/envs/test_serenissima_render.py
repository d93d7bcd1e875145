"""Rendering: the text view and the numpy picture read the state and never change it."""

from __future__ import annotations

import numpy as np

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima import render


def mid_game(players=4, steps=200, seed=3, **options):
    env = serenissima_v0.env(num_players=players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if all(env.terminations.values()):
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


def test_ansi_lists_track_players_ports_and_galleys():
    env = mid_game()
    before = env.state.copy()
    text = render.render_ansi(env.state)
    assert np.array_equal(env.state, before)
    assert text.startswith("Serenissima -- PLACEHOLDER MAP (reconstruction")
    for port in ("Valencia", "Antioch", "Constantinople", "U10"):
        assert port in text
    galleys = [g for g in range(15) if env.state[D.S_G_OWNER + g] >= 0]
    for g in galleys:
        assert f"g{g + 1} " in text
    for seat in range(4):
        assert f"player_{seat} (" in text
    assert f"phase {env.phase}" in text


def test_ansi_names_generated_maps_and_the_winner():
    env = mid_game(players=2, steps=100_000, map="generated:9")
    text = render.render_ansi(env.state)
    assert "generated map: generated map (seed 9)" in text and "final ducats" in text


def test_rgb_is_a_fixed_size_picture_of_the_board():
    env = mid_game()
    before = env.state.copy()
    img = render.render_rgb(env.state)
    assert img.shape == (480, 640, 3) and img.dtype == np.uint8
    assert np.array_equal(env.state, before)
    colours = {tuple(c) for c in img.reshape(-1, 3)[::7]}
    owners = {int(env.state[D.S_G_OWNER + g]) for g in range(15) if env.state[D.S_G_OWNER + g] >= 0}
    for seat in owners:
        assert render.SEAT_RGB[seat] in colours          # every fleet drawn in its colour
    other = render.render_rgb(mid_game(seed=4).state)
    assert not np.array_equal(img, other)


def test_rgb_title_differs_for_the_placeholder_and_a_user_map():
    a = render.render_rgb(mid_game(steps=0).state)
    b = render.render_rgb(mid_game(steps=0, map="generated:2").state)
    assert not np.array_equal(a[:14], b[:14])


def test_env_render_modes():
    env = serenissima_v0.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=0)
    assert env.render().shape == (480, 640, 3)
    env = serenissima_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=0)
    assert "to move: player_" in env.render()
