"""Carcassonne (Klaus-Juergen Wrede, Hans im Glueck; 3rd edition) with Inns & Cathedrals.

| Import             | ``from meeplezoo.envs import carcassonne_v0``                      |
|--------------------|--------------------------------------------------------------------|
| Actions            | Discrete(131061), masked (spec DEC-2..DEC-4)                       |
| Players            | 2-6 (``player_0`` .. ``player_5``; 6 only with Inns & Cathedrals)  |
| Observation        | dict: ``observation`` float32[45497], ``action_mask`` int8[131061] |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin`` |
| Chance             | tile draws, by the env's seeded generator (``reset(seed=...)``)    |

A turn is two decisions by the same agent: place the drawn tile (action
``((y + 90) * 181 + (x + 90)) * 4 + r`` on a 181 x 181 grid centred on the start tile, big
enough for any legal game), then a meeple (``131044 + 2 * slot + large``, or ``131060``
for no meeple; skipped when that is the only choice and ``auto_pass_meeple`` is on).

Observation: 27 board planes of 41 x 41 around the start tile plus a vector (see
``observe.py``); seats rotated so the observer is first, padded to six.

Rule options (spec §15): ``expansion_inns_cathedrals`` (True), ``farmers`` (True),
``farm_scoring`` ("c3" | "c1_v2" | "c1_v1"), ``small_city_rule`` ("c2c3" | "c1_early"),
``ic_tjunction_inn`` ("east_only" | "east_and_west"), ``unplaceable`` ("remove"),
``auto_pass_meeple`` (True), ``dedupe_rotations`` (False; DEC-6).  Env options:
``num_players``, ``render_mode`` ("human", "ansi", "rgb_array"), ``reward_scheme``,
``margin_scale``, ``start_seat`` (a seat or "random"), and in ``env()`` ``illegal``
("raise" | "penalty").

Engine choices where the spec leaves room: ties share the win (AMB-10); ``scores()``
before the end is the score as if the game ended now.  Version history: v0, first release.
"""

from __future__ import annotations

import numpy as np

from ..core.aec import KernelEnv
from ..core.game import env_metadata, game_spec
from ..core.wrappers import make_env_factory
from . import data as D
from . import masks, observe, policy, rules
from .notation import action_to_str
from .options import check_player_count, make_config
from .validate import validate_state

SPEC = game_spec(
    "carcassonne_v0", D, (rules, masks, observe, policy),
    make_config=make_config, action_to_str=action_to_str, validate_state=validate_state,
    render_module=__package__ + ".render", turn_owner_slot=D.G_ACTIVE)


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = env_metadata(SPEC.name)

    def __init__(self, num_players: int = 2, **kwargs):
        super().__init__(num_players=num_players, **kwargs)
        check_player_count(self.num_players, self._config)
        self._legal_buffer = np.zeros(policy.MAX_LIST, dtype=np.int64)

    def legal_actions(self) -> list[int]:
        """Ascending legal actions, listed by the compiled kernel (no 131k-entry mask scan)."""
        count = masks.legal_actions(self.state, self._legal_buffer)
        return sorted(self._legal_buffer[:count].tolist())

    def clone(self):
        twin = super().clone()
        twin._legal_buffer = np.zeros_like(self._legal_buffer)
        return twin


env = make_env_factory(raw_env)
