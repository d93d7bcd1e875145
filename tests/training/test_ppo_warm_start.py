"""``meeplezoo train --algo ppo --warm-start POSITIONS``: a new PPO run first learns a
teacher's moves and values from a ``training.expert`` positions file, then self-plays."""

from __future__ import annotations

import csv

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from recorded_positions import put  # noqa: E402

from meeplezoo.agents.registry import make_agent  # noqa: E402
from meeplezoo.envs import make  # noqa: E402
from meeplezoo.training.expert import loop as expert  # noqa: E402
from meeplezoo.training.ppo import loop as ppo  # noqa: E402

GAME = "saint_malo_v0"


@pytest.fixture(scope="module")
def greedy_positions(tmp_path_factory):
    """Greedy's moves in 12 games of Saint Malo (one-hot targets, the result as the
    value)."""
    folder = tmp_path_factory.mktemp("teacher")
    expert.train(expert.Options(game=GAME, teacher="greedy", games=12, record_fraction=0.5,
                                sample_share=0.0, epochs=1, holdout=0.0, workers=1,
                                progress=False, torch_threads=1, run_dir=str(folder),
                                run_name="greedy"))
    return folder / "greedy" / "positions.npz"


def options(tmp_path, positions, **changes) -> ppo.Options:
    base = dict(game=GAME, num_envs=8, num_steps=8, hidden=(64,), update_epochs=1,
                num_minibatches=2, max_updates=1, checkpoint_every=1, progress=False,
                run_dir=str(tmp_path), run_name="warm", seed=5, torch_threads=1,
                learning_rate=1e-5, warm_start=str(positions), warm_epochs=30,
                evaluations=0)
    return ppo.Options(**{**base, **changes})


def agreement(checkpoint, positions) -> float:
    """Share of the teacher's positions where the PPO agent plays the teacher's move
    (through the agent's own observation of a live env)."""
    agent = make_agent(f"ppo:{checkpoint}", GAME, seed=0)
    env = make(GAME, num_players=2)
    env.reset(seed=0)
    with np.load(positions) as data:
        states, policies = data["states"], data["policies"]
    agreed = []
    for state, policy in zip(states, policies, strict=True):
        put(env, state)
        agreed.append(policy[agent.act(env)] == 1.0)
    return float(np.mean(agreed))


def test_a_warm_started_run_plays_the_teachers_moves_and_resumes_without_refitting(
        greedy_positions, tmp_path):
    result = ppo.train(options(tmp_path, greedy_positions))
    assert result["update"] == 1
    fresh = ppo.train(options(tmp_path, greedy_positions, warm_start=None, run_name="cold"))
    warm_agrees = agreement(result["checkpoint"], greedy_positions)
    cold_agrees = agreement(fresh["checkpoint"], greedy_positions)
    # measured 0.08 and 0.58 (greedy breaks ties between equal cells at random, so no
    # policy agrees with all its moves)
    assert cold_agrees < 0.15 and warm_agrees > 0.4, (cold_agrees, warm_agrees)

    log = tmp_path / "warm" / "warm_start.csv"
    with log.open() as handle:
        rows = list(csv.DictReader(handle))
    assert [int(row["epoch"]) for row in rows] == list(range(31))
    assert float(rows[-1]["train_policy_loss"]) < float(rows[1]["train_policy_loss"])
    assert float(rows[-1]["held-out_top_move_agreement"]) > float(
        rows[0]["held-out_top_move_agreement"])

    with (tmp_path / "warm" / "progress.csv").open() as handle:
        first = next(csv.DictReader(handle))
    update_s = 8 * 8 / float(first["steps_per_s"])
    assert float(first["elapsed_s"]) > 3 * update_s      # the fit counts as training time

    written = log.stat().st_mtime_ns
    resumed = ppo.train(options(tmp_path, greedy_positions, resume=True, max_updates=2))
    assert resumed["update"] == 2 and log.stat().st_mtime_ns == written


def test_a_foreign_or_missing_positions_file_is_refused_before_any_write(
        greedy_positions, tmp_path):
    with pytest.raises(ValueError, match="holds saint_malo_v0 positions at 2 players, not "
                                         "hansa_v0"):
        ppo.train(options(tmp_path, greedy_positions, game="hansa"))
    with pytest.raises(ValueError, match="at 2 players, not saint_malo_v0 at 3"):
        ppo.train(options(tmp_path, greedy_positions, players=3))
    with pytest.raises(ValueError, match="no such positions file"):
        ppo.train(options(tmp_path, tmp_path / "missing.npz"))
    with pytest.raises(ValueError, match="--warm-value-mix"):
        ppo.train(options(tmp_path, greedy_positions, warm_value_mix=1.5))
    assert not (tmp_path / "warm").exists()
