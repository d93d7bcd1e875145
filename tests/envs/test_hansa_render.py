"""Hansa text and image rendering: the reconstruction is named, the picture shows the map."""

from __future__ import annotations

import numpy as np
import pytest
from hansa_setup import give, new_game, put_stalls, set_turn, skip_setup

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa import generate_board
from meeplezoo.envs.hansa import render as R


def test_ansi_names_the_board_and_shows_the_position():
    state = new_game(3)
    skip_setup(state)
    put_stalls(state, 1, RIG=4)
    give(state, 2, "A1", "A3")
    set_turn(state, 2, ship="DAN")
    text = R.render_ansi(state)
    lines = text.splitlines()
    assert "reconstruction" in lines[0] and "placeholder" in lines[0]
    assert "ship at DAN" in lines[1]
    rig = next(line for line in lines if line.strip().startswith("9  RIG"))
    assert "DAN" in rig and "(P1 leads)" in rig
    assert "hand A1 A3" in text and "P2 <== turn" in text
    custom = new_game(3, board=generate_board(4))
    assert "custom board" in R.render_ansi(custom).splitlines()[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rgb_image_shape_and_content(players):
    env = hansa_v0.env(num_players=players, render_mode="rgb_array")
    env.reset(seed=players)
    image = env.render()
    assert image.dtype == np.uint8 and image.shape == (*R.image_size(players), 3)
    assert (image == np.array(R.SEA, dtype=np.uint8)).all(axis=2).mean() > 0.3
    ship_x, ship_y = R._city_xy(D.CPH)
    assert tuple(image[ship_y, ship_x + R.RADIUS + 3]) == R.SHIP_RGB     # the ship's ring
    rng = np.random.default_rng(0)
    for _ in range(60):
        env.step(int(rng.choice(env.legal_actions())))
    assert not np.array_equal(env.render(), image)


def test_human_mode_prints(capsys):
    env = hansa_v0.env(num_players=2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "Hansa - board" in capsys.readouterr().out
