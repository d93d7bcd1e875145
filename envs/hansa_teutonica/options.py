"""Rule options of Hansa Teutonica -> the config block stored in the state.

Options (spec §13 ambiguities; defaults are the spec's recommendations), each checked at
construction with one clear ``ValueError`` (``envs/core/options.py``):

* ``two_player_regions`` (False): the seed's 2-player variant with the pawn (HT-11).
  ``True``/``False`` only.
* ``regions``: the region table for that variant, as a dict ``{"borders": [[route ids]
  x 11], "adjacent": [[region ids] x 11]}`` or a path to such a JSON file.  The default is
  spec §12.6, DERIVED AND UNVERIFIED against the printed board.  A table or file that
  cannot be used (not UTF-8, not JSON, nested too deeply, wrong types or ranges) raises
  :class:`BoardError`, a ``ValueError``.
* ``remove3_opponents_only`` (False): A-1.  ``True``/``False`` only.
* ``tie_break`` ("shared" | "big_box"): A-15.
* ``max_decisions`` (3,000; any integer 100..100,000,000): HT-9.5, the decision cap.  The
  game is cut off after this many decisions (chance events not counted), as a PettingZoo
  truncation (``truncated`` in the state).  Without a cap a game can stall forever.  The
  default is about 5 times the longest game of the heuristic policy (``rollout_policy``,
  the greedy agent): over 2,000 games per player count the longest was 318 / 359 / 464 /
  535 decisions with 2 / 3 / 4 / 5 players and 1,126 with ``two_player_regions`` (medians
  149 / 192 / 266 / 298 / 297).  Uniformly random play, which hardly ever finishes a game
  (medians 23,000-28,000 decisions, up to 67,000, and over 200,000 with the regions
  variant), is cut at 3,000, so a learner's first random-policy episodes stay short.
  Pass a larger value to let random games run to their natural end.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..core.files import FileRefused, read_json
from ..core.options import check_bool, check_choice, check_int, check_int_sequence, check_known
from . import data as D

DEFAULT_OPTIONS = {
    "two_player_regions": False,
    "regions": None,
    "remove3_opponents_only": False,
    "tie_break": "shared",
    "max_decisions": D.DEFAULT_MAX_DECISIONS,
}
MAX_REGION_FILE = 1_000_000       # bytes; a region table is a few hundred


class BoardError(ValueError):
    """A 2-player region table (the board's regions, HT-11) that cannot be used."""


def _read_region_file(path) -> object:
    """The JSON document in a region file (a regular file, bounded, shallow:
    ``envs/core/files.py``); every way it can be unreadable is a BoardError."""
    try:
        return read_json(path, "region", limit=MAX_REGION_FILE)
    except FileRefused as err:
        raise BoardError(f"region file: {err}") from None


def _id_lists(name: str, value, high: int, what: str) -> list[list[int]]:
    """11 lists of ids in 0..high (check_int_sequence's ValueError becomes BoardError)."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | np.ndarray):
        raise BoardError(f"regions[{name!r}] must be a list of {D.NUM_REGIONS} lists")
    if len(value) != D.NUM_REGIONS:
        raise BoardError(f"regions need {D.NUM_REGIONS} entries in {name!r}, got {len(value)}")
    out = []
    for g, ids in enumerate(value):
        try:
            out.append(check_int_sequence(f"regions[{name!r}][{g}]", ids, None, 0, high))
        except ValueError:
            raise BoardError(f"region {g}: {name} {ids!r} are not {what} 0..{high}") from None
    return out


def load_regions(regions) -> tuple[list[list[int]], list[list[int]]]:
    """Validate a region table (dict or JSON path); returns (borders, adjacent)."""
    if regions is None:
        return [list(r) for r in D.DEFAULT_REGION_ROUTES], [list(a) for a in D.DEFAULT_REGION_ADJ]
    if isinstance(regions, str | Path):
        regions = _read_region_file(regions)
    if not isinstance(regions, dict) or set(regions) != {"borders", "adjacent"}:
        raise BoardError("regions must be a dict with exactly the keys 'borders' and 'adjacent'")
    # Border routes are routes of the 2-3 side (0..31): the variant is for 2 players.
    borders = _id_lists("borders", regions["borders"], D.ROUTES_ON_SIDE[0] - 1,
                        "routes of the 2-3 side")
    adjacent = _id_lists("adjacent", regions["adjacent"], D.NUM_REGIONS - 1, "regions")
    for g, near in enumerate(adjacent):
        for h in near:
            if h == g:
                raise BoardError(f"region {g} is listed as adjacent to itself")
            if g not in adjacent[h]:
                raise BoardError(f"region adjacency must be symmetric ({g} -> {h} but not back)")
    return borders, adjacent


def make_config(**options) -> np.ndarray:
    check_known("Hansa Teutonica", options, DEFAULT_OPTIONS)
    opts = {**DEFAULT_OPTIONS, **options}
    regions_on = check_bool("two_player_regions", opts["two_player_regions"])
    remove3_opp = check_bool("remove3_opponents_only", opts["remove3_opponents_only"])
    tie_break = check_choice("tie_break", opts["tie_break"], ("shared", "big_box"))
    cap = check_int("max_decisions", opts["max_decisions"], D.MIN_DECISIONS, D.MAX_DECISIONS_LIMIT)
    borders, adjacent = load_regions(opts["regions"])
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)
    at = D.CONFIG_START
    config[D.C_REGIONS_ON - at] = int(regions_on)
    config[D.C_REMOVE3_OPP - at] = int(remove3_opp)
    config[D.C_TIE_BREAK - at] = int(tie_break == "big_box")
    config[D.C_MAX_DECISIONS - at] = cap
    for g in range(D.NUM_REGIONS):
        config[D.C_REGION_ROUTES - at + g] = sum(1 << r for r in set(borders[g]))
        config[D.C_REGION_ADJ - at + g] = sum(1 << h for h in set(adjacent[g]))
    return config
