"""The ``HansaGreedyAgent`` class."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_GAME_ID, H_PHASE
from ...envs.hansa.data import (
    A_REFILL,
    A_SELL_COMMIT,
    A_SELL_MARK,
    A_SKIP_REFILL,
    C_SPACES,
    G_ACTIVE,
    G_WAREHOUSE,
    GAME_ID,
    MAX_SPACES,
    NUM_ACTIONS,
    NUM_CITIES,
    P_MONEY,
    PH_REFILL,
    PH_SELL,
    PLAYER_SIZE,
    PLAYERS_BASE,
)
from ..base import Agent
from .values import action_values


class HansaGreedyAgent(Agent):
    """Greedy on a static evaluation after one decision and one follow-up (~1 ms a move)."""

    name = "greedy"
    TOLERANCE = 1e-9

    def __init__(self, seed: int | None = None):
        super().__init__(seed)
        self._values = np.zeros(NUM_ACTIONS)

    def act(self, env) -> int:
        state = env.state
        if int(state[H_GAME_ID]) != GAME_ID:
            raise ValueError(f"{type(self).__name__} plays hansa, not game {state[H_GAME_ID]}")
        mask = env.action_mask()
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        if legal.size == 1:
            return int(legal[0])
        phase = int(state[H_PHASE])
        if phase == PH_REFILL:
            return A_REFILL if self._wants_refill(state) else A_SKIP_REFILL
        if phase == PH_SELL:                       # finish a sale the macro would make
            marks = [a for a in legal if A_SELL_MARK <= a < A_SELL_COMMIT]
            return int(max(marks)) if marks else A_SELL_COMMIT
        action_values(state, mask, self._values)
        values = np.where(mask.astype(bool), self._values, -np.inf)
        tied = np.flatnonzero(values >= values.max() - self.TOLERANCE)
        return int(tied[0]) if tied.size == 1 else int(self.rng.choice(tied))

    @staticmethod
    def _wants_refill(state: np.ndarray) -> bool:
        empty = sum(1 for city in range(NUM_CITIES) for j in range(int(state[C_SPACES + city]))
                    if state[G_WAREHOUSE + MAX_SPACES * city + j] < 0)
        money = int(state[PLAYERS_BASE + int(state[G_ACTIVE]) * PLAYER_SIZE + P_MONEY])
        return empty >= 2 or money >= 4
