# ``from meeplezoo.envs import hansa_v0`` (PettingZoo's versioned-module style).

import sys

from .hansa import DEFAULT_BOARD, SPEC, BoardError, env, generate_board, load_board, raw_env

__all__ = ["DEFAULT_BOARD", "SPEC", "BoardError", "env", "generate_board", "load_board",
           "raw_env"]

# help() on this module shows the game's page, written once as its env module's docstring.
__doc__ = sys.modules[raw_env.__module__].__doc__
