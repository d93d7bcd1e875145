"""Rendering: the ANSI tile map and the rgb_array picture follow the board's data."""

from __future__ import annotations

import numpy as np
from carcassonne_setup import new_game, play

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.envs.carcassonne.render import (
    CITY_RGB,
    FIELD_RGB,
    MONASTERY_RGB,
    PANEL_W,
    SEAT_COLOURS,
    TILE_PX,
    render_ansi,
    render_rgb,
)


def test_ansi_shows_tiles_edges_meeples_and_scores():
    s = new_game()
    play(s, "U", 1, 0, 0, slot=0)
    play(s, "B", 0, 1, 0, slot=0, large=True)
    text = render_ansi(s)
    assert "seat 0 (yellow): score 0" in text and "meeples 6 + large 1" in text
    assert "seat 1 (red)" in text and "meeples 7 + large 0" in text
    rows = text.splitlines()
    assert any("0 . h" in row for row in rows)               # P0's highwayman on U
    assert any("1 . M" in row for row in rows)               # P1's large monk on B
    assert any("= D == U =" in row for row in rows)          # roads run W-E through D and U


def test_rgb_draws_cities_monasteries_meeples_and_the_panel():
    s = new_game()
    play(s, "B", 0, 1, 0, slot=0, large=True)
    img = render_rgb(s)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[0] % 2 == 0 and img.shape[1] % 2 == 0
    # Board x -1..1, y -1..2: start tile at column 1, row 1; B below it.
    start = img[TILE_PX:2 * TILE_PX, TILE_PX:2 * TILE_PX]
    assert (start[3, TILE_PX // 2] == CITY_RGB).all()            # the city cap at the top
    assert (start[TILE_PX - 4, 4] == FIELD_RGB).all()
    monastery = img[2 * TILE_PX:3 * TILE_PX, TILE_PX:2 * TILE_PX]
    colours = {tuple(c) for c in monastery.reshape(-1, 3)}
    assert SEAT_COLOURS[0][1] in colours and MONASTERY_RGB in colours
    panel = img[:, 3 * TILE_PX:]
    assert panel.shape[1] >= PANEL_W
    panel_colours = {tuple(c) for c in panel.reshape(-1, 3)}
    assert SEAT_COLOURS[0][1] in panel_colours and SEAT_COLOURS[1][1] in panel_colours


def test_rgb_frames_change_with_the_game_and_shrink_big_boards():
    env = carcassonne_v0.env(num_players=3, render_mode="rgb_array")
    env.reset(seed=4)
    first = env.render()
    env.step(env.legal_actions()[0])
    assert not np.array_equal(first, env.render())
    s = new_game()
    for x in range(1, 40):
        play(s, "U", x, 0, 0)
    img = render_rgb(s)
    assert img.shape[1] <= 1200 + PANEL_W + 2


def test_env_render_modes():
    for mode in ("ansi", "rgb_array"):
        env = carcassonne_v0.env(num_players=6, render_mode=mode)
        env.reset(seed=1)
        for _ in range(20):
            env.step(env.legal_actions()[-1])
        out = env.render()
        assert isinstance(out, str) if mode == "ansi" else out.shape[2] == 3


def test_split_observation_gives_cnn_planes_aligned_with_placements():
    from meeplezoo.envs.carcassonne import data as D
    from meeplezoo.envs.carcassonne.observe import split_observation

    env = carcassonne_v0.env(num_players=2)
    env.reset(seed=9)
    obs = env.observe(env.agent_selection)["observation"]
    planes, vector = split_observation(obs)
    w, half = D.OBS_WINDOW, D.OBS_HALF
    assert planes.shape == (D.OBS_CHANNELS, w, w) and vector.shape == (D.OBS_VECTOR_SIZE,)
    assert planes[D.PL_OCCUPIED, half, half] == 1 and planes[D.PL_CITY, half, half] == 1
    for action in env.legal_actions():                 # window centred on the start tile
        x, y, r = D.placement_of(env.state, action)
        assert planes[D.PL_LEGAL + r, y + half, x + half] == 1
    batch_planes, _ = split_observation(np.stack([obs, obs]))
    assert batch_planes.shape == (2, D.OBS_CHANNELS, w, w)
