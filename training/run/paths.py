"""Where a training run lives: the plumbing every trainer
(PPO, AlphaZero-style, the warm start from the search) and the tools that read their runs
share, so that none of them takes it from another trainer's loop."""

from __future__ import annotations

from pathlib import Path


def run_path(options) -> Path:
    """``<run-dir>/<run-name>``, the name by default ``<game>_<players>p_seed<seed>``."""
    name = options.run_name or f"{options.game}_{options.players}p_seed{options.seed}"
    return Path(options.run_dir) / name
