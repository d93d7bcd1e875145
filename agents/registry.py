"""Agents by name, as the CLI and the arena write them: ``random``, ``greedy``, ``mcts:200``."""

from __future__ import annotations

from .base import Agent
from .random_agent import RandomAgent


def _saint_malo(seed: int | None, expert: bool) -> Agent:
    from .saint_malo_greedy import SaintMaloGreedyAgent

    agent = SaintMaloGreedyAgent(seed=seed, rerolls=expert)
    agent.name = "expert" if expert else "greedy"
    return agent


def _hansa_teutonica(seed: int | None) -> Agent:
    from .hansa_teutonica_greedy import HansaTeutonicaGreedyAgent

    return HansaTeutonicaGreedyAgent(seed=seed)


def _carcassonne(seed: int | None) -> Agent:
    from .carcassonne_greedy import CarcassonneGreedyAgent

    return CarcassonneGreedyAgent(seed=seed)


def _hansa(seed: int | None) -> Agent:
    from .hansa_greedy import HansaGreedyAgent

    return HansaGreedyAgent(seed=seed)


def _serenissima(seed: int | None) -> Agent:
    from .serenissima_greedy import SerenissimaGreedyAgent

    return SerenissimaGreedyAgent(seed=seed)


# The hand-written bots of each game, by (agent name, game).  ``greedy`` is the one-move
# heuristic every game has; ``expert`` (Saint Malo) adds the exact re-roll expectimax.
HEURISTICS = {
    ("greedy", "saint_malo_v0"): lambda seed: _saint_malo(seed, expert=False),
    ("expert", "saint_malo_v0"): lambda seed: _saint_malo(seed, expert=True),
    ("greedy", "hansa_teutonica_v0"): _hansa_teutonica,
    ("greedy", "carcassonne_v0"): _carcassonne,
    ("greedy", "hansa_v0"): _hansa,
    ("greedy", "serenissima_v0"): _serenissima,
}


def _heuristic(kind: str, game: str, seed: int | None) -> Agent:
    factory = HEURISTICS.get((kind, game))
    if factory is None:
        have = sorted(g for k, g in HEURISTICS if k == kind)
        raise ValueError(f"no {kind!r} bot for {game!r}; games with one: {', '.join(have)}")
    return factory(seed)


MCTS_OPTIONS = {"depth": ("rollout_depth", int), "c": ("c", float), "nodes": ("max_nodes", int),
                "chance": ("chance", str), "rollout": ("rollout", str),
                "reuse": ("reuse", lambda v: v.lower() in ("1", "true", "yes")),
                "leaf": ("leaf_value", str), "backup": ("backup", str),
                "horizon": ("horizon", str)}


# The settings that play best where a game has a heuristic, measured with the arena
# (BENCHMARKS.md): a heuristic leaf value instead of a random rollout, and a smaller UCT
# constant because that value is much less noisy.  ``leaf=rollout,c=1.41`` restores the
# plain UCT with random rollouts.
GAME_MCTS_DEFAULTS = {"saint_malo_v0": ("leaf=heuristic", "c=0.5"),
                      "carcassonne_v0": ("leaf=heuristic", "c=0.5"),
                      "hansa_v0": ("rollout=heuristic",),
                      "serenissima_v0": ("rollout=heuristic",)}


def _leaf_value(game: str, name: str):
    if name == "rollout":
        return None
    if name == "heuristic" and game == "saint_malo_v0":
        from .saint_malo_value import heuristic_value

        return heuristic_value
    if name == "heuristic" and game == "hansa_teutonica_v0":
        from .hansa_teutonica_greedy.value import heuristic_value

        return heuristic_value
    if name == "heuristic" and game == "carcassonne_v0":
        from ..envs.carcassonne.policy import heuristic_value

        return heuristic_value
    raise ValueError(f"no leaf value {name!r} for {game!r}")


def _mcts(game: str, seed: int | None, arguments: str) -> Agent:
    """``mcts:N`` (N simulations) or ``mcts:2.5s`` (seconds), then ``,key=value`` options:
    depth (rollout depth), c, nodes, chance (sample|stratified), rollout (random|heuristic),
    reuse, leaf (rollout|heuristic: value leaves with the game's heuristic), backup
    (mean|max: max at decisions, expectation at chance nodes), horizon (game|turn: plan
    only the current turn).  A game's ``GAME_MCTS_DEFAULTS`` come first, so the user's
    options override them."""
    from .mcts import MCTSAgent

    budget, *options = arguments.split(",") if arguments else ["200"]
    options = [*GAME_MCTS_DEFAULTS.get(game, ()), *options]    # the user's options win
    kwargs: dict = {"seed": seed}
    try:
        if budget.endswith("s"):
            kwargs["seconds"] = float(budget[:-1])
            kwargs["simulations"] = 1
        else:
            kwargs["simulations"] = int(budget)
        for option in options:
            key, value = option.split("=", 1)
            name, cast = MCTS_OPTIONS[key]
            kwargs[name] = cast(value)
    except (ValueError, KeyError):
        raise ValueError(
            f"bad MCTS spec 'mcts:{arguments}'; write mcts:N or mcts:Xs, then ,key=value "
            f"with keys {', '.join(MCTS_OPTIONS)}"
        ) from None
    if "leaf_value" in kwargs:
        kwargs["leaf_value"] = _leaf_value(game, kwargs["leaf_value"])
    agent = MCTSAgent(**kwargs)
    agent.name = f"mcts:{arguments}"
    return agent


def _ppo(game: str, seed: int | None, arguments: str) -> Agent:
    """``ppo:<checkpoint>`` (greedy) or ``ppo:<checkpoint>,sample``."""
    path, _, mode = arguments.rpartition(",") if arguments.endswith(",sample") else (
        arguments, "", "")
    if not path:
        raise ValueError("write ppo:<checkpoint> or ppo:<checkpoint>,sample")
    from .ppo import PPOAgent

    agent = PPOAgent(path, greedy=(mode != "sample"), seed=seed)
    if agent.game != game:
        raise ValueError(f"{path} was trained on {agent.game}, not {game}")
    return agent


_FACTORIES = {
    "random": lambda game, seed, arguments: RandomAgent(seed=seed),
    "greedy": lambda game, seed, arguments: _heuristic("greedy", game, seed),
    "expert": lambda game, seed, arguments: _heuristic("expert", game, seed),
    "mcts": _mcts,
    "ppo": _ppo,
}


def agent_names() -> list[str]:
    return sorted(_FACTORIES)


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """An agent from its name, e.g. ``make_agent("greedy", "saint_malo_v0", seed=1)``."""
    name, _, arguments = spec.partition(":")
    if name not in _FACTORIES:
        raise ValueError(f"unknown agent {spec!r}; known: {', '.join(agent_names())}")
    return _FACTORIES[name](game, seed, arguments)
