"""Shared by the SIGKILL tests of the trainers: run a training command, kill it with
SIGKILL right after it logged a row past its last checkpoint."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest


def csv_column(path: Path, column: str, while_written: bool = False) -> list[int]:
    """``column`` of every row.  ``while_written``: the trainer may be mid-write, so a
    header or last row not yet complete is read as absent instead of failing."""
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    if not while_written:
        return [int(row[column]) for row in rows]
    values = [row.get(column) for row in rows]
    return [int(v) for v in values if v is not None and v.strip().isdigit()]


def kill_after_an_odd_row(command: list[str], run: Path, column: str,
                          timeout_s: float = 900) -> None:
    """Start ``command``; once ``run`` has a checkpoint and five or more rows in
    ``progress.csv`` with an odd last ``column`` (checkpoints come every 2), SIGKILL it:
    the log then holds a row the checkpoint does not know about."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + timeout_s
    try:
        while time.time() < deadline:
            log = run / "progress.csv"
            logged = csv_column(log, column, while_written=True) if log.exists() else []
            if (run / "checkpoint.pt").exists() and len(logged) >= 5 and logged[-1] % 2:
                return
            assert process.poll() is None, process.stderr.read().decode()[-2000:]
            time.sleep(0.02)
        pytest.fail("the run wrote no checkpoint in time")
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
