"""The ``SerenissimaGreedyAgent`` class."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_GAME_ID
from ...envs.core.rng import new_rng
from ...envs.serenissima.data import GAME_ID, NUM_ACTIONS
from ..base import Agent
from .choice import greedy_action


class SerenissimaGreedyAgent(Agent):
    """Rule-of-thumb play (see the package docstring); ``act`` takes microseconds."""

    name = "greedy"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._rng = new_rng(seed if seed is not None else int(self.rng.integers(2**63)))

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self._rng = new_rng(seed)

    def act(self, env) -> int:
        env = getattr(env, "unwrapped", env)
        state = env.state
        if int(state[H_GAME_ID]) != GAME_ID:
            raise ValueError(f"{type(self).__name__} plays serenissima, not game "
                             f"{int(state[H_GAME_ID])}")
        mask = np.ascontiguousarray(env.action_mask(), dtype=np.int8)
        if mask.shape != (NUM_ACTIONS,) or not mask.any():
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        action = int(greedy_action(state, mask.copy(), self._rng))
        if not mask[action]:                              # never expected; stay legal
            action = int(self.rng.choice(np.flatnonzero(mask)))
        return action
