"""Smoke test of the peers benchmark: it runs end to end and writes well-formed JSON.

Budgets are tiny and nothing is asserted about speed (the machine is shared and noisy);
a peer that is not installed must be reported as unavailable, not crash the run.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import math

import pytest

from meeplezoo.benchmarks.speed import peers

TINY = dataclasses.replace(peers.QUICK, repeats=1, budget_s=0.02, batch_size=8,
                           playout_chunk=50, scan_steps=4, mcts_sims=(20,),
                           mcts_seconds=0.05, mcts_positions=2)


def positive(value) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


def installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def test_openspiel_mcts_sims_per_second():
    pytest.importorskip("pyspiel")
    row = peers.openspiel_mcts_sims_per_second(30, rollouts=2, seconds=0.05, positions=3)
    assert row["num_sims"] == 30 and row["rollouts"] == 2 and row["uct_c"] == 2.0
    assert row["simulations"] == 30 * row["searches"]           # no solver: full searches
    assert positive(row["sims_per_s"]) and positive(row["initial_position_sims_per_s"])
    assert len(row["per_position"]) == 3 and row["per_position"][0]["moves"] == []
    assert all(row["per_position"][i]["moves"] for i in (1, 2))


def test_openspiel_positions_are_reproducible():
    pytest.importorskip("pyspiel")
    first = [s.history() for s in peers.openspiel_positions(4, seed=5)]
    assert first == [s.history() for s in peers.openspiel_positions(4, seed=5)]
    assert first[0] == [] and all(4 <= len(moves) <= 12 for moves in first[1:])


def test_cli_writes_report(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(peers, "QUICK", TINY)
    out = tmp_path / "peers.json"
    assert peers.main(["--quick", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["game"] == "connect_four_calibration"
    assert report["command"] == "python -m meeplezoo.benchmarks.speed.peers --quick"
    assert report["settings"]["batch_size"] == 8

    ours = report["steps"]["ours"]
    assert set(ours) == {"playouts", "batch", "batch_obs"}
    assert all(positive(row["steps_per_s"]) for row in ours.values())
    assert 7 <= ours["playouts"]["decisions_per_game"] <= 42
    assert positive(ours["playouts"]["games_per_s"])

    pgx = report["steps"]["pgx"]
    assert pgx["available"] == (installed("pgx") and installed("jax"))
    if pgx["available"]:
        assert positive(pgx["python_loop"]["steps_per_s"])
        assert positive(pgx["lax_scan"]["steps_per_s"])
        assert set(report["steps"]["ratios_vs_pgx_best"]) == set(ours)
        assert isinstance(report["steps"]["bar"]["met"], bool)
    else:
        assert pgx["error"]

    mcts = report["openspiel_mcts"]
    assert mcts["available"] == installed("pyspiel")
    if mcts["available"]:
        assert [row["num_sims"] for row in mcts["searches"]] == [20]
        assert positive(mcts["searches"][0]["sims_per_s"])
    printed = capsys.readouterr().out
    assert "(a) random play" in printed and "(b) OpenSpiel MCTSBot" in printed
