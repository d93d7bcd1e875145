"""``from meeplezoo.envs import carcassonne_v0`` (PettingZoo's versioned-module style)."""

from .carcassonne.env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
