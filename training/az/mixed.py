"""Self-play at several seat counts at once, so one network learns every count a game
allows (``meeplezoo train --algo az --seat-counts 2 3 4``).

The network already plays any count: observations are padded to the game's most seats
and rotated so the seat to move comes first, and the value head has a value per seat
(``agents/az/network.py``).  What has to change is the games it learns from.  A lockstep
forest searches games of one count (its kernels read the count from the first root), so
:class:`MixedSelfPlay` keeps one :class:`~.selfplay.LockstepSelfPlay` per count, shares
``num_games`` and each iteration's moves among them in proportion, and hands the learner
one batch of rows; each row keeps its game's count (``players``), and the value loss
covers that row's seats only (``training/az/learner.py``).
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.contract import GameSpec
from meeplezoo.training.az.selfplay import BUFFER_FIELDS, LockstepSelfPlay


def games_per_count(num_games: int, counts: tuple[int, ...]) -> list[int]:
    """``num_games`` shared as evenly as it goes among ``counts`` (the first get the rest)."""
    base, rest = divmod(num_games, len(counts))
    return [base + (1 if k < rest else 0) for k in range(len(counts))]


class MixedSelfPlay:
    """One lockstep self-play per seat count, played as one (module docstring)."""

    def __init__(self, spec: GameSpec, seat_counts: tuple[int, ...], num_games: int,
                 seed: int, **settings):
        self.counts = tuple(int(n) for n in seat_counts)
        self.shares = games_per_count(num_games, self.counts)
        settings.pop("players", None)
        self.parts = [LockstepSelfPlay(spec, num_games=games, players=count,
                                       seed=seed + 7919 * k, **settings)
                      for k, (count, games) in enumerate(zip(self.counts, self.shares,
                                                             strict=True))]

    @property
    def games_finished(self) -> int:
        return sum(part.games_finished for part in self.parts)

    @property
    def moves_played(self) -> int:
        return sum(part.moves_played for part in self.parts)

    def set_lam(self, lam: float) -> None:
        for part in self.parts:
            part.set_lam(lam)

    def remember(self, network) -> None:
        for part in self.parts:
            part.remember(network)

    def play_moves(self, evaluator, moves: int | None = None) -> dict:
        """``moves`` moves shared among the counts as their games are (default: one per
        game); the rows of every game that ended, whatever its count."""
        total = sum(self.shares)
        rows = []
        for part, games in zip(self.parts, self.shares, strict=True):
            share = None if moves is None else max(1, round(int(moves) * games / total))
            played = part.play_moves(evaluator, share)
            if played:
                rows.append(played)
        return {name: np.concatenate([r[name] for r in rows]) for name in BUFFER_FIELDS} \
            if rows else {}


def make_selfplay(spec: GameSpec, settings: dict, seed: int):
    """The self-play the settings ask for: at several seat counts (``seat_counts`` of two
    or more) a :class:`MixedSelfPlay`, else one :class:`LockstepSelfPlay` at
    ``seat_counts``' one count or ``players``."""
    settings = dict(settings)
    counts = tuple(settings.pop("seat_counts", ()) or ())
    if len(counts) > 1:
        return MixedSelfPlay(spec, counts, seed=seed, **settings)
    if counts:
        settings["players"] = counts[0]
    return LockstepSelfPlay(spec, **settings, seed=seed)
