"""The values an agent spec's options take, below the registry that reads specs: ASCII
numbers, a choice, yes/no, the bounds every search option is checked against, and an
object named ``"package.module:name"`` loaded on first use.  The ``mcts:`` and ``az:``
specs and an AlphaZero checkpoint's play record share them."""

from __future__ import annotations

import importlib
import math


def load_object(path: str):
    """``"package.module:name"`` imported on first use (bots and their kernels load lazily)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


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


# The range of every option that sizes a search's memory or time, or feeds its arithmetic:
# checked where a spec becomes an agent and where a checkpoint's play record is read, so
# the CLI, the arena, ladders and the server refuse the same values before anything is
# allocated (``nodes=999999999999`` would ask for 25 TiB; ``mcts:nans`` would fail on the
# first move).  The tree costs about 412 bytes a node: 5M nodes is 2 GiB.  A second's
# budget beyond 10 minutes a move, or a million simulations (about 20 s of the fastest
# game's search), is a typo, not a plan.
MCTS_BOUNDS = {"simulations": ("N", 1, 1_000_000), "seconds": ("Xs", 0.001, 600.0),
               "max_nodes": ("nodes", 64, 5_000_000),
               "rollout_depth": ("depth", -1, 100_000), "c": ("c", 0.0, 100.0),
               "prior": ("prior", 0.0, 0.999)}
AZ_BOUNDS = {"simulations": ("sims", 0, 100_000), "c": ("c", 0.0, 100.0),
             "leaf_batch": ("batch", 1, 1_024), "fpu": ("fpu", -10.0, 10.0),
             "lam": ("lam", 0.0, 1.0), "prior_mix": ("pmix", 0.0, 1.0),
             "rollouts": ("rollouts", 1, 64), "margin": ("margin", 0.0, 1.0),
             "depth": ("depth", 0, 100_000)}


def check_once(spec: str, options: list[str]) -> None:
    """Each ``key=value`` option given at most once (``c=1,c=2`` means nothing), else one
    ``ValueError`` naming the keys given twice."""
    keys = [option.partition("=")[0] for option in options]
    repeated = sorted({key for key in keys if keys.count(key) > 1})
    if repeated:
        raise ValueError(f"{spec}: {', '.join(repeated)} given more than once")


def check_bounds(spec: str, kwargs: dict, bounds: dict) -> None:
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
