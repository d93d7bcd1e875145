"""Agents by name, as the CLI and the arena write them: ``random``, ``greedy``."""

from __future__ import annotations

from .base import Agent
from .random_agent import RandomAgent


def _greedy(game: str, seed: int | None) -> Agent:
    if game != "saint_malo_v0":
        raise ValueError(f"no greedy heuristic for {game!r} yet")
    from .saint_malo_greedy import SaintMaloGreedyAgent

    return SaintMaloGreedyAgent(seed=seed)


_FACTORIES = {
    "random": lambda game, seed: RandomAgent(seed=seed),
    "greedy": _greedy,
}


def agent_names() -> list[str]:
    return sorted(_FACTORIES)


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """An agent from its name, e.g. ``make_agent("greedy", "saint_malo_v0", seed=1)``."""
    name = spec.split(":", 1)[0]
    if name not in _FACTORIES:
        raise ValueError(f"unknown agent {spec!r}; known: {', '.join(agent_names())}")
    return _FACTORIES[name](game, seed)
