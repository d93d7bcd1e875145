"""The generic compiled MCTS on Hansa's kernels: random and heuristic rollouts, chance draws."""

from __future__ import annotations

import numpy as np

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa.masks import legal_mask
from meeplezoo.envs.hansa.policy import rollout_policy


def test_mcts_plays_legal_moves_through_draws():
    # One rollout kind only: the search compiles per process (about half a minute).
    env = hansa_v0.env(num_players=3)
    env.reset(seed=5)
    agent = MCTSAgent(simulations=60, rollout="heuristic", seed=1)
    for _ in range(40):
        action = agent.act(env)
        assert env.action_mask()[action]
        env.step(action)


def test_rollout_policy_is_always_legal():
    env = hansa_v0.env(num_players=4)
    rng = new_rng(2)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for game in range(5):
        env.reset(seed=game)
        while not env._game_over:
            legal_mask(env.state, mask)
            action = rollout_policy(env.state, mask, rng)
            assert mask[action], (action, env.phase)
            env.step(int(action))


def test_mcts_beats_random_at_hansa():
    wins = 0
    for game in range(4):
        env = hansa_v0.env(num_players=2)
        env.reset(seed=game)
        agents = [MCTSAgent(simulations=100, rollout="heuristic", seed=game),
                  RandomAgent(seed=game)]
        if game % 2:
            agents.reverse()
        while not env._game_over:
            env.step(agents[env.agent_name_mapping[env.agent_selection]].act(env))
        wins += env.rewards[f"player_{game % 2}"] > 0
    assert wins >= 3
