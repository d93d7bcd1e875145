"""``import meeplezoo.envs.hansa_teutonica_v0`` (PettingZoo's versioned-module style)."""

from .hansa_teutonica.env import SPEC, env, raw_env
from .hansa_teutonica.options import BoardError

__all__ = ["SPEC", "BoardError", "env", "raw_env"]
