"""Leaf values fitted to game results: which games have one, and their weight files.

A fitted leaf (e.g. ``envs/carcassonne/fitted_value.py``) is a compiled
``leaf_value(state, weights, out)`` whose weights come from a JSON file written by
``python -m meeplezoo.training.value.fit``.  ``mcts:N,leaf=fitted`` plays the file that
ships for the game (``agents/values/<rules>.json``), ``leaf=fitted:gen`` the one fitted on
generated boards where it ships (``<rules>_gen.json``); ``leaf=fitted:<file.json>`` plays
another.  A file is data, never code: it is parsed as JSON and every field checked
(format, the game's rules, the term names in order, finite numbers, shapes in range)
before a search reads it, so a file of another game, another term layout or an edited
number is refused with one line.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np

from meeplezoo.envs.core.files import read_json
from meeplezoo.envs.versions import rules_name

FORMAT, VERSION = "meeplezoo-fitted-value", 1
SHIPPED_FOLDER = Path(__file__).parent / "values"
# Games with a fitted leaf, by rules name: the module with TERMS, SHAPES, SHAPE_GRID,
# position_terms and fitted_value.
FITTED_MODULES = {"carcassonne_v0": "meeplezoo.envs.carcassonne.fitted_value",
                  "serenissima_v0": "meeplezoo.envs.serenissima.fitted_value"}
# Bounds a shape must be in (the decays are chances; the reach is a number of tiles).
SHAPE_BOUNDS = {"city_decay": (0.0, 1.0), "road_decay": (0.0, 1.0), "reach": (1.0, 100.0)}
# The largest weight a fit may hold.  The shipped fits' weights are below 5 (a logistic
# regression on terms of a few points); 1,000 leaves room for other scalings, while a
# weight of 1e308 would make every leaf infinite and every value in the tree NaN.
MAX_WEIGHT = 1_000.0


def fitted_module(game: str):
    """The module of ``game``'s fitted leaf, or one ValueError naming those that exist."""
    name = FITTED_MODULES.get(rules_name(game))
    if name is None:
        raise ValueError(f"{game} has no fitted leaf value; games with one: "
                         f"{', '.join(sorted(FITTED_MODULES))}")
    return importlib.import_module(name)


def shipped_path(game: str, variant: str = "") -> Path:
    """The fit that ships for ``game``: ``<rules>.json``, or ``<rules>_<variant>.json`` for
    a variant (``gen``: fitted on generated boards)."""
    return SHIPPED_FOLDER / f"{rules_name(game)}{'_' + variant if variant else ''}.json"


def read_fit(path: str | Path, game: str) -> dict:
    """The checked record of a weight file for ``game`` (module docstring), read through
    ``envs/core/files.py`` (a regular file of at most 1 MiB, shallow JSON)."""
    module = fitted_module(game)
    record = read_json(path, "fitted-value")
    if not isinstance(record, dict) or record.get("format") != FORMAT or \
            type(record.get("version")) is not int or record["version"] != VERSION:
        raise ValueError(f"{path}: not a {FORMAT} file of version {VERSION}")
    if record.get("rules") != rules_name(game):     # never echo what a file holds
        raise ValueError(f"{path} was fitted for another game, not for {game}")
    weights, shape = record.get("weights"), record.get("shape")
    if not isinstance(weights, dict) or list(weights) != list(module.TERMS):
        raise ValueError(f"{path}: weights must name the terms {list(module.TERMS)} in order")
    if not isinstance(shape, dict) or list(shape) != list(module.SHAPES):
        raise ValueError(f"{path}: shape must name {list(module.SHAPES)} in order")
    for name, value in [*weights.items(), *shape.items()]:
        # The comparison also refuses NaN, infinities and integers too long for a float.
        if isinstance(value, bool) or not isinstance(value, int | float) or \
                not -MAX_WEIGHT <= value <= MAX_WEIGHT:
            raise ValueError(f"{path}: {name} must be a number in -{MAX_WEIGHT:,.0f}.."
                             f"{MAX_WEIGHT:,.0f}")
    for name, (low, high) in SHAPE_BOUNDS.items():
        if name in shape and not low < shape[name] <= high:
            raise ValueError(f"{path}: {name} must be in ({low:g}, {high:g}]")
    return record


def weight_vector(record: dict) -> np.ndarray:
    """The leaf hook's ``weights``: the shape values, then the term weights, in order."""
    return np.array([*record["shape"].values(), *record["weights"].values()], np.float64)


def fit_path(game: str, source: str = "") -> Path:
    """The weight file of ``leaf=fitted`` (``source`` empty: the shipped file),
    ``leaf=fitted:gen`` (the shipped variant, ``agents/shipped.py``'s VARIANTS) or
    ``leaf=fitted:<file.json>``; a ValueError where no such fit ships."""
    from .shipped import VARIANTS

    if source and source not in VARIANTS:
        return Path(source)
    path = shipped_path(game, source)
    if not path.is_file():
        which = f"{source} " if source else ""
        raise ValueError(f"no {which}fitted leaf value ships for {game} "
                         f"(write leaf=fitted:<file.json>)")
    return path


def fitted_leaf(game: str, source: str = ""):
    """``(leaf_value, weights)`` for ``leaf=fitted[:source]`` (``fit_path``)."""
    module = fitted_module(game)
    return module.fitted_value, weight_vector(read_fit(fit_path(game, source), game))
