"""Where the bots that ship with the package live, and the clear error when one is missing.

``agents/az/bots/<game>.pt`` is ``az:default`` and ``agents/ppo/bots/<game>.pt`` is
``ppo:default`` (trained at 2 seats); ``<game>_<N>p.pt`` is ``...:default<N>p``.  A
variant has its own name: ``<game>_gen.pt`` is ``az:gen``, the bot trained on generated
boards (``envs/core/boards.py``); ``<game>_all.pt`` is ``az:all``, one network trained by
self-play at every seat count the game allows, which plays at any of them.  All are written by
``python -m meeplezoo.training.shipping.ship``.
"""

from __future__ import annotations

import re
from pathlib import Path

# Shipped bots besides the default, by the name they play as: ``gen`` trained on generated
# boards, ``distilled`` a PPO policy distilled into the AlphaZero-style network, ``all`` one
# network for every seat count (``meeplezoo train --algo az --seat-counts``).
DISTILLED = "distilled"
ALL_SEATS = "all"
VARIANTS = ("gen", DISTILLED, ALL_SEATS)
AGENTS_DIR = Path(__file__).parent
# Where the package's own bots and fitted values lie: the only files a request to the
# browser server may make it read, unless its owner allows a folder (``--allow-files``).
SHIPPED_DATA = (AGENTS_DIR / "az" / "bots", AGENTS_DIR / "ppo" / "bots", AGENTS_DIR / "values")


def shipped_name(name: str) -> tuple[int, str] | None:
    """``(seats, variant)`` of the shipped bot an agent spec names: ``default`` (2, ""),
    ``default<N>p`` (N, ""), ``gen`` (2, "gen"), ``gen<N>p``; None for a checkpoint path."""
    match = re.fullmatch(rf"(default|{'|'.join(VARIANTS)})(?:([2-6])p)?", name)
    if match is None:
        return None
    return int(match[2] or 2), "" if match[1] == "default" else match[1]


def bot_stem(game: str, players: int = 2, variant: str = "") -> str:
    """A shipped bot's file stem: ``<game>[_<variant>][_<N>p]``."""
    return game + (f"_{variant}" if variant else "") + ("" if players == 2 else f"_{players}p")


def shipped_bot(folder: Path, game: str, players: int, method: str, prefix: str,
                variant: str = "") -> Path:
    """The checkpoint of ``game``'s bot trained at ``players`` seats in ``folder``, or a
    ValueError that lists what does ship (``method`` names it: "AlphaZero", "PPO")."""
    path = folder / f"{bot_stem(game, players, variant)}.pt"
    if not path.is_file():
        shipped = sorted(p.stem for p in folder.glob("*.pt")) if folder.is_dir() else []
        seats = "" if players == 2 else f" trained at {players} players"
        seats += f" ({variant})" if variant else ""
        raise ValueError(f"no shipped {method} bot{seats} for {game}; shipped: "
                         f"{', '.join(shipped) or 'none yet'} (or give {prefix}:<checkpoint>)")
    return path
