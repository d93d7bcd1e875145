"""Hansa: sail the shared ship around the Baltic, buy goods, build stalls, sell (2-4 players)."""

from .board import DEFAULT_BOARD, Board, BoardError, generate_board, load_board
from .env import SPEC, env, raw_env

__all__ = ["DEFAULT_BOARD", "SPEC", "Board", "BoardError", "env", "generate_board",
           "load_board", "raw_env"]
