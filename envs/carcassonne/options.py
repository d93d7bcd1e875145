"""Rule options of Carcassonne (spec §15) -> the config block stored in the state.

Every option is checked here, when the env is built, with one clear ``ValueError``
(``core.options``): yes/no options take only ``True``/``False``, choices only their
names, and ``max_decisions`` an integer in 1..178 (``data.MAX_DECISIONS``: the most
decisions a complete game holds, so the default never cuts a full game; a smaller value
ends the game early as a truncation).
"""

from __future__ import annotations

import numpy as np

from ..core.options import check_bool, check_choice, check_int, check_known
from . import data as D

_CHOICES = {
    "farm_scoring": D.FARM_RULES,
    "small_city_rule": D.SMALL_CITY_RULES,
    "ic_tjunction_inn": D.IC_INN_RULES,
    "unplaceable": ("remove",),
    "placement_layout": D.PLACEMENT_LAYOUTS,
}
_FLAGS = ("expansion_inns_cathedrals", "farmers", "auto_pass_meeple", "dedupe_rotations")
DEFAULT_OPTIONS = D.DEFAULT_OPTIONS


def make_config(**options) -> np.ndarray:
    """Validate rule options (defaults in ``data.DEFAULT_OPTIONS``) into the config block."""
    check_known("Carcassonne", options, D.DEFAULT_OPTIONS)
    opts = {**D.DEFAULT_OPTIONS, **options}
    flags = {name: check_bool(name, opts[name]) for name in _FLAGS}
    for name, choices in _CHOICES.items():
        check_choice(name, opts[name], choices)
    cap = check_int("max_decisions", opts["max_decisions"], 1, D.MAX_DECISIONS)
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)
    base = D.HEADER_SIZE
    config[D.C_EXPANSION - base] = int(flags["expansion_inns_cathedrals"])
    config[D.C_FARMERS - base] = int(flags["farmers"])
    config[D.C_FARM_RULE - base] = D.FARM_RULES.index(opts["farm_scoring"])
    config[D.C_SMALL_CITY - base] = D.SMALL_CITY_RULES.index(opts["small_city_rule"])
    config[D.C_IC_INN - base] = D.IC_INN_RULES.index(opts["ic_tjunction_inn"])
    config[D.C_AUTO_PASS - base] = int(flags["auto_pass_meeple"])
    config[D.C_DEDUPE - base] = int(flags["dedupe_rotations"])
    config[D.C_LAYOUT - base] = D.PLACEMENT_LAYOUTS.index(opts["placement_layout"])
    config[D.C_MAX_DECISIONS - base] = cap
    return config


def make_config_for(layout: str):
    """``make_config`` of one action layout's GameSpec: its default layout is ``layout``,
    and the other layout is refused (its masks would not fit that spec's action count)."""

    def make(**options) -> np.ndarray:
        chosen = options.get("placement_layout", layout)
        if chosen != layout and isinstance(chosen, str) and chosen in D.PLACEMENT_LAYOUTS:
            sizes = [D.num_actions_of(D.PLACEMENT_LAYOUTS.index(name)) for name in (chosen, layout)]
            raise ValueError(
                f"placement_layout={chosen!r} has {sizes[0]:,} actions, this spec "
                f"{sizes[1]:,}: use meeplezoo.envs.carcassonne.spec_for({chosen!r}) "
                f"(an env made with that option picks it itself)")
        return make_config(**{**options, "placement_layout": chosen})

    make.__doc__ = make_config.__doc__
    return make


def check_player_count(num_players: int, config: np.ndarray) -> None:
    """CA-2.5 / EX-29: six players need the sixth colour of Inns & Cathedrals."""
    if num_players > D.MAX_PLAYERS_BASE and not config[D.C_EXPANSION - D.HEADER_SIZE]:
        raise ValueError(
            f"carcassonne without Inns & Cathedrals is for 2-{D.MAX_PLAYERS_BASE} players, "
            f"got num_players={num_players} (the 6th colour comes with the expansion)"
        )
