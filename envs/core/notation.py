"""Move notation shared by every game: parse text by matching the legal moves' names."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np


def normalise(text: str) -> str:
    return " ".join(text.strip().lower().split())


def legal_move_names(
    state: np.ndarray, mask: np.ndarray, to_str: Callable[[np.ndarray, int], str]
) -> dict[str, int]:
    """Name -> action for every legal action; the first action wins a shared name."""
    names: dict[str, int] = {}
    for action in np.flatnonzero(mask):
        names.setdefault(normalise(to_str(state, int(action))), int(action))
    return names


def parse_move(
    state: np.ndarray, mask: np.ndarray, text: str, to_str: Callable[[np.ndarray, int], str]
) -> int:
    """The legal action named ``text`` (a move name, or an action number as ``#12``/``12``)."""
    key = normalise(text)
    number = key[1:] if key.startswith("#") else key
    if number.isdigit():
        action = int(number)
        if 0 <= action < mask.shape[0] and mask[action]:
            return action
        raise ValueError(f"action {action} is not legal here")
    names = legal_move_names(state, mask, to_str)
    if key in names:
        return names[key]
    shown = ", ".join(sorted(names)) or "none"
    raise ValueError(f"{text!r} is not a legal move; legal moves: {shown}")
