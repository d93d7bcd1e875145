"""The ``meeplezoo`` command line."""

from __future__ import annotations

import pytest

from meeplezoo.play.cli import main


def test_demo_prints_results_and_a_final_board(capsys):
    assert main(["demo", "--bots", "--agents", "random", "random", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert "win %" in out and "GAME OVER" in out and "game 2/2" in out


def test_games_lists_saint_malo(capsys):
    assert main(["games"]) == 0
    assert "saint_malo_v0" in capsys.readouterr().out


def test_bad_game_and_agent_are_one_clear_line(capsys):
    assert main(["demo", "--bots", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["demo", "--bots", "--agents", "alphazero", "random", "--games", "1"]) == 2
    assert "unknown agent 'alphazero'" in capsys.readouterr().err


def test_training_demo_trains_and_rates(tmp_path, capsys):
    pytest.importorskip("torch")
    assert main(["demo", "--minutes", "0.05", "--deals", "1", "--workers", "1",
                 "--opponents", "random", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "1/3 training" in out and "3/3 arena" in out and "vs random" in out
    assert "az:default,sims=64" in out                 # the shipped bot plays too
    # every line of the demo fits 120 columns; the trained bot's checkpoint
    # path is a label in the tables, spelled out in the legend
    widest = max(out.splitlines(), key=len)
    assert len(widest) <= 120, widest
    assert f"az:{tmp_path / 'demo' / 'checkpoint.pt'},sims=64" in out
    assert (tmp_path / "demo" / "checkpoint.pt").exists()
    assert list((tmp_path / "demo" / "arena").glob("*_ratings.png"))
