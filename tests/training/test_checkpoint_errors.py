"""Checkpoints a user hands in: each bad one gets one clear error.

Wrong tensor shapes, a missing or malformed ``meta``, non-finite weights, another game's
sizes: a ``ValueError`` naming the problem from the Python API, one line and exit status 2
from the CLI.  A write killed midway leaves a temporary file that the next run removes.
"""

from __future__ import annotations

import math

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.agents.ppo import PPOAgent, make_network, network_meta  # noqa: E402
from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.play.cli import main  # noqa: E402
from meeplezoo.training.ppo.loop import Options, train  # noqa: E402
from meeplezoo.training.run.checkpoint import FORMAT, load_checkpoint, save_checkpoint  # noqa: E402

GAME = "saint_malo_v0"


def _meta(hidden=(8,)):
    return network_meta(GAME, spec(GAME).obs_size, spec(GAME).num_actions, list(hidden))


def _write(path, **changes):
    """A valid tiny checkpoint with ``changes`` applied to its payload."""
    meta = _meta()
    network = make_network(meta)
    payload = {"format": FORMAT, "meta": meta, "model": network.state_dict(),
               "optimizer": {}, "options": {}, "counters": {"update": 0}}
    payload.update(changes)
    torch.save(payload, path)
    return path


def _nan_weights():
    model = make_network(_meta()).state_dict()
    first = next(iter(model))
    model[first] = model[first].clone().fill_(math.nan)
    return model


def _other_shapes():
    return make_network(_meta(hidden=(4,))).state_dict()      # meta still says (8,)


BAD = {
    "missing meta": ({"meta": None}, "'meta' must be a dict"),
    "meta is a string": ({"meta": "mlp"}, "'meta' must be a dict"),
    "meta without architecture": (
        {"meta": {k: v for k, v in _meta().items() if k != "architecture"}},
        r"meta\['architecture'\]"),
    "unknown game": ({"meta": {**_meta(), "game": "chess_v0"}}, "unknown game"),
    "foreign sizes": ({"meta": {**_meta(), "obs_size": 7}}, "do not fit saint_malo_v0"),
    "hidden of zero": ({"meta": {**_meta(), "hidden": [0]}}, "layer sizes"),
    "non-finite weights": ({"model": None}, "NaN or infinite"),
    "wrong shapes": ({"model": None}, "do not fit the network"),
    "model not a dict": ({"model": [1, 2]}, "state dict"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_checkpoint_is_one_clear_error(case, tmp_path, capsys):
    changes, match = BAD[case]
    if case == "non-finite weights":
        changes = {"model": _nan_weights()}
    elif case == "wrong shapes":
        changes = {"model": _other_shapes()}
    path = _write(tmp_path / "bad.pt", **changes)
    with pytest.raises(ValueError, match=match):
        PPOAgent(str(path))
    code = main(["arena", GAME, "--agents", f"ppo:{path}", "random", "--games", "1",
                 "--workers", "1", "--out", str(tmp_path / "arena")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("meeplezoo: error:")


def test_a_valid_checkpoint_loads(tmp_path):
    path = _write(tmp_path / "good.pt")
    agent = PPOAgent(str(path))
    assert agent.game == GAME and load_checkpoint(path)["format"] == FORMAT


def test_train_refuses_hidden_zero(tmp_path, capsys):
    code = main(["train", GAME, "--hidden", "0", "--run-dir", str(tmp_path), "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--hidden" in err[0]
    with pytest.raises(ValueError, match="num-envs"):
        train(Options(game=GAME, num_envs=0, run_dir=str(tmp_path), progress=False))


def test_a_killed_write_leaves_a_temporary_file_the_next_run_removes(tmp_path):
    options = Options(game=GAME, num_envs=8, num_steps=8, hidden=(8,), update_epochs=1,
                      num_minibatches=2, max_updates=1, progress=False, evaluations=0,
                      run_dir=str(tmp_path), run_name="r")
    folder = tmp_path / "r"
    folder.mkdir()
    stale = folder / ".checkpoint.pt.abc123.tmp"      # what SIGKILL mid-write leaves
    stale.write_bytes(b"half a checkpoint")
    train(options)
    assert not stale.exists()
    assert (folder / "checkpoint.pt").exists()
    assert not list(folder.glob(".*.tmp"))
    # and a plain save cleans its own leftovers too
    leftover = folder / ".other.pt.x.tmp"
    leftover.write_bytes(b"")
    save_checkpoint(folder / "other.pt", meta=_meta(), model=make_network(_meta()))
    assert not leftover.exists()
