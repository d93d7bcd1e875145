"""Self-play training on Ray: actors on both nodes of a real two-node cluster on
this machine, a checkpoint and a resume (with Ray and without), an actor killed mid-run
and replaced, and one clear line where Ray or a CPU is missing."""

from __future__ import annotations

import csv
import os
import threading
import time

import pytest

# Ray turns a loopback address into the machine's IP unless told this is a one-machine
# cluster; read when ray is imported, so set first.  Every node then binds to 127.0.0.1.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")
pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.play.cli import main  # noqa: E402
from meeplezoo.training.az.learner import Learner  # noqa: E402
from meeplezoo.training.az.loop import Options, optional_value, train  # noqa: E402
from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

GAME = "hansa_v0"
# Two games per actor and 100 moves each a call: a few Hansa games end within 10 calls.
SMALL = dict(game=GAME, num_games=2, simulations=8, fast_simulations=2, considered=4,
             moves_per_iteration=100, hidden=(16,), batch_size=16, min_buffer=8,
             updates_per_iteration=2, checkpoint_every=2, progress=False, torch_threads=1,
             evaluations=0)


def rows(run) -> list[dict]:
    with (run / "progress.csv").open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_actors_on_both_nodes_train_checkpoint_and_resume(two_nodes, tmp_path):
    run = tmp_path / "r"
    first = train(Options(**SMALL, iterations=10, run_dir=str(tmp_path), run_name="r",
                          ray=two_nodes.address, actors=2))
    assert len(first["actor_nodes"]) == 2, first["actor_nodes"]      # one actor per node
    assert sum(first["actor_nodes"].values()) == first["iteration"] == 10
    assert first["games"] >= 1 and first["updates"] > 0 and first["actor_restarts"] == 0
    assert first["put_ms"] > 0 and first["load_ms"] > 0
    saved = load_checkpoint(run / "checkpoint.pt")
    assert saved["counters"]["iteration"] == 10 and (run / "buffer.npz").exists()
    logged = rows(run)
    assert [int(r["iteration"]) for r in logged] == list(range(1, 11))
    # An actor plays with weights at most a few updates old, never newer than the learner's.
    assert all(0 <= int(r["policy_lag"]) <= int(r["updates"]) for r in logged)
    assert {r["actor"] for r in logged} == {"0", "1"}

    with pytest.raises(ValueError, match="pass --resume"):
        train(Options(**SMALL, iterations=12, run_dir=str(tmp_path), run_name="r",
                      ray=two_nodes.address))
    resumed = train(Options(**SMALL, iterations=14, run_dir=str(tmp_path), run_name="r",
                            ray=two_nodes.address, actors=2, resume=True))
    assert resumed["iteration"] == 14 and resumed["updates"] > first["updates"]
    assert resumed["positions"] >= first["positions"]
    # The same run goes on without Ray: same checkpoint, buffer and log columns.
    local = train(Options(**{**SMALL, "moves_per_iteration": 20}, iterations=16,
                          run_dir=str(tmp_path), run_name="r", resume=True))
    assert local["iteration"] == 16 and "actor_nodes" not in local
    logged = rows(run)
    assert [int(r["iteration"]) for r in logged] == list(range(1, 17))
    assert logged[-1]["actor"] == "" and logged[0]["actor"] in ("0", "1")


def replacement_played(run) -> bool:
    """Whether the replacement of actor 0 (its generation 1) has logged an iteration."""
    return (run / "progress.csv").exists() and \
        any(r["actor"] == "0" and r["actor_restarts"] == "1" for r in rows(run))


def test_an_actor_killed_mid_run_is_replaced_and_the_run_goes_on(two_nodes, tmp_path,
                                                                 monkeypatch):
    run, outcome, failures = tmp_path / "k", {}, []
    # The run ends on the event, not on a clock: once the replacement has played (or at a
    # generous deadline, which the asserts below then report), on a loaded machine too.
    deadline = time.monotonic() + 600
    spent = Learner.spent
    monkeypatch.setattr(Learner, "spent", lambda self: 1.0 if replacement_played(run) or
                        time.monotonic() > deadline else spent(self))

    def training():
        try:
            outcome.update(train(Options(**SMALL, iterations=10**6, run_dir=str(tmp_path),
                                         run_name="k", ray=two_nodes.address, actors=2)))
        except Exception as err:                         # reported by the assert below
            failures.append(err)

    runner = threading.Thread(target=training)
    runner.start()
    while time.monotonic() < deadline and runner.is_alive() and \
            (not (run / "progress.csv").exists() or len(rows(run)) < 2):
        time.sleep(0.05)
    killed_after = len(rows(run))
    ray.kill(ray.get_actor("meeplezoo-selfplay-0.0"), no_restart=True)   # SIGKILL
    runner.join(timeout=700)
    assert not runner.is_alive() and not failures, failures
    assert 2 <= killed_after < outcome["iteration"] and outcome["actor_restarts"] == 1
    # The replacement (generation 1 of actor 0) played: results of actor 0 after the kill.
    assert replacement_played(run)


def test_ray_alone_starts_a_local_ray_from_the_cli(tmp_path, capsys):
    assert optional_value(["--ray"], "--ray", "local") == ["--ray", "local"]
    assert optional_value(["--ray", "--actors", "1"], "--ray", "local")[1] == "local"
    assert optional_value(["--ray", "auto"], "--ray", "local") == ["--ray", "auto"]
    code = main(["train", GAME, "--algo", "az", "--ray", "--actors", "1", "--iterations", "2",
                 "--num-games", "2", "--simulations", "4", "--fast-simulations", "2",
                 "--considered", "2", "--moves-per-iteration", "10", "--hidden", "16",
                 "--no-progress", "--evaluations", "0", "--run-dir", str(tmp_path)])
    assert code == 0, capsys.readouterr().err
    assert "self-play on Ray: 1 actors" in capsys.readouterr().out
    assert not ray.is_initialized()
    assert len(rows(tmp_path / f"{GAME}_2p_az_seed1")) == 2


def test_without_ray_the_cli_names_the_extra_and_exits_2(tmp_path, capsys, without_ray):
    assert main(["train", GAME, "--algo", "az", "--ray", "--run-dir", str(tmp_path)]) == 2
    assert "pip install 'meeplezoo[ray]'" in capsys.readouterr().err


def test_no_actors_is_one_clear_line(tmp_path, capsys):
    assert main(["train", GAME, "--algo", "az", "--ray", "--actors", "0",
                 "--run-dir", str(tmp_path)]) == 2
    assert "--actors must be an integer in 1" in capsys.readouterr().err


def test_the_speed_benchmark_reports_every_figure(tmp_path):
    import json

    from meeplezoo.benchmarks.speed import ray_selfplay as ray_selfplay_speed

    out = tmp_path / "speed.json"
    assert ray_selfplay_speed.main(["--seconds", "2", "--num-games", "2",
                                    "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    # Runs this short may end before the second actor answers: both nodes are the
    # training test's to check.
    assert result["ray_1_actor"]["nodes"] == 1 and result["ray_2_actors"]["nodes"] in (1, 2)
    assert result["ray_1_actor"]["updates"] == 0 == result["ray_2_actors"]["updates"]
    assert result["local_selfplay"]["moves_per_s"] > 0 and result["learner"]["updates_per_s"] > 0
    assert result["broadcast_ms"]["total"] == pytest.approx(
        result["broadcast_ms"]["put"] + result["broadcast_ms"]["fetch_and_load"])
