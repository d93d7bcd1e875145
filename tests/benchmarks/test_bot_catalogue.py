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


def test_the_bar_at_each_count_names_what_a_bot_misses():
    from meeplezoo.agents.catalogue import bar_misses, meets_bar

    two = {"kind": "score", "score": 0.56, "low": 0.51, "high": 0.6, "games": 400,
           "think_ratio": 5.0}
    assert meets_bar(two)
    assert bar_misses({**two, "low": 0.5}) == ["score below 0.55 or its lower bound not "
                                                "above 0.5"]
    assert bar_misses({**two, "think_ratio": 4.9, "games": 399}) == [
        "think time 1/4.9", "399 games, not 400"]
    more = {"kind": "openskill", "mu": 10.0, "games": 300, "think_ratio": 30.0,
            "opponents": {"mcts:1000": 2.0, "greedy": 0.0},
            "leads": {"mcts:1000": [0.1, 9.0], "greedy": [4.0, 12.0]}}
    assert meets_bar(more)
    assert bar_misses({**more, "leads": {"mcts:1000": [-0.1, 9.0], "greedy": [4.0, 12.0]}}) \
        == ["lead over mcts:1000 not clear of 0"]
    # a figure read before leads were kept cannot show the intervals apart
    assert bar_misses({**more, "leads": {}, "games": 120}) == [
        "lead over mcts:1000 not clear of 0", "lead over greedy not clear of 0",
        "120 games, not 300"]
