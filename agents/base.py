"""The one interface every agent implements: random, heuristic, MCTS and learned.

An agent sees the env it plays in (``KernelEnv``: ``state``, ``action_mask()``,
``observe(agent)``) and returns a legal action for the seat to move.  Agents get their own
seeded generator, so a match is reproducible from its seeds.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np


class Agent(ABC):
    name: str = "agent"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Start a new game (re-seeding if ``seed`` is given)."""
        if seed is not None:
            self.rng = np.random.default_rng(seed)

    def set_time_budget(self, seconds: float) -> bool:
        """Think about ``seconds`` per move from now on, where the agent can (True); the
        arena's ``--time-per-move``.  An agent with a fixed cost per move says False."""
        return False

    @abstractmethod
    def act(self, env) -> int:
        """A legal action for ``env.agent_selection``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
