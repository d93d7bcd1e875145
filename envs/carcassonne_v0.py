# ``from meeplezoo.envs import carcassonne_v0`` (PettingZoo's versioned-module style).

import sys

from .carcassonne.env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]

# help() on this module shows the game's page, written once as its env module's docstring.
__doc__ = sys.modules[raw_env.__module__].__doc__
