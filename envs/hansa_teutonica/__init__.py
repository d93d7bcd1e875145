"""Hansa Teutonica: trade routes, Kontors and networks in the Hanseatic League (2-5 players)."""

from .env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
