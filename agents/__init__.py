"""MeepleZoo agents: one interface (``Agent.act(env) -> action``) for every kind."""

from .base import Agent
from .random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent"]
