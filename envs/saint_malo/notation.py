"""Readable move notation for Saint Malo (used by logs, replays and the terminal player).

Cells are named like a chess board seen from the spec's grid: a column letter ``a``..``g``
(c = 0..6) and a row number ``1``..``7`` counted downward (r = 0..6), so ``a1`` is the
north-west tower and ``b2`` the first inner space.  Moves read as the player would say
them: ``stop``, ``reroll sword+wall``, ``pass``, ``crate 3``, ``church 4``, ``architect``,
``crate c4``, ``house e3``, ``done``, ``bonus soldier``.

With ``dedupe_rerolls=False`` two re-rolls may roll the same faces from different dice
(EC-21), so each re-roll also names its dice by position, 1..5 in the sorted dice:
``reroll log+wall (dice 2,4)``.  Every legal action has its own name, and
``str_to_action`` reads each name back.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_PHASE
from .data import (
    A_CHARACTER,
    A_CHURCH,
    A_CRATE,
    A_LOG,
    A_PASS,
    A_PLACE,
    A_STOP_HOUSES,
    A_STOP_ROLLING,
    A_WALL,
    C_DEDUPE,
    CHARACTER_NAMES,
    CHURCH_1,
    CITIZEN,
    CRATE,
    FACE_NAMES,
    G_DICE,
    G_PENDING_CODE,
    NUM_DICE,
    PH_BONUS_CHOICE,
    PH_HOUSES,
    PH_PLACE,
    PH_ROLL_DECISION,
    PH_SCORE,
    PHASE_NAMES,
    WALL,
)

_SCORE_KINDS = ((A_LOG, "log"), (A_CRATE, "crate"), (A_WALL, "wall"), (A_CHURCH, "church"))


def cell_name(cell: int) -> str:
    r, c = divmod(int(cell), 7)
    return f"{'abcdefg'[c]}{r + 1}"


def parse_cell(text: str) -> int:
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefg" or text[1] not in "1234567":
        raise ValueError(f"{text!r} is not a cell name (a1 .. g7)")
    return (int(text[1]) - 1) * 7 + "abcdefg".index(text[0])


def code_name(code: int) -> str:
    if code == WALL:
        return "wall"
    if code == CRATE:
        return "crate"
    if CHURCH_1 <= code < CITIZEN:
        return f"church{code - CHURCH_1 + 1}"
    return CHARACTER_NAMES[code - CITIZEN]


def action_to_str(state: np.ndarray, action: int) -> str:
    """The notation of ``action`` in the phase of ``state``."""
    phase = int(state[H_PHASE])
    action = int(action)
    if phase == PH_ROLL_DECISION and 0 <= action < A_PASS:
        if action == A_STOP_ROLLING:
            return "stop"
        dice = state[G_DICE:G_DICE + NUM_DICE]
        rolled = [i for i in range(NUM_DICE) if action >> i & 1]
        name = "reroll " + "+".join(FACE_NAMES[int(dice[i])].lower() for i in rolled)
        if state[C_DEDUPE]:
            return name             # only one re-roll per multiset is legal (EC-21)
        return f"{name} (dice {','.join(str(i + 1) for i in rolled)})"
    if phase == PH_SCORE and A_PASS <= action < A_PLACE:
        if action == A_PASS:
            return "pass"
        if action >= A_CHARACTER:
            return CHARACTER_NAMES[action - A_CHARACTER]
        for first, name in reversed(_SCORE_KINDS):
            if action >= first:
                return f"{name} {action - first + 1}"
    if phase == PH_PLACE and A_PLACE <= action < A_STOP_HOUSES:
        return f"{code_name(int(state[G_PENDING_CODE]))} {cell_name(action - A_PLACE)}"
    if phase == PH_HOUSES:
        if action == A_STOP_HOUSES:
            return "done"
        if A_PLACE <= action < A_STOP_HOUSES:
            return f"house {cell_name(action - A_PLACE)}"
    if phase == PH_BONUS_CHOICE and A_CHARACTER <= action < A_PLACE:
        return f"bonus {CHARACTER_NAMES[action - A_CHARACTER]}"
    return f"#{action} (not a move in phase {PHASE_NAMES[phase]})"
