"""Training on a distribution of boards: both trainers take ``--board``, the AlphaZero
trainer logs the held-out score (``--eval-board``) and keeps its checkpoints for the
generalisation curve, which ``benchmarks.generalisation --checkpoints`` draws."""

from __future__ import annotations

import csv

import pytest

pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.benchmarks.studies import generalisation  # noqa: E402
from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.play.cli import main  # noqa: E402
from meeplezoo.training.az.loop import Options, train  # noqa: E402
from meeplezoo.training.az.selfplay import LockstepSelfPlay  # noqa: E402
from meeplezoo.training.ppo import loop as ppo  # noqa: E402


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MEEPLEZOO_CACHE", str(tmp_path / "cache"))


SMALL = dict(game="hansa_v0", num_games=4, simulations=8, fast_simulations=2, considered=4,
             moves_per_iteration=30, hidden=(16,), batch_size=16, min_buffer=8,
             updates_per_iteration=2, checkpoint_every=2, progress=False, torch_threads=1,
             value_set=None, evaluations=0)


def test_self_play_games_are_dealt_boards_from_the_range():
    selfplay = LockstepSelfPlay(spec("hansa_v0"), 8, players=2, simulations=4,
                                fast_simulations=2, full_fraction=0.25, considered=4,
                                margin_scale=50.0, seed=0,
                                rule_options={"board": "generated:0-999"})
    boards = {env.board_seed for env in selfplay.envs}
    assert len(boards) >= 6 and all(0 <= b <= 999 for b in boards)


def test_az_trains_on_a_distribution_logs_the_held_out_score_and_draws_the_curve(tmp_path):
    train(Options(**SMALL, iterations=4, board="generated:0-19", eval_every=2, eval_games=2,
                  eval_opponents=("random",), eval_board="generated:test",
                  eval_simulations=2, keep_checkpoints=True, run_dir=str(tmp_path),
                  run_name="gen"))
    run = tmp_path / "gen"
    with (run / "eval.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["update"]) for r in rows] == [2, 4]
    assert sorted(p.name for p in (run / "checkpoints").iterdir()) == ["iter_2.pt", "iter_4.pt"]
    out = tmp_path / "curve"
    assert generalisation.main(["hansa", "--checkpoints", str(run / "checkpoints"),
                                "--template", "az:{checkpoint},sims=2", "--curve-opponent",
                                "random", "--curve-deals", "1", "--workers", "1", "--out",
                                str(out), "--quiet"]) == 0
    (curve_json,) = out.glob("*_curve.json")
    points = __import__("json").loads(curve_json.read_text())
    assert sorted((p["iteration"], p["set"], p["games"]) for p in points) == [
        (2, "test", 2), (2, "train", 2), (4, "test", 2), (4, "train", 2)]
    assert list(out.glob("*_curve.png"))


def test_ppo_trains_on_a_distribution_and_keeps_checkpoints_for_the_curve(tmp_path):
    options = ppo.Options(game="serenissima", num_envs=8, num_steps=8, hidden=(16,),
                          update_epochs=1, num_minibatches=2, max_updates=2,
                          checkpoint_every=1, progress=False, run_dir=str(tmp_path), seed=3,
                          board="generated:0-63", eval_every=1, eval_games=2,
                          eval_opponents=("random",), eval_board="generated:test",
                          keep_checkpoints=True)
    ppo.train(options)
    run = tmp_path / "serenissima_v1_2p_seed3"              # the short name: the newest rules
    assert (run / "checkpoint.pt").exists()
    kept = sorted(p.name for p in (run / "checkpoints").iterdir())
    assert kept == ["iter_1.pt", "iter_2.pt"]
    assert (run / "checkpoints" / "iter_1.pt").read_bytes() != \
        (run / "checkpoints" / "iter_2.pt").read_bytes()        # each update's own weights
    out = tmp_path / "curve"
    assert generalisation.main(["serenissima", "--checkpoints", str(run / "checkpoints"),
                                "--template", "ppo:{checkpoint}", "--curve-opponent", "random",
                                "--curve-deals", "1", "--workers", "1", "--out", str(out),
                                "--quiet"]) == 0
    (curve_json,) = out.glob("*_curve.json")
    points = __import__("json").loads(curve_json.read_text())
    assert sorted((p["iteration"], p["set"]) for p in points) == [
        (1, "test"), (1, "train"), (2, "test"), (2, "train")]


def test_a_board_for_a_game_without_boards_is_one_clear_line(tmp_path, capsys):
    assert main(["train", "saint_malo", "--algo", "az", "--board", "generated:train",
                 "--run-dir", str(tmp_path)]) == 2
    assert "--board: saint_malo_v0 has no generated boards" in capsys.readouterr().err
    assert main(["train", "hansa", "--algo", "ppo", "--board", "generated:5-1",
                 "--run-dir", str(tmp_path)]) == 2
    assert "reversed" in capsys.readouterr().err
    assert main(["train", "hansa", "--algo", "az", "--eval-board", "nope.json",
                 "--run-dir", str(tmp_path)]) == 2
    assert "nope.json" in capsys.readouterr().err
