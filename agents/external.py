"""Agents people bring: ``path/to/file.py:Name`` or ``package.module:Name``.

``Name`` may be

- an :class:`~meeplezoo.agents.base.Agent` subclass, built as ``Name(seed=seed)`` (or
  ``Name()`` where its constructor takes no seed);
- a factory: a callable whose parameters are among ``game`` and ``seed`` (or none),
  returning an ``Agent`` or a policy function;
- a plain policy function ``(observation, action_mask) -> action``: the observing seat's
  observation vector and its 0/1 mask of legal actions, as every MeepleZoo env gives them
  (``env.observe(agent)``), returning an action index.

``agents/examples/my_agent.py`` (``meeplezoo.agents.examples.my_agent``) holds one of
each.  A file is imported as a module of its own (its folder is not put on ``sys.path``);
a module path is imported as usual.  The code
runs in this process, as any import does: rate only code you trust.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path

from .base import Agent

FACTORY_PARAMETERS = {"game", "seed"}


def is_external(spec: str, builtin_names) -> bool:
    """A ``something:Name`` spec whose ``something`` is a file or a dotted module, not a
    built-in agent (``mcts:200``, ``az:default``)."""
    source, colon, name = spec.rpartition(":")
    if not colon or not name.isidentifier() or spec.partition(":")[0] in builtin_names:
        return False
    return source.endswith(".py") or "/" in source or "." in source or "\\" in source


def load_external(spec: str, game: str, seed: int | None) -> Agent:
    """The agent a ``file.py:Name`` / ``module:Name`` spec names (module docstring); a
    ``ValueError`` saying what is wrong otherwise."""
    source, _, name = spec.rpartition(":")
    module = _import(source, spec)
    if not hasattr(module, name):
        found = sorted(n for n in vars(module) if not n.startswith("_"))
        raise ValueError(f"{source} has no {name!r} (it defines: {', '.join(found) or 'nothing'})")
    target = getattr(module, name)
    try:
        agent = _build(target, game, seed, spec)
    except ValueError:
        raise
    except Exception as err:                                 # the user's code failed
        raise ValueError(f"building agent {spec!r} failed: {type(err).__name__}: {err}") \
            from None
    agent.name = spec
    return agent


def _import(source: str, spec: str):
    if source.endswith(".py") or "/" in source or "\\" in source:
        path = Path(source).expanduser()
        if not path.is_file():
            raise ValueError(f"agent {spec!r}: no file {path}")
        key = "meeplezoo_user_agent_" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
        if key in sys.modules:
            return sys.modules[key]
        module_spec = importlib.util.spec_from_file_location(key, path)
        module = importlib.util.module_from_spec(module_spec)
        sys.modules[key] = module
        try:
            module_spec.loader.exec_module(module)
        except Exception as err:
            del sys.modules[key]
            raise ValueError(f"importing {path} failed: {type(err).__name__}: {err}") from None
        return module
    try:
        return importlib.import_module(source)
    except ImportError as err:
        raise ValueError(f"agent {spec!r}: cannot import {source!r} ({err})") from None
    except Exception as err:
        raise ValueError(f"importing {source} failed: {type(err).__name__}: {err}") from None


def _build(target, game: str, seed: int | None, spec: str) -> Agent:
    if inspect.isclass(target):
        if not issubclass(target, Agent):
            raise ValueError(f"{spec}: {target.__name__} is a class but not a "
                             f"meeplezoo Agent subclass")
        accepts_seed = "seed" in inspect.signature(target).parameters
        return target(seed=seed) if accepts_seed else target()
    if not callable(target):
        raise ValueError(f"{spec}: {type(target).__name__} is neither an Agent subclass, "
                         f"a factory nor a policy function")
    if _is_policy(target):
        return PolicyAgent(target, seed=seed)
    parameters = inspect.signature(target).parameters
    made = target(**{k: v for k, v in {"game": game, "seed": seed}.items() if k in parameters})
    if isinstance(made, Agent):
        return made
    if callable(made) and _is_policy(made):
        return PolicyAgent(made, seed=seed)
    raise ValueError(f"{spec}: the factory returned {type(made).__name__}, not an Agent "
                     f"or a policy function (observation, action_mask) -> action")


def _is_policy(function) -> bool:
    """Two positional parameters, neither a factory's: (observation, action_mask)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY,
                                                      p.POSITIONAL_OR_KEYWORD)]
    return len(positional) == 2 and not FACTORY_PARAMETERS & {p.name for p in positional}


class PolicyAgent(Agent):
    """A policy function as an agent: it sees what the seat to move observes."""

    def __init__(self, policy, seed: int | None = None):
        super().__init__(seed)
        self.policy = policy

    def act(self, env) -> int:
        observed = env.observe(env.agent_selection)
        return self.policy(observed["observation"], observed["action_mask"])
