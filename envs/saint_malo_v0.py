"""``from meeplezoo.envs import saint_malo_v0`` (PettingZoo's versioned-module style)."""

from .saint_malo.env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
