"""Files a command line names: each that cannot be read as what it should be (a FIFO, a
link to a device, nested too deeply, numbers beyond what the rules or a fit can hold) is
one line on stderr and exit status 2, promptly, never a traceback or a hang."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from deadline import finishes

from meeplezoo.agents.fitted_values import shipped_path
from meeplezoo.play import cli

ONE_LINE_WITHIN = 300          # seconds: generous, a loaded machine's first compile included


def one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Traceback" not in err[0], err
    return err[0]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    """``meeplezoo ARGS`` in a child process, killed at the deadline (a hang fails here)."""
    return subprocess.run([sys.executable, "-m", "meeplezoo.play.cli", *args],
                          capture_output=True, text=True, timeout=ONE_LINE_WITHIN,
                          stdin=subprocess.DEVNULL)


def test_play_load_on_a_fifo_is_one_line(tmp_path, capsys):
    fifo = tmp_path / "saved.json"
    os.mkfifo(fifo)
    status = finishes(lambda: cli.main(["play", "--load", str(fifo)]), ONE_LINE_WITHIN)
    assert status == 2 and "not a regular file" in one_line(capsys)


def test_a_fit_with_absurd_weights_is_refused_before_a_search(tmp_path):
    record = json.loads(shipped_path("carcassonne_v0").read_text())
    record["weights"] = {name: 1e308 for name in record["weights"]}
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(record))
    done = run_cli("match", "carcassonne_v0", f"mcts:10,leaf=fitted:{path}", "random",
                   "--games", "2")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "must be a number in -1,000..1,000" in lines[0]


def test_a_replay_with_an_infinite_score_is_one_line(tmp_path, capsys):
    path = tmp_path / "replay.json"
    path.write_text('{"format": "meeplezoo-replay", "version": 1, "game": "hansa_v0", '
                    '"num_players": 2, "options": {}, "seats": ["a", "b"], "seed": 1, '
                    '"actions": [], "scores": [Infinity, 0], "rewards": [1, -1]}')
    assert cli.main(["replay", str(path)]) == 2
    assert "Infinity is not a number JSON allows" in one_line(capsys)
    path.write_text(path.read_text().replace("Infinity", "1e300"))
    assert cli.main(["replay", str(path)]) == 2
    assert "'scores' must hold one number per seat" in one_line(capsys)


def test_generalisation_set_deals_takes_ascii_digits_only(capsys):
    from meeplezoo.benchmarks.studies import generalisation

    assert generalisation.main(["hansa", "--agent", "random", "--set-deals", "train=²"]) == 2
    assert "write SET=N" in one_line(capsys)


@pytest.fixture()
def value_set(tmp_path):
    """A small value set written by the project's own code: (npz path, header path)."""
    from meeplezoo.benchmarks.studies.value_sets import build_set, save_set

    found = build_set("carcassonne_v0", 2, 2, 4, 0, 1, ("random",), False, {})
    npz = tmp_path / "set.npz"
    save_set(found, npz)
    return npz, npz.with_suffix(".json")


def fit(*args: str) -> int:
    from meeplezoo.training.value.fit import main

    return main(["carcassonne_v0", *args])


def test_fit_value_refuses_hostile_sets_in_one_line(tmp_path, value_set, capsys):
    npz, header = value_set
    out = str(tmp_path / "fit.json")
    record = json.loads(header.read_text())
    header.write_text(json.dumps({**record, "notes": functools.reduce(
        lambda inner, _: [inner], range(100), 0)}))
    assert fit("--set", str(npz), "--out", out, "--no-progress") == 2
    assert "nested more than" in one_line(capsys)
    header.write_text("[" * 100_000 + "]" * 100_000)
    assert fit("--set", str(npz), "--out", out, "--no-progress") == 2
    assert "nested too deeply" in one_line(capsys)
    header.write_text(json.dumps(record))
    data = npz.read_bytes()
    npz.unlink()
    os.mkfifo(npz)
    status = finishes(lambda: fit("--set", str(npz), "--out", out, "--no-progress"))
    assert status == 2 and "not a regular file" in one_line(capsys)
    npz.unlink()
    npz.symlink_to("/dev/zero")
    assert fit("--set", str(npz), "--out", out, "--no-progress") == 2
    assert "not a regular file" in one_line(capsys)
    npz.unlink()
    npz.write_bytes(data)
    assert not os.path.exists(out)


def test_fit_value_refuses_rewards_no_game_gives(tmp_path, value_set, capsys):
    import hashlib

    npz, header = value_set
    with np.load(npz) as found:
        arrays = {name: found[name] for name in found.files}
    arrays["rewards"] = np.full_like(arrays["rewards"], 1e308)
    np.savez(npz, **arrays)
    record = json.loads(header.read_text())
    record["npz_sha256"] = hashlib.sha256(npz.read_bytes()).hexdigest()
    header.write_text(json.dumps(record))
    out = tmp_path / "fit.json"
    assert fit("--set", str(npz), "--out", str(out), "--no-progress") == 2
    assert "reward (-1..1)" in one_line(capsys) and not out.exists()
