"""The ``meeplezoo`` command line."""

from __future__ import annotations

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
