"""Rule options of Saint Malo -> the config block stored in the state (spec §16).

Every option is checked here, at construction, with one clear ``ValueError`` (the helpers
of ``core.options``), within the ranges of ``data.FIELD_BOUNDS`` so that a state saved
under any accepted options loads again:

* ``tower_rewards``: four ``(kind, amount)`` pairs for the sides N, E, S, W (SM-2.7, A-12);
  kind ``"coins"`` or ``"vp"`` pays ``amount`` (0..1000), kind ``"character"`` lets the
  player draw one character of level <= ``amount`` (1..5; the default N tower's 3 offers
  citizen, soldier, priest, architect and merchant, SM-7.3.2).
* ``start_crates``: (row, col) spaces of the pre-printed crates (SM-2.8, A-13); one on an
  outer space breaks that side from the start (SM-7.3.4).
* ``church_row_values``: six values 0..1000 for rows of length 0..5, the first 0 (SM-11.4).
* ``attack_strengths``: six strengths 0..1000 (SM-3.1); ``boxes_per_player`` 1..100 (SM-3.2).
* ``start_coins``, ``start_logs``: 0..1000 (SM-2.9, SM-2.10).
* ``dedupe_rerolls``: True / False (EC-21).
* ``max_decisions``: 1..10**7, default 3,000 (not a rule): the game is cut off, as a
  PettingZoo truncation, when this many decisions have been made; see ``data.DEFAULT_OPTIONS``
  for the measured game lengths behind the default.
"""

from __future__ import annotations

import numpy as np

from ..core.options import (
    check_bool,
    check_choice,
    check_int,
    check_int_sequence,
    check_known,
    check_pair_sequence,
)
from . import data as D

DEFAULT_OPTIONS = D.DEFAULT_OPTIONS


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults in ``data.DEFAULT_OPTIONS``) into the config block."""
    check_known("Saint Malo", options, D.DEFAULT_OPTIONS)
    opts = {**D.DEFAULT_OPTIONS, **options}
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)

    def put(slot: int, values) -> None:
        values = np.asarray(values, dtype=np.int64).ravel()
        config[slot - D.C_TOWER_KIND:slot - D.C_TOWER_KIND + values.size] = values

    rewards = check_pair_sequence("tower_rewards", opts["tower_rewards"])
    if len(rewards) != 4:
        raise ValueError("option tower_rewards needs one (kind, amount) per side N, E, S, W, "
                         f"got {len(rewards)}")
    for side, (kind, amount) in enumerate(rewards):
        kind = check_choice(f"tower_rewards[{side}] (a tower reward's kind)", kind,
                            sorted(D.REWARD_KIND_CODES))
        if kind == "character":
            # The amount is the highest level the player may draw (SM-7.3.2: 3 = level <= 3).
            amount = check_int(f"tower_rewards[{side}] character level", amount, 1, D.MAX_LEVEL)
        else:
            amount = check_int(f"tower_rewards[{side}] amount", amount, 0, D.MAX_OPTION_VALUE)
        put(D.C_TOWER_KIND + side, D.REWARD_KIND_CODES[kind])
        put(D.C_TOWER_AMOUNT + side, amount)
    crates = 0
    for r, c in check_pair_sequence("start_crates", opts["start_crates"]):
        r = check_int("start_crates row", r, 0, D.SIDE - 1)
        c = check_int("start_crates column", c, 0, D.SIDE - 1)
        if D.IS_TOWER[7 * r + c]:
            raise ValueError(f"option start_crates: ({r}, {c}) is a tower, not a space")
        crates |= 1 << (7 * r + c)
    put(D.C_START_CRATES, crates)
    values = check_int_sequence("church_row_values", opts["church_row_values"], 6, 0,
                                D.MAX_OPTION_VALUE)
    if values[0] != 0:
        raise ValueError("option church_row_values: the first value (no row) must be 0")
    put(D.C_CHURCH_T, values)
    put(D.C_STRENGTH, check_int_sequence("attack_strengths", opts["attack_strengths"], 6, 0,
                                         D.MAX_OPTION_VALUE))
    put(D.C_BOXES_PER_PLAYER, check_int("boxes_per_player", opts["boxes_per_player"], 1,
                                        D.MAX_BOXES_PER_PLAYER))
    put(D.C_START_COINS, check_int("start_coins", opts["start_coins"], 0, D.MAX_OPTION_VALUE))
    put(D.C_START_LOGS, check_int("start_logs", opts["start_logs"], 0, D.MAX_OPTION_VALUE))
    put(D.C_DEDUPE, int(check_bool("dedupe_rerolls", opts["dedupe_rerolls"])))
    put(D.C_MAX_DECISIONS, check_int("max_decisions", opts["max_decisions"], 1,
                                     D.MAX_DECISIONS_LIMIT))
    return config
