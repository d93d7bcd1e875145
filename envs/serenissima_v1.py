"""``from meeplezoo.envs import serenissima_v1`` (PettingZoo's versioned-module style)."""

from .serenissima.env_v1 import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
