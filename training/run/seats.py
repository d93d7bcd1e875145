"""The seat counts a run trains at, read the same way from a run's options and from the
options a checkpoint saved: ``--seat-counts`` where given, else ``--players`` alone."""

from __future__ import annotations


def trained_counts(options) -> tuple[int, ...]:
    """``seat_counts`` (one run at several counts), else ``(players,)``; ``options`` is a
    trainer's options or the dict a checkpoint saved (one without either: two players)."""
    read = options.get if isinstance(options, dict) else \
        lambda name, default=None: getattr(options, name, default)
    return tuple(read("seat_counts", None) or ()) or (read("players", 2),)
