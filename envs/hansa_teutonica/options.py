"""Rule options of Hansa Teutonica -> the config block stored in the state.

Options (spec §13 ambiguities; defaults are the spec's recommendations):

* ``two_player_regions`` (False): the seed's 2-player variant with the pawn (HT-11).
* ``regions``: the region table for that variant, as a dict ``{"borders": [[route ids]
  x 11], "adjacent": [[region ids] x 11]}`` or a path to such a JSON file.  The default is
  spec §12.6, DERIVED AND UNVERIFIED against the printed board.
* ``remove3_opponents_only`` (False): A-1.
* ``tie_break`` ("shared" | "big_box"): A-15.
* ``max_decisions`` (20,000): HT-9.5, the game is cut off after this many decisions
  (``truncated`` in the state; a stalled game can otherwise never end).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import data as D

DEFAULT_OPTIONS = {
    "two_player_regions": False,
    "regions": None,
    "remove3_opponents_only": False,
    "tie_break": "shared",
    "max_decisions": D.DEFAULT_MAX_DECISIONS,
}


def load_regions(regions) -> tuple[list[list[int]], list[list[int]]]:
    """Validate a region table (dict or JSON path); returns (borders, adjacent)."""
    if regions is None:
        return [list(r) for r in D.DEFAULT_REGION_ROUTES], [list(a) for a in D.DEFAULT_REGION_ADJ]
    if isinstance(regions, str | Path):
        try:
            regions = json.loads(Path(regions).read_text())
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"cannot read the region file {regions!r}: {err}") from None
    if not isinstance(regions, dict) or set(regions) != {"borders", "adjacent"}:
        raise ValueError("regions must be a dict with exactly the keys 'borders' and 'adjacent'")
    borders, adjacent = regions["borders"], regions["adjacent"]
    if len(borders) != D.NUM_REGIONS or len(adjacent) != D.NUM_REGIONS:
        raise ValueError(f"regions need {D.NUM_REGIONS} entries in 'borders' and 'adjacent'")
    for g, routes in enumerate(borders):
        bad = [r for r in routes if not (isinstance(r, int) and 0 <= r < D.ROUTES_ON_SIDE[0])]
        if bad:
            raise ValueError(
                f"region {g}: border routes {bad} are not routes 0..31 of the 2-3 side")
    for g, near in enumerate(adjacent):
        for h in near:
            if not (isinstance(h, int) and 0 <= h < D.NUM_REGIONS) or h == g:
                raise ValueError(f"region {g}: adjacent region {h!r} is not another region")
            if g not in adjacent[h]:
                raise ValueError(f"region adjacency must be symmetric ({g} -> {h} but not back)")
    return [list(r) for r in borders], [list(a) for a in adjacent]


def make_config(**options) -> np.ndarray:
    unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
    if unknown:
        raise ValueError(
            f"unknown Hansa Teutonica option(s) {unknown}; known: {sorted(DEFAULT_OPTIONS)}"
        )
    opts = {**DEFAULT_OPTIONS, **options}
    if opts["tie_break"] not in ("shared", "big_box"):
        raise ValueError(f"tie_break must be 'shared' or 'big_box', got {opts['tie_break']!r}")
    cap = opts["max_decisions"]
    if not isinstance(cap, int | np.integer) or cap < 100:
        raise ValueError(f"max_decisions must be an integer >= 100, got {cap!r}")
    borders, adjacent = load_regions(opts["regions"])
    config = np.zeros(D.CONFIG_SIZE, dtype=np.int64)
    at = D.CONFIG_START
    config[D.C_REGIONS_ON - at] = 1 if opts["two_player_regions"] else 0
    config[D.C_REMOVE3_OPP - at] = 1 if opts["remove3_opponents_only"] else 0
    config[D.C_TIE_BREAK - at] = 1 if opts["tie_break"] == "big_box" else 0
    config[D.C_MAX_DECISIONS - at] = int(cap)
    for g in range(D.NUM_REGIONS):
        config[D.C_REGION_ROUTES - at + g] = sum(1 << r for r in set(borders[g]))
        config[D.C_REGION_ADJ - at + g] = sum(1 << h for h in set(adjacent[g]))
    return config
