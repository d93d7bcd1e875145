"""The AlphaZero-style trainer: lockstep self-play equals each search run alone, the
targets, the replay buffer, checkpoints and --resume (SIGKILL too), bad input."""

from __future__ import annotations

import csv
import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from killtest import csv_column, kill_after_an_odd_row  # noqa: E402

from meeplezoo.agents.az.gumbel import GumbelMCTS  # noqa: E402
from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.envs.core.contract import H_PLY  # noqa: E402
from meeplezoo.play.cli import main  # noqa: E402
from meeplezoo.training.az.loop import Options, train  # noqa: E402
from meeplezoo.training.az.selfplay import LockstepSelfPlay, ReplayBuffer  # noqa: E402
from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

GAME = "hansa_v0"


def row_wise_evaluator(states, masks):
    """Values and priors that depend on each row alone (a network's float rounding can
    depend on the batch it sits in; this cannot), so lockstep and alone must agree."""
    key = (states * np.arange(1, states.shape[1] + 1)).sum(axis=1) % 997
    values = np.stack([np.sin(key), -np.sin(key)], axis=1)
    priors = masks * (1.0 + (np.arange(masks.shape[1])[None, :] * key[:, None]) % 7)
    totals = priors.sum(axis=1, keepdims=True)
    return values, np.divide(priors, totals, out=np.zeros_like(priors), where=totals > 0)


def test_lockstep_self_play_plays_the_same_moves_as_each_search_alone():
    """Games in lockstep do not wait for each other (one may play two moves while
    another's search goes on), yet each plays exactly what its search plays alone."""
    lockstep = LockstepSelfPlay(spec(GAME), 3, 2, simulations=12, fast_simulations=12,
                                full_fraction=1.0, considered=4, margin_scale=50.0, seed=5,
                                leaf_batch=3)
    alone_envs = [env.clone() for env in lockstep.envs]
    alone = [GumbelMCTS(12, evaluator=row_wise_evaluator, considered=4, leaf_batch=3,
                        seed=5 * 7919 + g) for g in range(3)]
    played = np.zeros(3, dtype=np.int64)
    for _ in range(6):
        before = lockstep.moves_played
        lockstep.play_moves(row_wise_evaluator, moves=4)
        assert 4 <= lockstep.moves_played - before <= 4 + 2
        for g in range(3):
            while played[g] < lockstep.moves_by_game[g]:
                alone_envs[g].step(alone[g].act(alone_envs[g]))
                played[g] += 1
            np.testing.assert_array_equal(alone_envs[g].state, lockstep.envs[g].state)
    assert lockstep.moves_by_game.sum() == lockstep.moves_played >= 24
    assert lockstep.envs[0].state[H_PLY] >= 6


def test_finished_games_give_consistent_targets():
    """Two seats, win/loss: the two rotated values of a position are opposite (0 and 0 on
    a tie) and the mover's margin has the sign of its value; policies are distributions
    over the legal moves."""
    selfplay = LockstepSelfPlay(spec(GAME), 2, 2, simulations=8, fast_simulations=2,
                                full_fraction=0.5, considered=4, margin_scale=50.0, seed=1)
    rows: dict = {}
    while not rows:
        rows = selfplay.play_moves(row_wise_evaluator)
    assert selfplay.games_finished >= 1
    values, margins = rows["values"], rows["margins"]
    np.testing.assert_allclose(values[:, 0], -values[:, 1])
    assert set(np.unique(values[:, 0])) <= {-1.0, 0.0, 1.0}
    assert (np.sign(margins[:, 0]) == np.sign(values[:, 0])).all()
    assert not values[:, 2:].any() and not margins[:, 2:].any()      # padded seats
    np.testing.assert_allclose(rows["policies"].sum(axis=1), 1.0, rtol=1e-5)
    assert not rows["policies"][rows["masks"] == 0].any()


def finished_rows(value_mix: float, game: str = GAME, **rule_options) -> dict:
    selfplay = LockstepSelfPlay(spec(game), 2, 2, simulations=8, fast_simulations=2,
                                full_fraction=0.5, considered=4, margin_scale=50.0, seed=3,
                                rule_options=rule_options, value_mix=value_mix)
    rows: dict = {}
    while not rows:
        rows = selfplay.play_moves(row_wise_evaluator)
    return rows


def test_value_targets_mix_the_outcome_with_the_search_value():
    """The mix does not change the games (same seed, same positions and policies); its
    targets are the outcome at 0, the search's value at 1, and their average at 0.5."""
    outcome, searched, half = (finished_rows(mix) for mix in (0.0, 1.0, 0.5))
    for name in ("obs", "policies", "margins"):
        np.testing.assert_array_equal(outcome[name], searched[name])
    assert set(np.unique(outcome["values"][:, 0])) <= {-1.0, 0.0, 1.0}
    # the evaluator's and the terminal values are zero-sum, so the search's are too
    np.testing.assert_allclose(searched["values"][:, 0], -searched["values"][:, 1], atol=1e-6)
    assert np.abs(searched["values"]).max() <= 1.0
    assert not np.isin(searched["values"][:, 0], [-1.0, 0.0, 1.0]).all()
    np.testing.assert_allclose(half["values"], (outcome["values"] + searched["values"]) / 2,
                               atol=1e-6)
    with pytest.raises(ValueError, match="value_mix must be in"):
        finished_rows(1.5)


def test_self_play_games_are_cut_at_max_decisions_and_scored_there():
    """Hansa Teutonica between weak players runs to its 3,000-decision cap; a self-play
    cap ends each game at 100 decisions, scored from the points at the cut (HT-9.5)."""
    selfplay = LockstepSelfPlay(spec("hansa_teutonica_v0"), 1, 2, simulations=4,
                                fast_simulations=2, full_fraction=1.0, considered=2,
                                margin_scale=50.0, seed=2, rule_options={"max_decisions": 100})
    rows: dict = {}
    while not rows:
        rows = selfplay.play_moves(row_wise_evaluator)
    assert selfplay.games_finished == 1 and len(rows["obs"]) == 100
    assert set(np.unique(rows["values"][:, 0])) <= {-1.0, 0.0, 1.0}
    assert (np.sign(rows["margins"][:, 0]) == np.sign(rows["values"][:, 0])).all()


def test_the_buffer_rings_saves_and_refuses_a_corrupt_file(tmp_path):
    buffer = ReplayBuffer(5, 3, 4, 2)
    rows = {"obs": np.arange(21, dtype=np.float16).reshape(7, 3),
            "masks": np.ones((7, 4), np.int8), "policies": np.full((7, 4), 0.25, np.float32),
            "values": np.zeros((7, 2), np.float32), "margins": np.zeros((7, 2), np.float32),
            "players": np.full(7, 2, np.int8)}
    buffer.add(**rows)
    assert buffer.size == 5 and buffer.cursor == 2
    assert sorted(buffer.arrays["obs"][:, 0]) == [6, 9, 12, 15, 18]   # the 5 newest
    buffer.save(tmp_path / "b.npz")
    again = ReplayBuffer.load(tmp_path / "b.npz", 5, 3, 4, 2)
    np.testing.assert_array_equal(again.arrays["obs"], buffer.arrays["obs"])
    with pytest.raises(ValueError, match="this run keeps 9"):
        ReplayBuffer.load(tmp_path / "b.npz", 9, 3, 4, 2)
    with pytest.raises(ValueError, match="obs has shape"):
        ReplayBuffer.load(tmp_path / "b.npz", 5, 4, 4, 2)
    (tmp_path / "bad.npz").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="not a readable replay buffer"):
        ReplayBuffer.load(tmp_path / "bad.npz", 5, 3, 4, 2)


SMALL = dict(game=GAME, num_games=4, simulations=8, fast_simulations=2, considered=4,
             moves_per_iteration=30, hidden=(16,), batch_size=16, min_buffer=8,
             updates_per_iteration=2, checkpoint_every=2, progress=False, torch_threads=1,
             evaluations=0)


def test_training_learns_checkpoints_and_resumes(tmp_path):
    first = train(Options(**SMALL, iterations=16, run_dir=str(tmp_path), run_name="r"))
    assert first["iteration"] == 16 and first["games"] >= 1 and first["updates"] > 0
    run = tmp_path / "r"
    assert (run / "buffer.npz").exists()
    with pytest.raises(ValueError, match="pass --resume"):
        train(Options(**SMALL, iterations=20, run_dir=str(tmp_path), run_name="r"))
    resumed = train(Options(**SMALL, iterations=18, run_dir=str(tmp_path), run_name="r",
                            resume=True))
    assert resumed["iteration"] == 18 and resumed["positions"] >= first["positions"]
    with (run / "progress.csv").open(newline="") as handle:
        assert [int(r["iteration"]) for r in csv.DictReader(handle)] == list(range(1, 19))
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    env = make(GAME, num_players=2)
    env.reset(seed=0)
    action = make_agent(f"az:{run / 'checkpoint.pt'},sims=8", GAME, seed=0).act(env)
    assert env.action_mask()[action] == 1
    (run / "buffer.npz").write_bytes(b"corrupt")
    with pytest.raises(ValueError, match="not a readable replay buffer"):
        train(Options(**SMALL, iterations=20, run_dir=str(tmp_path), run_name="r",
                      resume=True))


def test_bad_options_and_algorithms_are_one_clear_line(tmp_path, capsys):
    with pytest.raises(ValueError, match="--simulations must be an integer in 1"):
        train(Options(**{**SMALL, "simulations": 0}, run_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="--full-fraction"):
        train(Options(**{**SMALL, "full_fraction": 1.5}, run_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="--value-mix"):
        train(Options(**{**SMALL, "value_mix": -0.1}, run_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="unknown Hansa option.*max_decisions"):
        train(Options(**{**SMALL, "max_decisions": 500}, run_dir=str(tmp_path)))
    assert main(["train", GAME, "--algo", "dqn"]) == 2
    assert "unknown --algo 'dqn'" in capsys.readouterr().err


def csv_iterations(path: Path) -> list[int]:
    return csv_column(path, "iteration")


def test_sigkill_then_resume(tmp_path):
    args = [GAME, "--num-games", "4", "--simulations", "8", "--fast-simulations", "2",
            "--considered", "4", "--moves-per-iteration", "20", "--hidden", "16",
            "--batch-size", "16", "--min-buffer", "8", "--checkpoint-every", "2",
            "--torch-threads", "1", "--no-progress", "--run-name", "killed", "--evaluations", "0",
            "--run-dir", str(tmp_path)]
    run = tmp_path / "killed"
    kill_after_an_odd_row([sys.executable, "-m", "meeplezoo.training.az.loop", *args,
                           "--iterations", "100000"], run, "iteration")
    saved = load_checkpoint(run / "checkpoint.pt")["counters"]
    assert saved["iteration"] % 2 == 0 and saved["iteration"] < csv_iterations(
        run / "progress.csv")[-1]
    target = saved["iteration"] + 3
    resumed = subprocess.run([sys.executable, "-m", "meeplezoo.training.az.loop", *args,
                              "--resume", "--iterations", str(target)],
                             capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert load_checkpoint(run / "checkpoint.pt")["counters"]["iteration"] == target
    assert csv_iterations(run / "progress.csv") == list(range(1, target + 1))


def test_three_players_train_and_play(tmp_path):
    """The max^n path: three seats' rotated values go through training and the search."""
    result = train(Options(**SMALL, players=3, iterations=12, run_dir=str(tmp_path),
                           run_name="three"))
    assert result["games"] >= 1 and result["updates"] > 0
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    env = make(GAME, num_players=3)
    env.reset(seed=2)
    agent = make_agent(f"az:{tmp_path / 'three' / 'checkpoint.pt'},sims=12", GAME, seed=0)
    for _ in range(6):
        action = agent.act(env)
        assert env.action_mask()[action] == 1
        env.step(action)
    _, values = agent.policy_and_value(env)
    assert values.shape == (3,) and np.isfinite(values).all()


@pytest.mark.parametrize("game", ["hansa_v0", "hansa_teutonica_v0", "carcassonne_v0",
                                  "carcassonne_v1"])
def test_the_ship_command_parses_into_the_trainers_options(game):
    """What ``training/shipping/ship.py`` prints and runs is a valid ``meeplezoo train`` command,
    with Hansa Teutonica's self-play cap and the threads asked for."""
    import tyro

    from meeplezoo.training.shipping.ship import ship_arguments

    arguments = ship_arguments(game, 3, "runs", torch_threads=1)
    algo = arguments.index("--algo")
    options = tyro.cli(Options, args=["--game", *arguments[:algo], *arguments[algo + 2:]])
    assert (options.game, options.minutes, options.torch_threads) == (game, 3, 1)
    assert options.max_decisions == (600 if game == "hansa_teutonica_v0" else 0)
    assert options.run_name == f"ship_{game}" and options.value_mix == 0.5
    three = ship_arguments(game, 3, "runs", players=3)
    assert three[-2:] == ["--players", "3"] and f"ship_{game}_3p" in three
    quiet = ship_arguments(game, 3, "runs", evaluations=0, resume=True)
    assert quiet[quiet.index("--eval-every") + 1] == "0" and "--resume" in quiet


def test_the_search_knowledge_is_handed_over_and_recorded(tmp_path):
    """lam moves from the heuristic to the network over the schedule; every checkpoint
    records the share its run last searched with, and ``az:`` plays with it."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.training.az.learner import Learner, lam_at

    options = Options(**SMALL, iterations=6, lam_start=0.0, lam_end=1.0, lam_iterations=4,
                      prior_mix=0.5, explore_moves=3, late_gumbel=0.0,
                      run_dir=str(tmp_path), run_name="k")
    assert [lam_at(options, i) for i in (0, 2, 4, 6)] == [0.0, 0.5, 1.0, 1.0]
    result = train(dataclasses.replace(options, iterations=4))
    bot = make_agent(f"az:{result['checkpoint']}", GAME)
    assert bot.settings["lam"] == 1.0 and bot.settings["prior_mix"] == 0.5
    # the same run resumed under a longer schedule is half-way through it
    longer = dataclasses.replace(options, iterations=8, lam_iterations=8, resume=True)
    learner = Learner(longer)
    assert learner.counters["iteration"] == 4 and learner.knowledge().lam == 0.5
    learner.save()
    assert make_agent(f"az:{result['checkpoint']}", GAME).settings["lam"] == 0.5


@pytest.mark.parametrize("changes,message", [
    ({"lam_start": 0.0}, "--lam-iterations is 0"),
    ({"lam_start": 0.0, "lam_iterations": 99}, "past the run's --iterations"),
    ({"lam_end": 1.5}, "--lam-end must be"),
    ({"prior_mix": -0.2}, "--prior-mix must be"),
    ({"heuristic_rollouts": 0}, "--heuristic-rollouts must be"),
])
def test_a_knowledge_schedule_that_cannot_work_is_refused(tmp_path, changes, message):
    with pytest.raises(ValueError, match=message):
        train(Options(**{**SMALL, **changes}, iterations=10, run_dir=str(tmp_path)))
    assert not any(tmp_path.iterdir())                           # nothing written


def test_exploration_stops_after_the_opening():
    from meeplezoo.envs import spec

    selfplay = LockstepSelfPlay(spec(GAME), 2, 2, 8, 2, 0.5, 4, 50.0, seed=1,
                                explore_moves=2, late_gumbel=0.0)
    seen = []
    for g, search in enumerate(selfplay.searches):
        def schedule(game_spec, state, g=g, search=search, plain=search.root_schedule):
            seen.append((int(selfplay.moves_in_game[g]), search.gumbel_scale))
            return plain(game_spec, state)
        search.root_schedule = schedule
    selfplay.play_moves(row_wise_evaluator, 10)
    assert len(seen) >= 10
    assert all(scale == (1.0 if move < 2 else 0.0) for move, scale in seen)
    assert {scale for _, scale in seen} == {0.0, 1.0}


def test_q_scale_reaches_every_self_play_search():
    """``--q-scale`` is the c_scale of every game's Gumbel root (move choice and policy
    target alike), for a local run and for Ray actors, which share ``selfplay_settings``."""
    from meeplezoo.envs import spec
    from meeplezoo.training.az.learner import selfplay_settings
    from meeplezoo.training.az.mixed import make_selfplay

    settings = selfplay_settings(Options(**SMALL, q_scale=0.02))
    assert settings["q_scale"] == 0.02
    selfplay = make_selfplay(spec(GAME), settings, seed=1)
    assert [search.c_scale for search in selfplay.searches] == [0.02] * SMALL["num_games"]
    assert Options(**SMALL).q_scale == 0.1                          # mctx's value_scale


def test_progress_says_whether_the_learner_learns(tmp_path):
    result = train(Options(**SMALL, iterations=16, lr_schedule="cosine", run_dir=str(tmp_path),
                           run_name="p"))
    with open(Path(result["checkpoint"]).parent / "progress.csv") as handle:
        rows = list(csv.DictReader(handle))
    last = rows[-1]
    assert int(last["updates"]) > 0                      # games ended, the learner learned
    assert 0.0 < float(last["learner_share"]) < 1.0
    expected = int(last["updates"]) * SMALL["batch_size"] / int(last["positions"])
    assert abs(float(last["draws_per_position"]) - expected) < 0.01
    assert float(last["lam"]) == 1.0
    with pytest.raises(ValueError, match="--lr-schedule"):
        train(Options(**SMALL, iterations=4, lr_schedule="warm", run_dir=str(tmp_path)))


def test_a_share_of_games_seats_an_opponent_whose_moves_are_not_recorded():
    from meeplezoo.envs import spec

    selfplay = LockstepSelfPlay(spec(GAME), 3, 2, 8, 8, 1.0, 4, 50.0, seed=2,
                                opponents=("greedy",), opponent_share=1.0)
    assert all(o is not None and o[1].name == "greedy" for o in selfplay.opponent_of)
    searched_by_opponent = []
    plain = selfplay._position

    def position(env, search):
        g = next(k for k, e in enumerate(selfplay.envs) if e is env)
        mover = env.agent_name_mapping[env.agent_selection]
        searched_by_opponent.append(mover == selfplay.opponent_of[g][0])
        return plain(env, search)

    selfplay._position = position
    rows = {}
    while not rows:
        rows = selfplay.play_moves(row_wise_evaluator, 60)
    assert selfplay.opponent_moves > 0 and searched_by_opponent
    assert not any(searched_by_opponent)       # only the network's seat is searched/recorded
    assert np.allclose(rows["policies"].sum(axis=1), 1.0, atol=1e-5)
    assert len(rows["obs"]) == len(rows["values"])
    none = LockstepSelfPlay(spec(GAME), 3, 2, 8, 8, 1.0, 4, 50.0, seed=2,
                            opponents=("greedy",), opponent_share=0.0)
    assert all(o is None for o in none.opponent_of)


def test_past_selves_are_the_networks_the_trainer_remembered(tmp_path):
    """``--opponents past``: before anything is remembered no game seats the past; then
    each past self is a frozen copy (later training does not move it) that plays legal
    moves from its own priors; the pool keeps the last four; a run remembers its network
    every ``checkpoint_every`` iterations, from the first."""
    from meeplezoo.agents.az.network import az_network_meta, make_az_network
    from meeplezoo.envs import make, spec

    game_spec = spec(GAME)
    selfplay = LockstepSelfPlay(game_spec, 3, 2, 8, 8, 1.0, 4, 50.0, seed=2,
                                opponents=("past",), opponent_share=1.0)
    assert all(o is None for o in selfplay.opponent_of)           # nothing remembered yet
    meta = az_network_meta(GAME, game_spec.obs_size, game_spec.num_actions,
                           game_spec.max_players, (16,))
    network = make_az_network(meta)
    selfplay.remember(network)
    past = selfplay.past.pool[0]
    env = make(GAME, num_players=2)
    env.reset(seed=4)
    before = past.evaluator(env.unwrapped.state[None, :],
                            np.asarray(env.action_mask(), np.int8)[None, :])[1]
    with torch.no_grad():
        network.policy.weight.add_(1.0)                             # the learner moves on
    after = past.evaluator(env.unwrapped.state[None, :],
                           np.asarray(env.action_mask(), np.int8)[None, :])[1]
    np.testing.assert_array_equal(before, after)
    for _ in range(40):
        if env.game_over:
            break
        move = past.act(env)
        assert env.action_mask()[move]
        env.step(move)
    for _ in range(5):
        selfplay.remember(network)
    assert len(selfplay.past.pool) == 4
    selfplay._deal(0)
    assert selfplay.opponent_of[0][1] in selfplay.past.pool
    remembered = []
    original = LockstepSelfPlay.remember
    LockstepSelfPlay.remember = lambda self, net: remembered.append(1) or original(self, net)
    try:
        train(Options(**SMALL, iterations=5, opponents=("past", "greedy"),
                      opponent_share=0.5, run_dir=str(tmp_path), run_name="past"))
    finally:
        LockstepSelfPlay.remember = original
    assert len(remembered) == 3                                      # iterations 0, 2, 4


def test_opponents_are_checked_before_training(tmp_path):
    with pytest.raises(ValueError, match="--opponents 'nobody'"):
        train(Options(**SMALL, iterations=2, opponents=("nobody",), opponent_share=0.5,
                      run_dir=str(tmp_path)))
    with pytest.raises(ValueError, match="--opponent-share needs --opponents"):
        train(Options(**SMALL, iterations=2, opponent_share=0.5, run_dir=str(tmp_path)))
