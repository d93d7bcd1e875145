"""Carcassonne (base game, 3rd edition) with Inns & Cathedrals, 2-6 players."""

from .env import GRID_SPEC, SPEC, env, raw_env, spec_for

__all__ = ["GRID_SPEC", "SPEC", "env", "raw_env", "spec_for"]
