"""Rule options of Hansa -> the config block stored in the state (board included)."""

from __future__ import annotations

import numpy as np

from . import data as D
from .board import board_config, load_board


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults in ``data.DEFAULT_OPTIONS``) into the config block."""
    unknown = sorted(set(options) - set(D.DEFAULT_OPTIONS))
    if unknown:
        raise ValueError(f"unknown Hansa option(s) {unknown}; known: {sorted(D.DEFAULT_OPTIONS)}")
    opts = {**D.DEFAULT_OPTIONS, **options}
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)

    def put(slot: int, values) -> None:
        values = np.asarray(values, dtype=np.int64).ravel()
        config[slot - D.HEADER_SIZE:slot - D.HEADER_SIZE + values.size] = values

    for name, choices, slot in (("init_order", D.INIT_ORDERS, D.C_INIT_ORDER),
                                ("stack_sizes", D.STACK_SIZES, D.C_STACK_SIZES)):
        if opts[name] not in choices:
            raise ValueError(f"{name} must be one of {choices}, got {opts[name]!r}")
        put(slot, choices.index(opts[name]))
    for name, slot in (("place_exact", D.C_PLACE_EXACT), ("sell_whole_colour", D.C_SELL_WHOLE)):
        if not isinstance(opts[name], bool | np.bool_ | int) or opts[name] not in (0, 1):
            raise ValueError(f"{name} must be True or False, got {opts[name]!r}")
        put(slot, int(bool(opts[name])))
    max_turns = opts["max_turns"]
    if not isinstance(max_turns, int | np.integer) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
    put(D.C_MAX_TURNS, max_turns)
    put(D.C_BOARD_KIND, board_config(load_board(opts["board"])))
    return config
