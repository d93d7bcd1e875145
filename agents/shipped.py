"""Where the bots that ship with the package live, and the clear error when one is missing.

``agents/az/bots/<game>.pt`` is ``az:default`` and ``agents/ppo/bots/<game>.pt`` is
``ppo:default`` (trained at 2 seats); ``<game>_<N>p.pt`` is ``...:default<N>p``.  Both
are written by ``python -m meeplezoo.training.ship``.
"""

from __future__ import annotations

import re
from pathlib import Path


def shipped_players(name: str) -> int | None:
    """The seats of the shipped bot an agent spec names: 2 for ``default``, N for
    ``default<N>p``; None when ``name`` is a checkpoint path instead."""
    match = re.fullmatch(r"default(?:([2-6])p)?", name)
    return None if match is None else int(match[1] or 2)


def shipped_bot(folder: Path, game: str, players: int, method: str, prefix: str) -> Path:
    """The checkpoint of ``game``'s bot trained at ``players`` seats in ``folder``, or a
    ValueError that lists what does ship (``method`` names it: "AlphaZero", "PPO")."""
    path = folder / (f"{game}.pt" if players == 2 else f"{game}_{players}p.pt")
    if not path.is_file():
        shipped = sorted(p.stem for p in folder.glob("*.pt")) if folder.is_dir() else []
        seats = "" if players == 2 else f" trained at {players} players"
        raise ValueError(f"no shipped {method} bot{seats} for {game}; shipped: "
                         f"{', '.join(shipped) or 'none yet'} (or give {prefix}:<checkpoint>)")
    return path
