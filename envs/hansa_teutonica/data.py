"""Hansa Teutonica static tables and the layout of the flat state array.

Rule ids (HT-x.y, WE-n, A-n) refer to ``rules/hansa_teutonica.md``.  The map (spec §12.1,
§12.2) is kept here as text tables, one row per city and route, and turned into numpy
arrays indexed ``[side, ...]``: side 0 is the 2-3 player side, side 1 the 4-5 side.  Both
sides share the 4-5 side's numbering (34 routes, 107 spaces); on the 2-3 side routes 32-33
(spaces 101-106) do not exist and are always masked (spec §14).

The 2-player regions (§12.6) are DERIVED AND UNVERIFIED against the printed rules: they
are the default of the ``regions`` option and travel in the state's config block, so a
corrected table needs no code change.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_GAME_ID, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, HEADER_SIZE

GAME_ID = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 5
NUM_SIDES = 2                                   # HT-1.1 / HT-4.1
NUM_CITIES = 27
NUM_ROUTES = 34
NUM_SPACES = 107
MAX_OFFICES = 4                                 # HT-2.1: 1-4 printed offices
MAX_EXTRA = 5                                   # HT-1.4: five Extra Kontor markers in all
NUM_TRACKS = 5
TRADER, MERCHANT = 0, 1                         # piece types (HT-0.4)
TRADERS_PER_PLAYER, MERCHANTS_PER_PLAYER = 27, 4   # HT-1.3
COMPLETED_LIMIT = 10                            # HT-2.7, T3
POINTS_LIMIT = 20                               # T1
ARNHEIM, STENDAL, COELLEN = 4, 24, 8            # HT-2.6, HT-2.4
COELLEN_ROUTE = 12                              # HT-2.4: Coellen-Warburg
COELLEN_VALUES = np.array([7, 8, 9, 11], dtype=np.int64)    # W, O, P, B
EAST_WEST_AWARD = np.array([7, 4, 2], dtype=np.int64)       # HT-6.5.7
TAVERN_ROUTES = np.array([7, 23, 29], dtype=np.int64)       # HT-2.5

CITY_NAMES = (
    "Groningen", "Emden", "Kampen", "Osnabrueck", "Arnheim", "Duisburg", "Dortmund",
    "Muenster", "Coellen", "Warburg", "Paderborn", "Minden", "Bremen", "Stade", "Hannover",
    "Hildesheim", "Goettingen", "Quedlinburg", "Goslar", "Brunswick", "Lueneburg", "Hamburg",
    "Luebeck", "Perleberg", "Stendal", "Magdeburg", "Halle",
)
# §12.1: offices left to right, shape-colour, '*' = coin; (2-3 side, 4-5 side).
_OFFICES = (
    ("T-W*,M-O", "T-W*,M-O"), ("M-W,T-P", "M-W,T-P"), ("T-O,T-B", "M-O,T-B"),
    ("T-W,T-O,T-B", "T-W,T-O,T-B"), ("T-W,M-W,T-O,T-P", "T-W,M-W,T-O,T-P"), ("T-W", "T-W"),
    ("M-W,T-O", "M-W,T-O,T-P"), ("M-W,T-O", "M-W,T-O"), ("T-W*,T-P", "T-W*,T-P"),
    ("T-O*,T-P", "T-O,T-P"), ("T-W,M-B", "T-W,M-B"), ("T-W,T-O,T-P,T-B", "T-W,T-O,T-P,T-B"),
    ("T-P", "M-W,T-P"), ("M-W*", "M-W"), ("T-W,T-P", "T-W,T-P"), ("T-W,T-B", "T-W,T-B"),
    ("T-W,T-O", "T-W,M-W,T-P"), ("M-O,M-P", "M-O,M-P"), ("T-W", "T-W,T-B"), ("T-O", "T-O"),
    ("M-W", "M-O,T-B"), ("T-W,T-O,T-B", "T-W,T-O,T-B"), ("T-W*,T-P", "T-W*,T-P"),
    ("T-W,T-P,M-B", "T-W,T-P,M-B"), ("T-W,M-W,T-O,T-P", "T-W,M-W,T-O,T-P"),
    ("M-W,T-O", "M-W,T-O"), ("T-W*,T-O", "T-W*,T-O"),
)
COLOURS = "WOPB"                                # HT-0.4: W < O < P < B
# §12.2: (city A, city B, spaces); routes 32-33 only on the 4-5 side.
_ROUTES = (
    (0, 1, 3), (1, 3, 4), (2, 3, 2), (2, 4, 3), (4, 5, 3), (4, 7, 3), (5, 6, 2), (3, 12, 3),
    (7, 11, 3), (12, 11, 3), (11, 10, 3), (6, 10, 3), (8, 9, 4), (10, 9, 3), (13, 21, 3),
    (12, 21, 4), (11, 14, 3), (12, 14, 3), (10, 15, 3), (14, 20, 3), (11, 19, 4), (22, 21, 3),
    (20, 21, 4), (20, 23, 3), (24, 23, 3), (24, 19, 4), (24, 25, 3), (18, 25, 2), (18, 17, 4),
    (18, 15, 3), (26, 17, 4), (16, 17, 3), (1, 13, 3), (16, 9, 3),
)
ROUTES_ON_SIDE = (32, 34)

# HT-2.3 ability cities -> track ids of HT-3.1.
CLAVIS, ACTIONES, PRIVILEGIUM, LIBER, BURSA = range(NUM_TRACKS)
TRACK_NAMES = ("clavis", "actiones", "privilegium", "liber", "bursa")
CITY_ABILITY = np.full(NUM_CITIES, -1, dtype=np.int64)
CITY_ABILITY[[0, 13, 22, 16, 26]] = [LIBER, PRIVILEGIUM, BURSA, ACTIONES, CLAVIS]

# HT-3.1: track values by level (pieces removed); Bursa "C" = unlimited.
UNLIMITED = 1000
TRACK_MAX = np.array([4, 5, 3, 3, 3], dtype=np.int64)
TRACK_VALUES = np.array([
    [1, 2, 2, 3, 4, 0],
    [2, 3, 3, 4, 4, 5],
    [0, 1, 2, 3, 0, 0],                         # privilege level = highest colour index
    [2, 3, 4, 5, 0, 0],
    [3, 5, 7, UNLIMITED, 0, 0],
], dtype=np.int64)
TRACK_RELEASES = np.array([TRADER, TRADER, TRADER, MERCHANT, TRADER], dtype=np.int64)
BONUS_TABLE = np.array([0, 1, 3, 3, 6, 6, 10, 10, 15, 15, 21], dtype=np.int64)   # HT-10.3

# HT-1.4 bonus markers.
MK_EXTRA, MK_SWAP, MK_PLUS3, MK_PLUS4, MK_UPGRADE, MK_REMOVE3 = range(6)
NUM_MARKER_KINDS = 6
MARKER_NAMES = ("extra_kontor", "swap", "plus3", "plus4", "upgrade", "remove3")
MARKER_TOTAL = 16
START_MARKERS = np.array([MK_REMOVE3, MK_SWAP, MK_EXTRA], dtype=np.int64)       # HT-4.2
SUPPLY_START = np.array([4, 1, 2, 2, 3, 1], dtype=np.int64)                     # 13
MARKER_COUNTS = SUPPLY_START + np.bincount(START_MARKERS, minlength=6)          # 16 by kind
# The 6 permutations of the three starting markers over the taverns (a chance event).
TAVERN_PERMS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                        dtype=np.int64)

# §12.6 2-player regions [D, UNVERIFIED]: routes bounding each region, region adjacency.
NUM_REGIONS = 11
DEFAULT_REGION_ROUTES = (
    (0, 1, 2, 3, 4, 6, 7, 11, 12, 13, 14, 15, 18, 21, 22, 23, 24, 26, 27, 28, 29, 30, 31),
    (2, 3, 5), (4, 5, 6), (7, 8, 9), (8, 10, 11), (9, 16, 17), (15, 17, 19, 22),
    (16, 19, 20), (10, 18, 20, 29), (23, 24, 25), (25, 26, 27),
)
DEFAULT_REGION_ADJ = (
    (1, 2, 3, 4, 6, 8, 9, 10), (0, 2, 3), (0, 1, 4), (0, 1, 4, 5), (0, 2, 3, 8), (3, 6, 7),
    (0, 5, 7), (5, 6, 8, 9), (0, 4, 7, 10), (0, 7, 10), (0, 8, 9),
)


def _build_map():
    off_shape = np.zeros((NUM_SIDES, NUM_CITIES, MAX_OFFICES), dtype=np.int64)
    off_colour = np.zeros((NUM_SIDES, NUM_CITIES, MAX_OFFICES), dtype=np.int64)
    off_coin = np.zeros((NUM_SIDES, NUM_CITIES, MAX_OFFICES), dtype=np.int64)
    city_noff = np.zeros((NUM_SIDES, NUM_CITIES), dtype=np.int64)
    for city, sides in enumerate(_OFFICES):
        for side, text in enumerate(sides):
            cells = text.split(",")
            city_noff[side, city] = len(cells)
            for i, cell in enumerate(cells):
                off_shape[side, city, i] = TRADER if cell[0] == "T" else MERCHANT
                off_colour[side, city, i] = COLOURS.index(cell[2])
                off_coin[side, city, i] = cell.endswith("*")
    route_city = np.array([[a, b] for a, b, _ in _ROUTES], dtype=np.int64)
    route_len = np.array([n for _, _, n in _ROUTES], dtype=np.int64)
    route_start = np.concatenate([[0], np.cumsum(route_len)[:-1]]).astype(np.int64)
    space_route = np.repeat(np.arange(NUM_ROUTES), route_len).astype(np.int64)
    adj = np.zeros((NUM_SIDES, NUM_CITIES), dtype=np.int64)      # city bitsets (§15)
    dist = np.zeros((NUM_SIDES, NUM_ROUTES, NUM_ROUTES), dtype=np.int64)
    for side in range(NUM_SIDES):
        routes = ROUTES_ON_SIDE[side]
        for a, b in route_city[:routes]:
            adj[side, a] |= 1 << b
            adj[side, b] |= 1 << a
        dist[side] = _route_distances(route_city, routes)
    return (off_shape, off_colour, off_coin, city_noff, route_city, route_len, route_start,
            space_route, adj, dist)


def _route_distances(route_city, routes):
    """All-pairs BFS on the route adjacency graph (routes sharing a city), HT-6.3.3(c)."""
    out = np.full((NUM_ROUTES, NUM_ROUTES), 99, dtype=np.int64)
    for start in range(routes):
        out[start, start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for r in frontier:
                for q in range(routes):
                    if out[start, q] == 99 and set(route_city[q]) & set(route_city[r]):
                        out[start, q] = out[start, r] + 1
                        nxt.append(q)
            frontier = nxt
    return out


(OFF_SHAPE, OFF_COLOUR, OFF_COIN, CITY_NOFF, ROUTE_CITY, ROUTE_LEN, ROUTE_START,
 SPACE_ROUTE, CITY_ADJ, ROUTE_DIST) = _build_map()
SPACES_ON_SIDE = (int(ROUTE_START[31] + ROUTE_LEN[31]), NUM_SPACES)       # 101, 107

# --- Flat action space: spec §14.2 with PLACE and DISPLACE in the same slots (513) --------
# A piece put on a space is a placement when the space is empty (HT-6.2) and a displacement
# when a rival's piece is there (HT-6.3): the two never apply to the same space at once, so
# one slot per (space, type) says both.  Sharing them cuts 214 slots off the spec's 727,
# which every user loop pays for when it scans the mask.
A_END_TURN = 0
A_INCOME = 1                 # 1..5: INCOME(m merchants)
A_PLACE = 6                  # 6 + 2s + t (also compensation placements and Move drops)
A_DISPLACE = A_PLACE         # the same slots, on a space a rival occupies
A_PAY = 220                  # 220 + t
A_MOVE_BEGIN = 222
A_PICK = 223                 # 223 + s (Move picks, Remove 3, board-sourced compensation)
A_DONE = 330
A_ESTABLISH = 331            # 331 + r
A_REWARD = 365               # 365 + k, see R_* below
A_PLUS3, A_PLUS4 = 378, 379
A_UPGRADE = 380              # 380 + track
A_SWAP = 385                 # 385 + 3c + i: offices i and i+1 of city c
A_REMOVE3 = 466
A_MARKER = 467               # 467 + r
A_PAWN = 501                 # 501 + region
A_PAWN_SKIP = 512
NUM_ACTIONS = 513
R_NONE, R_KONTOR, R_EXTRA, R_UPGRADE, R_COELLEN = 0, 1, 3, 7, 9   # REWARD(k) groups

# --- Phases ----------------------------------------------------------------------------------
PH_SETUP = 0             # chance: the three starting markers onto the taverns (HT-4.2)
PH_PAWN_SETUP = 1        # 2p regions: the second player places the pawn (HT-11.3)
PH_MAIN = 2              # between actions: an action, a marker, or end of turn
PH_PAY = 3               # displacement cost (HT-6.3.2)
PH_COMPENSATE = 4        # the displaced player's off-turn placements (HT-6.3.3)
PH_MOVE_PICK = 5         # HT-6.4
PH_MOVE_DROP = 6
PH_REWARD = 7            # Establish step (c) (HT-6.5.5)
PH_REMOVE3 = 8           # HT-7.6.5
PH_MARKER_DRAW = 9       # chance: reveal a plate marker (HT-7.4)
PH_MARKER_PLACE = 10
PH_PAWN_END = 11         # 2p regions: free pawn move at the end of the turn
PH_GAME_OVER = 12
PHASE_NAMES = ("setup", "pawn_setup", "main", "pay", "compensate", "move_pick", "move_drop",
               "reward", "remove3", "marker_draw", "marker_place", "pawn_end", "game_over")
MAX_CHANCE_OUTCOMES = 6

# --- State layout ----------------------------------------------------------------------------
_fields: dict[str, tuple[int, int]] = {
    "game_id": (H_GAME_ID, 1), "num_players": (H_NUM_PLAYERS, 1), "to_move": (H_TO_MOVE, 1),
    "phase": (H_PHASE, 1), "ply": (H_PLY, 1),
}
_next = HEADER_SIZE


def _field(name: str, length: int = 1) -> int:
    global _next
    _fields[name] = (_next, length)
    offset = _next
    _next += length
    return offset


# Config block (rule options, written by options.make_config).
C_REGIONS_ON = _field("cfg_regions_on")            # HT-11: 2p pawn variant
C_REMOVE3_OPP = _field("cfg_remove3_opponents_only")
C_TIE_BREAK = _field("cfg_big_box_tie_break")
C_MAX_DECISIONS = _field("cfg_max_decisions")       # HT-9.5 cap
C_REGION_ROUTES = _field("cfg_region_routes", NUM_REGIONS)   # bitset of routes per region
C_REGION_ADJ = _field("cfg_region_adj", NUM_REGIONS)         # bitset of regions per region
CONFIG_START = C_REGIONS_ON
CONFIG_SIZE = _next - CONFIG_START

G_SIDE = _field("side")
G_START_SEAT = _field("start_seat")
G_ACTIVE = _field("active")                 # the seat whose turn it is
G_ACTIONS_LEFT = _field("actions_left")
G_ACTIONS_TAKEN = _field("actions_taken")   # actions begun this turn (2p free pawn move)
G_TURNS = _field("turns")
G_COMPLETED = _field("completed_cities")
G_EW_COUNT = _field("east_west_count")
G_SUPPLY = _field("marker_supply", NUM_MARKER_KINDS)
G_PLATE = _field("plate_markers")
G_REVEALED = _field("revealed_marker")      # kind being placed in PH_MARKER_PLACE, else -1
G_MARKERS_LOST = _field("markers_lost")     # A-9 / HT-7.7: removed from play
G_END = _field("end_triggered")
G_TRUNCATED = _field("truncated")
G_EST_ROUTE = _field("establish_route")
G_EXTRA_OK = _field("extra_kontor_held")    # held before this Establish (HT-5.5)
G_DISP_VICTIM = _field("displaced_player")
G_DISP_ORIGIN = _field("displace_origin")
G_DISP_PENDING = _field("displaced_piece")  # type still to be placed, -1 once placed
G_DISP_EXTRAS = _field("compensation_extras")
G_COMP_HAND = _field("compensation_hand")   # type of a board piece being relocated, -1
G_COMP_PLACED = _field("compensation_placed", 2)   # bitset of spaces placed in it
# 60 spaces per word (107 spaces in two words): every word stays below 2**60, far from
# int64 overflow, so its field bound is as tight as the others.
COMP_BITS = 60
G_PAY_LEFT = _field("pay_left")
G_MOVE_PICKED = _field("move_picked")
G_HAND = _field("move_hand", 2)             # pieces lifted by the Move action (T, M)
G_REMOVE_LEFT = _field("remove_left")
G_PAWN = _field("pawn_region")
G_PAWN_FREE_USED = _field("pawn_free_used")
G_ROUTE_MARKER = _field("route_marker", NUM_ROUTES)    # kind or -1
G_SPACE_OWNER = _field("space_owner", NUM_SPACES)      # seat or -1
G_SPACE_TYPE = _field("space_type", NUM_SPACES)
G_OFFICE_OWNER = _field("office_owner", NUM_CITIES * MAX_OFFICES)
G_OFFICE_TYPE = _field("office_type", NUM_CITIES * MAX_OFFICES)
G_EXTRA_N = _field("extra_offices", NUM_CITIES)
G_EXTRA_OWNER = _field("extra_owner", NUM_CITIES * MAX_EXTRA)   # index 0 = first placed
G_EXTRA_TYPE = _field("extra_type", NUM_CITIES * MAX_EXTRA)
G_COELLEN = _field("coellen", 4)                       # seat or -1 per space W, O, P, B

# Per-player blocks.
P_TRACK = 0                  # 5 levels (pieces removed), HT-3.1
P_PERSONAL = 5               # T, M
P_GENERAL = 7                # T, M
P_SCORE = 9                  # prestige track (A)
P_UNUSED = 10                # 6 unused markers by kind
P_USED = 16
P_EW_DONE = 17
PLAYER_SIZE = 18
PLAYERS_BASE = _field("players", MAX_PLAYERS * PLAYER_SIZE)
for _seat in range(MAX_PLAYERS):
    _fields[f"player_{_seat}"] = (PLAYERS_BASE + _seat * PLAYER_SIZE, PLAYER_SIZE)
del _fields["players"]
STATE_SIZE = _next
STATE_FIELDS = dict(_fields)

# HT-9.5 decision cap: the default is about 5x the longest heuristic-policy game (535
# decisions, 5 players; 1,126 with the 2p regions), far below uniform-random games' natural
# length (median ~25,000), so a learner's first episodes end quickly (options.py).
DEFAULT_MAX_DECISIONS = 3_000
MIN_DECISIONS, MAX_DECISIONS_LIMIT = 100, 100_000_000

# --- Field bounds (core.state_io refuses a loaded value outside them; validate.py checks
# what depends on other fields) -------------------------------------------------------------
# Actions in one turn: Actiones 5 at most (HT-3.1) plus every +3 and +4 marker in the game.
MAX_ACTIONS = int(TRACK_VALUES[ACTIONES].max()) + 3 * 2 + 4 * 2
MAX_SCORE = 10**6            # generous but finite: no sum over a player block can overflow
_SEAT = (-1, MAX_PLAYERS - 1)
_ROUTE = (-1, NUM_ROUTES - 1)
_TYPE = (TRADER, MERCHANT)
FIELD_BOUNDS: dict[str, tuple[int, int]] = {
    "game_id": (GAME_ID, GAME_ID), "num_players": (MIN_PLAYERS, MAX_PLAYERS),
    "to_move": (-2, MAX_PLAYERS - 1),                  # TERMINAL, CHANCE or a seat
    "phase": (0, len(PHASE_NAMES) - 1), "ply": (0, MAX_DECISIONS_LIMIT),
    "cfg_regions_on": (0, 1), "cfg_remove3_opponents_only": (0, 1),
    "cfg_big_box_tie_break": (0, 1), "cfg_max_decisions": (MIN_DECISIONS, MAX_DECISIONS_LIMIT),
    "cfg_region_routes": (0, 2**ROUTES_ON_SIDE[0] - 1),       # routes of the 2-3 side
    "cfg_region_adj": (0, 2**NUM_REGIONS - 1),
    "side": (0, NUM_SIDES - 1), "start_seat": (0, MAX_PLAYERS - 1),
    "active": (0, MAX_PLAYERS - 1), "actions_left": (0, MAX_ACTIONS),
    "actions_taken": (0, MAX_ACTIONS), "turns": (0, MAX_DECISIONS_LIMIT + 1),
    "completed_cities": (0, COMPLETED_LIMIT), "east_west_count": (0, MAX_PLAYERS),
    "marker_supply": (0, int(MARKER_COUNTS.max())), "plate_markers": (0, int(SUPPLY_START.sum())),
    "revealed_marker": (-1, NUM_MARKER_KINDS - 1), "markers_lost": (0, MARKER_TOTAL),
    "end_triggered": (0, 1), "truncated": (0, 1), "establish_route": _ROUTE,
    "extra_kontor_held": (0, 1), "displaced_player": _SEAT, "displace_origin": _ROUTE,
    "displaced_piece": (-1, MERCHANT), "compensation_extras": (0, 2),
    "compensation_hand": (-1, MERCHANT), "compensation_placed": (0, 2**COMP_BITS - 1),
    "pay_left": (0, 2), "move_picked": (0, int(TRACK_VALUES[LIBER].max())),
    "move_hand": (0, int(TRACK_VALUES[LIBER].max())), "remove_left": (0, 3),
    "pawn_region": (0, NUM_REGIONS - 1), "pawn_free_used": (0, 1),
    "route_marker": (-1, NUM_MARKER_KINDS - 1), "space_owner": _SEAT, "space_type": _TYPE,
    "office_owner": _SEAT, "office_type": _TYPE, "extra_offices": (0, MAX_EXTRA),
    "extra_owner": _SEAT, "extra_type": _TYPE, "coellen": _SEAT,
    # One range for the whole block (tracks, supplies, score, markers); validate.py checks
    # each slot against its own limit.
    **{f"player_{seat}": (0, MAX_SCORE) for seat in range(MAX_PLAYERS)},
}
assert set(FIELD_BOUNDS) == set(STATE_FIELDS)

# --- Observation layout (observe.py) ----------------------------------------------------------
OBS_SPACE = 6                      # per space: owner one-hot (5, rotated), is merchant
OBS_OFFICE = 8                     # per office: exists, owner (5), merchant, colour/3
OBS_PLAYER = 22
OBS_GLOBAL = 16 + len(PHASE_NAMES) + NUM_ROUTES * 2 + NUM_REGIONS + NUM_MARKER_KINDS
OBS_SIZE = (NUM_SPACES * OBS_SPACE + NUM_CITIES * MAX_OFFICES * OBS_OFFICE
            + NUM_CITIES * MAX_PLAYERS + 4 * MAX_PLAYERS + NUM_ROUTES * NUM_MARKER_KINDS
            + MAX_PLAYERS * OBS_PLAYER + OBS_GLOBAL)
