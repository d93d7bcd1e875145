"""Saint Malo: roll the dice and build your city (2-5 players)."""

from .env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
