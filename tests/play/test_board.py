"""What the page draws: the PNG encoder against Pillow's decoder, the click
boxes against the picture they lie on, and ``meeplezoo serve`` started for real."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import numpy as np
import pytest

from meeplezoo.envs import make
from meeplezoo.play.cli import main
from meeplezoo.play.web.board import board_view, png_bytes

Image = pytest.importorskip("PIL.Image")


def test_the_png_decodes_to_the_same_pixels():
    rng = np.random.default_rng(0)
    for shape in ((1, 1, 3), (7, 5, 3), (40, 33, 3)):
        image = rng.integers(0, 256, shape, dtype=np.uint8)
        assert (np.asarray(Image.open(io.BytesIO(png_bytes(image)))) == image).all()
    env = make("hansa_teutonica_v0", raw=True, num_players=3)
    env.reset(seed=0)
    frame = env.spec.render_rgb(env.state)
    assert (np.asarray(Image.open(io.BytesIO(png_bytes(frame)))) == frame).all()
    with pytest.raises(ValueError, match="RGB image"):
        png_bytes(np.zeros((4, 4), dtype=np.uint8))


def test_carcassonne_boxes_lie_on_the_cells_the_picture_marks_as_fitting():
    from meeplezoo.envs.carcassonne import render

    env = make("carcassonne_v0", raw=True, num_players=2)
    env.reset(seed=4)
    rng, checked = np.random.default_rng(0), 0
    for _ in range(30):
        legal = [int(a) for a in env.legal_actions()]
        picture, target_of = board_view(env.spec, env.state, legal)
        image = env.spec.render_rgb(env.state)
        if env.phase == "place_tile":
            assert set(target_of) == set(legal)        # every placement is on the board
            for index in set(target_of.values()):
                y, x, h, w = picture["targets"][index]
                assert tuple(image[y + h // 2, x + 2]) == render.FIT_RGB   # a fitting cell
                checked += 1
        env.step(int(rng.choice(legal)))
    assert checked > 50


def test_saint_malo_boxes_are_the_active_players_cells_and_the_dice():
    """Placing moves on the active player's cells; stop/re-roll on the dice (one shared
    box: the chooser names each re-roll); a scoring choice on the dice of its face."""
    from meeplezoo.envs.core.contract import H_PHASE
    from meeplezoo.envs.saint_malo import data, render

    env = make("saint_malo_v0", raw=True, num_players=3)
    env.reset(seed=2)
    rng, seen, decisions, boxed = np.random.default_rng(1), {}, 0, 0
    faces = dict(render.SCORE_FACES)
    for _ in range(600):
        if env.game_over:
            break
        legal = [int(a) for a in env.legal_actions()]
        picture, target_of = board_view(env.spec, env.state, legal)
        seat, phase = int(env.state[data.G_ACTIVE]), int(env.state[H_PHASE])
        dice = [int(env.state[data.G_DICE + i]) for i in range(data.NUM_DICE)]
        decisions, boxed = decisions + 1, boxed + bool(target_of)
        for action, index in target_of.items():
            y, x, h, w = picture["targets"][index]
            if action >= data.A_PLACE:
                kind = "cell"
                assert (y, x) == render.cell_origin(3, seat, action - data.A_PLACE)
                assert h == w == render.CELL
            elif phase == data.PH_ROLL_DECISION:
                kind = "roll"
                assert (y, x, h, w) == render.dice_box(0, data.NUM_DICE)
            else:
                kind = "score"
                family = max(a for a in faces if a <= action)
                covered = [dice[i] for i in range(data.NUM_DICE)
                           if x <= 10 + 40 * i and 10 + 40 * i + 34 <= x + w]
                assert covered and set(covered) == {faces[family]}
            seen[kind] = seen.get(kind, 0) + 1
        env.step(int(rng.choice(legal)))
    assert min(seen.get(kind, 0) for kind in ("cell", "roll", "score")) > 5, seen
    assert boxed / decisions > 0.9


def test_serve_refuses_a_bad_port_and_serves_on_loopback(capsys):
    assert main(["serve", "--port", "70000"]) == 2
    assert "not a port number" in capsys.readouterr().err
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # --no-warmup: this test needs the page, not the games compiled (test_serve_warmup.py)
    server = subprocess.Popen([sys.executable, "-m", "meeplezoo.play.cli", "serve",
                               "--port", str(port), "--no-warmup"], stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline, page = time.time() + 300, None          # generous: a loaded machine
        while time.time() < deadline and page is None:
            try:
                page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()
                time.sleep(0.2)
        assert page is not None and b"MeepleZoo" in page
        setup = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/setup", timeout=5).read()
        assert b"saint_malo_v0" in setup
        warmup = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/warmup", timeout=5)
        assert json.loads(warmup.read()) == {"enabled": False, "done": True, "games": []}
    finally:
        server.terminate()
        server.wait(timeout=120)


def test_the_latency_benchmark_times_the_server_and_its_peer():
    from meeplezoo.benchmarks.speed import web_latency

    row = web_latency.measure("hansa_v0", moves=3)
    assert row["moves"] == 3 and row["request_ms"] > 0 and row["api_step_ms"] > 0
    assert row["request_over_api"] == pytest.approx(row["request_ms"] / row["api_step_ms"],
                                                    rel=0.05)
