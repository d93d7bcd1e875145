"""Which network (or fitted value) an agent spec plays, as the sha256 of its file.

``az:default`` names whatever bot the package ships today, and ``az:runs/x/checkpoint.pt``
whatever a run last wrote there: the same name can be another player tomorrow.  Results
that outlive a session (the arena's resumable records, a ladder's anchors) keep these
fingerprints, so a re-shipped bot or a retrained checkpoint is never scored with the games
of the one before it: the arena plays it again, and a ladder refuses to rate with it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path

from meeplezoo.envs.core.files import FileRefused, read_bytes


def bot_fingerprint(agent: str, game: str) -> str | None:
    """The sha256 of the checkpoint an ``az:`` / ``ppo:`` spec loads: the shipped bot of
    ``az:default...`` / ``ppo:default...``, or the file an ``az:PATH`` / ``ppo:PATH`` names;
    of the weight file an ``mcts:N,leaf=fitted[:source]`` search reads (a refitted file is
    another player too); None for any other agent (a plain search, a hand-written bot) or
    where no file is found."""
    from meeplezoo.agents.az.agent import shipped_checkpoint
    from meeplezoo.agents.ppo.agent import shipped_policy
    from meeplezoo.agents.shipped import shipped_name

    kind, _, arguments = agent.partition(":")
    if kind == "mcts":
        return _fit_fingerprint(arguments, game)
    if kind not in ("az", "ppo"):
        return None
    first = arguments.split(",")[0]
    shipped = shipped_name(first)
    if shipped is not None:
        try:
            path = (shipped_checkpoint if kind == "az" else shipped_policy)(game, *shipped)
        except ValueError:
            return None
    else:
        path = Path(first)
    return _digest(path, "checkpoint")


def _digest(path: Path, kind: str) -> str | None:
    """The sha256 of a regular file (read bounded, ``envs/core/files.py``); None for a
    path that is no such file: making the agent then says why in one line."""
    try:
        return hashlib.sha256(read_bytes(path, kind)).hexdigest()
    except FileRefused:
        return None


def _fit_fingerprint(arguments: str, game: str) -> str | None:
    """The sha256 of the fitted-value file an ``mcts:`` spec's ``leaf=fitted`` reads."""
    from meeplezoo.agents.fitted_values import fit_path

    for option in arguments.split(",")[1:]:
        key, _, value = option.partition("=")
        kind, _, source = value.partition(":")
        if key == "leaf" and kind == "fitted":
            try:
                path = fit_path(game, source)
            except ValueError:
                return None
            return _digest(path, "fitted-value")
    return None


def fingerprints(agents: Iterable[str], game: str) -> dict[str, str]:
    """``{agent: sha256}`` for the agents that load a checkpoint or a fitted value."""
    return {agent: digest for agent in dict.fromkeys(agents)
            if (digest := bot_fingerprint(agent, game)) is not None}


def seated_bots(seats: Sequence[str], prints: dict[str, str]) -> dict[str, str]:
    """The fingerprints of the checkpoint agents among ``seats``."""
    return {agent: prints[agent] for agent in sorted(set(seats)) if agent in prints}


def with_fingerprints(job: dict, prints: dict[str, str]) -> dict:
    """``job`` with its seated bots' fingerprints (field ``bots``, copied into the game's
    record); a job without a checkpoint agent stays as it was, so the records of searches
    and hand-written bots keep their old form."""
    bots = seated_bots(job["seats"], prints)
    return {**job, "bots": bots} if bots else job
