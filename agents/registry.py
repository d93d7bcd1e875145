"""Agents by name, as the CLI and the arena write them: ``random``, ``greedy``, ``mcts:200``."""

from __future__ import annotations

from meeplezoo.envs.versions import rules_name

from .base import Agent
from .catalogue import BestAgent
from .mcts_spec import mcts_agent
from .random_agent import RandomAgent
from .spec_values import AZ_BOUNDS, ascii_float, ascii_int, check_bounds, check_once, load_object

# The hand-written bots of each game, by (agent name, game): the class and its keyword
# arguments.  ``greedy`` is the one-move heuristic every game has; ``expert`` (Saint Malo)
# adds the exact re-roll expectimax.  This table (as ``mcts_spec.py``'s) is keyed by the
# rules' name (``rules_name``): ``carcassonne_v1`` plays v0's entries.
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
    agent = load_object(path)(seed=seed, **kwargs)
    agent.name = kind
    return agent


def _ppo(game: str, seed: int | None, arguments: str) -> Agent:
    """``ppo:<checkpoint>`` (greedy) or ``ppo:<checkpoint>,sample``; ``ppo:default`` (or
    ``ppo:default<N>p``) is the policy shipped for the game, ``ppo:distilled[<N>p]`` the PPO
    policy distilled into a policy/value network (``agents/catalogue.py``)."""
    path, _, mode = arguments.rpartition(",") if arguments.endswith(",sample") else (
        arguments, "", "")
    if not path:
        raise ValueError("write ppo:<checkpoint>, ppo:default or ppo:<checkpoint>,sample")
    from .ppo.agent import PPOAgent, shipped_policy
    from .shipped import DISTILLED, shipped_name

    shipped = shipped_name(path)
    checkpoint = shipped_policy(game, *shipped) if shipped else path
    if shipped and shipped[1] == DISTILLED:
        # A PPO policy distilled into the AlphaZero-style network: its policy alone.
        if mode:
            raise ValueError(f"ppo:{arguments}: the distilled policy plays greedily only")
        from .az import AZAgent

        agent = AZAgent(str(checkpoint), seed=seed, simulations=0)
    else:
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
    check_once(spec, options)
    for option in options:
        key, _, value = option.partition("=")
        if key == "search":
            # A search that leaves the network out is no ``az:`` bot: say its name.
            raise ValueError(f"{spec}: an az: bot always searches with its network; the "
                             f"game's tuned search with a fitted leaf is mcts:N,leaf=fitted "
                             f"(with depth=N,cut=leaf as needed)")
        try:
            if key == "root" and value in ("puct", "gumbel"):
                kwargs["root"] = value
            elif key == "backup" and value in ("mean", "max"):
                kwargs["backup"] = value
            elif key == "leaf" and value in ("heuristic", "fitted"):
                kwargs["leaf"] = value
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
                             f"leaf=heuristic|fitted, depth=N, "
                             f"cut=score|leaf") from None
    check_bounds(spec, kwargs, AZ_BOUNDS)
    return kwargs


def _az(game: str, seed: int | None, arguments: str) -> Agent:
    """``az:<checkpoint>[,option...]``, ``az:default[,...]`` (the bot shipped for the game,
    trained at 2 players), ``az:default3p`` (one trained at 3, where shipped), ``az:all``
    (one trained at every player count, where shipped) or ``az:gen`` (one trained on
    generated boards, where shipped).  Options
    (each defaults to the checkpoint's recorded play settings): ``sims=N`` (0: the
    network's policy without search), ``root=puct|gumbel``, ``c=X`` (PUCT), ``batch=N``
    (leaves per network call), ``fpu=X`` or ``fpu=parent-X`` (first-play urgency),
    ``lam=X`` (the network's share of the leaf value, the rest the game's heuristic),
    ``pmix=X`` (prior share on the heuristic's move), ``rollouts=N``, ``margin=X`` (the
    predicted score margin's share of the utility), ``backup=mean|max``, ``leaf=fitted``
    (the heuristic share of the leaf value from the game's fitted value).  An ``az:`` bot
    always searches with its network; the game's tuned search with a fitted leaf and no
    network is ``mcts:N,leaf=fitted``."""
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
    "best": _plain("best", lambda game, seed: BestAgent(game, seed, make=make_agent)),
    "random": _plain("random", lambda game, seed: RandomAgent(seed=seed)),
    "greedy": _plain("greedy", lambda game, seed: _heuristic("greedy", game, seed)),
    "expert": _plain("expert", lambda game, seed: _heuristic("expert", game, seed)),
    "mcts": mcts_agent,
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
