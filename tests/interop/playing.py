"""Moves for the interop tests: the game's heuristic rollout policy where it has one.

Uniformly random play can take tens of thousands of moves to end some games (Hansa
Teutonica stalls by design, HT-9.5), which is not what these tests are about.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.base import Agent
from meeplezoo.envs.core.rng import new_rng

# Rule options that cut uniformly random games short where a game has a cap (HT-9.5), for
# checks that must play random moves (OpenSpiel's random_sim_test).
SHORT_GAME_OPTIONS = {"hansa_teutonica_v0": {"max_decisions": 300}}


class PolicyChooser:
    def __init__(self, game_spec, seed: int):
        self.policy = game_spec.kernels.get("rollout_policy")
        self.kernel_rng = new_rng(seed)
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: np.ndarray, mask: np.ndarray) -> int:
        if self.policy is not None:
            action = int(self.policy(state, mask.astype(np.int8).copy(), self.kernel_rng))
            assert mask[action]
            return action
        return int(self.rng.choice(np.flatnonzero(mask)))


class PolicyAgent(Agent):
    """An agent that plays the game's rollout policy (random where there is none)."""

    name = "rollout-policy"

    def __init__(self, game_spec, seed: int = 0):
        super().__init__(seed)
        self.choose = PolicyChooser(game_spec, seed)

    def act(self, env) -> int:
        return self.choose(env.unwrapped.state, env.unwrapped.action_mask())
