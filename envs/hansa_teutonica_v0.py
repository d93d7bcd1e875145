# ``import meeplezoo.envs.hansa_teutonica_v0`` (PettingZoo's versioned-module style).

import sys

from .hansa_teutonica.env import SPEC, env, raw_env
from .hansa_teutonica.options import BoardError

__all__ = ["SPEC", "BoardError", "env", "raw_env"]

# help() on this module shows the game's page, written once as its env module's docstring.
__doc__ = sys.modules[raw_env.__module__].__doc__
