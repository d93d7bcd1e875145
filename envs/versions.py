"""Registry names that are versions of one game with the same rules.

A new ``<game>_vN`` that changes only what a learner sees (the observation) keeps the
rules, state, actions, notation and seeds of the version it follows.  Everything keyed by
the rules rather than by the observation (the hand-written bots, the search's tuned
settings and leaf values, benchmark hooks, saved states) is listed once, under the
oldest name, and looked up through :func:`rules_name`, so a new version needs no second
copy of those tables.  What depends on the observation (trained networks, ladders of
trained bots) stays keyed by the exact name.

No imports here: the core's state loader and the agent registry both read this table.
"""

from __future__ import annotations

# name -> the name whose rules, state and actions it shares (its tables' key)
SAME_RULES = {"carcassonne_v1": "carcassonne_v0"}


def rules_name(name: str) -> str:
    """The registry name whose rules ``name`` plays (``name`` itself for most games)."""
    return SAME_RULES.get(name, name)
