"""Readable move notation, in the spec's own words (§19): ``W@(1,0) r0`` places the tile in
hand at x = 1, y = 0 with rotation 0; ``normal on slot 2 (road)``, ``large on slot 0
(city)`` and ``no meeple`` are the meeple decisions.  The names are the same in both
action layouts (frontier and grid); a placement action is read through the state's
layout, so a frontier action names the frontier cell it addresses in that state."""

from __future__ import annotations

import numpy as np

from . import data as D


def action_to_str(state: np.ndarray, action: int) -> str:
    action = int(action)
    base = D.meeple_base(state)
    if 0 <= action < base:
        where = D.placement_of(state, action)
        if where is None:
            return f"#{action}"
        hand = int(state[D.G_HAND])
        name = D.TILE_NAMES[hand] if hand >= 0 else "tile"
        x, y, r = where
        return f"{name}@({x},{y}) r{r}"
    if action == base + 2 * D.MAX_SLOTS:
        return "no meeple"
    if base <= action < base + 2 * D.MAX_SLOTS:
        slot, large = divmod(action - base, 2)
        kind = ""
        placed = int(state[D.G_PLACED])
        if placed > 0:
            tile_type = int(state[D.T_TYPE + placed - 1])
            if slot < D.NUM_SLOTS[tile_type]:
                kind = f" ({D.KIND_NAMES[D.SEG_KIND[tile_type, slot]]})"
        return f"{'large' if large else 'normal'} on slot {slot}{kind}"
    return f"#{action}"
