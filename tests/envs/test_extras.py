"""A verb that needs an optional package says, in one line, which extra installs it."""

from __future__ import annotations

import importlib
import sys

import pytest

from meeplezoo.envs.core.extras import MissingExtra, require


def test_require_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtra) as caught:
        require("matplotlib", "train", "plots")
    message = str(caught.value)
    assert message == ("plots needs the train extra (matplotlib is not installed): "
                       "pip install 'meeplezoo[train]'")
    assert "\n" not in message
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, ImportError)


def test_present_module_is_returned():
    assert require("json", "train", "x") is importlib.import_module("json")


def test_arena_plot_without_matplotlib(monkeypatch, tmp_path):
    from meeplezoo.benchmarks.arena import plot

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingExtra, match=r"^arena plots needs the train extra "
                       r"\(matplotlib is not installed\): pip install 'meeplezoo\[train\]'$"):
        plot.plot_ratings({"ratings": []}, tmp_path / "x.png")


def test_plackett_luce_without_openskill(monkeypatch):
    from meeplezoo.benchmarks.rating.ratings import plackett_luce

    monkeypatch.setitem(sys.modules, "openskill.models", None)
    with pytest.raises(MissingExtra, match=r"^ratings at three or more players needs the "
                       r"train extra \(openskill is not installed\)"):
        plackett_luce([], ["a", "b", "c"], "a")


def test_openspiel_adapter_without_pyspiel(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "meeplezoo.envs.interop.openspiel_game", raising=False)
    with pytest.raises(MissingExtra, match=r"^the OpenSpiel adapter needs the openspiel extra "
                       r"\(pyspiel is not installed\): pip install 'meeplezoo\[openspiel\]'$"):
        importlib.import_module("meeplezoo.envs.interop.openspiel_game")


def test_cli_prints_one_line_and_exits_2(monkeypatch, capsys):
    from meeplezoo.play import cli

    def handler(args):
        return require("matplotlib", "train", "arena plots") and 0

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    parser = cli.build_parser()
    args = parser.parse_args(["games"])
    monkeypatch.setattr(cli.argparse.ArgumentParser, "parse_args",
                        lambda self, argv=None: args.__class__(handler=handler))
    assert cli.main(["games"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["meeplezoo: error: arena plots needs the train extra (matplotlib is not "
                   "installed): pip install 'meeplezoo[train]'"]
