"""``meeplezoo demo``: a short training run, its curve, and the trained bot against greedy."""

from __future__ import annotations

import re

import pytest

from meeplezoo.play import demo
from meeplezoo.play.cli import main


def test_the_demo_trains_draws_the_curve_and_measures_the_bot_against_greedy(tmp_path,
                                                                             capsys,
                                                                             monkeypatch):
    pytest.importorskip("torch")
    monkeypatch.setattr(demo, "DEMO_NUM_GAMES", 4)        # a tiny run of the same recipe
    monkeypatch.setattr(demo, "DEMO_SIMULATIONS", 2)
    assert demo.train_and_rate(minutes=0.08, deals=2, out=str(tmp_path), eval_games=1) == 0
    out = capsys.readouterr().out
    assert "1/3 training" in out and "2/3 learning curve" in out and "3/3 the trained bot" in out
    curve = tmp_path / "demo" / "learning_curve.png"
    assert f"2/3 learning curve: {curve}" in out and curve.exists()
    table = out.split("2/3 learning curve")[1].split("3/3")[0].splitlines()[1:]
    assert "vs random" in table[0] and "vs greedy" in table[0] and len(table) >= 3
    score = re.search(r"trained bot vs greedy: (\d\.\d\d) \[(\d\.\d\d), (\d\.\d\d)\] "
                      r"\(Wilson 95%, 4 games", out)
    assert score, out
    low, mid, high = float(score[2]), float(score[1]), float(score[3])
    assert 0.0 <= low <= mid <= high <= 1.0
    widest = max(out.splitlines(), key=len)
    assert len(widest) <= 120, widest


@pytest.mark.parametrize("flags, message", [
    (["--minutes", "0"], "--minutes must be a finite number in (0, 1440]"),
    (["--minutes", "nan"], "--minutes must be a finite number"),
    (["--deals", "0"], "--deals must be an integer in 1..10,000"),
])
def test_bad_demo_flags_are_one_line(tmp_path, capsys, flags, message):
    pytest.importorskip("torch")
    assert main(["demo", *flags, "--out", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir())
