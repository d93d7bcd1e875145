"""Serenissima, version 1: ``serenissima_v0``'s game with two legal-move readings fixed.

| Import             | ``from meeplezoo.envs import serenissima_v1``                          |
|--------------------|------------------------------------------------------------------------|
| Actions            | Discrete(395), masked (as v0)                                          |
| Players            | 2-4 (``player_0`` .. ``player_3``)                                    |
| Observation        | dict: ``observation`` float32[2423], ``action_mask`` int8[395] (as v0) |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin``   |
| Chance             | Doge cards, battle and fort dice, closed ports (seeded, explicit)      |

Everything is v0's (``env.py``: map, options, actions, notation, observation, state
layout, seeding) except two sets of legal moves, where v1 follows the spec:

* **Special investment (SE-10.1, SE-7.3, A-23).**  A player with fewer than two galleys
  may buy a second galley while the first still waits for its sailor, whenever he can
  still pay for every sailor the unmanned galleys need (a ducat and a sailor from his
  supply each).  v0 masks the second purchase until the first galley is manned.  The
  Investment still cannot end while a bought galley has no sailor, and any spending that
  would leave a waiting galley unpayable stays masked.
* **Load (SE-6.2).**  A Load step ends only when the player ends it (or his active galley
  sinks).  v0 also ends it after 40 micro-actions (``data.MAX_LOAD_STEPS``), an engine
  guard, not a rule.  v1 needs none: the decision cap (``max_decisions``, default 5,000,
  a PettingZoo truncation) already ends every game, and a policy that shuffles sailors
  forever meets that cap.  Measured on v1 (placeholder map): the longest of 200 uniform
  random games per player count took 446 decisions (4 players), greedy self-play 611,
  always-first/always-last policies end by the rules; no game came near the cap.  The
  counter ``a_load_steps`` still exists (it saturates at 40) and limits nothing.

The state carries its rules (the field ``g_rules``: 0 for v0, 1 for v1), so a saved state
loads only into the version that made it, and the shared kernels play either version.
The same seed and moves play the same game as v0 until a move only one version allows.

Bots: the hand-written ``greedy``, the tuned ``mcts`` settings and the leaf values
(``leaf=heuristic``, ``leaf=fitted``, ``leaf=fitted:gen``) read the state, not the
rules version, and are v0's (``envs/versions.py`` ``TABLES_FROM``); the fitted leaves
were fitted on v0 games.  The shipped networks (``az:default``, ``ppo:default``) and the
ladders were trained and measured on v0 and are refused here (``az:`` and ``ppo:`` check
the game a checkpoint was trained on); play them on ``serenissima_v0``.

Version history: v0, first release; v1, the special investment may buy a second galley
before manning the first, and no cut of the Load step.
"""

from __future__ import annotations

import dataclasses

from ..core.game import env_metadata
from ..core.wrappers import make_env_factory
from . import rules_v1
from .data import RULES_V1
from .env import SPEC as V0_SPEC
from .env import raw_env as v0_raw_env
from .validate import validate_state


def validate_state_v1(state) -> None:
    """``validate.validate_state`` for a v1 state (its ``g_rules`` must say v1)."""
    validate_state(state, RULES_V1)


SPEC = dataclasses.replace(
    V0_SPEC, name="serenissima_v1", validate_state=validate_state_v1,
    kernels={**V0_SPEC.kernels, "init_state": rules_v1.init_state,
             "env_reset": rules_v1.env_reset})


class raw_env(v0_raw_env):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = env_metadata(SPEC.name)


env = make_env_factory(raw_env)
