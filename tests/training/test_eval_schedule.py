"""Evaluation by default: spread over the budget, outside the time budget, after the
compile; the curve drawn; the schedule's flags checked."""

from __future__ import annotations

import csv
import time
from types import SimpleNamespace

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.play.cli import main  # noqa: E402
from meeplezoo.training.az import learner as az_learner  # noqa: E402
from meeplezoo.training.az import loop as az_loop  # noqa: E402
from meeplezoo.training.ppo import loop as ppo_loop  # noqa: E402
from meeplezoo.training.run import evaluate as evaluate_module  # noqa: E402
from meeplezoo.training.run.schedule import EvalSchedule  # noqa: E402

SLOW = 1000.0       # seconds a fake compile and a fake evaluation take on the fake clock


def test_evaluations_spread_over_the_budget_with_searches_every_other_time():
    schedule = EvalSchedule(evaluations=6, every=0, count=0, spent=0.0, search_every=2)
    rungs = ("random", "greedy", "mcts:200")
    played = []
    for update in range(1, 101):
        if schedule.due(update, update / 100):
            played.append((update, schedule.opponents(rungs, final=update == 100)))
            schedule.evaluated(update)
    assert [u for u, _ in played] == [17, 34, 50, 67, 84, 100]
    assert [len(r) for _, r in played] == [2, 3, 2, 3, 2, 3]       # the last has them all
    assert not schedule.final_due(100)                             # the end was evaluated
    assert schedule.final_due(101)
    resumed = EvalSchedule(6, 0, count=50, spent=0.5)             # the next share is 4/6
    assert not resumed.due(51, 0.6) and resumed.due(67, 0.67) and not resumed.final_due(50)
    every = EvalSchedule(6, every=5, count=0, spent=0.0)
    assert [u for u in range(1, 21) if every.due(u, 0.0)] == [5, 10, 15, 20]
    off = EvalSchedule(0, 0, 0, 0.0)
    assert not off.due(10, 1.0) and not off.final_due(10)


def slow_clock(monkeypatch, module, names):
    """``module``'s clock made to jump ``SLOW`` seconds inside each of ``names`` (functions
    of ``module`` the loop calls): were any of them timed as training, the run's
    ``elapsed_s`` would hold the jump."""
    offset = [0.0]
    monkeypatch.setattr(module, "time",
                        SimpleNamespace(perf_counter=lambda: time.perf_counter() + offset[0]))
    for owner, name in names:
        real = getattr(owner, name)

        def slow(*args, _real=real, **kwargs):
            result = _real(*args, **kwargs)
            offset[0] += SLOW
            return result

        monkeypatch.setattr(owner, name, slow)
    return offset


def rows(path) -> list[dict]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_ppo_evaluates_by_default_after_the_compile_and_outside_the_budget(tmp_path,
                                                                            monkeypatch,
                                                                            capsys):
    slow_clock(monkeypatch, ppo_loop, [(ppo_loop, "warm_up"), (ppo_loop, "evaluate_run")])
    code = main(["train", "saint_malo", "--minutes", "0.04", "--num-envs", "8",
                 "--num-steps", "8", "--hidden", "16", "--update-epochs", "1",
                 "--num-minibatches", "2", "--torch-threads", "1", "--eval-games", "2",
                 "--eval-opponents", "random", "--run-dir", str(tmp_path), "--run-name", "r"])
    out = capsys.readouterr().out
    assert code == 0
    run = tmp_path / "r"
    assert "compiling saint_malo_v0… done in" in out
    assert f"learning curve: {run / 'learning_curve.png'}" in out
    evaluated = rows(run / "eval.csv")
    progress = rows(run / "progress.csv")
    # six evaluations over 2.4 s of training, the last at the end: had an evaluation's
    # time counted, the first would have spent the budget
    assert len(evaluated) >= 2 and evaluated[-1]["update"] == progress[-1]["update"]
    assert (run / "learning_curve.png").stat().st_size > 5000
    # the clock starts after the compile, and the anneal runs over training time only
    assert float(progress[0]["elapsed_s"]) < SLOW / 10
    assert float(progress[0]["learning_rate"]) == ppo_loop.Options().learning_rate
    assert float(progress[-1]["elapsed_s"]) < SLOW / 10


def test_az_evaluates_by_default_after_the_compile_and_outside_the_budget(tmp_path,
                                                                           monkeypatch):
    slow_clock(monkeypatch, az_loop, [(az_loop, "warm_up"), (az_learner, "evaluate_run")])
    result = az_loop.train(az_loop.Options(
        game="hansa", minutes=0.03, num_games=2, simulations=4, fast_simulations=2,
        considered=2, moves_per_iteration=8, hidden=(16,), batch_size=16, min_buffer=8,
        updates_per_iteration=1, torch_threads=1, progress=False, eval_games=2,
        eval_opponents=("random",), eval_simulations=2, value_set=None,
        run_dir=str(tmp_path), run_name="az"))
    evaluated = rows(tmp_path / "az" / "eval.csv")
    assert len(evaluated) >= 2 and evaluated[-1]["update"] == str(result["iteration"])
    assert result["learning_curve"] == str(tmp_path / "az" / "learning_curve.png")
    assert float(rows(tmp_path / "az" / "progress.csv")[0]["elapsed_s"]) < SLOW / 10
    assert result["elapsed_s"] < SLOW / 10


def test_evaluation_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setattr(evaluate_module, "evaluate_checkpoint", None)     # never called
    result = ppo_loop.train(ppo_loop.Options(
        game="saint_malo", num_envs=8, num_steps=8, hidden=(8,), update_epochs=1,
        num_minibatches=2, max_updates=2, progress=False, evaluations=0,
        run_dir=str(tmp_path), run_name="off"))
    assert result["eval_csv"] is None and not (tmp_path / "off" / "eval.csv").exists()


@pytest.mark.parametrize("flags, message", [
    (["--evaluations", "-1"], "--evaluations must be an integer in 0..1,000"),
    (["--eval-search-every", "0"], "--eval-search-every must be an integer in 1..1,000"),
    (["--eval-every", "-2"], "--eval-every must be an integer in 0.."),
    (["--eval-opponents", "mcts:zero"], "--eval-opponents 'mcts:zero'"),
])
@pytest.mark.parametrize("algorithm", ["ppo", "az"])
def test_bad_evaluation_flags_are_one_line(tmp_path, capsys, algorithm, flags, message):
    assert main(["train", "hansa", "--algo", algorithm, *flags, "--no-progress",
                 "--run-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not any(tmp_path.iterdir())
