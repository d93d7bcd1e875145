"""Carcassonne (Klaus-Juergen Wrede, Hans im Glueck; 3rd edition) with Inns & Cathedrals.

| Import             | ``from meeplezoo.envs import carcassonne_v0``                        |
|--------------------|----------------------------------------------------------------------|
| Actions            | Discrete(737), masked: 720 placements + 17 meeple actions            |
|                    | (``placement_layout="grid"``: Discrete(131061), spec DEC-2)          |
| Players            | 2-6 (``player_0`` .. ``player_5``; 6 only with Inns & Cathedrals)    |
| Observation        | dict: ``observation`` float32[6728], ``action_mask`` int8[737]       |
| Observation shape  | 27 planes x 15 x 15 (window on the board's centre) + vector of 653   |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin``   |
| Chance             | tile draws, by the env's seeded generator (``reset(seed=...)``)      |

**Turn.** Two decisions by the same agent (spec DEC-4): place the drawn tile, then a
meeple on the tile just placed (skipped when "no meeple" is the only choice and
``auto_pass_meeple`` is on).  Tile draws are chance events resolved by the env; a tile
that fits nowhere leaves the game and the same player draws again (CA-6.4).

**Actions (default ``placement_layout="frontier"``).**

=============  ==============================================================================
0 .. 719       place the tile in hand on frontier cell ``j = a // 4`` with rotation
               ``r = a % 4`` (quarter turns clockwise).  The frontier is the empty cells next
               to a placed tile, sorted row-major (by y, then x); at most 2n + 2 cells for n
               tiles, so 180 slots reach every legal placement of any game.  The mask is
               exactly the legal (cell, rotation) set of CA-6.3.
720 + 2s + k   a meeple on slot s (0..7) of the tile just placed; k = 0 normal, 1 large
736            no meeple
=============  ==============================================================================

Slot j's cell is in the observation (its window column and row), in
``env.unwrapped.state[F_CELL + j]`` (``data.placement_of(state, a)`` gives (x, y, r)),
and in the move names (``L@(1,0) r2``).  ``placement_layout="grid"`` keeps the spec's
fixed cell semantics instead: placement ``((y + 90) * 181 + (x + 90)) * 4 + r`` on a
181 x 181 grid centred on the start tile, meeple actions from 131044, no meeple 131060.
Both layouts list the same legal placements in the same order (ascending cells) and play
the same games; only the numbering differs.  ``spec_for("grid")`` is the GameSpec of the
grid layout, for code that builds its own buffers (``BatchEnv``, MCTS).

**Observation** (``observe.py``; seats rotated so the observer is first, padded to six):
27 planes of 15 x 15 over a window centred on the placed tiles' bounding box (tiles, city
and road sides, monasteries, shields, inns, cathedrals, open sides, frontier, meeples
per seat, farmers, where the tile in hand fits per rotation, the tile just placed), then
a vector of 653: phase, tile in hand, pile counts, scores and supplies per seat, tiles
outside the window, the window origin, and per frontier slot j (present, column, row), so
a convolutional policy can gather slot j's four placement logits at its cell.
``observe.split_observation`` and ``observe.slot_positions`` give the parts.

Rule options (spec §15): ``expansion_inns_cathedrals`` (True), ``farmers`` (True),
``farm_scoring`` ("c3" | "c1_v2" | "c1_v1"), ``small_city_rule`` ("c2c3" | "c1_early"),
``ic_tjunction_inn`` ("east_only" | "east_and_west"), ``unplaceable`` ("remove"),
``auto_pass_meeple`` (True), ``dedupe_rotations`` (False; DEC-6), ``placement_layout``
("frontier" | "grid"), ``max_decisions`` (178).  Env options: ``num_players``,
``render_mode`` ("human", "ansi", "rgb_array"), ``reward_scheme``, ``margin_scale``,
``start_seat`` ("random", the default, drawn from the reset seed: CA-2.6's seat order with
a random seat assignment; or a seat), and in ``env()`` ``illegal`` ("raise" | "penalty").

**Decision cap.** ``max_decisions`` (1..178, default 178) ends the game after that many
decisions as a PettingZoo truncation (``truncations`` True, ``infos["truncated"]``), the
turn in progress finished and final scoring done, so rewards are those of the scores at
the cut.  178 is the most decisions a complete game holds (89 placements, each followed by
at most one meeple decision): every game ends by CA-6.6 first, under any policy (measured:
random play 126-170 decisions for 2-6 players, always-"no meeple" exactly 178); the cap is
there so a shorter game can be asked for and every game has one, kernels included.

Engine choices where the spec leaves room: ties share the win (AMB-10); ``scores()``
before the end is the score as if the game ended now.

Version history:

* ``carcassonne_v1`` (2026-12-04, ``env_v1.py``): the same game (rules, state,
  actions, notation, seeds: the same game for the same seed and moves) with a fixed
  observation (``observe_v1.py``): each frontier slot's column and row divided by 14 (they
  were plain window integers, 98-99.8% of a mid-game observation's squared norm), and in
  the meeple phase the placed tile's type and rotation one-hot (45 entries appended:
  6,773 floats).  ``carcassonne_v0`` stays as it is for the shipped bots and ladders.

Before it, within ``carcassonne_v0``:

* v0.2 (2026-11-30): frontier action layout by default (737 actions instead of 131,061;
  the grid stays as ``placement_layout="grid"``), observation of 27 x 15 x 15 planes on a
  window that follows the board plus per-slot positions (was 27 x 41 x 41 around the
  start tile), rgb frames with a side panel.  Same rules, same games for the same seed.
* v0.1: first release (grid layout, 41 x 41 observation).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ..core.aec import KernelEnv
from ..core.game import env_metadata, game_spec
from ..core.jit import direct_entry
from ..core.wrappers import make_env_factory
from . import data as D
from . import masks, observe, policy, rules
from .notation import action_to_str
from .options import check_player_count, make_config_for
from .validate import validator_for

SPEC = game_spec(
    "carcassonne_v0", D, (rules, masks, observe, policy),
    make_config=make_config_for("frontier"), action_to_str=action_to_str,
    validate_state=validator_for(D.LAYOUT_FRONTIER),
    render_module=__package__ + ".render", turn_owner_slot=D.G_ACTIVE)
# The spec's DEC-2 grid: same kernels and observation, 131,061 actions.
GRID_SPEC = dataclasses.replace(
    SPEC, num_actions=D.GRID_NUM_ACTIONS, make_config=make_config_for("grid"),
    validate_state=validator_for(D.LAYOUT_GRID))


def spec_for(placement_layout: str = "frontier"):
    """The GameSpec of one action layout ("frontier", the default, or "grid")."""
    if placement_layout not in D.PLACEMENT_LAYOUTS:
        raise ValueError(f"placement_layout must be one of {D.PLACEMENT_LAYOUTS}, "
                         f"got {placement_layout!r}")
    return GRID_SPEC if placement_layout == "grid" else SPEC


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    grid_spec = GRID_SPEC                   # carcassonne_v1's subclass sets its own pair
    metadata = env_metadata(SPEC.name)

    def __init__(self, num_players: int = 2, **kwargs):
        if isinstance(kwargs.get("placement_layout"), str) \
                and kwargs["placement_layout"] == "grid":
            self.spec = self.grid_spec      # this env's buffers and spaces are the grid's
        super().__init__(num_players=num_players, **kwargs)
        check_player_count(self.num_players, self._config)
        self._legal_buffer = np.zeros(policy.MAX_LIST, dtype=np.int64)
        self._list_legal = masks.legal_actions

    def _bind_direct_entries(self):
        super()._bind_direct_entries()
        self._list_legal = direct_entry(masks.legal_actions, self.state, self._legal_buffer)

    def legal_actions(self) -> list[int]:
        """Ascending legal actions, listed by the compiled kernel (no mask scan)."""
        count = self._list_legal(self.state, self._legal_buffer)
        return self._legal_buffer[:count].tolist()

    def clone(self):
        twin = super().clone()
        twin._legal_buffer = np.zeros_like(self._legal_buffer)
        return twin


env = make_env_factory(raw_env)
