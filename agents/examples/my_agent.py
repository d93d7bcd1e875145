"""Bring your own agent: the three forms ``meeplezoo arena`` / ``rate`` / ``match`` accept.

    meeplezoo arena hansa --agents random agents/examples/my_agent.py:MostMovesAgent
    meeplezoo arena hansa --agents random meeplezoo.agents.examples.my_agent:first_legal
    meeplezoo arena hansa --agents random agents/examples/my_agent.py:make_agent

Copy this file and change the bodies; any name in it can be given after the colon.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.base import Agent


class MostMovesAgent(Agent):
    """An ``Agent`` subclass: sees the env (``env.action_mask()``, ``env.observe(agent)``,
    ``env.state``) and returns a legal action.  This one picks a random legal move, as a
    stand-in for your own search or network."""

    def act(self, env) -> int:
        return int(self.rng.choice(np.flatnonzero(env.action_mask())))


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A plain policy function: the seat's observation vector and 0/1 legal-move mask in,
    an action out (here the lowest legal action; a network would go here)."""
    return int(np.flatnonzero(action_mask)[0])


def make_agent(game: str, seed: int | None = None) -> Agent:
    """A factory: parameters among ``game`` and ``seed``; returns an Agent or a policy
    function (e.g. a network loaded for ``game``)."""
    return MostMovesAgent(seed=seed)
