"""Carcassonne with Inns & Cathedrals, version 1: ``carcassonne_v0``'s game, a fixed observation.

| Import             | ``from meeplezoo.envs import carcassonne_v1``                        |
|--------------------|----------------------------------------------------------------------|
| Actions            | Discrete(737), masked: 720 placements + 17 meeple actions            |
|                    | (``placement_layout="grid"``: Discrete(131061), spec DEC-2)          |
| Players            | 2-6 (``player_0`` .. ``player_5``; 6 only with Inns & Cathedrals)    |
| Observation        | dict: ``observation`` float32[6773], ``action_mask`` int8[737]       |
| Observation shape  | 27 planes x 15 x 15 (as v0) + vector of 698                          |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin``   |
| Chance             | tile draws, by the env's seeded generator (``reset(seed=...)``)      |

Everything but the observation is ``carcassonne_v0``'s (``env.py``: rules, options,
actions, notation, state, seeding: the same seed and moves play the same game).  The
observation (``observe_v1.py``) is v0's with each frontier slot's column and row divided
by 14, so the window spans [0, 1] (far cells clipped to [-1, 2]), and the tile just
placed one-hot by type (41) and rotation (4) in the meeple phase.
``observe_v1.split_observation`` and ``observe_v1.slot_positions`` (slots back in window
cells) give the parts.

The state is v0's, game id included: a state saved by either version loads into the
other (``envs/versions.py``), and the bots that read only the state (greedy, MCTS) play
both.  Trained networks do not carry over: a v0 checkpoint is refused on v1.

Version history: v0 (its releases in ``env.py``); v1 (2026-12-04), v0's game with the
slot positions scaled and the placed tile one-hot in the observation.
"""

from __future__ import annotations

import dataclasses

from ..core.game import env_metadata
from ..core.wrappers import make_env_factory
from . import observe_v1
from .env import GRID_SPEC as V0_GRID_SPEC
from .env import SPEC as V0_SPEC
from .env import raw_env as v0_raw_env
from .env import spec_for as v0_spec_for
from .observe_v1 import OBS_SIZE_V1


def _with_v1_observation(spec):
    return dataclasses.replace(spec, name="carcassonne_v1", obs_size=OBS_SIZE_V1,
                               kernels={**spec.kernels, "observe": observe_v1.observe})


SPEC = _with_v1_observation(V0_SPEC)
GRID_SPEC = _with_v1_observation(V0_GRID_SPEC)


def spec_for(placement_layout: str = "frontier"):
    """The GameSpec of one action layout ("frontier", the default, or "grid")."""
    return GRID_SPEC if v0_spec_for(placement_layout) is V0_GRID_SPEC else SPEC


class raw_env(v0_raw_env):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    grid_spec = GRID_SPEC
    metadata = env_metadata(SPEC.name)


env = make_env_factory(raw_env)
