"""Agents by name, as the CLI and the arena write them: ``random``, ``greedy``, ``mcts:200``."""

from __future__ import annotations

import importlib
import math

from meeplezoo.envs.versions import rules_name

from .base import Agent
from .random_agent import RandomAgent


def _load(path: str):
    """``"package.module:name"`` imported on first use (bots and their kernels load lazily)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


# The hand-written bots of each game, by (agent name, game): the class and its keyword
# arguments.  ``greedy`` is the one-move heuristic every game has; ``expert`` (Saint Malo)
# adds the exact re-roll expectimax.  This table, GAME_MCTS_DEFAULTS and LEAF_VALUES are
# keyed by the rules' name (``rules_name``): ``carcassonne_v1`` plays v0's entries.
HEURISTICS = {
    ("greedy", "saint_malo_v0"): ("meeplezoo.agents.saint_malo_greedy:SaintMaloGreedyAgent",
                                  {"rerolls": False}),
    ("expert", "saint_malo_v0"): ("meeplezoo.agents.saint_malo_greedy:SaintMaloGreedyAgent",
                                  {"rerolls": True}),
    ("greedy", "hansa_teutonica_v0"): (
        "meeplezoo.agents.hansa_teutonica_greedy:HansaTeutonicaGreedyAgent", {}),
    ("greedy", "carcassonne_v0"): ("meeplezoo.agents.carcassonne_greedy:CarcassonneGreedyAgent",
                                   {}),
    ("greedy", "hansa_v0"): ("meeplezoo.agents.hansa_greedy:HansaGreedyAgent", {}),
    ("greedy", "serenissima_v0"): ("meeplezoo.agents.serenissima_greedy:SerenissimaGreedyAgent",
                                   {}),
}


def _heuristic(kind: str, game: str, seed: int | None) -> Agent:
    if (kind, rules_name(game)) not in HEURISTICS:
        have = sorted(g for k, g in HEURISTICS if k == kind)
        raise ValueError(f"no {kind!r} bot for {game!r}; games with one: {', '.join(have)}")
    path, kwargs = HEURISTICS[kind, rules_name(game)]
    agent = _load(path)(seed=seed, **kwargs)
    agent.name = kind
    return agent


def ascii_int(text: str) -> int:
    """``int(text)`` for ASCII digits only: Python's ``int`` also reads ``"٥"`` and
    ``"５"``, which no one types on purpose in a spec."""
    if not text.isascii():
        raise ValueError(f"not a number: {text!r}")
    return int(text)


def ascii_float(text: str) -> float:
    if not text.isascii():
        raise ValueError(f"not a number: {text!r}")
    return float(text)


def choice(*allowed: str):
    """A parser that accepts one of ``allowed`` and nothing else."""
    def parse(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"not one of {allowed}")
        return value
    return parse


def flag(value: str) -> bool:
    if value.lower() in ("1", "true", "yes"):
        return True
    if value.lower() in ("0", "false", "no"):
        return False
    raise ValueError(f"not a yes/no value: {value!r}")


MCTS_OPTIONS = {"depth": ("rollout_depth", ascii_int), "c": ("c", ascii_float),
                "nodes": ("max_nodes", ascii_int),
                "chance": ("chance", choice("sample", "stratified")),
                "rollout": ("rollout", choice("random", "heuristic")),
                "reuse": ("reuse", flag),
                "leaf": ("leaf_value", str),            # checked by _leaf_value
                "backup": ("backup", choice("mean", "max")),
                "horizon": ("horizon", choice("game", "turn")),
                "prior": ("prior", ascii_float), "cut": ("cut", choice("score", "leaf"))}


# The settings that play best where a game has a heuristic, measured with the arena
# (BENCHMARKS.md): a heuristic leaf value instead of a random rollout, and a smaller UCT
# constant because that value is much less noisy.  Hansa Teutonica: PUCT with half of each
# node's prior on the heuristic's move and 10-decision heuristic rollouts valued by the
# running scores (full rollouts cost about 5x as much per game); Serenissima: the same
# prior with 60-decision rollouts (16/16 against greedy in a first check, ~20x cheaper
# than full rollouts).  ``leaf=rollout,c=1.41``
# restores the plain UCT with random rollouts.
GAME_MCTS_DEFAULTS = {"saint_malo_v0": ("leaf=heuristic", "c=0.5"),
                      # Carcassonne: the expected-completion leaf value, c=0.2 (values are
                      # tanh(margin / 20), so c=0.5 mostly explored), stratified tile
                      # draws, max at decisions / expectation at draws.  2 players against
                      # greedy, seats swapped, 60 deals on two seed sets: 90.5/120 (+24
                      # points a game; mean backup 89/120; the old leaf with c=0.5 9/20).
                      "carcassonne_v0": ("leaf=heuristic", "c=0.2", "chance=stratified",
                                         "backup=max"),
                      "hansa_v0": ("rollout=heuristic",),
                      "hansa_teutonica_v0": ("rollout=heuristic", "prior=0.5", "depth=10"),
                      "serenissima_v0": ("rollout=heuristic", "prior=0.5", "depth=60")}


# Compiled leaf values for ``mcts:N,leaf=heuristic``, by game.
LEAF_VALUES = {
    "saint_malo_v0": "meeplezoo.agents.saint_malo_value:heuristic_value",
    "hansa_teutonica_v0": "meeplezoo.agents.hansa_teutonica_greedy.value:heuristic_value",
    "carcassonne_v0": "meeplezoo.envs.carcassonne.policy:heuristic_value",
}


def _leaf_value(game: str, name: str):
    """``(leaf_value, weights)`` the spec's ``leaf=`` names: rollout (None, None),
    heuristic (the game's hand-set leaf, no weights) or fitted[:gen|<file.json>] (the
    fitted leaf and its weights, ``agents/fitted_values.py``)."""
    if name == "rollout":
        return None, None
    if name == "heuristic" and rules_name(game) in LEAF_VALUES:
        return _load(LEAF_VALUES[rules_name(game)]), None
    kind, _, source = name.partition(":")
    if kind == "fitted":
        from .fitted_values import fitted_leaf

        return fitted_leaf(game, source)
    raise ValueError(f"no leaf value {name!r} for {game!r}")


# The range of every option that sizes a search's memory or time, or feeds its arithmetic:
# checked here, where a spec becomes an agent, so the CLI, the arena, ladders and the
# server refuse the same values before anything is allocated (``nodes=999999999999``
# would ask for 25 TiB; ``mcts:nans`` would fail on the first move).  The tree costs about
# 412 bytes a node: 5M nodes is 2 GiB.  A second's budget beyond 10 minutes a move, or a
# million simulations (about 20 s of the fastest game's search), is a typo, not a plan.
MCTS_BOUNDS = {"simulations": ("N", 1, 1_000_000), "seconds": ("Xs", 0.001, 600.0),
               "max_nodes": ("nodes", 64, 5_000_000),
               "rollout_depth": ("depth", -1, 100_000), "c": ("c", 0.0, 100.0),
               "prior": ("prior", 0.0, 0.999)}
AZ_BOUNDS = {"simulations": ("sims", 0, 100_000), "c": ("c", 0.0, 100.0),
             "leaf_batch": ("batch", 1, 1_024), "fpu": ("fpu", -10.0, 10.0),
             "lam": ("lam", 0.0, 1.0), "prior_mix": ("pmix", 0.0, 1.0),
             "rollouts": ("rollouts", 1, 64), "margin": ("margin", 0.0, 1.0),
             "depth": ("depth", 0, 100_000)}


def _check_bounds(spec: str, kwargs: dict, bounds: dict) -> None:
    """Each bounded option finite and in its range, else one ``ValueError`` naming it."""
    for name, (label, low, high) in bounds.items():
        if name not in kwargs or (name == "simulations" and "seconds" in kwargs):
            continue
        value = kwargs[name]
        if not math.isfinite(value) or not low <= value <= high:
            raise ValueError(f"{spec}: {label} must be in {_number(low)}..{_number(high)}, "
                             f"not {_number(value)}")


def _number(value) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def _mcts(game: str, seed: int | None, arguments: str) -> Agent:
    """``mcts:N`` (N simulations) or ``mcts:2.5s`` (seconds), then ``,key=value`` options:
    depth (rollout depth), c, nodes, chance (sample|stratified), rollout (random|heuristic),
    reuse, leaf (rollout|heuristic: value leaves with the game's heuristic; fitted: with
    the value fitted to game results that ships for the game, fitted:gen with the one
    fitted on generated boards, fitted:<file.json> with another fit,
    ``agents/fitted_values.py``), backup
    (mean|max: max at decisions, expectation at chance nodes), horizon (game|turn: plan
    only the current turn), prior (0..1: PUCT with that share of each node's prior on the
    game's heuristic move), cut (score|leaf: a rollout cut at its depth valued by the
    running scores' win/loss, or by the leaf value; with cut=leaf the leaf values only
    the cuts).  A game's ``GAME_MCTS_DEFAULTS`` come first, so the user's
    options override them."""
    from .mcts import MCTSAgent

    budget, *options = arguments.split(",") if arguments else ["200"]
    keys = [option.partition("=")[0] for option in options]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"mcts:{arguments}: {', '.join(repeated)} given more than once")
    options = [*GAME_MCTS_DEFAULTS.get(rules_name(game), ()), *options]   # the user's win
    kwargs: dict = {"seed": seed}
    try:
        if budget.endswith("s"):
            kwargs["seconds"] = ascii_float(budget[:-1])
            kwargs["simulations"] = 1
        else:
            kwargs["simulations"] = ascii_int(budget)
        for option in options:
            key, value = option.split("=", 1)
            name, cast = MCTS_OPTIONS[key]
            kwargs[name] = cast(value)
    except (ValueError, KeyError):
        raise ValueError(
            f"bad MCTS spec 'mcts:{arguments}'; write mcts:N or mcts:Xs, then ,key=value "
            f"with keys depth=N, c=X, nodes=N, chance=sample|stratified, "
            f"rollout=random|heuristic, reuse=yes|no, leaf=rollout|heuristic|fitted[:...], "
            f"backup=mean|max, horizon=game|turn, prior=X, cut=score|leaf"
        ) from None
    _check_bounds(f"mcts:{arguments}", kwargs, MCTS_BOUNDS)
    if "leaf_value" in kwargs:
        kwargs["leaf_value"], kwargs["leaf_weights"] = _leaf_value(game, kwargs["leaf_value"])
    agent = MCTSAgent(**kwargs)
    agent.name = f"mcts:{arguments}"
    return agent


def _ppo(game: str, seed: int | None, arguments: str) -> Agent:
    """``ppo:<checkpoint>`` (greedy) or ``ppo:<checkpoint>,sample``; ``ppo:default`` (or
    ``ppo:default<N>p``) is the policy shipped for the game."""
    path, _, mode = arguments.rpartition(",") if arguments.endswith(",sample") else (
        arguments, "", "")
    if not path:
        raise ValueError("write ppo:<checkpoint>, ppo:default or ppo:<checkpoint>,sample")
    from .ppo.agent import PPOAgent, shipped_policy
    from .shipped import shipped_name

    shipped = shipped_name(path)
    checkpoint = shipped_policy(game, *shipped) if shipped else path
    agent = PPOAgent(str(checkpoint), greedy=(mode != "sample"), seed=seed)
    agent.name = f"ppo:{arguments}"
    if agent.game != game:
        raise ValueError(f"{path} was trained on {agent.game}, not {game}")
    return agent


# ``az:`` options: the spec's key -> (AZAgent's keyword, parse).  ``fpu=X`` values an
# unvisited move at X, ``fpu=parent-X`` at its parent's value minus X.
AZ_OPTIONS = {"sims": ("simulations", ascii_int), "c": ("c", ascii_float),
              "batch": ("leaf_batch", ascii_int), "lam": ("lam", ascii_float),
              "pmix": ("prior_mix", ascii_float), "rollouts": ("rollouts", ascii_int),
              "margin": ("margin", ascii_float), "depth": ("depth", ascii_int)}


def az_settings(options: list[str], spec: str = "az:") -> dict:
    """``AZAgent`` keyword arguments from ``az:`` options (``["sims=64", "fpu=parent-0.2"]``),
    each parsed and bounded, or one ``ValueError``; also a checkpoint's play record."""
    kwargs: dict = {}
    keys = [option.partition("=")[0] for option in options]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"{spec}: {', '.join(repeated)} given more than once")
    for option in options:
        key, _, value = option.partition("=")
        try:
            if key == "root" and value in ("puct", "gumbel"):
                kwargs["root"] = value
            elif key == "backup" and value in ("mean", "max"):
                kwargs["backup"] = value
            elif key == "leaf" and value in ("heuristic", "fitted"):
                kwargs["leaf"] = value
            elif key == "search" and value in ("network", "uct"):
                kwargs["search"] = value
            elif key == "cut" and value in ("score", "leaf"):
                kwargs["cut"] = value
            elif key == "fpu":
                parent = value.startswith("parent-")
                kwargs["fpu_mode"] = "parent" if parent else "fixed"
                kwargs["fpu"] = ascii_float(value.removeprefix("parent-"))
            else:
                name, cast = AZ_OPTIONS[key]
                kwargs[name] = cast(value)
        except (KeyError, ValueError):
            raise ValueError(f"bad az option {option!r}; the options are sims=N, "
                             f"root=puct|gumbel, c=X, batch=N, fpu=X or fpu=parent-X, "
                             f"lam=X, pmix=X, rollouts=N, margin=X, backup=mean|max, "
                             f"leaf=heuristic|fitted, search=network|uct, depth=N, "
                             f"cut=score|leaf") from None
    _check_bounds(spec, kwargs, AZ_BOUNDS)
    return kwargs


def _az(game: str, seed: int | None, arguments: str) -> Agent:
    """``az:<checkpoint>[,option...]``, ``az:default[,...]`` (the bot shipped for the game,
    trained at 2 players), ``az:default3p`` (one trained at 3, where shipped) or ``az:gen``
    (one trained on generated boards, where shipped).  Options
    (each defaults to the checkpoint's recorded play settings): ``sims=N`` (0: the
    network's policy without search), ``root=puct|gumbel``, ``c=X`` (PUCT), ``batch=N``
    (leaves per network call), ``fpu=X`` or ``fpu=parent-X`` (first-play urgency),
    ``lam=X`` (the network's share of the leaf value, the rest the game's heuristic),
    ``pmix=X`` (prior share on the heuristic's move), ``rollouts=N``, ``margin=X`` (the
    predicted score margin's share of the utility), ``backup=mean|max``, ``leaf=fitted``
    (the heuristic share of the leaf value from the game's fitted value), ``search=uct``
    (the game's tuned search with that leaf, the network unused; ``depth=N`` and
    ``cut=leaf`` then set its rollouts' depth and how a cut is valued)."""
    path, *options = arguments.split(",") if arguments else [""]
    if not path:
        raise ValueError("write az:<checkpoint> or az:default, then optionally ,sims=N")
    kwargs = az_settings(options, f"az:{arguments}")
    from .az import AZAgent, shipped_checkpoint
    from .shipped import shipped_name

    shipped = shipped_name(path)
    agent = AZAgent(shipped_checkpoint(game, *shipped) if shipped else path, seed=seed,
                    **kwargs)
    if agent.game != game:
        raise ValueError(f"{path} was trained on {agent.game}, not {game}")
    agent.name = f"az:{arguments}"
    return agent


def _plain(name: str, make):
    """A factory for an agent that takes no arguments: ``random:x`` is refused, not read
    as ``random``."""
    def factory(game: str, seed: int | None, arguments: str) -> Agent:
        if arguments:
            raise ValueError(f"{name} takes no settings: write {name}, not {name}:{arguments}")
        return make(game, seed)
    return factory


_FACTORIES = {
    "random": _plain("random", lambda game, seed: RandomAgent(seed=seed)),
    "greedy": _plain("greedy", lambda game, seed: _heuristic("greedy", game, seed)),
    "expert": _plain("expert", lambda game, seed: _heuristic("expert", game, seed)),
    "mcts": _mcts,
    "ppo": _ppo,
    "az": _az,
    "process": lambda game, seed, arguments: _isolated(arguments, game, seed),
}


def _isolated(spec: str, game: str, seed: int | None) -> Agent:
    """``process:<spec>``: the agent ``spec`` names, in a child process of its own."""
    if not spec:
        raise ValueError("write process:<agent spec>, e.g. process:path/to/bot.py:MyBot")
    from .isolated import IsolatedAgent

    return IsolatedAgent(spec, game, seed)


def agent_names() -> list[str]:
    return sorted(_FACTORIES)


def make_agent(spec: str, game: str, seed: int | None = None) -> Agent:
    """An agent from its name, e.g. ``make_agent("greedy", "saint_malo_v0", seed=1)``, or
    one of your own: ``path/to/file.py:Name`` or ``package.module:Name``
    (``agents/external.py``)."""
    from .external import is_external, load_external

    if is_external(spec, _FACTORIES):                   # path/to/file.py:Name, module:Name
        return load_external(spec, game, seed)
    name, _, arguments = spec.partition(":")
    if name not in _FACTORIES:
        raise ValueError(f"unknown agent {spec!r}; known: {', '.join(agent_names())}, or "
                         f"your own as path/to/file.py:Name or package.module:Name")
    return _FACTORIES[name](game, seed, arguments)
