"""Rule options of Hansa -> the config block stored in the state (board included).

Every option is checked here, when the env is built, with one clear ``ValueError``
(``core.options``; a bad board gets ``BoardError``, a ``ValueError`` too): yes/no options
take only ``True``/``False``, choices only their names, and ``max_turns`` an integer in
1..10,000 (HS-10.3: nothing in the rules forces progress, so a game that stops drawing
from the stacks is cut off as a truncation after this many turns; 500 by default, about
5x the longest random game and 20x a greedy one, so it never cuts a game that progresses).
"""

from __future__ import annotations

import numpy as np

from ..core.options import check_bool, check_choice, check_int, check_known
from . import data as D
from .board import board_config, load_board

DEFAULT_OPTIONS = D.DEFAULT_OPTIONS


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults in ``data.DEFAULT_OPTIONS``) into the config block."""
    check_known("Hansa", options, D.DEFAULT_OPTIONS)
    opts = {**D.DEFAULT_OPTIONS, **options}
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)

    def put(slot: int, values) -> None:
        values = np.asarray(values, dtype=np.int64).ravel()
        config[slot - D.HEADER_SIZE:slot - D.HEADER_SIZE + values.size] = values

    for name, choices, slot in (("init_order", D.INIT_ORDERS, D.C_INIT_ORDER),
                                ("stack_sizes", D.STACK_SIZES, D.C_STACK_SIZES)):
        put(slot, choices.index(check_choice(name, opts[name], choices)))
    for name, slot in (("place_exact", D.C_PLACE_EXACT), ("sell_whole_colour", D.C_SELL_WHOLE)):
        put(slot, int(check_bool(name, opts[name])))
    put(D.C_MAX_TURNS, check_int("max_turns", opts["max_turns"], 1, D.MAX_TURNS_LIMIT))
    put(D.C_BOARD_KIND, board_config(load_board(opts["board"])))
    return config
