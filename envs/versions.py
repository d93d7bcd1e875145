"""Registry names that are versions of one game, and the tables they share.

A new ``<game>_vN`` that changes only what a learner sees (the observation) keeps the
rules, state, actions, notation and seeds of the version it follows (``SAME_RULES``).  A
new version that corrects a few legal moves (``TABLES_FROM``) keeps the state layout,
actions, notation and observation, but plays other rules; its states say which rules
they play, and each version's own checks refuse the other's states.

Everything keyed by the rules rather than by the observation (the hand-written bots,
the search's tuned settings and leaf values, benchmark hooks) is listed once, under the
oldest name, and looked up through :func:`rules_name`, so a new version needs no second
copy of those tables.  A ``TABLES_FROM`` version plays those tables as they are: they
read the state and its legal moves, and were tuned or fitted on the older rules (its
module says so).  What depends on how a bot was trained or measured (trained networks,
ladders of trained bots) stays keyed by the exact name.

No imports here: the core's state loader and the agent registry both read this table.
"""

from __future__ import annotations

# name -> the name whose rules, state and actions it shares (its tables' key)
SAME_RULES = {"carcassonne_v1": "carcassonne_v0"}

# name -> the older version whose tables it plays, though a few legal moves differ
# (serenissima_v1: the spec's special investment and an uncut Load step, envs/serenissima/env_v1.py)
TABLES_FROM = {"serenissima_v1": "serenissima_v0"}


def rules_name(name: str) -> str:
    """The registry name under which ``name``'s rules-keyed tables are listed: ``name``
    itself for most games, the version it copies (``SAME_RULES``) or inherits its tables
    from (``TABLES_FROM``).  Two names with the same ``rules_name`` share bots and saved
    states' format; whether their rules are identical is :func:`same_rules`."""
    return SAME_RULES.get(name, TABLES_FROM.get(name, name))


def same_rules(a: str, b: str) -> bool:
    """Whether registry names ``a`` and ``b`` play identical rules."""
    return SAME_RULES.get(a, a) == SAME_RULES.get(b, b)
