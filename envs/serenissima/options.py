"""Rule options, the map read from its source (``read_map``), and both -> the config block
stored at the front of every state.

Every option is checked here, at construction, with one clear ``ValueError`` (a bad map
with ``MapError``, a ``ValueError`` too), so no bad value reaches a kernel:

* ``map``: ``"placeholder"`` (spec Appendix A, a reconstruction), ``"generated:<seed>"``,
  a JSON path or a dict (schema in ``maps.py``);
* ``galley_capacity`` 5 (A-01; 4 = the seed's literal text);
* ``block_in_start_zone`` False (A-08: True adds sale and claim blocks in the start zone;
  a movement block never happens there), ``sell_after_breaking_block`` False (A-09),
  ``new_galley_acts_this_round`` True (A-21), ``hidden_money`` False (SE-4.1.7): True or
  False only;
* ``close_ports`` ``"random"`` (chance) or ``"choose"`` (SE-12.3.3);
* ``goods_supply`` six counts 0..99 (SE-2.2.1; wood, stone, marble, wine, gold, spices);
* ``max_decisions`` (5,000; 100..1,000,000): the engine's decision cap, not a rule.  A game
  reaching it ends as a PettingZoo truncation, scored by the ducats at the cut.  The rules
  end every game (SE-11.1); the longest measured games are 480 decisions (uniform random,
  4 players) and 621 (greedy self-play), so the default is a safety net no real game meets.
"""

from __future__ import annotations

import reprlib
from pathlib import Path

import numpy as np

from ..core.files import FileRefused, read_json
from ..core.options import check_bool, check_choice, check_int, check_int_sequence, check_known
from . import data as D
from .mapgen import generate_map
from .maps import (
    PLACEHOLDER_ID,
    PLACEHOLDER_MAP,
    MapError,
    map_to_config,
    remember_names,
    validate_map,
)

DEFAULT_OPTIONS = D.DEFAULT_OPTIONS
_FLAGS = (("block_in_start_zone", D.C_BLOCK_IN_START),
          ("sell_after_breaking_block", D.C_SELL_AFTER_BREAK),
          ("new_galley_acts_this_round", D.C_NEW_ACTS), ("hidden_money", D.C_HIDDEN_MONEY))


def read_map(source) -> dict:
    """A map dict from a dict, a JSON path, ``"placeholder"`` or ``"generated:<seed>"``.
    Anything wrong with the source (a missing or unreadable file, bytes that are not
    UTF-8, text that is not JSON, nesting too deep for the parser, a number too long to
    convert) is a :class:`MapError`, never a foreign exception."""
    if isinstance(source, dict):
        return source
    if isinstance(source, str | Path):
        text = str(source)
        if text == "placeholder":
            return PLACEHOLDER_MAP
        if text.startswith("generated:"):
            return _generated(text)
        try:                            # a regular file, bounded, shallow JSON
            return read_json(text, "map")
        except FileRefused as err:
            raise MapError(f"map file: {err}") from None
    raise MapError(f"map must be a dict, a JSON path, 'placeholder' or 'generated:<seed>', "
                   f"got {type(source).__name__}")


def _generated(text: str) -> dict:
    digits = text.split(":", 1)[1]
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        raise MapError(f"map {reprlib.repr(text)}: after 'generated:' write a seed (an "
                       "integer 0..10**18), a range '<a>-<b>' or a split ('train', 'test')")
    return generate_map(int(digits))


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults ``data.DEFAULT_OPTIONS``) into the config block."""
    check_known("Serenissima", options, D.DEFAULT_OPTIONS)
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
    config[D.C_CAPACITY] = check_int("galley_capacity", opts["galley_capacity"], 4, 5)
    for name, slot in _FLAGS:
        config[slot] = int(check_bool(name, opts[name]))
    close = check_choice("close_ports", opts["close_ports"], ("random", "choose"))  # SE-12.3.3
    config[D.C_CLOSE_CHOOSE] = int(close == "choose")
    config[D.C_SUPPLY0:D.C_SUPPLY0 + D.NUM_GOODS] = check_int_sequence(
        "goods_supply", opts["goods_supply"], D.NUM_GOODS, 0, 99)               # SE-2.2.1
    config[D.C_MAX_DECISIONS] = check_int("max_decisions", opts["max_decisions"],
                                          D.MIN_MAX_DECISIONS, D.MAX_MAX_DECISIONS)
    remember_names(parsed, config)
    return config


__all__ = ["DEFAULT_OPTIONS", "MapError", "make_config", "read_map"]
