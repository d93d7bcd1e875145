"""MeepleZoo agents: one interface (``Agent.act(env) -> action``) for every kind."""

from .base import Agent
from .random_agent import RandomAgent
from .registry import agent_names, make_agent

__all__ = ["Agent", "RandomAgent", "agent_names", "make_agent"]
