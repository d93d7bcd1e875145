"""The ``HansaTeutonicaGreedyAgent`` class."""

from __future__ import annotations

import numpy as np

from ...envs.core.rng import new_rng
from ...envs.hansa_teutonica.policy import rollout_policy
from ..base import Agent


class HansaTeutonicaGreedyAgent(Agent):
    """Heuristic play (see the package docstring); ``act`` takes a few microseconds."""

    name = "greedy"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._rng = new_rng(seed if seed is not None else int(self.rng.integers(2**62)))

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self._rng = new_rng(seed)

    def act(self, env) -> int:
        game = env.unwrapped
        mask = game.action_mask()
        action = int(rollout_policy(game.state, mask, self._rng))
        if not game.action_mask()[action]:                # never expected; stay legal
            action = int(self.rng.choice(np.flatnonzero(game.action_mask())))
        return action
