"""MeepleZoo environments: ``make(name, **options)`` and ``names()``.

>>> from meeplezoo.envs import make
>>> env = make("saint_malo_v0", num_players=3)
"""

from __future__ import annotations

import importlib

from .core.state_io import StateFormatError

__all__ = ["StateFormatError", "__version__", "game_argument", "make", "names", "resolve_game",
           "spec"]


def _installed_version() -> str:
    """The installed distribution's version (pyproject.toml is its one source)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("meeplezoo")
    except PackageNotFoundError:                # run from a checkout that is not installed
        return "0+unknown"


__version__ = _installed_version()

_REGISTRY = {
    "saint_malo_v0": "meeplezoo.envs.saint_malo_v0",
    "hansa_teutonica_v0": "meeplezoo.envs.hansa_teutonica_v0",
    "carcassonne_v0": "meeplezoo.envs.carcassonne_v0",
    "carcassonne_v1": "meeplezoo.envs.carcassonne_v1",
    "hansa_v0": "meeplezoo.envs.hansa_v0",
    "serenissima_v0": "meeplezoo.envs.serenissima_v0",
    "serenissima_v1": "meeplezoo.envs.serenissima_v1",
}


def names() -> list[str]:
    """Registered environment names."""
    return sorted(_REGISTRY)


def resolve_game(name: str) -> str:
    """A registered env name, accepting a game's short name for its newest version:
    ``saint_malo`` -> ``saint_malo_v0``, ``carcassonne`` -> ``carcassonne_v1``."""
    known = names()
    if name in known:
        return name
    versions = sorted(n for n in known if n.rsplit("_v", 1)[0] == name)
    if versions:
        return versions[-1]
    raise ValueError(f"unknown game {name!r}; available: {', '.join(known)}")


def game_argument(name: str) -> str:
    """:func:`resolve_game` as an argparse ``type=``: every entry point takes ``hansa`` for
    ``hansa_v0`` as the CLI does, and a bad name is argparse's one-line error."""
    import argparse

    try:
        return resolve_game(name)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _module(name: str):
    if name not in _REGISTRY:
        raise ValueError(f"unknown environment {name!r}; available: {', '.join(names())}")
    return importlib.import_module(_REGISTRY[name])


def make(name: str, raw: bool = False, **options):
    """Create an env by name: ``make("saint_malo_v0", num_players=3, render_mode="ansi")``."""
    module = _module(name)
    return module.raw_env(**options) if raw else module.env(**options)


def spec(name: str):
    """The GameSpec (kernels, sizes, notation) of a registered game."""
    return _module(name).SPEC


def __getattr__(attr: str):
    if attr in _REGISTRY:
        return _module(attr)
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")
