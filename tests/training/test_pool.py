"""Opponent pool: snapshots, sampling by recency and strength, persistence; weighted rollouts."""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from test_collect import ObsValue, ScriptedEnv  # noqa: E402

from meeplezoo.agents.ppo.network import make_network, network_meta  # noqa: E402
from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.training.ppo.collect import Collector, compute_gae  # noqa: E402
from meeplezoo.training.ppo.loop import Options, normalise_advantages, ppo_loss, train  # noqa: E402
from meeplezoo.training.ppo.pool import OpponentPool  # noqa: E402

META = network_meta("saint_malo_v0", spec("saint_malo_v0").obs_size,
                    spec("saint_malo_v0").num_actions, [4])


def snapshot(value: float) -> dict:
    net = make_network(META)
    with torch.no_grad():
        for parameter in net.parameters():
            parameter.fill_(value)
    return net.state_dict()


def frequencies(pool: OpponentPool, draws: int = 4000) -> dict:
    rng = np.random.default_rng(0)
    counts: dict = {}
    for _ in range(draws):
        snapshot_id, _ = pool.sample(rng)
        counts[snapshot_id] = counts.get(snapshot_id, 0) + 1
    return {k: v / draws for k, v in counts.items()}


def test_pool_add_sample_and_size_limit(tmp_path):
    pool = OpponentPool(tmp_path / "pool", max_size=3, recency_weight=0.5)
    for update in range(5):
        pool.add(update, snapshot(float(update)), META)
    assert pool.ids == [2, 3, 4]
    assert sorted(p.name for p in (tmp_path / "pool").glob("snapshot_*.pt")) == [
        "snapshot_00000002.pt", "snapshot_00000003.pt", "snapshot_00000004.pt"]
    snapshot_id, net = pool.sample(np.random.default_rng(1))
    assert snapshot_id in (2, 3, 4)
    assert all((p == snapshot_id).all() for p in net.parameters())
    assert pool.network(snapshot_id) is net                  # cached
    logits, value = net(torch.zeros(2, META["obs_size"]))
    assert logits.shape == (2, META["num_actions"]) and value.shape == (2,)


def test_pool_sampling_favours_recent_snapshots(tmp_path):
    pool = OpponentPool(tmp_path, max_size=4, recency_weight=0.5)
    for update in (10, 20, 30, 40):
        pool.add(update, snapshot(0.0), META)
    np.testing.assert_allclose(pool.probabilities(), np.array([1, 2, 4, 8]) / 15)
    freq = frequencies(pool)
    assert freq[40] > freq[30] > freq[20] > freq.get(10, 0)
    assert freq[40] == pytest.approx(8 / 15, abs=0.03)


def test_pool_strength_update_and_persistence(tmp_path):
    pool = OpponentPool(tmp_path, max_size=5, recency_weight=1.0)
    pool.add(1, snapshot(1.0), META)
    pool.add(2, snapshot(2.0), META)
    np.testing.assert_allclose(pool.probabilities(), [0.5, 0.5])
    for _ in range(50):
        pool.report(1, 0.0)            # snapshot 1 beats the learner
        pool.report(2, 1.0)            # the learner beats snapshot 2
    probabilities = pool.probabilities()
    assert probabilities[0] > 0.8
    assert frequencies(pool)[1] > 0.8
    pool.save_index()
    index = json.loads((tmp_path / "index.json").read_text())
    assert [e["id"] for e in index["snapshots"]] == [1, 2]
    again = OpponentPool(tmp_path, max_size=5, recency_weight=1.0)
    assert again.entries == pool.entries
    np.testing.assert_allclose(again.probabilities(), probabilities)
    _, net = again.sample(np.random.default_rng(0))
    assert isinstance(net, torch.nn.Module)
    again.truncate(1)
    assert again.ids == [1] and not (tmp_path / "snapshot_00000002.pt").exists()


class FirstAction(torch.nn.Module):
    """An opponent that always plays action 0 (its logits favour it overwhelmingly)."""

    def forward(self, obs):
        logits = torch.full((obs.shape[0], 4), -50.0)
        logits[:, 0] = 50.0
        return logits, torch.zeros(obs.shape[0])


def test_opponent_transitions_are_unlinked_and_weight_zero():
    scripts = [
        [(0, False), (1, False), (0, False), (1, False), (0, True), (1, False)],
        [(0, False), (1, False), (0, False), (1, True), (0, False), (1, False)],
    ]
    collector = Collector(ScriptedEnv(scripts), num_steps=5, opponent_fraction=1.0,
                          rng=np.random.default_rng(0))
    collector.learner_seat[:] = [0, 1]
    r = collector.collect(ObsValue(), opponent=FirstAction())
    seats = r.seats.numpy()
    learner = np.array([0, 1] * 5)           # flat index t * 2 + game
    weights = (seats == learner).astype(np.float32)
    weights[9] = r.weights[9]                # game 1 ended at t3: its learner seat re-drawn
    assert r.weights.numpy().tolist() == weights.tolist()
    assert (r.actions[torch.from_numpy(weights == 0)] == 0).all()
    for i, j in enumerate(r.next_index.tolist()):
        if weights[i] == 0:
            assert j == -1 and r.rewards[i] == 0 and r.dones[i] == 0 and r.bootstrap[i] == 0
        elif j >= 0:
            assert weights[j] == 1 and j % 2 == i % 2 and seats[j] == seats[i]
    # game 0, learner seat 0 at i0, i4, i8 (the game ends after i8: +1);
    # game 1, learner seat 1 at i3, i7 (the game ends after i7: -1).
    assert r.next_index[[0, 4, 8, 3, 7]].tolist() == [4, 8, -1, 7, -1]
    assert r.rewards[8] == 1 and r.dones[8] == 1 and r.rewards[7] == -1 and r.dones[7] == 1
    assert collector.opponent_results == [0.0, 1.0]        # game 1 ended first
    assert len(collector.learner_seat) == 2


def test_gae_with_opponent_rows_equals_pure_learner_gae():
    # Learner chain i0 -> i2 -> i4 (done, +1) with opponent rows i1, i3 in between.
    values = torch.tensor([0.1, 0.7, 0.2, -0.3, 0.4], dtype=torch.float64)
    rewards = torch.tensor([0, 0, 0, 0, 1.0], dtype=torch.float64)
    dones = torch.tensor([0, 0, 0, 0, 1.0], dtype=torch.float64)
    nxt = torch.tensor([2, -1, 4, -1, -1])
    weights = torch.tensor([1, 0, 1, 0, 1.0], dtype=torch.float64)
    adv, ret = compute_gae(rewards, values, dones, nxt, torch.zeros(5, dtype=torch.float64),
                           0.9, 0.8, 1, weights)
    pure_adv, pure_ret = compute_gae(rewards[::2], values[::2], dones[::2],
                                     torch.tensor([1, 2, -1]), torch.zeros(3,
                                     dtype=torch.float64), 0.9, 0.8, 1)
    np.testing.assert_allclose(adv[::2].numpy(), pure_adv.numpy(), atol=1e-12)
    np.testing.assert_allclose(ret[::2].numpy(), pure_ret.numpy(), atol=1e-12)
    assert adv[1] == 0 and adv[3] == 0 and ret[1] == values[1] and ret[3] == values[3]
    # Weighted normalisation and losses ignore weight-0 rows entirely.
    noise = adv.clone()
    noise[1], noise[3] = 100.0, -100.0
    np.testing.assert_allclose(normalise_advantages(noise, weights)[::2].numpy(),
                               normalise_advantages(adv[::2]).numpy(), atol=1e-12)
    parts = [torch.rand(5, dtype=torch.float64, generator=torch.Generator().manual_seed(s))
             for s in range(5)]
    full, _ = ppo_loss(*parts[:3], parts[3], parts[4], ret, parts[0], 0.2, 0.5, 0.01,
                       weights=weights)
    only, _ = ppo_loss(*(x[::2] for x in parts[:3]), parts[3][::2], parts[4][::2], ret[::2],
                       parts[0][::2], 0.2, 0.5, 0.01)
    assert full.item() == pytest.approx(only.item())


def test_tiny_run_with_opponent_pool_trains_and_resumes(tmp_path):
    options = Options(game="saint_malo", num_envs=16, num_steps=16, hidden=(16,),
                      update_epochs=1, num_minibatches=2, max_updates=2, checkpoint_every=1,
                      progress=False, run_dir=str(tmp_path), seed=3, opponent_fraction=0.5,
                      pool_every=1, pool_size=2, evaluations=0)
    result = train(options)
    assert result["update"] == 2
    pool_dir = tmp_path / "saint_malo_v0_2p_seed3" / "pool"
    index = json.loads((pool_dir / "index.json").read_text())
    assert [e["id"] for e in index["snapshots"]] == [1, 2]         # 0 dropped (size 2)
    assert len(list(pool_dir.glob("snapshot_*.pt"))) == 2
    rows = (tmp_path / "saint_malo_v0_2p_seed3" / "progress.csv").read_text().splitlines()
    assert "score_vs_pool" in rows[0] and len(rows) == 3
    options.resume, options.max_updates = True, 3
    result = train(options)
    assert result["update"] == 3
    index = json.loads((pool_dir / "index.json").read_text())
    assert [e["id"] for e in index["snapshots"]] == [2, 3]
