"""The shipped bots' figures (``agents/bots.json``) are the arena records' own: rebuilt
from ``results/bot_bars`` they are the same, so a figure there cannot go stale."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from meeplezoo.agents.catalogue import CATALOGUE_FILE, SHIPPED, key
from meeplezoo.benchmarks.studies import bot_catalogue

RESULTS = Path(__file__).resolve().parents[2] / "results"


@pytest.mark.skipif(not (RESULTS / "bot_bars").is_dir(), reason="no records (not a checkout)")
def test_the_catalogue_is_what_the_records_say(tmp_path):
    assert bot_catalogue.build(RESULTS) == json.loads(CATALOGUE_FILE.read_text())
    out = tmp_path / "bots.json"
    assert bot_catalogue.main(["--results", str(RESULTS), "--out", str(out)]) == 0
    assert out.read_bytes() == CATALOGUE_FILE.read_bytes()


def test_every_measured_bot_has_its_figure():
    found = json.loads(CATALOGUE_FILE.read_text())["bots"]
    assert {key(bot) for bot in SHIPPED if bot.record} == set(found)
    for bot in SHIPPED:
        if bot.record:
            figure = found[key(bot)]
            assert figure["measured_as"] == bot.record[1] and figure["games"] >= 300
            assert figure["kind"] == ("score" if bot.players == 2 else "openskill")
