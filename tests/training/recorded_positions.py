"""Shared by the tests of ``training.expert`` and the PPO warm start: put a recorded
position (a state row of a positions file) into a live env."""

from __future__ import annotations


def put(env, state) -> None:
    """Set a recorded position into ``env`` (the env's own mask and seat follow it)."""
    env.unwrapped.state[:] = state
    env.unwrapped._refresh_mask()
    env.unwrapped._sync_turn()
