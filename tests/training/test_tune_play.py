"""Tuning a bot's play settings: candidates play the same deals, the best is stored as
the checkpoint's play record, and ``az:`` then plays with it."""

from __future__ import annotations

import pytest
import torch

from meeplezoo.agents.az import az_network_meta
from meeplezoo.agents.az.network import make_az_network
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs import spec
from meeplezoo.training.run.checkpoint import save_checkpoint
from meeplezoo.training.shipping import tune_play

GAME = "hansa_v0"


@pytest.fixture
def checkpoint(tmp_path):
    game_spec = spec(GAME)
    meta = az_network_meta(GAME, game_spec.obs_size, game_spec.num_actions,
                           game_spec.max_players, (16,))
    torch.manual_seed(0)
    return save_checkpoint(tmp_path / "bot.pt", meta=meta, model=make_az_network(meta),
                           play={"simulations": 4})


def test_the_best_candidate_is_written_with_the_bot(checkpoint, tmp_path, capsys):
    written = tmp_path / "tuned.pt"
    assert tune_play.main([GAME, "--checkpoint", str(checkpoint), "--against", "random",
                           "--deals", "1", "--workers", "1", "--grid", "c=0.5,2",
                           "fpu=parent-0.2", "--out", str(tmp_path / "t"),
                           "--write", str(written)]) == 0
    out = capsys.readouterr().out
    best = out.split("best: ")[1].splitlines()[0].split(",")[1:]   # which wins is play's
    assert best and best[0] in ("c=0.5", "c=2")                   # the first key is set
    settings = make_agent(f"az:{written}", GAME).settings
    assert settings == make_agent(",".join([f"az:{checkpoint}", *best]), GAME).settings
    assert settings["simulations"] == 4                      # the recorded ones are kept
    assert len(out.splitlines()) >= 3                        # a line per candidate


def test_bad_grids_are_one_line(checkpoint, tmp_path, capsys):
    for grid in (["speed=1,2"], ["c="], ["c=abc"], ["lam=2"]):
        assert tune_play.main([GAME, "--checkpoint", str(checkpoint), "--deals", "1",
                               "--grid", *grid, "--out", str(tmp_path)]) == 2
        assert len(capsys.readouterr().err.strip().splitlines()) == 1
