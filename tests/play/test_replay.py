"""Replay files and ``meeplezoo replay``: re-simulation, the step-through viewer, videos."""

from __future__ import annotations

import argparse
import io
import json
import sys

import numpy as np
import pytest

from meeplezoo.agents.registry import make_agent
from meeplezoo.play.cli import main
from meeplezoo.play.replay import (
    frames_of,
    read_replay,
    record_game,
    replay_command,
    simulate,
    write_replay,
)
from meeplezoo.play.table import play_game

GAME = "saint_malo_v0"


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory):
    agents = [make_agent("random", GAME, seed=1), make_agent("greedy", GAME, seed=2)]
    path = tmp_path_factory.mktemp("replay") / "game.json"
    write_replay(path, record_game("saint_malo", agents, seed=5))
    return path


def test_record_game_matches_play_game(replay_file):
    record = read_replay(replay_file)
    assert record["game"] == GAME and record["seats"] == ["random", "greedy"]
    same, _ = play_game(GAME, [make_agent("random", GAME, seed=1),
                               make_agent("greedy", GAME, seed=2)], seed=5)
    assert record["scores"] == same.scores and len(record["actions"]) == same.decisions
    env, states, moves = simulate(record)
    assert len(states) == len(record["actions"]) + 1 == len(moves) + 1
    assert [int(s) for s in env.scores()] == record["scores"]


def test_replay_all_prints_every_position(replay_file, capsys):
    assert main(["replay", str(replay_file), "--all"]) == 0
    out = capsys.readouterr().out
    moves = len(read_replay(replay_file)["actions"])
    assert out.count("--- position ") == moves + 1
    assert f"position {moves}/{moves}" in out and "final: P0 (random) score" in out


def test_step_through_next_back_quit(replay_file):
    keys = iter(["", "n", "b", "x", "q"])
    out = io.StringIO()
    args = argparse.Namespace(file=str(replay_file), all=False, video=None, fps=4.0,
                              positions=None)
    assert replay_command(args, input_fn=lambda prompt: next(keys), out=out) == 0
    shown = [line.split(":")[0] for line in out.getvalue().splitlines()
             if line.startswith("--- position")]
    assert [s.split()[2].split("/")[0] for s in shown] == ["0", "1", "2", "1", "1"]
    assert "keys: Enter or n" in out.getvalue()


def test_gif_has_one_frame_per_position(replay_file, tmp_path, capsys):
    from PIL import Image

    gif = tmp_path / "game.gif"
    assert main(["replay", str(replay_file), "--video", str(gif), "--positions", "3:9",
                 "--fps", "10"]) == 0
    assert "wrote 7 frames" in capsys.readouterr().out
    with Image.open(gif) as image:
        assert image.n_frames == 7     # identical frames would have been merged by Pillow


def test_mp4_has_one_frame_per_position(replay_file, tmp_path, capsys):
    imageio = pytest.importorskip("imageio.v2")
    pytest.importorskip("imageio_ffmpeg")
    mp4 = tmp_path / "video" / "game.mp4"
    assert main(["replay", str(replay_file), "--video", str(mp4), "--positions", "0:4",
                 "--fps", "5"]) == 0
    assert "wrote 5 frames" in capsys.readouterr().out
    frames = imageio.mimread(mp4)
    assert len(frames) == 5
    height, width = frames[0].shape[:2]
    assert height % 2 == 0 and width % 2 == 0 and frames[0].std() > 10


def test_mp4_without_the_video_extra_says_what_to_install(replay_file, tmp_path, capsys,
                                                         monkeypatch):
    monkeypatch.setitem(sys.modules, "imageio", None)      # import imageio -> ImportError
    monkeypatch.setitem(sys.modules, "imageio.v2", None)
    mp4 = tmp_path / "g.mp4"
    assert main(["replay", str(replay_file), "--video", str(mp4), "--positions", "0:2"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'meeplezoo[video]'" in err and err.count("\n") == 1
    assert not mp4.exists()


def test_frames_are_even_sized_and_never_repeat(replay_file):
    record = read_replay(replay_file)
    env, states, _ = simulate(record)
    frames = list(frames_of(env.spec, states[:4]))
    assert all(f.shape[0] % 2 == 0 and f.shape[1] % 2 == 0 for f in frames)
    assert all(not np.array_equal(a, b) for a, b in zip(frames, frames[1:], strict=False))


def _edited(replay_file, tmp_path, **changes):
    data = json.loads(replay_file.read_text())
    data.update(changes)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("changes, message", [
    ({"scores": [99, 0]}, "re-simulating gives final scores"),
    ({"seed": 6}, "re-simulat"),
    ({"actions": [109]}, "move 1 (action 109) is illegal"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"format": "meeplezoo-saved-game"}, "is not a meeplezoo replay"),
    ({"version": 99}, "version 99"),
    ({"seats": ["random"]}, "1 seats for 2 players"),
    ({"scores": "high"}, "'scores' must hold one number per seat"),
])
def test_a_bad_replay_is_one_clear_line(replay_file, tmp_path, capsys, changes, message):
    path = _edited(replay_file, tmp_path, **changes)
    assert main(["replay", str(path), "--all"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_missing_garbage_and_bad_arguments(replay_file, tmp_path, capsys):
    garbage = tmp_path / "garbage.json"
    garbage.write_text("[1, 2")
    for argv, message in [
        (["replay", str(tmp_path / "absent.json")], "no such replay file"),
        (["replay", str(garbage)], "not valid JSON"),
        (["replay", str(replay_file), "--positions", "5:1"], "--positions"),
        (["replay", str(replay_file), "--video", str(tmp_path / "x.avi")], ".gif or .mp4"),
        (["replay", str(replay_file), "--video", str(tmp_path / "x.gif"), "--fps", "0"],
         "--fps"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
