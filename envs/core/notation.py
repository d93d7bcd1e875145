"""Move notation shared by every game: parse text by matching the legal moves' names.

A move's name is exactly what the game's ``action_to_str`` writes, in every API (the
terminal player, ``legal_move_names()``, logs, the OpenSpiel view); each game names its
legal actions so that no two share a name.  Parsing is forgiving about case and spacing,
so a person can type ``ib@(-1,0) r0`` for ``IB@(-1,0) r0``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def normalise(text: str) -> str:
    return " ".join(text.strip().lower().split())


def legal_move_names(
    state: np.ndarray, mask: np.ndarray, to_str: Callable[[np.ndarray, int], str]
) -> dict[str, int]:
    """Name -> action for every legal action, names exactly as ``to_str`` writes them."""
    return {to_str(state, int(action)): int(action) for action in np.flatnonzero(mask)}


def parse_move(
    state: np.ndarray, mask: np.ndarray, text: str, to_str: Callable[[np.ndarray, int], str]
) -> int:
    """The legal action named ``text`` (a move name, or an action number as ``#12``/``12``)."""
    if not isinstance(text, str):
        raise ValueError(f"a move is text, got {text!r}")
    key = normalise(text)
    number = key[1:] if key.startswith("#") else key
    if number.isascii() and number.isdigit():
        action = int(number) if len(number) < 12 else -1
        if 0 <= action < mask.shape[0] and mask[action]:
            return action
        raise ValueError(f"action {number} is not legal here")
    names = legal_move_names(state, mask, to_str)
    if text in names:
        return names[text]
    matches = [action for name, action in names.items() if normalise(name) == key]
    if len(matches) == 1:
        return matches[0]
    shown = ", ".join(sorted(names)) or "none"
    raise ValueError(f"{text!r} is not a legal move; legal moves: {shown}")
