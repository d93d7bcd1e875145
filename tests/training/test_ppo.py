"""PPO pieces: masked distributions, the clipped loss, a tiny run, checkpoints, the agent."""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.agents.layers import masked_distribution  # noqa: E402
from meeplezoo.agents.ppo import PPOAgent, network_meta  # noqa: E402
from meeplezoo.envs import make, spec  # noqa: E402
from meeplezoo.training.ppo.loop import Options, ppo_loss, train  # noqa: E402
from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

GAME = "saint_malo_v0"


def test_masked_distribution_never_samples_illegal_actions():
    generator = torch.Generator().manual_seed(0)
    rows, actions = 10_000, 20
    logits = torch.randn(rows, actions, generator=generator, requires_grad=True)
    mask = torch.rand(rows, actions, generator=generator) < 0.3
    mask[torch.arange(rows), torch.randint(actions, (rows,), generator=generator)] = True
    dist = masked_distribution(logits, mask)
    sample = dist.sample()
    assert mask[torch.arange(rows), sample].all()
    everything = dist.logits                                 # normalised log-probs
    assert torch.isfinite(everything).all()
    assert (everything[~mask] < -1e30).all()
    entropy = dist.entropy()
    assert torch.isfinite(entropy).all()
    (dist.log_prob(sample).sum() + entropy.sum()).backward()
    assert torch.isfinite(logits.grad).all()
    assert (logits.grad[~mask] == 0).all()


def test_ppo_clipped_loss_hand_computed():
    loss, stats = ppo_loss(
        new_logprob=torch.tensor([math.log(1.5), math.log(0.5)]),
        old_logprob=torch.zeros(2), advantages=torch.tensor([1.0, -1.0]),
        new_value=torch.tensor([0.5, -0.5]), old_value=torch.zeros(2),
        returns=torch.tensor([1.0, 1.0]), entropy=torch.tensor([1.0, 2.0]),
        clip_coef=0.2, vf_coef=0.5, ent_coef=0.01, clip_vloss=True)
    # policy: max(-1.5, -1.2) = -1.2 and max(0.5, 0.8) = 0.8 -> mean -0.2
    # value: max(0.25, 0.64) = 0.64 and max(2.25, 1.44) = 2.25 -> 0.5 * 1.445 = 0.7225
    assert stats["policy_loss"] == pytest.approx(-0.2)
    assert stats["value_loss"] == pytest.approx(0.7225)
    assert stats["clipfrac"] == 1.0
    assert loss.item() == pytest.approx(-0.2 - 0.01 * 1.5 + 0.5 * 0.7225)


def tiny(tmp_path, **changes) -> Options:
    options = Options(game="saint_malo", num_envs=16, num_steps=8, hidden=(16,),
                      update_epochs=1, num_minibatches=2, max_updates=2, checkpoint_every=1,
                      progress=False, run_dir=str(tmp_path), seed=3, evaluations=0)
    for key, value in changes.items():
        setattr(options, key, value)
    return options


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    result = train(tiny(folder))
    return folder, result


def test_tiny_run_writes_loadable_checkpoint_and_logs(trained):
    folder, result = trained
    assert result["update"] == 2 and result["global_step"] == 2 * 16 * 8
    meta = network_meta(GAME, spec(GAME).obs_size, spec(GAME).num_actions, [16])
    payload = load_checkpoint(result["checkpoint"], expect=meta)
    assert payload["counters"]["update"] == 2
    assert payload["options"]["game"] == GAME
    run = folder / "saint_malo_v0_2p_seed3"
    assert len((run / "progress.csv").read_text().splitlines()) == 3
    assert list(run.glob("events.out.tfevents.*"))


def test_resume_continues_counters_and_refuses_changes(trained, tmp_path):
    folder, first = trained
    with pytest.raises(ValueError, match="--resume"):
        train(tiny(folder))
    with pytest.raises(ValueError, match="hidden"):
        train(tiny(folder, resume=True, hidden=(8,), max_updates=3))
    result = train(tiny(folder, resume=True, max_updates=3))
    assert result["update"] == 3
    assert result["global_step"] == first["global_step"] + 16 * 8
    assert result["elapsed_s"] > first["elapsed_s"]
    rows = (folder / "saint_malo_v0_2p_seed3" / "progress.csv").read_text().splitlines()
    assert rows[-1].startswith("3,384,")


def test_bad_checkpoints_are_refused(trained, tmp_path):
    _, result = trained
    other = network_meta("other_game_v0", 10, spec(GAME).num_actions, [16])
    with pytest.raises(ValueError, match="game.*obs_size"):
        load_checkpoint(result["checkpoint"], expect=other)
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"not a checkpoint at all" * 10)
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        load_checkpoint(corrupt)
    truncated = tmp_path / "truncated.pt"
    data = open(result["checkpoint"], "rb").read()
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        PPOAgent(str(truncated))
    with pytest.raises(FileNotFoundError):
        load_checkpoint(tmp_path / "missing.pt")


@pytest.mark.parametrize("greedy", [True, False])
def test_ppo_agent_plays_a_full_game_legally(trained, greedy):
    _, result = trained
    agents = [PPOAgent(result["checkpoint"], greedy=greedy, seed=seat) for seat in range(2)]
    env = make(GAME, num_players=2)
    env.reset(seed=5)
    decisions = 0
    while not all(env.terminations.values()):
        mask = env.action_mask()
        action = agents[env.agent_name_mapping[env.agent_selection]].act(env)
        assert mask[action] == 1
        env.step(action)
        decisions += 1
    assert decisions > 10
    assert sorted(env.rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_the_default_learning_rate_is_finite():
    assert np.isfinite(Options().learning_rate)


def test_ppo_default_loads_the_shipped_policy_or_says_none_ships(trained, tmp_path,
                                                                 monkeypatch):
    """``ppo:default`` is ``agents/ppo/bots/<game>.pt``: a missing one is one clear error
    naming what does ship, and a shipped one plays under that name."""
    import shutil

    import meeplezoo.agents.ppo.agent as ppo_agent
    from meeplezoo.agents.registry import make_agent

    _, result = trained
    monkeypatch.setattr(ppo_agent, "PPO_BOTS_DIR", tmp_path / "bots")
    with pytest.raises(ValueError, match="no shipped PPO bot for saint_malo_v0; shipped: "
                                         "none yet"):
        make_agent("ppo:default", GAME)
    (tmp_path / "bots").mkdir()
    shutil.copy(result["checkpoint"], tmp_path / "bots" / f"{GAME}.pt")
    with pytest.raises(ValueError, match="no shipped PPO bot trained at 3 players for "
                                         "saint_malo_v0; shipped: saint_malo_v0"):
        make_agent("ppo:default3p", GAME)
    agent = make_agent("ppo:default", GAME, seed=1)
    assert agent.name == "ppo:default" and agent.greedy
    env = make(GAME, num_players=2)
    env.reset(seed=2)
    assert env.action_mask()[agent.act(env)] == 1
    shutil.copy(result["checkpoint"], tmp_path / "bots" / "hansa_v0.pt")   # misfiled
    with pytest.raises(ValueError, match="trained on saint_malo_v0, not hansa_v0"):
        make_agent("ppo:default", "hansa_v0")


def test_ppo_games_are_cut_at_max_decisions_where_the_game_has_the_option(tmp_path):
    with pytest.raises(ValueError, match="unknown Hansa option.*max_decisions"):
        train(tiny(tmp_path, game="hansa", max_decisions=500))
    with pytest.raises(ValueError, match="--max-decisions must be an integer in 0"):
        train(tiny(tmp_path, game="hansa_teutonica", max_decisions=-1))
    train(tiny(tmp_path, game="hansa_teutonica", max_decisions=100, num_steps=128,
               max_updates=1))
    # Untrained Hansa Teutonica players run to the 3,000-decision cap; cut at 100, each of
    # the 16 games of 128 decisions ends at least once in the rollout.
    rows = (tmp_path / "hansa_teutonica_v0_2p_seed3" / "progress.csv").read_text()
    header, first = (line.split(",") for line in rows.splitlines()[:2])
    assert int(first[header.index("episodes")]) >= 16


@pytest.mark.parametrize("game", ["saint_malo_v0", "hansa_teutonica_v0", "carcassonne_v1"])
def test_the_ppo_ship_command_parses_into_the_ppo_options(game):
    """``ship --algo ppo`` runs a valid ``meeplezoo train --algo ppo`` command: the PPO
    defaults for the same minutes as the AZ bot, Hansa Teutonica cut like its AZ run."""
    import tyro

    from meeplezoo.training.shipping.ship import ppo_ship_arguments

    arguments = ppo_ship_arguments(game, 20, "runs", torch_threads=1)
    at = arguments.index("--algo")
    assert arguments[at + 1] == "ppo"
    options = tyro.cli(Options, args=["--game", *arguments[:at], *arguments[at + 2:]])
    assert (options.game, options.minutes, options.torch_threads) == (game, 20, 1)
    assert options.run_name == f"ppo_ship_{game}" and options.eval_opponents == ("greedy",)
    assert options.max_decisions == (600 if game == "hansa_teutonica_v0" else 0)
    assert options.eval_every >= 1 and options.hidden == Options().hidden
