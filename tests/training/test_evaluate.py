"""Periodic evaluation during training, and the learning-curve plot."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.training.ppo.loop import Options, train  # noqa: E402
from meeplezoo.training.run.evaluate import (  # noqa: E402
    curve_title,
    plot_learning_curve,
    read_eval_rows,
)


def tiny(tmp_path, **overrides) -> Options:
    base = dict(game="saint_malo", num_envs=8, num_steps=16, hidden=(16,), update_epochs=1,
                num_minibatches=2, checkpoint_every=2, torch_threads=1, progress=False,
                run_dir=str(tmp_path), run_name="evaluated", eval_every=2, eval_games=2,
                eval_opponents=("random", "greedy"), max_updates=4)
    return Options(**{**base, **overrides})


def test_periodic_evaluation_and_curve(tmp_path):
    train(tiny(tmp_path))
    rows = read_eval_rows(tmp_path / "evaluated" / "eval.csv")
    assert [(int(r["update"]), r["opponent"]) for r in rows] == [
        (2, "random"), (2, "greedy"), (4, "random"), (4, "greedy")]
    for row in rows:
        assert row["games"] == 2 and 0.0 <= row["wilson_low"] <= row["score"] \
            <= row["wilson_high"] <= 1.0
        assert row["global_step"] == row["update"] * 8 * 16
    picture = plot_learning_curve(tmp_path / "evaluated")
    assert picture.exists() and picture.stat().st_size > 5000
    train(tiny(tmp_path, resume=True, max_updates=6))
    rows = read_eval_rows(tmp_path / "evaluated" / "eval.csv")
    assert [int(r["update"]) for r in rows] == [2, 2, 4, 4, 6, 6]


def test_the_title_names_a_held_out_evaluation_board(tmp_path):
    train(tiny(tmp_path, game="hansa", max_updates=2, eval_opponents=("random",),
               eval_board="generated:test", run_name="held_out"))
    assert curve_title(tmp_path / "held_out") == \
        "learning curve: held_out (evaluated on generated:test)"
    train(tiny(tmp_path, game="hansa", max_updates=2, eval_opponents=("random",),
               run_name="printed"))
    assert curve_title(tmp_path / "printed") == "learning curve: printed"
    assert curve_title(tmp_path / "nowhere") == "learning curve: nowhere"


def test_curve_needs_evaluations(tmp_path):
    (tmp_path / "eval.csv").write_text("update,global_step,elapsed_s,opponent,games,score,"
                                       "wilson_low,wilson_high\n")
    with pytest.raises(ValueError, match="no evaluations"):
        plot_learning_curve(tmp_path)
