"""The value-quality instrument: a tiny test set round-trips, the measurement
against slow obvious code, the heuristic of a finished game is its result, bad input is
one line, and the AlphaZero trainer logs ``value_quality.csv``."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from meeplezoo.benchmarks.studies.value_quality import main, network_evaluator
from meeplezoo.benchmarks.studies.value_sets import (
    THIRDS,
    ValueSet,
    build_set,
    load_set,
    save_set,
    set_path,
)
from meeplezoo.envs.core.contract import H_TO_MOVE
from meeplezoo.training.run.value_measure import (
    heuristic_evaluator,
    pearson,
    quality_of,
    value_quality,
)

GAME = "hansa_v0"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """Two games of each matchup, eight positions each, saved and loaded back."""
    built = build_set(GAME, 2, games=2, per_game=8, seed=3, workers=1, progress=False)
    path = save_set(built, set_path(GAME, 2, tmp_path_factory.mktemp("sets")))
    return built, path


def test_a_tiny_set_round_trips(tiny):
    built, path = tiny
    loaded = load_set(path)
    assert loaded.header == built.header and len(loaded) == 32
    for name, array in built.arrays.items():
        np.testing.assert_array_equal(loaded.arrays[name], array)
        assert loaded.arrays[name].dtype == array.dtype
    header = json.loads(path.with_suffix(".json").read_text())
    assert header["game"] == GAME and header["players"] == 2 and header["game_version"] == "0"
    assert header["matchups"] == ["greedy", "mcts:200"] and header["games"] == 4
    assert (loaded.states[:, H_TO_MOVE] >= 0).all()                 # decision points only
    np.testing.assert_array_equal(loaded.third, np.minimum(3 * loaded.decision //
                                                           loaded.length, 2))
    assert set(loaded.third) == {0, 1, 2} and (loaded.decision < loaded.length).all()
    np.testing.assert_allclose(loaded.rewards.sum(axis=1), 0.0)    # zero-sum, two seats
    assert (np.sign(loaded.margins) == np.sign(loaded.rewards)).all()
    assert np.bincount(loaded.game_id).tolist() == [8] * 4
    assert loaded.masks()[np.arange(32), 0].shape == (32,) and loaded.masks().any(axis=1).all()
    again = build_set(GAME, 2, games=2, per_game=8, seed=3, workers=1, progress=False,
                      matchups=("greedy",))                         # deterministic
    np.testing.assert_array_equal(again.states, built.states[built.matchup == 0])


def hand_made_set(values_seed: int = 0) -> tuple[ValueSet, np.ndarray]:
    """Six games of 30 positions with made-up results and values [N, 2]."""
    rng = np.random.default_rng(values_seed)
    n = 180
    states = np.zeros((n, 4), dtype=np.int64)
    states[:, H_TO_MOVE] = rng.integers(2, size=n)
    game_id = np.repeat(np.arange(6), 30).astype(np.int32)
    winner = rng.choice([-1.0, 1.0], size=6)[game_id]
    rewards = np.stack([winner, -winner], axis=1)
    third = np.tile(np.repeat(np.arange(3), 10), 6).astype(np.int8)
    values = np.clip(0.3 * (third[:, None] + 1) * rewards + rng.normal(size=(n, 2)), -1, 1)
    arrays = {"states": states, "third": third, "game_id": game_id, "rewards": rewards,
              "margins": rewards * 5, "matchup": np.zeros(n, np.int8)}
    return ValueSet({"game": GAME, "players": 2}, arrays), values


def test_the_measurement_matches_slow_obvious_code():
    test_set, values = hand_made_set()
    report = quality_of(values, test_set)
    mover = test_set.states[:, H_TO_MOVE]
    for k, name in enumerate(THIRDS + ("all",)):
        rows = [i for i in range(len(values)) if name == "all" or test_set.third[i] == k]
        v = np.array([values[i, mover[i]] for i in rows])
        z = np.array([test_set.rewards[i, mover[i]] for i in rows])
        part = report["mover"][name]
        assert part["positions"] == len(rows)
        assert part["corr"] == pytest.approx(np.corrcoef(v, z)[0, 1], abs=1e-4)
        slow_mse = sum((a - b) ** 2 for a, b in zip(v, z, strict=True)) / len(v)
        assert part["mse"] == pytest.approx(slow_mse, abs=1e-4)
        pooled = report["all_seats"][name]
        keep = np.isin(np.arange(len(values)), rows)
        assert pooled["corr"] == pytest.approx(
            np.corrcoef(values[keep].ravel(), test_set.rewards[keep].ravel())[0, 1], abs=1e-4)
    assert report["mover"]["late"]["corr"] > report["mover"]["early"]["corr"]
    # weights are resampling counts: twice a position is the position written twice
    x, y = np.random.default_rng(2).normal(size=(2, 10))
    weights = np.arange(10) % 3
    assert pearson(x, y, weights.astype(float)) == pytest.approx(
        np.corrcoef(np.repeat(x, weights), np.repeat(y, weights))[0, 1])
    assert np.isnan(pearson(np.ones(5), np.arange(5.0)))          # a constant value
    ranged = quality_of(values, test_set, bootstrap=200, seed=1)["mover"]["all"]
    assert ranged["corr_low"] <= ranged["corr"] <= ranged["corr_high"]
    # value_quality is quality_of over an evaluator's batched answers
    test_set.states[:, 0] = np.arange(len(values))                 # rows told apart
    lookup = {row.tobytes(): values[i] for i, row in enumerate(test_set.states)}
    test_set._masks = np.ones((len(values), 3), np.int8)
    answer = value_quality(lambda s, m: np.stack([lookup[r.tobytes()] for r in s]), test_set)
    assert answer == quality_of(values, test_set)


@pytest.mark.parametrize("game", ["hansa_v0", "saint_malo_v0"])
def test_the_heuristic_of_a_finished_game_is_its_result(game):
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    env = make(game, num_players=2)
    env.reset(seed=4)
    agents = [make_agent("greedy", game, seed=s) for s in range(2)]
    while not env.game_over:
        env.step(agents[env.agent_name_mapping[env.agent_selection]].act(env))
    evaluate, label = heuristic_evaluator(game, rollouts=3)
    final = [env.rewards[a] for a in env.possible_agents]
    np.testing.assert_allclose(evaluate(env.unwrapped.state[None, :])[0], final)
    assert label.startswith("heuristic")


def test_the_heuristic_and_a_network_are_measured_on_the_set(tiny):
    test_set = load_set(tiny[1])
    evaluate, label = heuristic_evaluator(GAME, rollouts=4)
    assert "rollouts (4 x to the end)" in label
    report = value_quality(evaluate, test_set)
    values = evaluate(test_set.states)
    assert values.shape == (32, 2) and (np.abs(values) <= 1).all()
    assert report["mover"]["all"]["positions"] == 32
    network = network_evaluator("az:default", test_set)
    assert value_quality(network, test_set)["mover"]["all"]["mse"] >= 0


def test_the_report_command(tiny, tmp_path, capsys):
    out = tmp_path / "report.json"
    assert main(["report", GAME, "--set", str(tiny[1]), "--checkpoint", "az:default",
                 "--heuristic", "--rollouts", "2", "--bootstrap", "20", "--out", str(out),
                 "--matchup", "greedy"]) == 0
    table = capsys.readouterr().out
    assert "az:default" in table and "heuristic rollouts" in table and "middle" in table
    report = json.loads(out.read_text())
    assert report["matchup"] == "greedy" and report["set_header"]["positions"] == 16
    assert set(report["results"]) == {"az:default", "heuristic rollouts (2 x to the end)"}


def refused(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_bad_input_is_one_clear_line(tiny, tmp_path, capsys):
    path = tiny[1]
    report = ["report", GAME, "--heuristic", "--set"]
    refused(capsys, ["report", "saint_malo", "--heuristic", "--set", str(path)],
            "is a test set of hansa_v0, not saint_malo_v0")
    refused(capsys, [*report, str(tmp_path / "nothing.npz")], "no value set at")
    from meeplezoo.agents.az.agent import BOTS_DIR

    refused(capsys, [*report, str(path), "--checkpoint", "az:default", "--checkpoint",
                     f"az:{BOTS_DIR / 'carcassonne_v1.pt'}"],
            "was trained on carcassonne_v1, the test set is of hansa_v0")
    refused(capsys, [*report, str(path), "--checkpoint", "az:default3p"],
            "was trained at 3 players, the test set is of 2")
    refused(capsys, [*report, str(path), "--matchup", "random"], "--matchup 'random'")
    refused(capsys, [*report, str(path), "--heuristic", "leaf"], "no leaf value")
    refused(capsys, ["build", GAME, "--players", "7"], "hansa_v0 is for 2-4 players")

    def copy(edit_header=None, edit_npz=None):
        target = set_path(GAME, 2, tmp_path / f"copy{len(list(tmp_path.iterdir()))}")
        target.parent.mkdir()
        header = json.loads(path.with_suffix(".json").read_text())
        data = path.read_bytes()
        if edit_header:
            edit_header(header)
        target.write_bytes(edit_npz(data) if edit_npz else data)
        target.with_suffix(".json").write_text(json.dumps(header))
        return str(target)

    refused(capsys, [*report, copy(edit_npz=lambda d: d[:-100] + b"x" * 100)],
            "does not match its header's checksum")
    corrupt = copy()
    Path(corrupt).with_suffix(".json").write_text("{not json")
    refused(capsys, [*report, corrupt], "(value-set header file) is not valid JSON")
    refused(capsys, [*report, copy(lambda h: h.update(state_size=1))],
            "was built for another version of hansa_v0")
    refused(capsys, [*report, copy(lambda h: h.update(game_version="1"))],
            "was built for another version of hansa_v0")
    refused(capsys, [*report, copy(lambda h: h["rules"].update(max_turns=9))],
            "built under other rules of hansa_v0 (options max_turns differ")
    refused(capsys, [*report, copy(lambda h: h.update(version=99))], "value-set version 99")

    import hashlib
    import io

    def tampered(data: bytes) -> bytes:                # a state a kernel cannot trust
        arrays = dict(np.load(io.BytesIO(data), allow_pickle=False))
        arrays["states"][3, 7] = 10**15
        out = io.BytesIO()
        np.savez_compressed(out, **arrays)
        return out.getvalue()

    bad = tampered(path.read_bytes())
    refused(capsys, [*report, copy(lambda h: h.update(npz_sha256=hashlib.sha256(bad)
                                                      .hexdigest()), lambda d: bad)],
            "holds a value outside the range")


SMALL = dict(game=GAME, num_games=4, simulations=8, fast_simulations=2, considered=4,
             moves_per_iteration=30, hidden=(16,), batch_size=16, min_buffer=8,
             updates_per_iteration=2, checkpoint_every=2, progress=False, torch_threads=1,
             eval_every=2, eval_games=1, eval_opponents=("random",), eval_simulations=2)


def test_the_trainer_logs_value_quality(tiny, tmp_path):
    pytest.importorskip("tyro")
    from meeplezoo.training.az.loop import Options, train

    train(Options(**SMALL, iterations=4, run_dir=str(tmp_path), run_name="v",
                  value_set=str(tiny[1])))
    with (tmp_path / "v" / "value_quality.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["update"], r["source"]) for r in rows] == [
        ("2", "network"), ("2", "heuristic"), ("4", "network")]
    assert all(r["positions"] == "32" and float(r["mse_all"]) >= 0 for r in rows)
    assert "rollouts" in rows[1]["detail"] and rows[0]["detail"] == "iteration 2"
    events = list((tmp_path / "v").glob("events.out.tfevents.*"))
    assert events
    with pytest.raises(ValueError, match="--value-set .*no-such.npz: no value set at"):
        train(Options(**SMALL, iterations=2, run_dir=str(tmp_path), run_name="w",
                      value_set=str(tmp_path / "no-such.npz")))
    with pytest.raises(ValueError, match="at 2 players; this run trains hansa_v0 at 3"):
        train(Options(**SMALL, players=3, iterations=2, run_dir=str(tmp_path), run_name="x",
                      value_set=str(tiny[1])))
    train(Options(**SMALL, iterations=2, run_dir=str(tmp_path), run_name="off",
                  value_set=None))
    assert not (tmp_path / "off" / "value_quality.csv").exists()


def test_a_ppo_policys_value_head_is_measured_for_the_seat_to_move(tiny):
    """``ppo:default``'s values against the policy's own value of each position, observed
    one at a time through the AEC env; the other seat gets the negation (2 players)."""
    import torch

    from meeplezoo.agents.ppo.agent import PPOAgent, shipped_policy
    from meeplezoo.envs import make

    test_set = load_set(tiny[1])
    values = network_evaluator("ppo:default", test_set)(test_set.states)
    agent, env = PPOAgent(str(shipped_policy(GAME))), make(GAME)
    env.reset(seed=0)
    for row in (0, 5, 17, 31):
        env.unwrapped.state[:] = test_set.states[row]
        mover = int(test_set.states[row, H_TO_MOVE])
        obs = env.observe(env.possible_agents[mover])["observation"]
        with torch.no_grad():
            expected = float(agent.network.get_value(torch.as_tensor(obs)[None].float())[0])
        assert values[row, mover] == pytest.approx(expected, abs=1e-4)
        assert values[row, 1 - mover] == pytest.approx(-expected, abs=1e-4)
    assert value_quality(lambda s, m=None: values, test_set)["mover"]["all"]["positions"] == 32
    with pytest.raises(ValueError, match="not a PPO policy"):
        network_evaluator(f"ppo:{resolve_az_default()}", test_set)


def resolve_az_default() -> str:
    from meeplezoo.agents.az.agent import shipped_checkpoint

    return str(shipped_checkpoint(GAME, 2))


def test_a_network_of_every_count_is_measured_at_each_and_only_there():
    from types import SimpleNamespace

    from meeplezoo.agents.az.agent import load_az_checkpoint, shipped_checkpoint
    from meeplezoo.benchmarks.studies.value_quality import check_network
    from meeplezoo.training.run.checkpoint import load_checkpoint

    path = shipped_checkpoint(GAME, 2, "all")
    meta, options = load_az_checkpoint(path)[1], load_checkpoint(path)["options"]
    for players in (2, 3, 4):
        check_network(meta, options, SimpleNamespace(game=GAME, players=players), "az:all")
    with pytest.raises(ValueError, match="trained at 2, 3 players, the test set is of 4"):
        check_network(meta, {**options, "seat_counts": (2, 3)},
                      SimpleNamespace(game=GAME, players=4), "x")
