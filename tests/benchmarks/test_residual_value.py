"""The heuristic-correction probe (benchmarks/studies/residual_value.py): its heuristic row is
the compiled leaf's own correlation, its corrections learn what the heuristic misses, and
bad input is one line."""

import json

import numpy as np
import pytest

from meeplezoo.agents.saint_malo_value import heuristic_value
from meeplezoo.benchmarks.studies import residual_value
from meeplezoo.envs.core.contract import H_TO_MOVE
from meeplezoo.training.expert import loop as expert
from meeplezoo.training.run.value_measure import pearson

GAME = "saint_malo_v0"


@pytest.fixture(scope="module")
def positions(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("residual")
    expert.train(expert.Options(game=GAME, games=8, simulations=16, record_fraction=0.5,
                                epochs=1, batch_size=32, holdout=0.0, workers=1,
                                progress=False, torch_threads=1, run_dir=str(run_dir),
                                run_name="tiny"))
    return run_dir / "tiny" / "positions.npz"


def test_the_heuristic_row_is_the_leaf_values_correlation(positions, tmp_path, capsys):
    out = tmp_path / "report.json"
    assert residual_value.main([GAME, "--positions", str(positions), "--epochs", "2",
                                "--holdout", "0.5", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert set(report["rows"]) == {"heuristic leaf", *residual_value.MODES}
    data = np.load(positions)
    seed_rng = np.random.default_rng(0)
    games = np.unique(data["game_index"])
    held = np.isin(data["game_index"], seed_rng.choice(games, size=len(games) // 2,
                                                       replace=False))
    values, results = [], []
    for state, rewards in zip(data["states"][held], data["rewards"][held], strict=True):
        out_values = np.zeros(6)
        heuristic_value(state, np.zeros(0), out_values)  # one state at a time, the kernel
        seat = state[H_TO_MOVE]
        values.append(out_values[seat])
        results.append(rewards[seat])
    expected = pearson(np.array(values), np.array(results))
    assert report["rows"]["heuristic leaf"]["all"] == pytest.approx(float(expected), abs=1e-9)
    assert "| heuristic leaf |" in capsys.readouterr().out


def test_a_correction_learns_what_the_heuristic_misses(positions):
    data = dict(np.load(positions))
    obs, heuristic, _ = residual_value.inputs(GAME, data)
    feature = obs @ np.random.default_rng(1).normal(size=obs.shape[1])   # a hidden rule
    results = np.where(feature > np.median(feature), 1.0, -1.0)
    rows = np.arange(len(obs))
    train, held = rows[rows % 2 == 0], rows[rows % 2 == 1]
    before = pearson(heuristic[held], results[held])
    for mode in ("logit", "blend"):
        values, _ = residual_value.fit(mode, obs, heuristic, results, train, held, hidden=32,
                                       epochs=30, seed=0)
        assert pearson(values, results[held]) > max(before, 0.0) + 0.3


def test_thirds_follow_each_games_recorded_order():
    thirds = residual_value.game_thirds(np.array([4, 4, 4, 7, 7, 7, 7, 7, 7]))
    assert thirds.tolist() == [0, 1, 2, 0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("argv, message", [
    (["hansa_v0", "--positions", "x.npz"], "no compiled heuristic leaf"),
    ([GAME, "--positions", "x.npz", "--holdout", "1"], "--holdout"),
    ([GAME, "--positions", "missing.npz"], "no such positions file"),
    ([GAME, "--positions", "x.npz", "--epochs", "0"], "--epochs and --hidden"),
])
def test_bad_input_is_one_line(argv, message, capsys):
    assert residual_value.main(argv) == 2
    assert message in capsys.readouterr().err
