"""The replay-memory benchmark runs, and its peer shows the same positions as the view."""

from __future__ import annotations

import numpy as np

from meeplezoo.benchmarks.speed.replay_memory import EveryPlyView, long_replay, main
from meeplezoo.play.web.sessions import ReplayView


def test_the_peer_and_the_view_show_the_same_positions():
    record = long_replay("hansa_v0", 2)
    view, peer = ReplayView(record, "r"), EveryPlyView(record)
    for ply in (0, 1, 49, 50, 51, len(record["actions"]), 7):
        assert np.array_equal(view._env_at(ply).state, peer._env_at(ply).state)


def test_the_benchmark_prints_its_table(capsys):
    assert main(["--game", "hansa_v0", "--views", "2"]) == 0
    out = capsys.readouterr().out
    assert "snapshots" in out and "every ply" in out and "memory per view" in out
