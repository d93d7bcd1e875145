"""The ``python -m`` entry points under benchmarks/ take short game names, as the CLI does."""

from __future__ import annotations

import argparse

import pytest

from meeplezoo.benchmarks.studies import fuzz
from meeplezoo.envs import game_argument


def test_fuzz_takes_a_short_name():
    assert fuzz.build_parser().parse_args(["hansa"]).game == "hansa_v0"
    assert fuzz.build_parser().parse_args(["saint_malo_v0"]).game == "saint_malo_v0"
    assert fuzz.build_parser().parse_args(["serenissima"]).game == "serenissima_v1"


def test_fuzz_bad_name_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as done:
        fuzz.build_parser().parse_args(["chess"])
    assert done.value.code == 2
    assert "unknown game 'chess'; available:" in capsys.readouterr().err


def test_game_argument():
    assert game_argument("carcassonne") == "carcassonne_v1"
    with pytest.raises(argparse.ArgumentTypeError, match="unknown game 'go'"):
        game_argument("go")


def test_residual_value_takes_a_short_name():
    from meeplezoo.benchmarks.studies import residual_value

    parser = argparse.ArgumentParser()
    residual_value.add_arguments(parser)
    assert parser.parse_args(["hansa", "--positions", "x.npz"]).game == "hansa_v0"
