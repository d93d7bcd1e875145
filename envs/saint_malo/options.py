"""Rule options of Saint Malo -> the config block stored in the state (spec §16)."""

from __future__ import annotations

import numpy as np

from . import data as D


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults in ``data.DEFAULT_OPTIONS``) into the config block."""
    unknown = sorted(set(options) - set(D.DEFAULT_OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown Saint Malo option(s) {unknown}; known: {sorted(D.DEFAULT_OPTIONS)}"
        )
    opts = {**D.DEFAULT_OPTIONS, **options}
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)

    def put(slot: int, values) -> None:
        values = np.asarray(values, dtype=np.int64).ravel()
        config[slot - D.C_TOWER_KIND:slot - D.C_TOWER_KIND + values.size] = values

    rewards = opts["tower_rewards"]
    if len(rewards) != 4:
        raise ValueError("tower_rewards needs one (kind, amount) per side N, E, S, W")
    for side, reward in enumerate(rewards):
        kind, amount = reward
        if kind not in D.REWARD_KIND_CODES or int(amount) < 0:
            raise ValueError(
                f"tower reward {reward!r}: kind must be one of {sorted(D.REWARD_KIND_CODES)}, "
                "amount >= 0"
            )
        put(D.C_TOWER_KIND + side, D.REWARD_KIND_CODES[kind])
        put(D.C_TOWER_AMOUNT + side, amount)
    crates = 0
    for cell in opts["start_crates"]:
        r, c = (int(v) for v in cell)
        index = 7 * r + c
        if not (0 <= r < 7 and 0 <= c < 7) or D.IS_TOWER[index]:
            raise ValueError(f"start crate {cell!r} is not a space of the 7x7 city")
        crates |= 1 << index
    put(D.C_START_CRATES, crates)
    values = _ints(opts["church_row_values"], 6, "church_row_values")
    if values[0] != 0:
        raise ValueError("church_row_values[0] (no row) must be 0")
    put(D.C_CHURCH_T, values)
    put(D.C_STRENGTH, _ints(opts["attack_strengths"], 6, "attack_strengths"))
    for name, slot in (("boxes_per_player", D.C_BOXES_PER_PLAYER),
                       ("start_coins", D.C_START_COINS), ("start_logs", D.C_START_LOGS)):
        value = int(opts[name])
        if value < (1 if name == "boxes_per_player" else 0):
            raise ValueError(f"{name} must be >= {1 if name == 'boxes_per_player' else 0}")
        put(slot, value)
    put(D.C_DEDUPE, 1 if opts["dedupe_rerolls"] else 0)
    return config


def _ints(values, length: int, name: str) -> list[int]:
    values = [int(v) for v in values]
    if len(values) != length or min(values) < 0:
        raise ValueError(f"{name} needs {length} non-negative integers, got {values}")
    return values
