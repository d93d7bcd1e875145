"""``from meeplezoo.envs import serenissima_v0`` (PettingZoo's versioned-module style)."""

from .serenissima.env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
