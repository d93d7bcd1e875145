"""``import meeplezoo.envs.hansa_teutonica_v0`` (PettingZoo's versioned-module style)."""

from .hansa_teutonica.env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
