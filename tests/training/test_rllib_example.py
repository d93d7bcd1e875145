"""The RLlib worked example: RLlib's env check fails on a MeepleZoo env by
default and passes with ``illegal="penalty"``; PPO with the masking module trains a few
iterations by self-play and its moves are legal."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")     # nodes on 127.0.0.1
ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")
torch = pytest.importorskip("torch")

from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

from meeplezoo.envs import make  # noqa: E402
from meeplezoo.training.libraries import rllib_example  # noqa: E402
from meeplezoo.training.run.ray_cluster import connect  # noqa: E402

GAME = "hansa_v0"


def seed_an_illegal_first_sample(env) -> None:
    """Seed the first mover's action space so that its first sample, the move RLlib's
    check plays, is illegal (most random actions are; this makes it certain)."""
    agent = env.env.agent_selection
    legal = env.env.action_mask()
    space = env.get_action_space(agent)
    for seed in range(1000):
        space.seed(seed)
        if not legal[space.sample()]:
            space.seed(seed)                     # the check's sample is this one again
            return
    raise AssertionError("every sampled action was legal")


@pytest.mark.parametrize("illegal", ["raise", "penalty"])
def test_rllib_env_check_needs_the_penalty_setting(illegal):
    env = rllib_example.make_rllib_env({"game": GAME, "illegal": illegal})
    env.reset(seed=42)                           # the check resets with this seed too
    seed_an_illegal_first_sample(env)
    if illegal == "raise":
        with pytest.raises(ValueError, match="step"):
            check_multiagent_environments(env)
    else:
        check_multiagent_environments(env)
        # What the check's illegal move did: the game ends, the offender scoring -1.
        env.reset(seed=42)
        seed_an_illegal_first_sample(env)
        agent = env.env.agent_selection
        _, rewards, terminated, _, _ = env.step({agent: env.get_action_space(agent).sample()})
        assert terminated["__all__"] and rewards[agent] == -1


def test_ppo_trains_a_few_iterations_and_plays_legal_moves():
    _, started = connect(None, cpus=1)
    try:
        algo = rllib_example.build(GAME, seed=0, hidden=32, batch=400)
        module = algo.get_module(rllib_example.POLICY)
        before = [p.detach().clone() for p in module.parameters()]
        episodes = 0
        for _ in range(2):
            episodes += algo.train()["env_runners"].get("num_episodes", 0)
        assert episodes >= 1
        module = algo.get_module(rllib_example.POLICY)
        assert any(not torch.equal(a, b) for a, b in
                   zip(before, module.parameters(), strict=True))     # it learned
        # Its moves are legal at every turn of a game (the default env raises otherwise).
        env = make(GAME)
        env.reset(seed=3)
        while not env.game_over:
            action = module.best_action(env.observe(env.agent_selection))
            assert env.action_mask()[action] == 1
            env.step(action)
        assert 0.0 <= rllib_example.win_rate(module, GAME, games=2) <= 1.0
        algo.stop()
    finally:
        if started:
            ray.shutdown()


def test_the_masked_policy_never_chooses_an_illegal_move():
    from gymnasium import spaces

    env = make(GAME)
    module = rllib_example.masked_policy_class()(
        observation_space=env.observation_space(env.possible_agents[0]),
        action_space=env.action_space(env.possible_agents[0]), model_config={"hidden": 16})
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    for _ in range(200):
        if env.game_over:
            env.reset(seed=int(rng.integers(1 << 30)))
        action = module.best_action(env.observe(env.agent_selection))
        assert env.action_mask()[action] == 1
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    assert isinstance(env.observation_space(env.possible_agents[0]), spaces.Dict)
