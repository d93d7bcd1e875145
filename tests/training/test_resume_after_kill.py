"""A run killed with SIGKILL mid-training resumes from its last checkpoint, logs intact."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from killtest import csv_column, kill_after_an_odd_row  # noqa: E402

from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

ARGS = ["saint_malo", "--num-envs", "8", "--num-steps", "16", "--hidden", "16",
        "--update-epochs", "1", "--num-minibatches", "2", "--checkpoint-every", "2",
        "--torch-threads", "1", "--no-progress", "--run-name", "killed", "--evaluations", "0"]


def csv_updates(path: Path) -> list[int]:
    return csv_column(path, "update")


def test_sigkill_then_resume(tmp_path):
    run = tmp_path / "killed"
    kill_after_an_odd_row([sys.executable, "-m", "meeplezoo.training.ppo.loop", *ARGS,
                           "--run-dir", str(tmp_path), "--max-updates", "100000"],
                          run, "update")
    saved = load_checkpoint(run / "checkpoint.pt")["counters"]
    logged = csv_updates(run / "progress.csv")
    assert saved["update"] % 2 == 0 and saved["update"] < logged[-1]   # rows to forget

    target = saved["update"] + 3
    resumed = subprocess.run(
        [sys.executable, "-m", "meeplezoo.training.ppo.loop", *ARGS, "--run-dir", str(tmp_path),
         "--resume", "--max-updates", str(target)],
        capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    after = load_checkpoint(run / "checkpoint.pt")["counters"]
    assert after["update"] == target
    assert after["global_step"] == target * 8 * 16               # no step counted twice
    assert csv_updates(run / "progress.csv") == list(range(1, target + 1))
