"""The self-play throughput benchmark runs both sides and reports what it says."""

import pytest

pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.benchmarks.speed import az_throughput  # noqa: E402


def test_a_short_measurement_reports_both_sides(tmp_path):
    row = az_throughput.measure("hansa_v0", games=4, leaf_batch=4, rounds=1, seconds=0.3)
    lock, leaf = row["lockstep"], row["per_leaf"]
    assert leaf["leaves_per_network_call"] == pytest.approx(1.0)   # the per-leaf peer
    assert lock["leaves_per_network_call"] > 1.5                     # 4 games x 4 leaves
    for side in (lock, leaf):
        assert side["simulations_per_s"] > 0 and 0 < side["network_share"] < 1
        assert side["moves_per_s"] > 0
    assert row["ratio_median"] == pytest.approx(
        lock["simulations_per_s"] / leaf["simulations_per_s"], rel=1e-9)
    assert row["settings"]["games"] == 4
