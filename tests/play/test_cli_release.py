"""``meeplezoo --version``, ``--help`` and ``games``; ``meeplezoo.envs.__version__``."""

from __future__ import annotations

import importlib.metadata
import re

import pytest

import meeplezoo.envs
from meeplezoo.agents.catalogue import SHIPPED
from meeplezoo.envs import names, spec
from meeplezoo.play.cli import build_parser, main


def test_envs_version_is_the_installed_distributions():
    try:
        expected = importlib.metadata.version("meeplezoo")
    except importlib.metadata.PackageNotFoundError:
        expected = "0+unknown"
    assert meeplezoo.envs.__version__ == expected
    assert "__version__" in meeplezoo.envs.__all__


def test_version_falls_back_when_not_installed(monkeypatch):
    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert meeplezoo.envs._installed_version() == "0+unknown"


def test_cli_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"meeplezoo {meeplezoo.envs.__version__}"


def test_help_names_every_verb_in_whole_sentences(capsys):
    parser = build_parser()
    verbs = next(a for a in parser._actions if a.dest == "command").choices
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    description = " ".join(out.split("\n\n")[1].split())
    assert description.endswith(".") and "``" not in description
    for verb in verbs:
        assert re.search(rf"\b{verb}\b", description), verb


def test_games_lists_every_game_its_counts_and_shipped_bots(capsys):
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    for name in names():
        game = spec(name)
        row = next(line for line in lines if line.startswith(name + " "))
        assert f"{game.min_players}-{game.max_players} players" in row
        assert "complete" in row
        bots_line = lines[lines.index(row) + 1]
        for bot in (b for b in SHIPPED if b.game == name):
            assert f"{bot.players}p: " in bots_line and bot.name in bots_line
    assert "reconstructed" in next(line for line in lines if line.startswith("hansa_v0 "))
