"""Carcassonne (base game, 3rd edition) with Inns & Cathedrals, 2-6 players."""

from .env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
