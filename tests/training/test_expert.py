"""The warm start from the search (``training/expert/loop.py``): the positions the tuned search
leaves, the pretraining, the run folder ``--algo az --resume`` continues, bad input."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from recorded_positions import put  # noqa: E402

from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.training.az import loop as az  # noqa: E402
from meeplezoo.training.az.selfplay import BUFFER_FIELDS, ReplayBuffer  # noqa: E402
from meeplezoo.training.expert import loop as expert  # noqa: E402
from meeplezoo.training.expert.games import (  # noqa: E402
    POSITION_FIELDS,
    buffer_rows,
    generate,
    load_positions,
    sharpen,
)
from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

GAME = "hansa_v0"
TINY = dict(game=GAME, games=2, simulations=16, record_fraction=0.5, epochs=6, batch_size=32,
            holdout=0.0, buffer_size=2000, workers=1, progress=False, torch_threads=1,
            value_mix=0.5, policy_temperature=0.5)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Two games of ``mcts:16`` at Hansa, pretrained: (result, run folder)."""
    run_dir = tmp_path_factory.mktemp("expert")
    result = expert.train(expert.Options(**TINY, run_dir=str(run_dir), run_name="tiny"))
    return result, run_dir / "tiny"


def test_rows_are_what_self_play_stores(run):
    """Policies are distributions over the legal moves, values in [-1, 1] and opposite for
    the two seats, margins signed like the result; ``buffer.npz`` holds exactly the rows."""
    result, folder = run
    positions = load_positions(folder / "positions.npz", spec(GAME), 2)
    assert set(positions["game_index"]) == {0, 1} and result["positions"] >= 50
    rows = buffer_rows(spec(GAME), positions, value_mix=0.5, margin_scale=50.0,
                       policy_temperature=0.5)
    np.testing.assert_allclose(rows["policies"].sum(axis=1), 1.0, rtol=1e-5)
    assert not rows["policies"][rows["masks"] == 0].any()
    assert (rows["masks"].sum(axis=1) >= 2).all()              # forced moves are not kept
    for name in ("values", "margins"):
        assert not rows[name][:, 2:].any()                     # padded seats
    assert np.abs(rows["values"]).max() <= 1.0
    np.testing.assert_allclose(rows["values"][:, 0], -rows["values"][:, 1], atol=1e-6)
    assert (np.sign(rows["margins"][:, 0]) == np.sign(rows["result"])).all()
    assert np.abs(positions["search_values"]).max() <= 1.0
    buffer = ReplayBuffer.load(folder / "buffer.npz", 2000, spec(GAME).obs_size,
                               spec(GAME).num_actions, spec(GAME).max_players)
    assert buffer.size == result["positions"]
    for name in BUFFER_FIELDS:
        np.testing.assert_array_equal(buffer.arrays[name][:buffer.size], rows[name])


def test_sharpened_targets_keep_the_search_ranking():
    visits = np.array([[0.0, 0.5, 0.3, 0.2], [1.0, 0.0, 0.0, 0.0]], dtype=np.float32)
    sharp = sharpen(visits, 0.25)
    np.testing.assert_allclose(sharp.sum(axis=1), 1.0, rtol=1e-6)
    assert sharp[0, 0] == 0 and sharp[0, 1] > 0.5 and (np.diff(sharp[0, 1:]) < 0).all()
    np.testing.assert_array_equal(sharp[1], visits[1])
    assert sharpen(visits, 1.0) is visits
    assert np.isfinite(sharpen(visits, 1e-3)).all()


def test_positions_do_not_depend_on_the_workers(run):
    _, folder = run
    jobs = [dict(game=GAME, players=2, simulations=16, record_fraction=0.5, sample_share=0.1,
                 temperature=1.0, rule_options={}, seed=1, index=g) for g in range(2)]
    positions, stats = generate(jobs, workers=2, progress=False)
    saved = load_positions(folder / "positions.npz", spec(GAME), 2)
    assert stats["positions"] == len(saved["game_index"])
    for name in POSITION_FIELDS:
        np.testing.assert_array_equal(positions[name], saved[name])


def test_pretraining_lowers_the_loss(run):
    result, _ = run
    first, last = result["history"][0], result["history"][-1]
    assert len(result["history"]) == TINY["epochs"] + 1
    assert last["training_policy_loss"] < first["training_policy_loss"]
    assert last["training_value_loss"] < first["training_value_loss"]


def test_self_play_resumes_from_the_run_folder(run, tmp_path):
    """``--algo az --resume`` starts from the pretrained weights (no update is taken here:
    ``--min-buffer`` is the buffer's size) with the search's positions in its buffer, and
    at the learning rate and weight decay it is given, not the pretraining's."""
    result, folder = run
    shutil.copytree(folder, tmp_path / "tiny")
    pretrained = load_checkpoint(folder / "checkpoint.pt")
    assert pretrained["counters"]["iteration"] == 0
    assert az.train_main([GAME, "--resume", "--run-dir", str(tmp_path), "--run-name", "tiny",
                          "--iterations", "2", "--num-games", "2", "--simulations", "4",
                          "--fast-simulations", "2", "--considered", "2",
                          "--moves-per-iteration", "8", "--buffer-size", "2000",
                          "--min-buffer", "2000", "--no-progress",
                          "--torch-threads", "1", "--learning-rate", "3e-4",
                          "--weight-decay", "0.01"]) == 0
    resumed = load_checkpoint(tmp_path / "tiny" / "checkpoint.pt")
    assert resumed["counters"]["iteration"] == 2 and resumed["counters"]["updates"] == 0
    assert pretrained["optimizer"]["param_groups"][0]["lr"] == pytest.approx(1e-3)
    for group in resumed["optimizer"]["param_groups"]:
        assert group["lr"] == pytest.approx(3e-4) and group["weight_decay"] == 0.01
    for name, tensor in pretrained["model"].items():
        torch.testing.assert_close(resumed["model"][name], tensor)
    buffer = ReplayBuffer.load(tmp_path / "tiny" / "buffer.npz", 2000, spec(GAME).obs_size,
                               spec(GAME).num_actions, spec(GAME).max_players)
    assert buffer.size >= result["positions"]
    saved = ReplayBuffer.load(folder / "buffer.npz", 2000, spec(GAME).obs_size,
                              spec(GAME).num_actions, spec(GAME).max_players)
    np.testing.assert_array_equal(buffer.arrays["obs"][:saved.size],
                                  saved.arrays["obs"][:saved.size])


def test_a_positions_file_is_reused_and_overwrite_replaces_the_run(run, tmp_path):
    _, folder = run
    argv = [GAME, "--positions", str(folder / "positions.npz"), "--run-dir", str(tmp_path),
            "--run-name", "again", "--epochs", "1", "--buffer-size", "2000", "--no-progress"]
    assert expert.main(argv) == 0
    assert expert.main(argv) == 2                               # the folder exists now
    assert expert.main([*argv, "--overwrite"]) == 0
    assert load_checkpoint(tmp_path / "again" / "checkpoint.pt")["counters"]["iteration"] == 0


def bad_positions(folder, path, **changes):
    with np.load(folder / "positions.npz") as data:
        arrays = {name: data[name] for name in data.files}
    np.savez(path, **{**arrays, **changes})
    return str(path)


@pytest.mark.parametrize("flags, message", [
    (["--temperature", "0"], "--temperature"),
    (["--record-fraction", "1.5"], "--record-fraction"),
    (["--holdout", "1"], "--holdout"),
    (["--policy-temperature", "-1"], "--policy-temperature"),
    (["--learning-rate", "nan"], "--learning-rate"),
    (["--simulations", "0"], "--simulations"),
    (["--games", "0"], "--games"),
    (["--run-name", "../elsewhere"], "--run-name"),
    (["--teacher", "random"], "--teacher must be mcts"),
    (["--teacher", "mcts:50,leaf=nonsense"], "leaf"),
    (["--teacher", "az:default,sims=0"], "sims=0 plays the network's policy alone"),
    (["--teacher", "evil.py:Bot"], "--teacher must be mcts"),
    (["--teacher", "nobody"], "unknown agent"),
    (["--players", "3", "--positions", "{positions}"], "at 2 players"),
    (["--game", "saint_malo_v0", "--positions", "{positions}"], "holds hansa_v0 positions"),
    (["--positions", "{junk}"], "not a positions file"),
    (["--positions", "{unnormalised}"], "policies must be distributions"),
    (["--positions", "{wide}"], "policies has shape"),
])
def test_bad_input_is_one_line(run, tmp_path, capsys, flags, message):
    _, folder = run
    junk = tmp_path / "junk.npz"
    junk.write_text("not numpy")
    with np.load(folder / "positions.npz") as data:
        policies = data["policies"]
    names = {"positions": str(folder / "positions.npz"), "junk": str(junk),
             "unnormalised": bad_positions(folder, tmp_path / "sum2.npz",
                                           policies=policies * 2),
             "wide": bad_positions(folder, tmp_path / "wide.npz",
                                   policies=policies[:, :-1])}
    argv = [GAME, "--run-dir", str(tmp_path / "runs"), "--no-progress",
            *(flag.format(**names) for flag in flags)]
    assert expert.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.pt"))


def test_a_hand_written_teacher_is_imitated_move_for_move(tmp_path):
    """``--teacher greedy``: every policy target is one-hot on the move greedy makes in
    that position, and with no value to learn from, the result stands in for it."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    result = expert.train(expert.Options(**{**TINY, "teacher": "greedy", "sample_share": 0.0},
                                         run_dir=str(tmp_path), run_name="greedy"))
    with np.load(tmp_path / "greedy" / "positions.npz") as data:
        states, policies = data["states"], data["policies"]
        search, rewards = data["search_values"], data["rewards"]
    assert result["positions"] == len(states) > 0
    assert ((policies == 0) | (policies == 1)).all() and (policies.sum(axis=1) == 1).all()
    np.testing.assert_array_equal(search, rewards)
    greedy = make_agent("greedy", GAME, seed=0)
    env = make(GAME, num_players=2)
    env.reset(seed=0)
    agreed = []
    for state, policy in zip(states, policies, strict=True):
        put(env, state)
        agreed.append(policy[greedy.act(env)] == 1.0)
    # greedy breaks exact ties at random (from its own seed), so a fresh greedy can pick
    # another of the tied moves now and then; a target that was not greedy's move would
    # agree with about one in ten (Hansa's legal moves)
    assert np.mean(agreed) >= 0.8          # measured 0.885 (131 positions)


def test_a_policy_teacher_gives_its_distribution_and_value(tmp_path):
    """``--teacher ppo:default``: the targets are the PPO policy's own move distribution
    (not one-hot), and at two players its value for the seat to move, negated for the
    other seat."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    expert.train(expert.Options(**{**TINY, "teacher": "ppo:default", "epochs": 1},
                                run_dir=str(tmp_path), run_name="ppo"))
    with np.load(tmp_path / "ppo" / "positions.npz") as data:
        states, policies, search = data["states"], data["policies"], data["search_values"]
    assert ((policies > 0) & (policies < 1)).any()
    np.testing.assert_allclose(search[:, 0], -search[:, 1])
    teacher = make_agent("ppo:default", GAME, seed=0)
    env = make(GAME, num_players=2)
    env.reset(seed=0)
    put(env, states[0])
    seen = env.observe(env.agent_selection)
    with torch.no_grad():
        logits, value = teacher.network(torch.as_tensor(seen["observation"])[None].float())
    mask = torch.from_numpy(np.asarray(seen["action_mask"])).bool()
    expected = torch.softmax(torch.where(mask, logits[0].double(), -torch.inf), 0).numpy()
    np.testing.assert_allclose(policies[0], expected, atol=1e-6)
    seat = env.possible_agents.index(env.agent_selection)
    assert search[0, seat] == pytest.approx(float(np.clip(value.item(), -1, 1)))


def test_a_network_search_teacher_gives_its_visits_and_values(tmp_path):
    """``--teacher az:default,sims=8``: the apprentice's own search as the expert; its
    targets are visit distributions (counts over their total; the tree kept from the last
    move may add to them), its values the tree's, for both seats, not the game's result."""
    expert.train(expert.Options(**{**TINY, "teacher": "az:default,sims=8", "epochs": 1,
                                   "policy_temperature": 1.0},
                                run_dir=str(tmp_path), run_name="az"))
    with np.load(tmp_path / "az" / "positions.npz") as data:
        policies, search, rewards = data["policies"], data["search_values"], data["rewards"]
    assert len(policies) >= 50 and ((policies > 0) & (policies < 1)).any()
    def visit_total(row):         # the n with every entry a count over n, if any
        return next((n for n in range(1, 200)
                     if np.allclose(row * n, np.round(row * n), atol=1e-3)), None)

    assert all(visit_total(row) is not None for row in policies)
    assert np.isfinite(search).all() and np.abs(search).max() <= 1.0
    assert not np.array_equal(search, rewards)


def test_a_search_spec_teacher_is_that_search_with_its_fitted_leaf(tmp_path):
    """``--teacher mcts:12,leaf=fitted``: the fitted search, at its own budget (not
    ``--simulations``), is learnt from: visit distributions over at most 12 visits."""
    expert.train(expert.Options(**{**TINY, "game": "carcassonne_v1", "games": 1,
                                   "teacher": "mcts:12,leaf=fitted", "simulations": 500,
                                   "epochs": 1, "policy_temperature": 1.0,
                                   "record_fraction": 0.2},
                                run_dir=str(tmp_path), run_name="fitted"))
    with np.load(tmp_path / "fitted" / "positions.npz") as data:
        policies, search = data["policies"], data["search_values"]
    assert len(policies) >= 5 and np.isfinite(search).all()
    assert all(any(np.allclose(row * n, np.round(row * n), atol=1e-3) for n in range(1, 13))
               for row in policies)


def test_a_policy_teacher_plays_on_one_torch_thread_in_process(monkeypatch):
    """With one worker the games run here: a policy teacher's one-position forward passes
    on torch's default threads contended with anything else running (ten times slower);
    they run on one thread, and the pretraining gets the threads back."""
    from meeplezoo.training.expert import games as expert_games

    seen = []
    monkeypatch.setattr(expert_games, "play_game",
                        lambda job: seen.append(torch.get_num_threads()) or {
                            "positions": {name: np.zeros(0) for name in
                                          expert_games.POSITION_FIELDS},
                            "decisions": 0})
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        generate([{"game": GAME, "teacher": "ppo:default"}] * 2, workers=1, progress=False)
        generate([{"game": GAME, "teacher": "mcts", "simulations": 8}], workers=1,
                 progress=False)
        assert seen == [1, 1, 2] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_the_closing_lines_give_the_games_time_with_or_without_a_progress_bar(run):
    """``--no-progress`` runs (in the background, in recipes) still report how long the
    games took: it is part of a recipe's budget; a run that reused a positions file
    played none."""
    result, _ = run
    lines = expert.summary(result).splitlines()
    assert lines[0].startswith(f"generated {result['positions']} positions from 2 games")
    assert lines[1].startswith(f"pretrained on {result['positions']} positions")
    assert not expert.summary({**result, "generation": {}}).startswith("generated")
