"""Rule options and the map -> the config block stored at the front of every state."""

from __future__ import annotations

import numpy as np

from . import data as D
from .maps import PLACEHOLDER_ID, MapError, map_to_config, read_map, remember_names, validate_map

_FLAGS = (("block_in_start_zone", D.C_BLOCK_IN_START),
          ("sell_after_breaking_block", D.C_SELL_AFTER_BREAK),
          ("new_galley_acts_this_round", D.C_NEW_ACTS), ("hidden_money", D.C_HIDDEN_MONEY))


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults ``data.DEFAULT_OPTIONS``) into the config block."""
    unknown = sorted(set(options) - set(D.DEFAULT_OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown Serenissima option(s) {unknown}; known: {sorted(D.DEFAULT_OPTIONS)}"
        )
    opts = {**D.DEFAULT_OPTIONS, **options}
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)
    spec = read_map(opts["map"])
    parsed = validate_map(spec)
    map_to_config(parsed, config)
    if parsed["map_id"] == PLACEHOLDER_ID:
        config[D.C_MAP_KIND] = 0
    elif parsed["map_id"].startswith("generated_"):
        config[D.C_MAP_KIND] = 2
    else:
        config[D.C_MAP_KIND] = 1
    capacity = opts["galley_capacity"]
    if capacity not in (4, 5):
        raise ValueError(f"galley_capacity must be 5 (spec, A-01) or 4 (the seed's literal "
                         f"text), got {capacity!r}")
    config[D.C_CAPACITY] = capacity
    for name, slot in _FLAGS:
        if not isinstance(opts[name], bool | np.bool_):
            raise ValueError(f"{name} must be True or False, got {opts[name]!r}")
        config[slot] = int(opts[name])
    if opts["close_ports"] not in ("random", "choose"):             # SE-12.3.3
        raise ValueError(f"close_ports must be 'random' or 'choose', got {opts['close_ports']!r}")
    config[D.C_CLOSE_CHOOSE] = int(opts["close_ports"] == "choose")
    supply = list(opts["goods_supply"])
    if len(supply) != D.NUM_GOODS or not all(isinstance(v, int | np.integer) and 0 <= v <= 99
                                             for v in supply):
        raise ValueError(f"goods_supply needs {D.NUM_GOODS} counts 0..99 "
                         f"({', '.join(D.GOOD_NAMES)}), got {supply!r}")
    config[D.C_SUPPLY0:D.C_SUPPLY0 + D.NUM_GOODS] = supply
    remember_names(parsed, config)
    return config


__all__ = ["MapError", "make_config"]
