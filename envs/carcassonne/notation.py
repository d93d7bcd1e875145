"""Readable move notation, in the spec's own words (§19): ``W@(1,0) r0`` places the tile in
hand at x = 1, y = 0 with rotation 0; ``normal on slot 2 (road)``, ``large on slot 0
(city)`` and ``no meeple`` are the meeple decisions."""

from __future__ import annotations

import numpy as np

from . import data as D


def action_to_str(state: np.ndarray, action: int) -> str:
    action = int(action)
    if 0 <= action < D.NUM_PLACEMENTS:
        hand = int(state[D.G_HAND])
        name = D.TILE_NAMES[hand] if hand >= 0 else "tile"
        x, y = D.xy_of(action // 4)
        return f"{name}@({x},{y}) r{action % 4}"
    if action == D.A_NO_MEEPLE:
        return "no meeple"
    if D.A_MEEPLE <= action < D.A_NO_MEEPLE:
        slot, large = divmod(action - D.A_MEEPLE, 2)
        kind = ""
        placed = int(state[D.G_PLACED])
        if placed > 0:
            tile_type = int(state[D.T_TYPE + placed - 1])
            if slot < D.NUM_SLOTS[tile_type]:
                kind = f" ({D.KIND_NAMES[D.SEG_KIND[tile_type, slot]]})"
        return f"{'large' if large else 'normal'} on slot {slot}{kind}"
    return f"#{action}"
