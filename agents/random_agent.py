"""Uniformly random over the legal actions: the zero of every strength scale."""

from __future__ import annotations

import numpy as np

from .base import Agent


class RandomAgent(Agent):
    name = "random"

    def act(self, env) -> int:
        legal = np.flatnonzero(env.unwrapped.action_mask().view(bool))
        if legal.size == 0:
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        return int(self.rng.choice(legal))
