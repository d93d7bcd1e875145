"""``from meeplezoo.envs import carcassonne_v1`` (PettingZoo's versioned-module style)."""

from .carcassonne.env_v1 import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
