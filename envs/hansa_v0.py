"""``from meeplezoo.envs import hansa_v0`` (PettingZoo's versioned-module style)."""

from .hansa import DEFAULT_BOARD, SPEC, BoardError, env, generate_board, load_board, raw_env

__all__ = ["DEFAULT_BOARD", "SPEC", "BoardError", "env", "generate_board", "load_board",
           "raw_env"]
