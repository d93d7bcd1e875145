"""Carcassonne + Inns & Cathedrals: compiled tile tables and the flat state layout.

Rule ids (CA-x.y, DEC-n, HOT-n) refer to ``rules/carcassonne.md``.  The tile rows live in
``tiles.py``; this module turns them into numpy tables indexed by tile type (0..23 base
A..X, 24..40 expansion IA..IQ), rotation and board side / half-edge (CA-3.4).
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, HEADER_SIZE
from .tiles import ALL_TILES, BASE_TILES, HALF_EDGE_NAMES, SIDE_LETTERS

GAME_ID = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 6              # CA-2.5 (6 only with I&C)
MAX_PLAYERS_BASE = 5

# Edge types (CA-3.2) and segment kinds (CA-3.6).
FIELD_EDGE, ROAD_EDGE, CITY_EDGE = 0, 1, 2
EDGE_LETTERS = "FRC"
MONASTERY, CITY, ROAD, FIELD = 0, 1, 2, 3
KIND_NAMES = ("monastery", "city", "road", "field")

NUM_TYPES = len(ALL_TILES)                   # 41
NUM_BASE_TYPES = len(BASE_TILES)             # 24
TILE_NAMES = tuple(row[0] for row in ALL_TILES)
TYPE_OF = {name: i for i, name in enumerate(TILE_NAMES)}
START_TYPE = TYPE_OF["D"]                    # CA-4.4
IC_TYPE = TYPE_OF["IC"]                      # AMB-3
MAX_SLOTS = 8                                # CA-3.7
MAX_TILES = 90                               # CA-5.6: 72 + 18, start tile included

# DEC-2: a W x W grid centred on the start tile holds every legal game (tile k lies
# within Manhattan distance k of the origin).  One size for both tile sets.  It addresses
# cells in the state (the packed grid) and the optional "grid" action layout.
BOARD_WIDTH = 2 * MAX_TILES + 1              # 181
CENTER = MAX_TILES                           # grid index of x = 0 / y = 0
NUM_CELLS = BOARD_WIDTH * BOARD_WIDTH
STEP = np.array([-BOARD_WIDTH, 1, BOARD_WIDTH, -1], dtype=np.int64)   # N E S W (CA-3.1)
CELLS_PER_WORD, CELL_BITS = 8, 7             # grid packed 8 cells of 7 bits per int64
GRID_WORDS = (NUM_CELLS + CELLS_PER_WORD - 1) // CELLS_PER_WORD

# --- actions (DEC-2..DEC-5) ----------------------------------------------------------------
# Default "frontier" layout: placement 4 * j + r, where j indexes the frontier (the empty
# cells next to a placed tile) sorted by cell index, i.e. row-major (y, then x).  n placed
# tiles have at most 2n + 2 frontier cells (DEC-5), and a placement happens with at most
# 89 tiles down, so 180 slots reach every legal placement of every game.
FRONTIER_SLOTS = 2 * (MAX_TILES - 1) + 2     # 180 slots that can hold a placement
FRONTIER_CAP = 2 * MAX_TILES + 2             # 182: the frontier stored in the state
NUM_PLACEMENTS = 4 * FRONTIER_SLOTS          # 720
A_MEEPLE = NUM_PLACEMENTS                    # + slot * 2 + (0 normal | 1 large)
A_NO_MEEPLE = A_MEEPLE + 2 * MAX_SLOTS
NUM_ACTIONS = A_NO_MEEPLE + 1                # 737
# Optional "grid" layout, the spec's DEC-2: ((y + c) * W + (x + c)) * 4 + r.
GRID_PLACEMENTS = NUM_CELLS * 4              # 131,044
GRID_A_MEEPLE = GRID_PLACEMENTS
GRID_A_NO_MEEPLE = GRID_A_MEEPLE + 2 * MAX_SLOTS
GRID_NUM_ACTIONS = GRID_A_NO_MEEPLE + 1      # 131,061
LAYOUT_FRONTIER, LAYOUT_GRID = 0, 1
PLACEMENT_LAYOUTS = ("frontier", "grid")
NORMAL, LARGE = 0, 1

# --- phases -------------------------------------------------------------------------------
PH_DRAW, PH_PLACE, PH_MEEPLE, PH_GAME_OVER = range(4)
PHASE_NAMES = ("draw", "place_tile", "place_meeple", "game_over")


def _compile_tiles():
    n = NUM_TYPES
    counts = np.zeros(n, dtype=np.int64)
    edges = np.zeros((n, 4), dtype=np.int64)
    rotations = np.zeros(n, dtype=np.int64)
    num_slots = np.zeros(n, dtype=np.int64)
    kind = np.full((n, MAX_SLOTS), -1, dtype=np.int64)
    sides = np.zeros((n, MAX_SLOTS), dtype=np.int64)      # canonical side bits (city/road)
    halves = np.zeros((n, MAX_SLOTS), dtype=np.int64)     # canonical half-edge bits (field)
    shield = np.zeros((n, MAX_SLOTS), dtype=np.int64)
    inn = np.zeros((n, MAX_SLOTS), dtype=np.int64)
    cathedral = np.zeros((n, MAX_SLOTS), dtype=np.int64)
    adjacent = np.zeros((n, MAX_SLOTS), dtype=np.int64)   # bit k: borders city slot k
    for t, (_, _, count, edge_text, rots, segments) in enumerate(ALL_TILES):
        counts[t] = count
        rotations[t] = rots
        edges[t] = [EDGE_LETTERS.index(c) for c in edge_text]
        num_slots[t] = len(segments)
        for s, text in enumerate(segments):
            words = text.split()
            kind[t, s] = KIND_NAMES.index(words[0])
            for word in words[1:]:
                if word == "+shield":
                    shield[t, s] = 1
                elif word == "+inn":
                    inn[t, s] = 1
                elif word == "+cathedral":
                    cathedral[t, s] = 1
                elif word.startswith(">"):
                    for k in word[1:].split(","):
                        adjacent[t, s] |= 1 << int(k)
                elif word in SIDE_LETTERS:
                    sides[t, s] |= 1 << SIDE_LETTERS.index(word)
                else:
                    halves[t, s] |= 1 << HALF_EDGE_NAMES.index(word)
    return (counts, edges, rotations, num_slots, kind, sides, halves, shield, inn, cathedral,
            adjacent)


(TILE_COUNT, EDGES, DISTINCT_ROTATIONS, NUM_SLOTS, SEG_KIND, SEG_SIDES, SEG_HALVES,
 SEG_SHIELD, SEG_INN, SEG_CATHEDRAL, SEG_ADJACENT) = _compile_tiles()
IS_EXPANSION = np.arange(NUM_TYPES) >= NUM_BASE_TYPES
HAS_MONASTERY = (SEG_KIND[:, 0] == MONASTERY).astype(np.int64)


def _rotate_tables():
    """CA-3.4: canonical side s lies on board side (s + r) % 4, half-edge h on (h + 2r) % 8."""
    rot_edge = np.zeros((NUM_TYPES, 4, 4), dtype=np.int64)
    rot_code = np.zeros((NUM_TYPES, 4), dtype=np.int64)   # 2 bits per board side (HOT-1)
    side_slot = np.full((NUM_TYPES, 4, 4), -1, dtype=np.int64)
    half_slot = np.full((NUM_TYPES, 4, 8), -1, dtype=np.int64)
    port_sides = np.zeros((NUM_TYPES, 4, MAX_SLOTS), dtype=np.int64)   # board side bits
    for t in range(NUM_TYPES):
        for r in range(4):
            for d in range(4):
                rot_edge[t, r, d] = EDGES[t, (d - r) % 4]
                rot_code[t, r] |= rot_edge[t, r, d] << (2 * d)
            for s in range(NUM_SLOTS[t]):
                for side in range(4):
                    if SEG_SIDES[t, s] >> side & 1:
                        side_slot[t, r, (side + r) % 4] = s
                        port_sides[t, r, s] |= 1 << ((side + r) % 4)
                for h in range(8):
                    if SEG_HALVES[t, s] >> h & 1:
                        half_slot[t, r, (h + 2 * r) % 8] = s
    return rot_edge, rot_code, side_slot, half_slot, port_sides


ROT_EDGE, ROT_CODE, SIDE_SLOT, HALF_SLOT, PORT_SIDES = _rotate_tables()


def _fit_table():
    """HOT-1: a frontier cell's requirement is a key, 2 bits per board side d (0 = no tile
    there, else 1 + the edge type the neighbour shows); FITS[t, key] has bit r set when
    tile t with rotation r matches every constrained side (CA-6.3)."""
    fits = np.zeros((NUM_TYPES, 256), dtype=np.int64)
    for key in range(1, 256):
        for t in range(NUM_TYPES):
            for r in range(4):
                if all((key >> (2 * d)) & 3 in (0, 1 + ROT_EDGE[t, r, d]) for d in range(4)):
                    fits[t, key] |= 1 << r
    return fits


FITS = _fit_table()

# --- options (spec §15) ------------------------------------------------------------------
FARM_RULES = ("c3", "c1_v2", "c1_v1")                 # AMB-1
SMALL_CITY_RULES = ("c2c3", "c1_early")               # AMB-12
IC_INN_RULES = ("east_only", "east_and_west")         # AMB-3
DEFAULT_OPTIONS = {
    "expansion_inns_cathedrals": True,
    "farmers": True,
    "farm_scoring": "c3",
    "small_city_rule": "c2c3",
    "ic_tjunction_inn": "east_only",
    "unplaceable": "remove",                          # AMB-6: the only option
    "auto_pass_meeple": True,
    # DEC-6: list only the lowest of rotations that give the same board (smaller MCTS
    # branching); off by default so the mask is the full legal set of CA-6.3.
    "dedupe_rotations": False,
    # Action layout of the placements: "frontier" (737 actions) or the spec's DEC-2
    # "grid" (131,061 actions); the same rules and the same legal (cell, r) sets.
    "placement_layout": "frontier",
    # Decision cap (a truncation, not a rules end): see MAX_DECISIONS.
    "max_decisions": 2 * (MAX_TILES - 1),
}
NORMAL_MEEPLES = 7                                    # CA-2.5
# The most decisions a complete game can hold: 89 placements (every tile but the start
# tile, CA-5.6) each followed by at most one meeple decision.  The pile shrinks on every
# draw, so every game ends by CA-6.6 within this many; the cap (option ``max_decisions``,
# 1..MAX_DECISIONS, this by default) never triggers in full play and only ends a shorter
# game on purpose (e.g. a training curriculum), as a PettingZoo truncation.
MAX_DECISIONS = 2 * (MAX_TILES - 1)                   # 178

# --- state layout ---------------------------------------------------------------------------
C_EXPANSION = HEADER_SIZE
C_FARMERS = C_EXPANSION + 1
C_FARM_RULE = C_FARMERS + 1
C_SMALL_CITY = C_FARM_RULE + 1
C_IC_INN = C_SMALL_CITY + 1
C_AUTO_PASS = C_IC_INN + 1
C_DEDUPE = C_AUTO_PASS + 1
C_LAYOUT = C_DEDUPE + 1            # LAYOUT_FRONTIER | LAYOUT_GRID
C_MAX_DECISIONS = C_LAYOUT + 1     # the decision cap (MAX_DECISIONS)
CONFIG_SIZE = C_MAX_DECISIONS + 1 - HEADER_SIZE

G_START_SEAT = HEADER_SIZE + CONFIG_SIZE
G_ACTIVE = G_START_SEAT + 1        # whose turn it is, also during the draw (chance)
G_HAND = G_ACTIVE + 1              # tile type drawn and not yet placed, else -1
G_PLACED = G_HAND + 1              # tiles on the board, start tile included
G_PILE_LEFT = G_PLACED + 1         # tiles in the draw pile
G_DISCARDED = G_PILE_LEFT + 1      # CA-6.4: unplaceable tiles removed so far
G_TRUNCATED = G_DISCARDED + 1      # 1: the game was cut off at max_decisions (core reads it)
G_SCORE = G_TRUNCATED + 1          # MAX_PLAYERS running scores (CA-13.2: plain integers)
G_NORMAL = G_SCORE + MAX_PLAYERS   # normal meeples in each supply
G_LARGE = G_NORMAL + MAX_PLAYERS   # large meeple in supply (0/1)
G_PILE = G_LARGE + MAX_PLAYERS     # NUM_TYPES remaining counts (CA-6.5: public)
T_TYPE = G_PILE + NUM_TYPES        # per placement (order index): tile type
T_ROT = T_TYPE + MAX_TILES
T_CELL = T_ROT + MAX_TILES         # grid cell index
NUM_NODES = MAX_TILES * MAX_SLOTS  # HOT-2: node = placement * 8 + slot
N_ROOT = T_CELL + MAX_TILES        # root of the node's feature (kept exact: find is O(1))
N_NEXT = N_ROOT + NUM_NODES        # circular member list
N_SIZE = N_NEXT + NUM_NODES        # (root) number of member nodes
N_OPEN = N_SIZE + NUM_NODES        # (root) open city/road ports, HOT-3
N_SHIELDS = N_OPEN + NUM_NODES     # (root) shields
N_FLAGS = N_SHIELDS + NUM_NODES    # (root) bit 0 inn, bit 1 cathedral
N_FIGURES = N_FLAGS + NUM_NODES    # (root) meeples in the feature (figures, CA-11.7)
N_MEEPLE = N_FIGURES + NUM_NODES   # (node) 0, or 1 + 2 * owner + (0 normal | 1 large)
GRID = N_MEEPLE + NUM_NODES        # packed grid: placement index + 1, 0 = empty
G_BOX = GRID + GRID_WORDS          # bounding box of the tiles: column min, max, row min, max
G_FRONTIER = G_BOX + 4             # number of frontier cells
F_CELL = G_FRONTIER + 1            # frontier cells, ascending (the frontier layout's j)
F_KEY = F_CELL + FRONTIER_CAP      # their requirement keys (see FITS)
STATE_SIZE = F_KEY + FRONTIER_CAP
FLAG_INN, FLAG_CATHEDRAL = 1, 2

# --- observation (DEC-8; see observe.py) ---------------------------------------------------
OBS_WINDOW = 15                    # planes cover 15 x 15 cells around the board's centre
OBS_HALF = OBS_WINDOW // 2
OBS_CELLS = OBS_WINDOW * OBS_WINDOW
(PL_OCCUPIED, PL_CITY, PL_ROAD, PL_MONASTERY, PL_SHIELD, PL_INN, PL_CATHEDRAL, PL_FRONTIER,
 PL_OPEN_SIDES, PL_MEEPLE, PL_FARMER, PL_LEGAL, PL_LAST) = (
    0, 1, 5, 9, 10, 11, 12, 13, 14, 15, 21, 22, 26)
OBS_CHANNELS = 27
OBS_PLANES_SIZE = OBS_CHANNELS * OBS_CELLS
V_PHASE = OBS_PLANES_SIZE          # 2: place_tile, place_meeple
V_HAND = V_PHASE + 2               # NUM_TYPES one-hot
V_PILE = V_HAND + NUM_TYPES        # NUM_TYPES remaining / original count
V_SCORE = V_PILE + NUM_TYPES       # per relative seat: score / 100
V_NORMAL = V_SCORE + MAX_PLAYERS   # normal meeples / 7
V_LARGE = V_NORMAL + MAX_PLAYERS
V_PRESENT = V_LARGE + MAX_PLAYERS
V_PILE_LEFT = V_PRESENT + MAX_PLAYERS
V_OUTSIDE = V_PILE_LEFT + 1        # tiles beyond the window / 10
V_ORIGIN = V_OUTSIDE + 1           # window's top-left cell (x0, y0) / MAX_TILES
V_FRONTIER = V_ORIGIN + 2          # frontier cells / FRONTIER_SLOTS
V_SLOTS = V_FRONTIER + 1           # per frontier slot j: (present, column, row) in the window
OBS_SIZE = V_SLOTS + 3 * FRONTIER_SLOTS
OBS_VECTOR_SIZE = OBS_SIZE - OBS_PLANES_SIZE
MAX_CHANCE_OUTCOMES = NUM_TYPES


def _observation_marks():
    """Per (type, rotation): the planes 0..12 a tile sets to 1 (occupied, city and road
    sides, monastery, shield, inn, cathedral), as a list and its length (observe.py)."""
    marks = np.zeros((NUM_TYPES, 4, 13), dtype=np.int64)
    count = np.zeros((NUM_TYPES, 4), dtype=np.int64)
    for t in range(NUM_TYPES):
        for r in range(4):
            planes = [PL_OCCUPIED]
            for d in range(4):
                if ROT_EDGE[t, r, d] == CITY_EDGE:
                    planes.append(PL_CITY + d)
                elif ROT_EDGE[t, r, d] == ROAD_EDGE:
                    planes.append(PL_ROAD + d)
            for flag, plane in ((HAS_MONASTERY[t], PL_MONASTERY), (SEG_SHIELD[t].any(), PL_SHIELD),
                                (SEG_INN[t].any(), PL_INN), (SEG_CATHEDRAL[t].any(), PL_CATHEDRAL)):
                if flag:
                    planes.append(plane)
            count[t, r] = len(planes)
            marks[t, r, :len(planes)] = planes
    return marks, count


OBS_MARKS, OBS_MARK_COUNT = _observation_marks()


def _state_fields() -> dict[str, tuple[int, int]]:
    fields = {
        "game_id": (H_GAME_ID, 1), "num_players": (H_NUM_PLAYERS, 1), "to_move": (H_TO_MOVE, 1),
        "phase": (H_PHASE, 1), "ply": (H_PLY, 1),
        "expansion_inns_cathedrals": (C_EXPANSION, 1), "farmers": (C_FARMERS, 1),
        "farm_scoring": (C_FARM_RULE, 1), "small_city_rule": (C_SMALL_CITY, 1),
        "ic_tjunction_inn": (C_IC_INN, 1), "auto_pass_meeple": (C_AUTO_PASS, 1),
        "dedupe_rotations": (C_DEDUPE, 1), "placement_layout": (C_LAYOUT, 1),
        "max_decisions": (C_MAX_DECISIONS, 1), "truncated": (G_TRUNCATED, 1),
        "start_seat": (G_START_SEAT, 1), "active_seat": (G_ACTIVE, 1), "hand": (G_HAND, 1),
        "placed": (G_PLACED, 1), "pile_left": (G_PILE_LEFT, 1), "discarded": (G_DISCARDED, 1),
        "scores": (G_SCORE, MAX_PLAYERS), "normal_meeples": (G_NORMAL, MAX_PLAYERS),
        "large_meeples": (G_LARGE, MAX_PLAYERS), "pile": (G_PILE, NUM_TYPES),
        "tile_type": (T_TYPE, MAX_TILES), "tile_rotation": (T_ROT, MAX_TILES),
        "tile_cell": (T_CELL, MAX_TILES), "node_root": (N_ROOT, NUM_NODES),
        "node_next": (N_NEXT, NUM_NODES), "node_size": (N_SIZE, NUM_NODES),
        "node_open": (N_OPEN, NUM_NODES), "node_shields": (N_SHIELDS, NUM_NODES),
        "node_flags": (N_FLAGS, NUM_NODES), "node_figures": (N_FIGURES, NUM_NODES),
        "node_meeple": (N_MEEPLE, NUM_NODES), "grid": (GRID, GRID_WORDS),
        "bounding_box": (G_BOX, 4), "frontier_size": (G_FRONTIER, 1),
        "frontier_cells": (F_CELL, FRONTIER_CAP), "frontier_keys": (F_KEY, FRONTIER_CAP),
    }
    assert sum(length for _, length in fields.values()) == STATE_SIZE
    return fields


STATE_FIELDS = _state_fields()

# Inclusive range of every element of each field (core refuses a loaded state outside them
# before validate.py checks how the fields fit together).  Fields that validate.py rebuilds
# from the placement list and compares exactly (board, frontier, feature tables) only need
# bounds that keep that rebuild and the comparison inside the arrays.
MAX_SCORE = 10**6                  # far above any real score (~150), far below overflow
FIELD_BOUNDS = {
    "game_id": (GAME_ID, GAME_ID), "num_players": (MIN_PLAYERS, MAX_PLAYERS),
    "to_move": (-2, MAX_PLAYERS - 1),                 # TERMINAL, CHANCE or a seat
    "phase": (0, len(PHASE_NAMES) - 1), "ply": (0, MAX_DECISIONS),
    "expansion_inns_cathedrals": (0, 1), "farmers": (0, 1),
    "farm_scoring": (0, len(FARM_RULES) - 1), "small_city_rule": (0, len(SMALL_CITY_RULES) - 1),
    "ic_tjunction_inn": (0, len(IC_INN_RULES) - 1), "auto_pass_meeple": (0, 1),
    "dedupe_rotations": (0, 1), "placement_layout": (0, len(PLACEMENT_LAYOUTS) - 1),
    "max_decisions": (1, MAX_DECISIONS), "truncated": (0, 1),
    "start_seat": (0, MAX_PLAYERS - 1), "active_seat": (0, MAX_PLAYERS - 1),
    "hand": (-1, NUM_TYPES - 1), "placed": (1, MAX_TILES),
    "pile_left": (0, MAX_TILES - 1), "discarded": (0, MAX_TILES - 1),
    "scores": (0, MAX_SCORE), "normal_meeples": (0, NORMAL_MEEPLES), "large_meeples": (0, 1),
    "pile": (0, int(TILE_COUNT.max())), "tile_type": (0, NUM_TYPES - 1),
    "tile_rotation": (0, 3), "tile_cell": (0, NUM_CELLS - 1),
    "node_root": (0, NUM_NODES - 1), "node_next": (0, NUM_NODES - 1),
    "node_size": (0, NUM_NODES), "node_open": (0, 4 * MAX_TILES),
    "node_shields": (0, MAX_TILES), "node_flags": (0, FLAG_INN | FLAG_CATHEDRAL),
    "node_figures": (0, MAX_PLAYERS * (NORMAL_MEEPLES + 1)),
    "node_meeple": (0, 2 * MAX_PLAYERS),              # 1 + 2 * owner + large, 0 = none
    "grid": (0, (1 << (CELLS_PER_WORD * CELL_BITS)) - 1),
    "bounding_box": (0, BOARD_WIDTH - 1), "frontier_size": (0, FRONTIER_CAP),
    "frontier_cells": (0, NUM_CELLS - 1), "frontier_keys": (0, 255),
}
assert set(FIELD_BOUNDS) == set(STATE_FIELDS)


def cell_of(x: int, y: int) -> int:
    return (y + CENTER) * BOARD_WIDTH + (x + CENTER)


def xy_of(cell: int) -> tuple[int, int]:
    return cell % BOARD_WIDTH - CENTER, cell // BOARD_WIDTH - CENTER


def layout_of(state: np.ndarray) -> int:
    return int(state[C_LAYOUT])


def meeple_base(state: np.ndarray) -> int:
    """First meeple action of the state's layout (A_MEEPLE or GRID_A_MEEPLE)."""
    return GRID_A_MEEPLE if state[C_LAYOUT] == LAYOUT_GRID else A_MEEPLE


def num_actions_of(layout: int) -> int:
    return GRID_NUM_ACTIONS if layout == LAYOUT_GRID else NUM_ACTIONS


def grid_placement_action(x: int, y: int, rotation: int) -> int:
    """The DEC-2 grid action of (x, y, r)."""
    return cell_of(x, y) * 4 + rotation


def frontier_slot(state: np.ndarray, cell: int) -> int:
    """Index j of ``cell`` in the state's frontier, or -1."""
    size = int(state[G_FRONTIER])
    cells = state[F_CELL:F_CELL + size]
    j = int(np.searchsorted(cells, cell))
    return j if j < size and cells[j] == cell else -1


def placement_action(state: np.ndarray, x: int, y: int, rotation: int) -> int:
    """The action placing a tile at (x, y) with ``rotation`` in the state's layout (-1 when
    (x, y) is not a frontier cell of the frontier layout)."""
    if state[C_LAYOUT] == LAYOUT_GRID:
        return grid_placement_action(x, y, rotation)
    j = frontier_slot(state, cell_of(x, y))
    return -1 if j < 0 else 4 * j + rotation


def placement_of(state: np.ndarray, action: int) -> tuple[int, int, int] | None:
    """(x, y, r) of a placement action in the state's layout; None when it names no
    frontier cell (frontier layout) or is not a placement."""
    action = int(action)
    if state[C_LAYOUT] == LAYOUT_GRID:
        if not 0 <= action < GRID_PLACEMENTS:
            return None
        return (*xy_of(action // 4), action % 4)
    if not 0 <= action < NUM_PLACEMENTS or action // 4 >= state[G_FRONTIER]:
        return None
    return (*xy_of(int(state[F_CELL + action // 4])), action % 4)


def meeple_action(slot: int, large: bool = False, layout: int = LAYOUT_FRONTIER) -> int:
    base = GRID_A_MEEPLE if layout == LAYOUT_GRID else A_MEEPLE
    return base + 2 * slot + int(large)


def no_meeple_action(layout: int = LAYOUT_FRONTIER) -> int:
    return GRID_A_NO_MEEPLE if layout == LAYOUT_GRID else A_NO_MEEPLE
