"""Saint Malo static tables and the layout of the flat state array.

Rule ids (SM-x.y) refer to ``rules/saint_malo.md``.  Everything the spec marks uncertain
(tower rewards, pre-printed crates, church-row values, pirate strengths, boxes per row)
is a default of ``DEFAULT_OPTIONS`` and travels inside the state's config block, so a
corrected value never needs a code change and a saved game replays under its own rules.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import HEADER_SIZE

GAME_ID = 1
MIN_PLAYERS, MAX_PLAYERS = 2, 5      # SM-4.1
NUM_DICE = 5                         # SM-1.4
MAX_ROLLS = 3                        # SM-5.1
MAX_HOUSES = 3                       # SM-7.5.3
NUM_ATTACKS = 6                      # SM-3.1

# Dice faces (SM-1.4).
SWORD, LOG, CRATE_FACE, WALL_FACE, CROSS, HEAD = range(6)
FACE_NAMES = ("SWORD", "LOG", "CRATE", "WALL", "CROSS", "HEAD")

# Cell codes on a city board (spec §13 suggested state).
TOWER = -1
EMPTY = 0
WALL = 1
CRATE = 2
HOUSE = 3
CHURCH_1 = 4                         # church of size s has code 3 + s (4..8)
CITIZEN, SOLDIER, PRIEST, ARCHITECT, MERCHANT, JUGGLER, NOBLE = range(9, 16)
NUM_CELL_CODES = 16
CHARACTER_LEVEL = np.array([1, 2, 2, 3, 3, 4, 5], dtype=np.int64)   # SM-7.5.0, by code - 9
CHARACTER_NAMES = ("citizen", "soldier", "priest", "architect", "merchant", "juggler", "noble")
MAX_LEVEL = 5                        # the noble's; a ("character", k) reward offers levels <= k

# --- Flat action space (spec §13, 110 actions) ------------------------------------------
A_STOP_ROLLING = 0
A_REROLL_FIRST = 1                   # 1..31: bit i re-rolls die i of the sorted dice
A_PASS = 32
A_LOG = 33                           # 33..37: LOG k = 1..5
A_CRATE = 38                         # 38..42
A_WALL = 43                          # 43..47
A_CHURCH = 48                        # 48..52: church of size 1..5
A_CHARACTER = 53                     # 53..59: citizen..noble (53..57 also the N bonus)
A_PLACE = 60                         # 60..108: cell 7r + c
A_STOP_HOUSES = 109
NUM_ACTIONS = 110

# --- Phases --------------------------------------------------------------------------------
PH_ROLL = 0              # chance: the dice in G_ROLL_MASK are being rolled
PH_ROLL_DECISION = 1     # DP-1
PH_SCORE = 2             # DP-2
PH_PLACE = 3             # DP-3 / DP-6: put the pending item on a cell
PH_HOUSES = 4            # DP-4
PH_BONUS_CHOICE = 5      # DP-5
PH_GAME_OVER = 6
PHASE_NAMES = ("roll", "roll_decision", "score", "place", "houses", "bonus_choice", "game_over")

# --- Geometry (SM-2.1 .. SM-2.4, §8) --------------------------------------------------------
SIDE = 7
NUM_CELLS = 49
TOWER_CELLS = (0, 6, 42, 48)                             # SM-2.2
SIDE_NAMES = ("N", "E", "S", "W")
SIDE_CELLS = np.array([[1, 2, 3, 4, 5],                  # SM-2.4
                       [13, 20, 27, 34, 41],
                       [43, 44, 45, 46, 47],
                       [7, 14, 21, 28, 35]], dtype=np.int64)


def _bit(cell: int) -> int:
    return 1 << cell


def _build_geometry():
    is_tower = np.zeros(NUM_CELLS, dtype=np.bool_)
    is_tower[list(TOWER_CELLS)] = True
    n4 = np.zeros(NUM_CELLS, dtype=np.int64)
    n8 = np.zeros(NUM_CELLS, dtype=np.int64)
    for cell in range(NUM_CELLS):
        if is_tower[cell]:
            continue                                     # SM-8.4: towers are never neighbours
        r, c = divmod(cell, SIDE)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if (dr, dc) == (0, 0) or not (0 <= rr < SIDE and 0 <= cc < SIDE):
                    continue
                other = rr * SIDE + cc
                if is_tower[other]:
                    continue
                n8[cell] |= _bit(other)
                if dr == 0 or dc == 0:
                    n4[cell] |= _bit(other)
    cell_side = np.full(NUM_CELLS, -1, dtype=np.int64)
    side_bb = np.zeros(4, dtype=np.int64)
    for side in range(4):
        for cell in SIDE_CELLS[side]:
            cell_side[cell] = side
            side_bb[side] |= _bit(int(cell))
    outer_bb = int(side_bb.sum())
    spaces_bb = sum(_bit(c) for c in range(NUM_CELLS) if not is_tower[c])
    return is_tower, n4, n8, cell_side, side_bb, outer_bb, spaces_bb


IS_TOWER, N4, N8, CELL_SIDE, SIDE_BB, OUTER_BB, SPACES_BB = _build_geometry()
NUM_SPACES = 45                                          # SM-2.3

# --- Options (everything the spec marks [U] or configurable; §16) ---------------------------
REWARD_CHARACTER, REWARD_COINS, REWARD_VP = 0, 1, 2
DEFAULT_OPTIONS = {
    # SM-2.7 / A-12: (kind, amount) per side N, E, S, W.
    "tower_rewards": (("character", 3), ("coins", 2), ("vp", 3), ("coins", 2)),
    # SM-2.8 / A-13: pre-printed crate cells (r, c).
    "start_crates": ((1, 1), (1, 2), (2, 1), (3, 1)),
    # SM-11.4 / A-8 / A-9: value of a church row of length 0..5.
    "church_row_values": (0, 1, 4, 8, 13, 20),
    # SM-3.1 / A-10: attack strength of rows 1..6.
    "attack_strengths": (1, 3, 6, 8, 10, 12),
    # SM-3.2 / A-11: boxes per pirate row = this * players.
    "boxes_per_player": 2,
    "start_coins": 3,                                    # SM-2.9
    "start_logs": 2,                                     # SM-2.10
    # EC-21: mask re-roll choices that differ only in which copy of a face is re-rolled.
    "dedupe_rerolls": True,
    # Not a rule: the game is cut off (a PettingZoo truncation) after this many decisions,
    # so every policy ends, even one that stops and passes forever (nothing else ends a game
    # whose cities never fill).  3,000 is about 3x the longest game measured: 966 decisions
    # in 1,000 uniform-random 5-player games (mean 804; 2 players: max 414), 783 in 50
    # greedy-agent 5-player games.
    "max_decisions": 3000,
}
REWARD_KIND_CODES = {"character": REWARD_CHARACTER, "coins": REWARD_COINS, "vp": REWARD_VP}

# --- State layout -----------------------------------------------------------------------------
# Config block: copied from the options at init, read by kernels.
C_TOWER_KIND = HEADER_SIZE                   # 4: reward kind per side
C_TOWER_AMOUNT = C_TOWER_KIND + 4            # 4
C_CHURCH_T = C_TOWER_AMOUNT + 4              # 6
C_STRENGTH = C_CHURCH_T + 6                  # 6
C_BOXES_PER_PLAYER = C_STRENGTH + 6
C_START_CRATES = C_BOXES_PER_PLAYER + 1      # bitboard
C_START_COINS = C_START_CRATES + 1
C_START_LOGS = C_START_COINS + 1
C_DEDUPE = C_START_LOGS + 1
C_MAX_DECISIONS = C_DEDUPE + 1               # the decision cap (not a rule, see the options)
CONFIG_SIZE = C_MAX_DECISIONS + 1 - HEADER_SIZE

# Global block.
G_START_SEAT = HEADER_SIZE + CONFIG_SIZE
G_ACTIVE = G_START_SEAT + 1          # seat whose turn it is (also while dice are rolling)
G_END_TRIGGERED = G_ACTIVE + 1       # SM-11.1
G_TURNS = G_END_TRIGGERED + 1        # turns completed in the game
G_PIRATE_BOXES = G_TURNS + 1         # boxes crossed so far (SM-9.1)
G_ATTACKS_DONE = G_PIRATE_BOXES + 1
G_DICE = G_ATTACKS_DONE + 1          # 5 faces, kept sorted ascending
G_ROLLS_USED = G_DICE + NUM_DICE
G_ROLL_MASK = G_ROLLS_USED + 1       # dice awaiting the pending roll (bit i = die i)
G_PENDING_CODE = G_ROLL_MASK + 1     # cell code being placed in PH_PLACE
G_PENDING_LEFT = G_PENDING_CODE + 1  # items of that code still to place
G_PLACED_BB = G_PENDING_LEFT + 1     # crates / walls / houses drawn this turn (bitboard)
G_ARCHITECT_CELL = G_PLACED_BB + 1   # the architect just placed (-1 when none)
G_HOUSES_BUILT = G_ARCHITECT_CELL + 1
G_BONUS_DUE = G_HOUSES_BUILT + 1     # bit s: side s's character reward still to grant
G_PLACING_BONUS = G_BONUS_DUE + 1    # 1 while the pending item is a tower reward
G_LAST_ATTACKS = G_PLACING_BONUS + 1 # attacks set off by the last completed turn
G_TRUNCATED = G_LAST_ATTACKS + 1     # 1: the game was cut off at max_decisions
GLOBAL_END = G_TRUNCATED + 1

# Per-player block, MAX_PLAYERS of them.
P_BOARD = 0                          # 49 cell codes
P_COINS = NUM_CELLS
P_LOGS = P_COINS + 1
P_VP = P_LOGS + 1                    # the VP track (SM-2.11)
P_CANNONS_LOST = P_VP + 1            # SM-2.12
P_SOLDIERS = P_CANNONS_LOST + 1
P_SIDES_DONE = P_SOLDIERS + 1        # bit s: side s completed (SM-7.3.2)
P_SIDES_BROKEN = P_SIDES_DONE + 1    # bit s: side s broken (SM-7.3.4)
PLAYER_SIZE = P_SIDES_BROKEN + 1
PLAYERS_BASE = GLOBAL_END
STATE_SIZE = PLAYERS_BASE + MAX_PLAYERS * PLAYER_SIZE

# --- Observation layout (per seat, seats rotated so the observer is slot 0) -------------------
OBS_CELL_CHANNELS = NUM_CELL_CODES - 1           # one plane per code 1..15 (wall .. noble)
OBS_PLAYER_SCALARS = 20
OBS_PLAYER_SIZE = NUM_CELLS * OBS_CELL_CHANNELS + OBS_PLAYER_SCALARS
OBS_GLOBAL_SIZE = 6 + 4 + 7 + NUM_CELL_CODES + 1 + NUM_CELLS + NUM_CELLS + 1 + 1 + 2 + 7 + 1 + 1 + 4
OBS_SIZE = MAX_PLAYERS * OBS_PLAYER_SIZE + OBS_GLOBAL_SIZE
MAX_CHANCE_OUTCOMES = 252                        # PR-2: multisets of 5 dice


def _state_fields() -> dict[str, tuple[int, int]]:
    """Name -> (offset, length) of every slot, for the JSON save format."""
    from ..core.contract import H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE

    fields = {
        "game_id": (H_GAME_ID, 1), "num_players": (H_NUM_PLAYERS, 1), "to_move": (H_TO_MOVE, 1),
        "phase": (H_PHASE, 1), "ply": (H_PLY, 1),
        "tower_reward_kind": (C_TOWER_KIND, 4), "tower_reward_amount": (C_TOWER_AMOUNT, 4),
        "church_row_values": (C_CHURCH_T, 6), "attack_strengths": (C_STRENGTH, 6),
        "boxes_per_player": (C_BOXES_PER_PLAYER, 1), "start_crates": (C_START_CRATES, 1),
        "start_coins": (C_START_COINS, 1), "start_logs": (C_START_LOGS, 1),
        "dedupe_rerolls": (C_DEDUPE, 1), "max_decisions": (C_MAX_DECISIONS, 1),
        "start_seat": (G_START_SEAT, 1), "active_seat": (G_ACTIVE, 1),
        "end_triggered": (G_END_TRIGGERED, 1), "turns": (G_TURNS, 1),
        "pirate_boxes": (G_PIRATE_BOXES, 1), "attacks_done": (G_ATTACKS_DONE, 1),
        "dice": (G_DICE, NUM_DICE), "rolls_used": (G_ROLLS_USED, 1),
        "roll_mask": (G_ROLL_MASK, 1), "pending_code": (G_PENDING_CODE, 1),
        "pending_left": (G_PENDING_LEFT, 1), "placed_this_turn": (G_PLACED_BB, 1),
        "architect_cell": (G_ARCHITECT_CELL, 1), "houses_built": (G_HOUSES_BUILT, 1),
        "bonus_due": (G_BONUS_DUE, 1), "placing_bonus": (G_PLACING_BONUS, 1),
        "last_attacks": (G_LAST_ATTACKS, 1), "truncated": (G_TRUNCATED, 1),
    }
    player_fields = {
        "board": (P_BOARD, NUM_CELLS), "coins": (P_COINS, 1), "logs": (P_LOGS, 1),
        "vp": (P_VP, 1), "cannons_lost": (P_CANNONS_LOST, 1), "soldiers": (P_SOLDIERS, 1),
        "sides_done": (P_SIDES_DONE, 1), "sides_broken": (P_SIDES_BROKEN, 1),
    }
    for seat in range(MAX_PLAYERS):
        for name, (offset, length) in player_fields.items():
            fields[f"p{seat}_{name}"] = (PLAYERS_BASE + seat * PLAYER_SIZE + offset, length)
    assert sum(length for _, length in fields.values()) == STATE_SIZE
    return fields


STATE_FIELDS = _state_fields()


# --- Ranges (what make_config can produce and the rules can reach) ---------------------------
MAX_OPTION_VALUE = 1000          # reward amounts, row values, strengths, start coins / logs
MAX_BOXES_PER_PLAYER = 100
MAX_DECISIONS_LIMIT = 10**7      # the largest max_decisions accepted
BIG = 10**6                      # coins, logs, VP: unbounded in the rules (SM-2.9 .. SM-2.11)
MAX_VP_PER_SPACE = 14            # a juggler next to all 7 character types (SM-7.5.2)
MAX_COINS_PER_SPACE = 8          # a merchant among 8 crates (SM-7.5.4)
FULL_BB = (1 << NUM_CELLS) - 1


def _field_bounds() -> dict[str, tuple[int, int]]:
    """Inclusive (low, high) of every element of every field, checked when a state is loaded.

    Cross-field facts (a seat below num_players, a cell holding the architect, the bits of
    a bitboard on spaces only, ...) are checked in ``validate.validate_state``.
    """
    bounds = {
        "game_id": (GAME_ID, GAME_ID), "num_players": (MIN_PLAYERS, MAX_PLAYERS),
        "to_move": (-2, MAX_PLAYERS - 1),                   # TERMINAL, CHANCE or a seat
        "phase": (0, len(PHASE_NAMES) - 1), "ply": (0, MAX_DECISIONS_LIMIT),
        "tower_reward_kind": (0, 2), "tower_reward_amount": (0, MAX_OPTION_VALUE),
        "church_row_values": (0, MAX_OPTION_VALUE), "attack_strengths": (0, MAX_OPTION_VALUE),
        "boxes_per_player": (1, MAX_BOXES_PER_PLAYER), "start_crates": (0, FULL_BB),
        "start_coins": (0, MAX_OPTION_VALUE), "start_logs": (0, MAX_OPTION_VALUE),
        "dedupe_rerolls": (0, 1), "max_decisions": (1, MAX_DECISIONS_LIMIT),
        "start_seat": (0, MAX_PLAYERS - 1), "active_seat": (0, MAX_PLAYERS - 1),
        "end_triggered": (0, 1), "turns": (0, MAX_DECISIONS_LIMIT),
        "pirate_boxes": (0, NUM_ATTACKS * MAX_BOXES_PER_PLAYER * MAX_PLAYERS),
        "attacks_done": (0, NUM_ATTACKS), "dice": (0, 5), "rolls_used": (0, MAX_ROLLS),
        "roll_mask": (0, (1 << NUM_DICE) - 1), "pending_code": (0, NUM_CELL_CODES - 1),
        "pending_left": (0, NUM_DICE), "placed_this_turn": (0, FULL_BB),
        "architect_cell": (-1, NUM_CELLS - 1), "houses_built": (0, MAX_HOUSES),
        "bonus_due": (0, 15), "placing_bonus": (0, 1), "last_attacks": (0, NUM_ATTACKS),
        "truncated": (0, 1),
    }
    player = {
        "board": (TOWER, NUM_CELL_CODES - 1), "coins": (0, BIG), "logs": (0, BIG),
        "vp": (0, BIG), "cannons_lost": (0, NUM_ATTACKS), "soldiers": (0, NUM_SPACES),
        "sides_done": (0, 15), "sides_broken": (0, 15),
    }
    for seat in range(MAX_PLAYERS):
        bounds.update({f"p{seat}_{name}": span for name, span in player.items()})
    assert set(bounds) == set(STATE_FIELDS)
    return bounds


FIELD_BOUNDS = _field_bounds()
