"""Range checks of command-line flags, shared by every command (``arena``, ``match``,
``rate``, ``play``, ``serve``, ``train``).

Each check runs before a command does any work, and a bad value is one ``ValueError``
naming the flag, which the CLI prints as one line with exit status 2.  argparse's
``type=float`` takes ``nan`` and ``inf`` and ``type=int`` takes any size, so a count, a
time or a seed is checked here: a flag that sizes memory or time has a ceiling, so that a
typo (``--games 1000000000000``) is refused instead of running for a year.
"""

from __future__ import annotations

import math
from pathlib import Path

MAX_SEED = 2**32 - 1          # seeds of deals and agents are offsets of this one: keep
                              # them well inside the 64 bits the generators take
MAX_SECONDS = 3600.0          # a move limit or a budget per move beyond an hour is a typo
MAX_WORKERS = 256


def check_count(flag: str, value, low: int = 1, high: int = 1_000_000) -> int:
    """An integer flag in ``low..high``."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{flag} must be an integer in {low:,}..{high:,}, got {value!r}")
    return value


def check_seconds(flag: str, value, high: float = MAX_SECONDS) -> float | None:
    """A time in seconds: finite, > 0 and at most ``high`` (``None``: not given)."""
    if value is None:
        return None
    if not isinstance(value, (int, float)) or isinstance(value, bool) or \
            not math.isfinite(value) or not 0 < value <= high:
        raise ValueError(f"{flag} must be a number of seconds in (0, {high:g}], got {value!r}")
    return float(value)


def check_number(flag: str, value, low: float, high: float,
                 low_open: bool = False) -> float:
    """A finite number in ``[low, high]`` (``(low, high]`` with ``low_open``)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or \
            not math.isfinite(value) or not (low < value if low_open else low <= value) or \
            not value <= high:
        bounds = f"({low:g}, {high:g}]" if low_open else f"[{low:g}, {high:g}]"
        raise ValueError(f"{flag} must be a finite number in {bounds}, got {value!r}")
    return float(value)


def check_seed(flag: str, value) -> int | None:
    """A seed in ``0..2**32 - 1`` (``None``: draw one)."""
    if value is None:
        return None
    return check_count(flag, value, 0, MAX_SEED)


def check_workers(flag: str, value) -> int | None:
    if value is None:
        return None
    return check_count(flag, value, 1, MAX_WORKERS)


def check_output_file(flag: str, path) -> Path:
    """A file a command will write at its end: refused now, before the work, if it is a
    folder or sits under a file (``--save-to``'s whole game would be lost otherwise)."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise ValueError(f"{flag} {path} is a folder; give a file name, e.g. {path}/game.json")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ValueError(f"{flag} {path}: {parent} is a file, not a folder")
            break
    return path


def check_output_folder(flag: str, path) -> Path:
    """A folder a command writes into: refused if it, or a folder above it, is a file."""
    path = Path(path).expanduser()
    for folder in (path, *path.parents):
        if folder.exists():
            if not folder.is_dir():
                raise ValueError(f"{flag} {path}: {folder} is a file, not a folder")
            break
    return path
