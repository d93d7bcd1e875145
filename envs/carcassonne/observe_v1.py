"""``carcassonne_v1``'s observation: v0's (``observe.py``) with its slot positions scaled
and the placed tile one-hot.

Why a new version: v0's vector gives each frontier slot j its (present, column, row) with
column and row as plain window integers (0..14, beyond for cells outside the window).  On
mid-game positions those integers are 98-99.8% of the observation's squared norm, so an
MLP over the flat vector sees little else; and in the meeple phase the tile the decision
is about was only a mark on plane 26, its type and rotation nowhere in the vector.

Layout (float32, ``OBS_SIZE_V1`` = 6,773; 27 planes x 15 x 15 then a vector of 698):

===========  =================================================================================
0..6187      v0's planes and vector up to the slots, unchanged (``observe.py``)
6188..6727   per frontier slot j (``V_SLOTS + 3 j``): present, column / 14, row / 14, where
             14 = ``OBS_WINDOW - 1``, so a cell inside the window reads in [0, 1]; a cell
             beyond it reads outside [0, 1], clipped to [-1, 2] (``SLOT_CLIP``)
6728..6768   meeple phase: the type of the tile just placed, one-hot (``NUM_TYPES``)
6769..6772   meeple phase: its rotation, one-hot (quarter turns clockwise); both zero in
             the place phase and at the end
===========  =================================================================================

Why clip to [-1, 2]: a board that grows in a line puts frontier cells up to ~46 cells from
the window's centre (columns about -39..53, so -2.8..3.8 after scaling); the clip keeps
every entry of the vector within a few units for a learner, and loses nothing a policy
uses: "outside the window" is still exactly "outside [0, 1]" (the clip's bounds lie beyond
it), and those cells have no planes to gather from.  Everything else keeps v0's scale.

The kernel is v0's kernel followed by one short compiled pass (rescale 2 x 180 entries,
write two ones), so the two versions cannot drift apart;
``tests/envs/test_carcassonne_v1.py`` checks it against v0's observation rescaled in
plain Python at every step of random games.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_PHASE
from ..core.jit import njit
from .data import (
    FRONTIER_SLOTS,
    G_FRONTIER,
    G_PLACED,
    NUM_TYPES,
    OBS_SIZE,
    OBS_WINDOW,
    PH_MEEPLE,
    T_ROT,
    T_TYPE,
    V_SLOTS,
)
from .observe import observe as observe_v0
from .observe import slot_positions as stored_slot_positions
from .observe import split_observation

__all__ = ["OBS_SIZE_V1", "SLOT_CLIP", "SLOT_SCALE", "V_PLACED_ROTATION", "V_PLACED_TYPE",
           "observe", "slot_positions", "slot_unit", "split_observation"]

SLOT_SCALE = OBS_WINDOW - 1              # column / SLOT_SCALE: the window spans [0, 1]
SLOT_CLIP = (-1.0, 2.0)                  # far cells beyond the window (module docstring)
V_PLACED_TYPE = OBS_SIZE                 # appended after v0's layout, so v0's offsets hold
V_PLACED_ROTATION = V_PLACED_TYPE + NUM_TYPES
OBS_SIZE_V1 = V_PLACED_ROTATION + 4
_LOW, _HIGH = SLOT_CLIP


@njit
def observe(state, seat, out):
    observe_v0(state, seat, out)
    # v0's kernel clears the buffer it is handed, but its contract is its own entries
    out[OBS_SIZE:] = 0.0
    for j in range(min(state[G_FRONTIER], FRONTIER_SLOTS)):
        for k in range(V_SLOTS + 3 * j + 1, V_SLOTS + 3 * j + 3):    # column, row
            out[k] = min(max(out[k] / SLOT_SCALE, _LOW), _HIGH)
    if state[H_PHASE] == PH_MEEPLE:
        placed = state[G_PLACED] - 1
        out[V_PLACED_TYPE + state[T_TYPE + placed]] = 1.0
        out[V_PLACED_ROTATION + state[T_ROT + placed]] = 1.0


def slot_unit(obs_size: int) -> int:
    """What a slot's stored column and row are multiplied by to give window cells: 1 for
    v0's observations (``OBS_SIZE``), ``SLOT_SCALE`` for v1's (``OBS_SIZE_V1``)."""
    units = {OBS_SIZE: 1, OBS_SIZE_V1: SLOT_SCALE}
    if obs_size not in units:
        raise ValueError(f"not a Carcassonne observation size: {obs_size} (v0 {OBS_SIZE}, "
                         f"v1 {OBS_SIZE_V1})")
    return units[obs_size]


def slot_positions(observation: np.ndarray) -> np.ndarray:
    """(present, column, row) per frontier slot, shape [..., 180, 3], in window cells, from
    flat observations of either version (told apart by their size).  v1's scaled entries
    come back exactly (rounded) inside the window; a clipped far cell comes back as -14 or
    28, still outside it.  (``observe.slot_positions`` gives the entries as stored.)"""
    observation = np.asarray(observation)
    unit = slot_unit(observation.shape[-1])
    slots = stored_slot_positions(observation)
    if unit == 1:
        return slots
    cells = slots.astype(np.float32, copy=True)
    cells[..., 1:] = np.rint(cells[..., 1:] * unit)
    return cells
