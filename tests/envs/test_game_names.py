"""A game's short name stands for its newest version wherever a game is named."""

import argparse

import pytest

from meeplezoo.envs import game_argument, names, resolve_game


def test_the_short_name_is_the_newest_version():
    assert resolve_game("saint_malo") == "saint_malo_v0"
    assert resolve_game("carcassonne") == "carcassonne_v1"
    assert resolve_game("serenissima") == "serenissima_v1"
    for name in names():
        assert resolve_game(name) == name


def test_an_unknown_game_is_one_line_naming_the_known_ones():
    with pytest.raises(ValueError, match="unknown game 'chess'; available: carcassonne_v0"):
        resolve_game("chess")
    with pytest.raises(argparse.ArgumentTypeError, match="unknown game 'hansa_v9'"):
        game_argument("hansa_v9")
    parser = argparse.ArgumentParser(prog="tool")
    parser.add_argument("game", type=game_argument)
    assert parser.parse_args(["hansa"]).game == "hansa_v0"
