"""One network for every seat count: self-play at several counts at once, rows that keep
their count, a value loss over each row's own seats, evaluation at each count, and a run
started from a shipped bot's weights."""

from __future__ import annotations

import csv

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.agents.az.network import az_network_meta, make_az_network  # noqa: E402
from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.envs.core.contract import H_NUM_PLAYERS  # noqa: E402
from meeplezoo.training.az.learner import az_loss  # noqa: E402
from meeplezoo.training.az.loop import Options, train  # noqa: E402
from meeplezoo.training.az.mixed import MixedSelfPlay, games_per_count, make_selfplay  # noqa: E402
from meeplezoo.training.az.selfplay import BUFFER_FIELDS, LockstepSelfPlay, ReplayBuffer  # noqa: E402
from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

GAME = "hansa_v0"
SETTINGS = dict(simulations=8, fast_simulations=4, full_fraction=1.0, considered=4,
                margin_scale=50.0)


def uniform_evaluator(states, masks):
    """Values by absolute seat (as many as the table has), uniform priors."""
    values = np.zeros((len(states), int(states[0, H_NUM_PLAYERS])))
    return values, masks / np.maximum(masks.sum(axis=1, keepdims=True), 1)


def test_games_are_shared_evenly_among_the_counts():
    assert games_per_count(255, (2, 3, 4)) == [85, 85, 85]
    assert games_per_count(7, (2, 3, 4)) == [3, 2, 2]
    assert isinstance(make_selfplay(spec(GAME), {"num_games": 2, "players": 2,
                                                 "seat_counts": (3,), **SETTINGS}, seed=1),
                      LockstepSelfPlay)


def test_mixed_self_play_gives_rows_of_every_count_with_their_own_seats():
    """Every count's games end and give rows; a row's ``players`` is its game's count,
    its targets beyond that count are empty, and at two seats the values are opposite."""
    selfplay = MixedSelfPlay(spec(GAME), (2, 3, 4), num_games=6, seed=3, **SETTINGS)
    assert [part.players for part in selfplay.parts] == [2, 3, 4]
    rows: dict = {}
    for _ in range(60):
        played = selfplay.play_moves(uniform_evaluator, 60)
        for name, array in played.items():
            rows[name] = np.concatenate([rows[name], array]) if name in rows else array
        if rows and set(np.unique(rows["players"])) == {2, 3, 4}:
            break
    assert set(rows) == set(BUFFER_FIELDS)
    assert set(np.unique(rows["players"])) == {2, 3, 4}
    assert selfplay.games_finished >= 3
    for count in (2, 3, 4):
        mine = rows["players"] == count
        assert (rows["values"][mine, count:] == 0).all()
        assert (rows["margins"][mine, count:] == 0).all()
    two = rows["players"] == 2
    np.testing.assert_allclose(rows["values"][two, 0], -rows["values"][two, 1], atol=1e-6)


def batch_of(counts, values):
    size = len(counts)
    game = spec(GAME)
    masks = np.zeros((size, game.num_actions), np.int8)
    masks[:, :3] = 1
    policies = np.where(masks > 0, 1 / 3, 0).astype(np.float32)
    return {"obs": np.random.default_rng(0).random((size, game.obs_size)).astype(np.float16),
            "masks": masks, "policies": policies, "values": values.astype(np.float32),
            "margins": values.astype(np.float32) / 2, "players": np.asarray(counts, np.int8)}


def test_the_value_loss_covers_each_rows_own_seats_only():
    game = spec(GAME)
    torch.manual_seed(0)
    network = make_az_network(az_network_meta(GAME, game.obs_size, game.num_actions,
                                              game.max_players, (16,))).eval()
    values = np.random.default_rng(1).uniform(-1, 1, (4, game.max_players))
    counts = [2, 3, 4, 2]
    base = az_loss(network, batch_of(counts, values), 2, 0.25, "cpu")[1]
    padded = values.copy()
    padded[0, 2:] = 9.0                          # seats not at a 2-seat table
    padded[1, 3] = -9.0                          # nor at a 3-seat one
    assert az_loss(network, batch_of(counts, padded), 2, 0.25, "cpu")[1] == base
    seated = values.copy()
    seated[2, 3] = 9.0                           # the fourth seat of a 4-seat table
    assert az_loss(network, batch_of(counts, seated), 2, 0.25, "cpu")[1]["value_loss"] > \
        base["value_loss"]
    # one count everywhere: the same loss as before rows kept their count
    same = batch_of([2] * 4, values)
    without = {k: v for k, v in same.items() if k != "players"}
    assert az_loss(network, same, 2, 0.25, "cpu")[1] == \
        az_loss(network, without, 2, 0.25, "cpu")[1]


def test_a_buffer_saved_before_counts_were_kept_loads_at_the_runs_count(tmp_path):
    np.savez(tmp_path / "old.npz", meta=np.array([5, 2, 2], np.int64),
             obs=np.zeros((2, 3), np.float16), masks=np.ones((2, 4), np.int8),
             policies=np.full((2, 4), 0.25, np.float32), values=np.zeros((2, 4), np.float32),
             margins=np.zeros((2, 4), np.float32))
    buffer = ReplayBuffer.load(tmp_path / "old.npz", 5, 3, 4, 4, players=3)
    assert list(buffer.arrays["players"][:2]) == [3, 3]
    np.savez(tmp_path / "bad.npz", meta=np.array([5, 2, 2], np.int64),
             obs=np.zeros((2, 3), np.float16), masks=np.ones((2, 4), np.int8),
             policies=np.full((2, 4), 0.25, np.float32), values=np.zeros((2, 4), np.float32),
             margins=np.zeros((2, 4), np.float32), players=np.array([2, 7], np.int8))
    with pytest.raises(ValueError, match="seat counts outside 2-4"):
        ReplayBuffer.load(tmp_path / "bad.npz", 5, 3, 4, 4)


SMALL = dict(game=GAME, num_games=6, simulations=8, fast_simulations=2, considered=4,
             moves_per_iteration=30, batch_size=16, min_buffer=8, updates_per_iteration=2,
             checkpoint_every=2, progress=False, torch_threads=1)


def test_a_run_at_several_counts_evaluates_each_and_starts_from_a_shipped_bot(tmp_path):
    shipped = load_checkpoint(__import__("meeplezoo.agents.az.agent", fromlist=["x"])
                              .shipped_checkpoint(GAME))
    result = train(Options(**SMALL, seat_counts=(2, 4), init_from="az:default",
                           iterations=3, learning_rate=1e-12, evaluations=1, eval_games=2,
                           eval_opponents=("random",), eval_search_every=1,
                           run_dir=str(tmp_path)))
    run = tmp_path / "hansa_v0_2-4p_az_seed1"
    assert result["checkpoint"] == str(run / "checkpoint.pt")
    trained = load_checkpoint(run / "checkpoint.pt")
    # the shipped (half-precision) weights, moved only by a negligible learning rate
    for name, tensor in shipped["model"].items():
        torch.testing.assert_close(trained["model"][name], tensor.float(), atol=1e-6, rtol=0)
    with (run / "eval.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sorted(int(r["players"]) for r in rows) == [2, 4]
    assert (run / "learning_curve.png").stat().st_size > 0


def test_bad_seat_counts_and_starts_are_one_clear_line(tmp_path):
    with pytest.raises(ValueError, match="--seat-counts 2 5: hansa_v0 is for 2-4"):
        train(Options(**SMALL, seat_counts=(2, 5), iterations=1, run_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="each count once"):
        train(Options(**SMALL, seat_counts=(3, 3), iterations=1, run_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="not a shipped bot's name"):
        train(Options(**SMALL, init_from="az:nonsense", iterations=1, run_dir=str(tmp_path)))
    with pytest.raises(ValueError):                   # another network than these flags build
        train(Options(**{**SMALL, "hidden": (16,)}, init_from="az:default", iterations=1,
                      run_dir=str(tmp_path), run_name="small"))
