"""The ``CarcassonneGreedyAgent`` class (see the package docstring)."""

from __future__ import annotations

from ...envs.carcassonne.data import GAME_ID
from ...envs.carcassonne.policy import greedy_action
from ...envs.core.contract import H_GAME_ID
from ...envs.core.rng import new_rng
from ..base import Agent


class CarcassonneGreedyAgent(Agent):
    name = "greedy"

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._kernel_rng = new_rng(int(self.rng.integers(2**63)))

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self._kernel_rng = new_rng(int(self.rng.integers(2**63)))

    def act(self, env) -> int:
        base = getattr(env, "unwrapped", env)
        state = base.state
        if int(state[H_GAME_ID]) != GAME_ID:
            raise ValueError(f"{type(self).__name__} plays carcassonne, not game "
                             f"{int(state[H_GAME_ID])}")
        if not base.action_mask().any():
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        return int(greedy_action(state, self._kernel_rng))
