"""Smoke test of the collection benchmark (figures are not asserted: machines are noisy)."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from meeplezoo.benchmarks.speed.collection import measure  # noqa: E402


def test_measure_reports_three_positive_rates():
    row = measure("saint_malo_v0", num_envs=8, steps=4, hidden=(8,), threads=1)
    for key in ("ours_steps_per_s", "loop_batch1_steps_per_s", "loop_batched_steps_per_s"):
        assert row[key] > 0
    assert row["ratio_vs_batch1_loop"] == row["ours_steps_per_s"] / row["loop_batch1_steps_per_s"]
