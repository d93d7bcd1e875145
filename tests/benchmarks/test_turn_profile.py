"""benchmarks/turn_profile: the per-call breakdown of the AEC loop, tiny budgets."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("pygame", reason="PettingZoo's connect_four_v3 (the peer) imports pygame")

from meeplezoo.benchmarks.speed import turn_profile  # noqa: E402


def test_profile_writes_every_part_of_the_turn(tmp_path, capsys):
    out = tmp_path / "profile.json"
    assert turn_profile.main(["carcassonne", "--turns", "300", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    # a name without its version is the newest version
    assert report["game"] == "carcassonne_v1" and report["turns"] == 300
    assert set(report["us_per_turn"]) == set(turn_profile.PARTS)
    for value in [*report["us_per_turn"].values(), report["connect_four_v3_us_per_turn"]]:
        assert math.isfinite(value) and value > 0
    printed = capsys.readouterr().out
    assert all(part in printed for part in turn_profile.PARTS)
