"""Shipped bots by name: ``default``, ``default<N>p`` and variants such as ``gen`` (the
bot trained on generated boards), written by ``training.ship --variant``."""

from __future__ import annotations

import pytest

from meeplezoo.agents.shipped import bot_stem, shipped_name


def test_shipped_names_parse_to_seats_and_variant():
    assert shipped_name("default") == (2, "")
    assert shipped_name("default3p") == (3, "")
    assert shipped_name("gen") == (2, "gen")
    assert shipped_name("gen4p") == (4, "gen")
    for path in ("runs/x/checkpoint.pt", "generic", "gen7p", "defaults"):
        assert shipped_name(path) is None
    assert bot_stem("hansa_v0", 2, "gen") == "hansa_v0_gen"
    assert bot_stem("hansa_v0", 3) == "hansa_v0_3p"


def test_az_gen_plays_hansa_with_its_recorded_settings_and_is_refused_elsewhere():
    pytest.importorskip("torch")
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    agent = make_agent("az:gen", "hansa_v0", seed=0)
    assert (agent.simulations, agent.settings["lam"]) == (200, 0.5)
    env = make("hansa_v0", board="generated:test")
    env.reset(seed=1)
    assert env.action_mask()[make_agent("az:gen,sims=8", "hansa_v0", seed=0).act(env)] == 1
    with pytest.raises(ValueError, match=r"no shipped AlphaZero bot \(gen\) for saint_malo_v0"):
        make_agent("az:gen", "saint_malo_v0")
    with pytest.raises(ValueError, match="no shipped PPO bot"):
        make_agent("ppo:gen", "hansa_v0")


def test_ship_writes_a_variant_beside_the_default(tmp_path):
    pytest.importorskip("torch")
    from meeplezoo.agents.az.agent import shipped_checkpoint
    from meeplezoo.training.shipping.ship import ship_checkpoint

    bot = ship_checkpoint(shipped_checkpoint("hansa_v0"), "hansa_v0", bots_dir=tmp_path,
                          variant="gen")
    assert bot == tmp_path / "hansa_v0_gen.pt" and bot.stat().st_size < 5 * 1024 * 1024


def test_value_quality_resolves_the_variant_not_the_default():
    from meeplezoo.benchmarks.studies.value_quality import resolve_checkpoint

    assert resolve_checkpoint("az:gen", "hansa_v0", 2).name == "hansa_v0_gen.pt"
    assert resolve_checkpoint("az:default", "hansa_v0", 2).name == "hansa_v0.pt"


def test_az_all_ships_only_a_network_trained_at_every_count(tmp_path):
    """``az:all`` plays at any seat count, so ship refuses a network that did not learn
    at each one the game allows, and names the counts it has and needs."""
    torch = pytest.importorskip("torch")
    from meeplezoo.agents.az.agent import shipped_checkpoint
    from meeplezoo.training.run.checkpoint import load_checkpoint
    from meeplezoo.training.shipping.ship import ship_checkpoint

    assert shipped_name("all") == (2, "all") and bot_stem("hansa_v0", 2, "all") == "hansa_v0_all"
    with pytest.raises(ValueError, match=r"trained at \[2\] players; az:all .*\[2, 3, 4\]"):
        ship_checkpoint(shipped_checkpoint("hansa_v0"), "hansa_v0", bots_dir=tmp_path,
                        variant="all")
    payload = load_checkpoint(shipped_checkpoint("hansa_v0"))
    for counts, shipped in (((2, 3), False), ((2, 3, 4), True)):
        payload["options"]["seat_counts"] = counts
        torch.save(payload, tmp_path / "mixed.pt")
        if shipped:
            bot = ship_checkpoint(tmp_path / "mixed.pt", "hansa_v0", bots_dir=tmp_path,
                                  variant="all")
            assert bot == tmp_path / "hansa_v0_all.pt"
        else:
            with pytest.raises(ValueError, match=r"trained at \[2, 3\] players"):
                ship_checkpoint(tmp_path / "mixed.pt", "hansa_v0", bots_dir=tmp_path,
                                variant="all")


def test_the_shipped_az_all_plays_hansa_at_every_count_it_learnt():
    pytest.importorskip("torch")
    from meeplezoo.agents.az.agent import load_az_checkpoint, shipped_checkpoint
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make
    from meeplezoo.training.run.checkpoint import load_checkpoint

    path = shipped_checkpoint("hansa_v0", *shipped_name("all"))
    assert tuple(load_checkpoint(path)["options"]["seat_counts"]) == (2, 3, 4)
    assert load_az_checkpoint(path)[2]["simulations"] == 64
    for players in (2, 3, 4):
        env = make("hansa_v0", num_players=players)
        env.reset(seed=players)
        agent = make_agent("az:all,sims=8", "hansa_v0", seed=0)
        for _ in range(3 * players):
            action = agent.act(env)
            assert env.action_mask()[action] == 1
            env.step(action)
