"""Readable move notation for Hansa (logs, replays, the terminal player).

A token is named by its colour letter and barrels (``C2`` = colour C, 2 barrels); cities by
their three-letter codes.  Moves: ``start DAN`` (initial placement), ``sail LUB``,
``refill``, ``skip refill``, ``buy C2`` (the token on the ship's city), ``place C x2``
(two stalls paid with a colour-C token), ``mark C2`` (add to the sale), ``sell``, ``end``,
``discard C``.
"""

from __future__ import annotations

import numpy as np

from .data import (
    A_BUY,
    A_END,
    A_INIT_PLACE,
    A_MOVE,
    A_PLACE,
    A_REFILL,
    A_SELL_COMMIT,
    A_SELL_MARK,
    A_SKIP_REFILL,
    A_TAX,
    CITY_CODES,
    COLOUR_LETTERS,
    G_SHIP,
    G_WAREHOUSE,
    MAX_SPACES,
    NUM_ACTIONS,
)


def token_name(t: int) -> str:
    return f"{COLOUR_LETTERS[t // 3]}{t % 3 + 1}"


def action_to_str(state: np.ndarray, action: int) -> str:
    """The notation of ``action`` (the buy names the token lying in the ship's city)."""
    action = int(action)
    if not 0 <= action < NUM_ACTIONS:
        return f"#{action} (not an action)"
    if action < A_MOVE:
        return f"start {CITY_CODES[action - A_INIT_PLACE]}"
    if action < A_REFILL:
        return f"sail {CITY_CODES[action - A_MOVE]}"
    if action == A_REFILL:
        return "refill"
    if action == A_SKIP_REFILL:
        return "skip refill"
    if action < A_PLACE:
        space = action - A_BUY
        base = G_WAREHOUSE + MAX_SPACES * int(state[G_SHIP])
        token = int(state[base + space])
        if token < 0:
            return f"buy space {space + 1}"
        # Two equal tokens in one city: name the space too, so every legal move has its
        # own name (the terminal player and OpenSpiel need them distinct).
        twins = [j for j in range(MAX_SPACES) if j != space and int(state[base + j]) == token]
        return f"buy {token_name(token)}" + (f" (space {space + 1})" if twins else "")
    if action < A_SELL_MARK:
        colour, k = divmod(action - A_PLACE, 3)
        return f"place {COLOUR_LETTERS[colour]} x{k + 1}"
    if action < A_SELL_COMMIT:
        return f"mark {token_name(action - A_SELL_MARK)}"
    if action == A_SELL_COMMIT:
        return "sell"
    if action == A_END:
        return "end"
    return f"discard {COLOUR_LETTERS[action - A_TAX]}"

