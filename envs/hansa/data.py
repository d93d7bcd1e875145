"""Hansa static tables and the layout of the flat state array.

Rule ids (HS-x.y) refer to ``rules/hansa.md``.  The board (routes, board numbers, warehouse
counts) is *not* a table here: it varies per env (``board.py``) and travels inside the
state's config block, so every kernel reads the board of the game it is playing and a saved
game replays on its own board.  Only what is fixed by the game lives here: the nine cities
and their rough places on the map, the goods, the action space and the state layout.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, HEADER_SIZE

GAME_ID = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# --- Cities (HS-2.1).  Ids are code labels, not board numbers (those are board data). ----
NUM_CITIES = 9
CITY_CODES = ("TON", "AAL", "CPH", "LUB", "DAN", "KAL", "STO", "REV", "RIG")
CITY_NAMES = ("Tonsberg", "Aalborg", "Copenhagen", "Lubeck", "Danzig", "Kalmar",
              "Stockholm", "Reval", "Riga")
TON, AAL, CPH, LUB, DAN, KAL, STO, REV, RIG = range(NUM_CITIES)
START_CITY = CPH             # HS-3.4 the ship starts here; HS-4.2 no initial stalls here
MAX_SPACES = 2               # HS-2.3 one or two warehouse spaces per city
MAX_EXITS = 3                # HS-2.4 N4
# Rough map positions (x east, y south, 0..1) for drawing only: real geography.
CITY_XY = np.array([[0.20, 0.10], [0.18, 0.40], [0.42, 0.60], [0.33, 0.88], [0.70, 0.88],
                    [0.58, 0.48], [0.70, 0.12], [0.92, 0.10], [0.92, 0.48]])

# --- Goods (HS-1.2): type t = 3 * colour + (barrels - 1). ---------------------------------
NUM_COLOURS = 6
NUM_TYPES = 18
TOKENS_OF_BARRELS = (4, 5, 4)            # per colour: 1, 2, 3 barrels
TOKENS_PER_COLOUR = 13
COLOUR_LETTERS = "ABCDEF"
NUM_STACKS = 5                           # HS-3.3

# --- Players (HS-1.3 .. HS-3.5, HS-9) ------------------------------------------------------
STALLS_PER_PLAYER = 15
START_MONEY = 3
INCOME = 3                               # HS-6.1
MONEY_LIMIT = 3                          # HS-9.1
HAND_LIMIT = 3                           # HS-9.2
INIT_PLACEMENTS = 3                      # HS-4.1
INIT_STALLS = 2


def colours_in_play(num_players: int) -> int:
    """HS-3.1: 4 / 5 / 6 colours for 2 / 3 / 4 players."""
    return num_players + 2


# --- Flat action space (spec §14, 66 actions) ----------------------------------------------
A_INIT_PLACE = 0          # 0..8: two stalls into city c (initial placement)
A_MOVE = 9                # 9..17: sail to city c
A_REFILL = 18
A_SKIP_REFILL = 19
A_BUY = 20                # 20..21: buy the token of warehouse space j of the ship's city
A_PLACE = 22              # 22..39: 22 + 3 * colour + k - 1: place k stalls with a colour
A_SELL_MARK = 40          # 40..57: add one token of type t to the pending sale
A_SELL_COMMIT = 58
A_END = 59                # end phase 3 (pass)
A_TAX = 60                # 60..65: discard one token of a colour (phase 4)
NUM_ACTIONS = 66

# --- Phases ------------------------------------------------------------------------------------
PH_DEAL = 0               # chance: setup fills the warehouses (HS-3.2)
PH_INIT_PLACE = 1         # HS-4
PH_REFILL = 2             # HS-7: refill or skip
PH_DRAW = 3               # chance: a refill draws from the supply stacks
PH_ACTIONS = 4            # HS-8
PH_SELL = 5               # HS-8.7: a sale is being marked
PH_TAX = 6                # HS-9.2: goods above the limit are discarded
PH_GAME_OVER = 7
PHASE_NAMES = ("deal", "init_place", "refill", "draw", "actions", "selling", "tax",
               "game_over")

# --- Rule options (spec §13 flags) -------------------------------------------------------------
INIT_ORDERS = ("reverse_rounds", "reverse_pairs")
STACK_SIZES = ("larger_first", "larger_last")
# ``board`` also takes "generated:<seed>" and distributions ("generated:<a>-<b>", splits).
BOARD_OPTION = "board"
DEFAULT_OPTIONS = {
    "board": None,                   # None = the spec's reconstruction (board.py)
    "init_order": "reverse_rounds",
    "place_exact": False,
    "sell_whole_colour": False,
    "stack_sizes": "larger_first",
    "max_turns": 500,                # HS-10.3: truncation cap, not a rule of the game
}
# The largest max_turns accepted: 20x the default, far beyond any game that makes progress
# (random play ends in at most ~100 turns), and small enough that every counter stays tiny.
MAX_TURNS_LIMIT = 10_000
BOARD_DEFAULT, BOARD_CUSTOM = 0, 1

# --- State layout --------------------------------------------------------------------------------
# Config block: options and the board, copied in at init and never changed.
C_INIT_ORDER = HEADER_SIZE
C_PLACE_EXACT = C_INIT_ORDER + 1
C_SELL_WHOLE = C_PLACE_EXACT + 1
C_STACK_SIZES = C_SELL_WHOLE + 1
C_MAX_TURNS = C_STACK_SIZES + 1
C_BOARD_KIND = C_MAX_TURNS + 1            # 0: the spec's reconstruction, 1: another board
C_EXITS = C_BOARD_KIND + 1                # per city: bitmask of the cities its routes reach
C_NUMBER = C_EXITS + NUM_CITIES           # per city: board number 1..9 (HS-2.2)
C_SPACES = C_NUMBER + NUM_CITIES          # per city: warehouse spaces 1..2 (HS-2.3)
C_FILL = C_SPACES + NUM_CITIES            # cities in ascending board number (HS-3.2, 7.3)
CONFIG_END = C_FILL + NUM_CITIES
CONFIG_SIZE = CONFIG_END - HEADER_SIZE

# Global block.
G_START_SEAT = CONFIG_END
G_ACTIVE = G_START_SEAT + 1      # whose turn (also during its draws); the placer in HS-4
G_SHIP = G_ACTIVE + 1
G_ACTED = G_SHIP + 1             # 1 once this visit's action is used (HS-8.3)
G_END_TRIGGERED = G_ACTED + 1    # HS-10.1
G_TRUNCATED = G_END_TRIGGERED + 1
G_TURNS = G_TRUNCATED + 1        # turns completed
G_INIT_STEP = G_TURNS + 1        # initial placements made
G_DRAWS = G_INIT_STEP + 1        # tokens drawn from the stacks so far (the stack pointer)
G_STACK_END = G_DRAWS + 1        # 5 cumulative stack ends (HS-3.3)
G_SUPPLY = G_STACK_END + NUM_STACKS   # 18: tokens not yet drawn, by type (order unknown)
G_WAREHOUSE = G_SUPPLY + NUM_TYPES    # 18: space 2 * city + j: token type or -1
G_REMOVED = G_WAREHOUSE + NUM_CITIES * MAX_SPACES   # 18: tokens out of the game
G_PENDING = G_REMOVED + NUM_TYPES     # 18: tokens marked for the pending sale
G_BANK_PAID = G_PENDING + NUM_TYPES   # thalers the bank has paid out (income)
G_BANK_TAKEN = G_BANK_PAID + 1        # thalers paid to the bank (refill, moves, buys, tax)
GLOBAL_END = G_BANK_TAKEN + 1

# Per-player block, MAX_PLAYERS of them.
P_MONEY = 0
P_STALL_SUPPLY = 1
P_INIT_USED = 2                  # bitmask of cities used in the initial placement (HS-4.3)
P_STALLS = 3                     # 9: stalls in each city
P_HAND = P_STALLS + NUM_CITIES   # 18: unsold tokens by type
P_SOLD = P_HAND + NUM_TYPES      # 18: sold tokens by type (public, HS-12.1)
PLAYER_SIZE = P_SOLD + NUM_TYPES
PLAYERS_BASE = GLOBAL_END
STATE_SIZE = PLAYERS_BASE + MAX_PLAYERS * PLAYER_SIZE

MAX_CHANCE_OUTCOMES = NUM_TYPES        # a draw reveals one token type

# --- Observation layout (per seat, seats rotated so the observer is slot 0) ------------------
OBS_PLAYER_SIZE = 4 + 2 * NUM_CITIES + NUM_CITIES + 2 * NUM_TYPES + 4
OBS_GLOBAL_SIZE = (NUM_CITIES + NUM_CITIES * MAX_SPACES * NUM_TYPES + NUM_CITIES * NUM_CITIES
                   + 3 * NUM_CITIES + NUM_TYPES + NUM_STACKS + 3 + NUM_TYPES
                   + len(PHASE_NAMES) + 3 + 1)
OBS_SIZE = MAX_PLAYERS * OBS_PLAYER_SIZE + OBS_GLOBAL_SIZE


def _state_fields() -> dict[str, tuple[int, int]]:
    """Name -> (offset, length) of every slot, for the JSON save format."""
    fields = {
        "game_id": (H_GAME_ID, 1), "num_players": (H_NUM_PLAYERS, 1), "to_move": (H_TO_MOVE, 1),
        "phase": (H_PHASE, 1), "ply": (H_PLY, 1),
        "init_order": (C_INIT_ORDER, 1), "place_exact": (C_PLACE_EXACT, 1),
        "sell_whole_colour": (C_SELL_WHOLE, 1), "stack_sizes": (C_STACK_SIZES, 1),
        "max_turns": (C_MAX_TURNS, 1), "board_kind": (C_BOARD_KIND, 1),
        "board_exits": (C_EXITS, NUM_CITIES), "board_numbers": (C_NUMBER, NUM_CITIES),
        "board_spaces": (C_SPACES, NUM_CITIES), "board_fill_order": (C_FILL, NUM_CITIES),
        "start_seat": (G_START_SEAT, 1), "active_seat": (G_ACTIVE, 1), "ship": (G_SHIP, 1),
        "acted": (G_ACTED, 1), "end_triggered": (G_END_TRIGGERED, 1),
        "truncated": (G_TRUNCATED, 1), "turns": (G_TURNS, 1), "init_step": (G_INIT_STEP, 1),
        "draws": (G_DRAWS, 1), "stack_ends": (G_STACK_END, NUM_STACKS),
        "supply": (G_SUPPLY, NUM_TYPES), "warehouses": (G_WAREHOUSE, NUM_CITIES * MAX_SPACES),
        "removed": (G_REMOVED, NUM_TYPES), "pending_sale": (G_PENDING, NUM_TYPES),
        "bank_paid": (G_BANK_PAID, 1), "bank_taken": (G_BANK_TAKEN, 1),
    }
    player_fields = {
        "money": (P_MONEY, 1), "stall_supply": (P_STALL_SUPPLY, 1),
        "init_used": (P_INIT_USED, 1), "stalls": (P_STALLS, NUM_CITIES),
        "hand": (P_HAND, NUM_TYPES), "sold": (P_SOLD, NUM_TYPES),
    }
    for seat in range(MAX_PLAYERS):
        for name, (offset, length) in player_fields.items():
            fields[f"p{seat}_{name}"] = (PLAYERS_BASE + seat * PLAYER_SIZE + offset, length)
    assert sum(length for _, length in fields.values()) == STATE_SIZE
    return fields


STATE_FIELDS = _state_fields()


# --- Bounds of every field on load (core checks them before validate.py's cross checks) ---
# Thalers: at most 3 after the tax (HS-9.1) plus the turn's income, plus 1 for every
# token a rival can buy from a city this player leads between its turns (every token once).
MAX_MONEY = MONEY_LIMIT + INCOME + NUM_COLOURS * TOKENS_PER_COLOUR          # 84
MAX_TOKENS = NUM_COLOURS * TOKENS_PER_COLOUR                                # 78
# Decisions: 12 initial placements, then per turn at most a refill, one move per thaler,
# one action per visit, a mark per token, a sale, the end and the tax discards: far
# below 400 a turn.
MAX_PLY = INIT_PLACEMENTS * MAX_PLAYERS + 400 * MAX_TURNS_LIMIT


def _field_bounds() -> dict[str, tuple[int, int]]:
    most_of_a_type = max(TOKENS_OF_BARRELS)
    bounds = {
        "game_id": (GAME_ID, GAME_ID), "num_players": (MIN_PLAYERS, MAX_PLAYERS),
        "to_move": (-2, MAX_PLAYERS - 1), "phase": (0, len(PHASE_NAMES) - 1),
        "ply": (0, MAX_PLY),
        "init_order": (0, len(INIT_ORDERS) - 1), "place_exact": (0, 1),
        "sell_whole_colour": (0, 1), "stack_sizes": (0, len(STACK_SIZES) - 1),
        "max_turns": (1, MAX_TURNS_LIMIT), "board_kind": (BOARD_DEFAULT, BOARD_CUSTOM),
        "board_exits": (0, (1 << NUM_CITIES) - 1), "board_numbers": (1, NUM_CITIES),
        "board_spaces": (1, MAX_SPACES), "board_fill_order": (0, NUM_CITIES - 1),
        "start_seat": (0, MAX_PLAYERS - 1), "active_seat": (0, MAX_PLAYERS - 1),
        "ship": (0, NUM_CITIES - 1), "acted": (0, 1), "end_triggered": (0, 1),
        "truncated": (0, 1), "turns": (0, MAX_TURNS_LIMIT),
        "init_step": (0, INIT_PLACEMENTS * MAX_PLAYERS), "draws": (0, MAX_TOKENS),
        "stack_ends": (0, MAX_TOKENS), "supply": (0, most_of_a_type),
        "warehouses": (-1, NUM_TYPES - 1), "removed": (0, most_of_a_type),
        "pending_sale": (0, most_of_a_type),
        "bank_paid": (0, INCOME * MAX_TURNS_LIMIT),
        "bank_taken": (0, INCOME * MAX_TURNS_LIMIT + START_MONEY * MAX_PLAYERS),
    }
    player = {
        "money": (0, MAX_MONEY), "stall_supply": (0, STALLS_PER_PLAYER),
        "init_used": (0, (1 << NUM_CITIES) - 1), "stalls": (0, STALLS_PER_PLAYER),
        "hand": (0, most_of_a_type), "sold": (0, most_of_a_type),
    }
    for seat in range(MAX_PLAYERS):
        bounds.update({f"p{seat}_{name}": value for name, value in player.items()})
    assert set(bounds) == set(STATE_FIELDS)
    return bounds


FIELD_BOUNDS = _field_bounds()
