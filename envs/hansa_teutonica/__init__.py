"""Hansa Teutonica: trade routes, Kontors and networks in the Hanseatic League (2-5 players)."""

from .env import SPEC, env, raw_env
from .options import BoardError

__all__ = ["SPEC", "BoardError", "env", "raw_env"]
