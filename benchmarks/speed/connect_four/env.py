"""Connect four (6x7) as a PettingZoo AEC environment on MeepleZoo's kernel contract.

| Import             | ``from meeplezoo.benchmarks.speed.connect_four import raw_env, SPEC``  |
|--------------------|-------------------------------------------------------------------|
| Actions            | Discrete(7): the column to drop a stone into, masked when full    |
| Players            | 2 (``player_0`` moves first unless ``start_seat=1``)              |
| Observation        | dict: ``observation`` float32[85], ``action_mask`` int8[7]       |
| Rewards            | at the end only: +1 / -1 for a win, 0 / 0 for a draw              |
| Chance             | none                                                              |

Observation: the observer's stones and the opponent's as two [6, 7] planes (row 0 the
top row), then 1.0 if the observer is to move.  The rules, action numbering and first
player are those of OpenSpiel's ``connect_four`` and PettingZoo's ``connect_four_v3``
(checked move by move in ``tests/benchmarks/test_connect_four.py``).

A calibration game for the benchmarks (speed and MCTS strength against peers that ship
connect four), not registered in ``meeplezoo.envs``.  It takes no rule options.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.benchmarks.speed.connect_four import data as D
from meeplezoo.benchmarks.speed.connect_four import rules
from meeplezoo.envs.core.aec import KernelEnv
from meeplezoo.envs.core.contract import (
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    TERMINAL,
    GameSpec,
    collect_kernels,
)
from meeplezoo.envs.core.wrappers import make_env_factory


def make_config(**options) -> np.ndarray:
    """Connect four has no rule options; any option is an error."""
    if options:
        raise ValueError(f"unknown connect four option(s) {sorted(options)}; it takes none")
    return np.zeros(0, dtype=np.int64)


def action_to_str(state: np.ndarray, action: int) -> str:
    if not 0 <= action < D.NUM_ACTIONS:
        raise ValueError(f"action {action} is not a column 0..{D.NUM_ACTIONS - 1}")
    return f"col{action}"


def _column_heights(stones: int) -> list[int] | None:
    """Stones per column, or None if some column has a gap (stones must rest on stones)."""
    heights = []
    for column in range(D.COLS):
        bits = (stones >> (D.HEIGHT * column)) & ((1 << D.HEIGHT) - 1)
        if bits & (bits + 1):
            return None
        heights.append(bits.bit_length())
    return heights


def validate_state(state: np.ndarray) -> None:
    """Raise ``ValueError`` unless ``state`` is a position the rules can reach."""
    def fail(message: str):
        raise ValueError(message)

    if state.shape != (D.STATE_SIZE,):
        fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        fail(f"game id {int(state[H_GAME_ID])} is not connect four's ({D.GAME_ID})")
    if state[H_NUM_PLAYERS] != D.NUM_PLAYERS:
        fail(f"connect four is for 2 players, not {int(state[H_NUM_PLAYERS])}")
    stones = [int(state[D.S_STONES]), int(state[D.S_STONES + 1])]
    if any(s < 0 or s & ~D.BOARD for s in stones):
        fail("stones must be bitboards of board cells (no sentinel bits)")
    if stones[0] & stones[1]:
        fail("two stones share a cell")
    both = stones[0] | stones[1]
    if _column_heights(both) is None:
        fail("a stone floats above an empty cell")
    start = int(state[D.S_START_SEAT])
    if start not in (0, 1):
        fail(f"start_seat {start} is not a seat")
    counts = [bin(s).count("1") for s in stones]
    if counts[start] - counts[1 - start] not in (0, 1):
        fail(f"stone counts {counts} do not alternate from seat {start}")
    if state[H_PLY] != sum(counts):
        fail(f"ply {int(state[H_PLY])} differs from the {sum(counts)} stones on the board")
    wins = [bool(rules.has_four(np.int64(s))) for s in stones]
    last = 1 - start if counts[0] == counts[1] else start        # who moved last
    winner, to_move, phase = int(state[D.S_WINNER]), int(state[H_TO_MOVE]), int(state[H_PHASE])
    if wins[1 - last] or (wins[last] and winner != last):
        fail(f"four in a row that the winner field ({winner}) does not record")
    if winner != -1 and not wins[winner]:
        fail(f"winner {winner} has no four in a row")
    over = winner != -1 or both == D.BOARD
    expected = (TERMINAL, D.PH_GAME_OVER) if over else (1 - last, D.PH_PLAY)
    if (to_move, phase) != expected:
        fail(f"to_move {to_move} / phase {phase} should be {expected}")


def render_ansi(state: np.ndarray) -> str:
    """The board as OpenSpiel prints it: ``x`` seat 0, ``o`` seat 1, top row first."""
    marks = []
    for height in range(D.ROWS - 1, -1, -1):
        row = ""
        for column in range(D.COLS):
            bit = 1 << (D.HEIGHT * column + height)
            row += "x" if state[D.S_STONES] & bit else "o" if state[D.S_STONES + 1] & bit else "."
        marks.append(row)
    to_move = int(state[H_TO_MOVE])
    footer = f"to move: player_{to_move}" if to_move >= 0 else (
        f"winner: player_{int(state[D.S_WINNER])}" if state[D.S_WINNER] >= 0 else "draw")
    return "\n".join(marks + [footer])


SPEC = GameSpec(
    name=D.NAME,
    game_id=D.GAME_ID,
    min_players=D.NUM_PLAYERS,
    max_players=D.NUM_PLAYERS,
    num_actions=D.NUM_ACTIONS,
    state_size=D.STATE_SIZE,
    obs_size=D.OBS_SIZE,
    max_chance_outcomes=1,          # none ever pending; 1 keeps callers' buffers non-empty
    phase_names=D.PHASE_NAMES,
    kernels=collect_kernels(rules),
    make_config=make_config,
    action_to_str=action_to_str,
    validate_state=validate_state,
    state_fields=D.STATE_FIELDS,
    render_ansi=render_ansi,
    default_start_seat=0,           # as PettingZoo's connect_four_v3: player_0 moves first
)


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = {
        "name": D.NAME,
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 2,
    }


env = make_env_factory(raw_env)
