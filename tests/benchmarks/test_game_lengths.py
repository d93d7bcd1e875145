"""benchmarks/game_lengths: every Hansa Teutonica game ends, by the rules or at the cap."""

from __future__ import annotations

import json

import numpy as np

from meeplezoo.benchmarks.studies import game_lengths
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.options import make_config


def test_games_end_by_the_rules_or_at_the_cap_and_the_report_adds_up(tmp_path):
    out = tmp_path / "lengths.json"
    report = game_lengths.main(["--games", "8", "--players", "2", "3", "--out", str(out)])
    assert json.loads(out.read_text())["results"] == report["results"]
    assert report["cap"] == D.DEFAULT_MAX_DECISIONS
    for key, row in report["results"].items():
        assert row["games"] == 4
        assert row["ended_by_rules"] + row["truncated_at_cap"] == row["games"]
        assert row["longest_decisions"] <= report["cap"]
        if row["truncated_at_cap"]:
            assert row["longest_decisions"] == report["cap"]
        if key.startswith("heuristic") and row["ended_by_rules"]:
            assert row["longest_ended_by_rules"] < 1_000      # the heuristic plays real games


def test_a_lower_cap_truncates_exactly_there():
    config = make_config(max_decisions=300)
    lengths = np.zeros(6, dtype=np.int64)
    truncated = np.zeros(6, dtype=np.int64)
    game_lengths.play_games(6, 3, config, game_lengths.RANDOM, 5, lengths, truncated)
    assert lengths.max() <= 300
    assert ((truncated == 1) == (lengths == 300)).all()
    assert truncated.sum() >= 1                     # uniform random play rarely ends by 300
