"""Connect four's constants and state layout (6 rows x 7 columns, four in a row wins).

Bitboard layout (the classic one of John Tromp's and Pascal Pons' solvers): column ``c``
holds bits ``7c .. 7c+5``, bottom to top, and bit ``7c+6`` is an always-empty sentinel,
so shifts by 1 / 7 / 6 / 8 step vertically / horizontally / along the two diagonals
without ever wrapping from one column into the next.

State (one flat int64 array): the shared header, then each seat's stones as a bitboard,
the seat that moved first, and the winner (-1 while nobody has won, and after a draw).
"""

from __future__ import annotations

from meeplezoo.envs.core.contract import HEADER_SIZE

GAME_ID = 100               # benchmark games number from 100; MeepleZoo's games below
NAME = "connect_four_calibration"
NUM_PLAYERS = 2
ROWS, COLS = 6, 7
HEIGHT = ROWS + 1           # bits per column, the sentinel included
NUM_CELLS = ROWS * COLS
NUM_ACTIONS = COLS          # action = column 0..6, as in OpenSpiel, PettingZoo and pgx

BOTTOM_ROW = sum(1 << (HEIGHT * c) for c in range(COLS))
BOARD = BOTTOM_ROW * ((1 << ROWS) - 1)   # every playable cell (no sentinels)
TOP_ROW = BOTTOM_ROW << (ROWS - 1)

# State layout after the header.
S_STONES = HEADER_SIZE      # two bitboards: seat 0's stones, seat 1's stones
S_START_SEAT = S_STONES + 2
S_WINNER = S_START_SEAT + 1
STATE_SIZE = S_WINNER + 1

PH_PLAY, PH_GAME_OVER = 0, 1
PHASE_NAMES = ("play", "game_over")

# Observation: [2, ROWS, COLS] planes (the observer's stones, the opponent's), row 0 the
# top row as PettingZoo and OpenSpiel print it, then 1.0 when the observer is to move.
OBS_PLANES = 2
OBS_TO_MOVE = OBS_PLANES * NUM_CELLS
OBS_SIZE = OBS_TO_MOVE + 1

STATE_FIELDS = {
    "game_id": (0, 1), "num_players": (1, 1), "to_move": (2, 1), "phase": (3, 1),
    "ply": (4, 1), "stones": (S_STONES, 2), "start_seat": (S_START_SEAT, 1),
    "winner": (S_WINNER, 1),
}
assert sum(length for _, length in STATE_FIELDS.values()) == STATE_SIZE
