"""Checking constructor options, shared by every game: one clear ``ValueError`` each.

A rule option is checked when the env is built, never when a kernel first reads it, so a
bad value cannot leave a game half-played.  Each check names the option, what it takes
and what it got; none of them lets ``TypeError`` or ``OverflowError`` out (a huge int
is simply out of range).  ``bool`` is not an integer here, and ``1.0`` is not an int:
options are typed values, not things that happen to compare equal to one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def _is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool | np.bool_)


def check_bool(name: str, value) -> bool:
    """``True``/``False`` (or numpy's) only: ``'yes'``, ``1``, ``None`` and ``0.5`` are
    refused rather than read by truthiness."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(f"option {name} must be True or False, got {value!r}")


def check_int(name: str, value, low: int, high: int) -> int:
    """An integer in ``[low, high]``."""
    if not _is_int(value) or not low <= int(value) <= high:
        raise ValueError(f"option {name} must be an integer in {low}..{high}, got {value!r}")
    return int(value)


def check_float(name: str, value, low: float, high: float = math.inf, *,
                low_open: bool = False) -> float:
    """A finite real number in ``[low, high]`` (``(low, high]`` with ``low_open``); NaN
    and infinities are refused."""
    if _is_int(value) or isinstance(value, float | np.floating):
        number = float(value) if abs(value) < 1e300 else math.inf
        inside = (number > low if low_open else number >= low) and number <= high
        if math.isfinite(number) and inside:
            return number
    bound = f"{'(' if low_open else '['}{low}, {high}]"
    raise ValueError(f"option {name} must be a finite number in {bound}, got {value!r}")


def check_choice(name: str, value, choices: Sequence):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"option {name} must be one of {list(choices)}, got {value!r}")
    return value


def check_int_sequence(name: str, value, length: int | None, low: int, high: int) -> list[int]:
    """A list or tuple of integers in ``[low, high]``, of ``length`` items when given."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise ValueError(f"option {name} must be a sequence of integers, got {value!r}")
    items = list(value)
    if length is not None and len(items) != length:
        raise ValueError(f"option {name} needs {length} integers, got {len(items)}: {value!r}")
    if not all(_is_int(v) and low <= int(v) <= high for v in items):
        raise ValueError(
            f"option {name} must hold integers in {low}..{high}, got {value!r}"
        )
    return [int(v) for v in items]


def check_pair_sequence(name: str, value) -> list[tuple]:
    """A sequence of 2-item sequences (e.g. ``(kind, amount)`` or ``(row, col)``); the
    items themselves are checked by the caller."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise ValueError(f"option {name} must be a sequence of pairs, got {value!r}")
    pairs = []
    for item in value:
        if isinstance(item, str | bytes) or not isinstance(item, Sequence | np.ndarray) \
                or len(item) != 2:
            raise ValueError(f"option {name}: {item!r} is not a pair")
        pairs.append((item[0], item[1]))
    return pairs


def check_known(game: str, options: dict, known) -> None:
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"unknown {game} option(s) {unknown}; known: {sorted(known)}")
