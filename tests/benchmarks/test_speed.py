"""Smoke test of the speed benchmark: it runs end to end and writes well-formed JSON.

Budgets are tiny and nothing is asserted about speed (the machine is shared and noisy);
the figures are only checked to be positive and finite.
"""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

pytest.importorskip("pygame", reason="PettingZoo's connect_four_v3 (the peer) imports pygame")

from meeplezoo.benchmarks.speed import saint_malo as speed  # noqa: E402

TINY = dataclasses.replace(speed.QUICK, aec_rounds=2, aec_budget_s=0.02, repeats=1,
                           budget_s=0.02, playout_players=(2, 5), batch_sizes=(1, 8),
                           cold_start=False, warm_starts=1)


def positive(value) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


def check_report(report: dict) -> None:
    assert report["game"] == "saint_malo_v0"
    assert positive(report["machine"]["cpu_count"])
    for key in ("python", "numpy", "numba", "pettingzoo"):
        assert isinstance(report["machine"][key], str)

    aec = report["aec"]
    assert set(aec["contenders"]) == {"saint_malo_2p", "saint_malo_4p",
                                      "saint_malo_2p_pz_wrappers", "connect_four_v3",
                                      "connect_four_v3_raw"}
    for row in aec["contenders"].values():
        assert positive(row["turns_per_s"])
        assert len(row["per_round"]) == TINY.aec_rounds
    for ratio in aec["ratios"].values():
        assert ratio["min"] <= ratio["median_of_rounds"] <= ratio["max"]
        assert positive(ratio["of_medians"])
    assert isinstance(aec["bar"]["met"], bool)

    assert set(report["playouts"]) == {"2", "5"}
    for row in report["playouts"].values():
        assert positive(row["games_per_s"]) and positive(row["decisions_per_s"])
        assert row["decisions_per_game"] > 1

    assert {(r["batch_size"], r["with_observations"]) for r in report["batch"]} == {
        (1, True), (8, True), (1, False), (8, False)}
    for row in report["batch"]:
        assert positive(row["steps_per_s"])
        assert row["steps_per_s"] == pytest.approx(row["calls_per_s"] * row["batch_size"])

    startup = report["startup"]
    assert "cold" not in startup
    for key in ("import_s", "first_reset_s", "first_step_s", "process_to_first_step_s",
                "batch_first_step_s"):
        assert positive(startup["warm"][key])
    assert isinstance(startup["bar"]["met"], bool)


def test_quick_run_writes_well_formed_json(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(speed, "QUICK", TINY)
    out = tmp_path / "speed.json"
    assert speed.main(["--quick", "--out", str(out)]) == 0    # the exit status the CLI uses
    check_report(json.loads(out.read_text()))
    printed = capsys.readouterr().out
    assert "(a) AEC turns/s" in printed and "(d) start-up" in printed


def test_paired_ratio():
    ratio = speed.paired_ratio([10.0, 30.0, 20.0], [1.0, 2.0, 4.0])
    assert ratio == {"median_of_rounds": 10.0, "min": 5.0, "max": 15.0, "of_medians": 10.0}
