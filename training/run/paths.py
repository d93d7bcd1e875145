"""Where a training run lives and what game it trains: the plumbing every trainer
(PPO, AlphaZero-style, the warm start from the search) and the tools that read their runs
share, so that none of them takes it from another trainer's loop."""

from __future__ import annotations

from pathlib import Path

from meeplezoo.envs import names


def canonical_game(name: str) -> str:
    """``saint_malo`` -> ``saint_malo_v0``; a registered name is returned as is."""
    if name in names():
        return name
    versions = sorted(n for n in names() if n.rsplit("_v", 1)[0] == name)
    if not versions:
        raise ValueError(f"unknown game {name!r}; available: {', '.join(names())}")
    return versions[-1]


def run_path(options) -> Path:
    """``<run-dir>/<run-name>``, the name by default ``<game>_<players>p_seed<seed>``."""
    name = options.run_name or f"{options.game}_{options.players}p_seed{options.seed}"
    return Path(options.run_dir) / name
