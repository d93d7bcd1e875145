"""Serenissima constants, the flat action space and the layout of the flat state array.

Rule ids (SE-x.y, A-nn, EX-nn) refer to ``rules/serenissima.md``.  The map is *data*: it
lives in the config block of every state (see ``maps.py``), so kernels read the board as
arrays passed with the state, a saved game carries its own board, and a corrected or
generated map never needs a code change.
"""

from __future__ import annotations

from ..core.contract import HEADER_SIZE

GAME_ID = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 4

# --- fixed sizes ---------------------------------------------------------------------------
NUM_GALLEYS = 15                     # SE-2.1: numbered 1..15 (index 0..14)
GALLEYS_23P = 12                     # SE-12.1.2: only 1..12 with 2/3 players
MAX_ZONES = 24                       # the real board has 20 (E1); room for other maps
MAX_PORTS = 24                       # the real board has 19
MAX_SIZE = 5                         # warehouse slots / port sailors (SE-3.1.3)
NUM_GOODS = 6
WOOD, STONE, MARBLE, WINE, GOLD, SPICES = range(6)   # §3.4 goods index convention [R]
GOOD_NAMES = ("wood", "stone", "marble", "wine", "gold", "spices")
DEFAULT_GOODS_SUPPLY = (14, 12, 12, 12, 10, 10)      # SE-2.1
MAX_OWNED_GALLEYS = 6                # SE-2.2.3: 6 galley cubes per colour
MAX_FORTS = MAX_BASILICAS = 5        # SE-2.2.5
START_DUCATS = 5                     # SE-4.1.3
SAILORS_BY_PLAYERS = (0, 0, 30, 26, 22)    # SE-4.1.3, SE-12.1.1, SE-12.2.1
GALLEYS_AT_START = (0, 0, 3, 2, 2)         # SE-12.2.3, SE-4.1.4/5
START_SAILORS = 3                    # per start galley and in the start port
SPICE_BONUS = 2                      # SE-6.5.5
BASILICA_POINTS = 5                  # SE-9.1
WINE_INCOME = 3                      # SE-8.3
FORT_DICE = 2                        # SE-6.7.4
NO_V0 = -99                          # attacker value not fixed yet (SE-6.6.2)
# serenissima_v0's engine guard (not a rule): after this many Load micro-actions in one
# activation only 'end load' remains.  serenissima_v1 has no such cut (SE-6.2 sets no
# limit; the decision cap below ends every game): there the counter only saturates here.
MAX_LOAD_STEPS = 40
# Rules versions (the state's G_RULES): what differs between the registry's versions.
# v0 keeps two engine readings the spec does not make: the Load cut above, and, in the
# special investment (SE-10.1), a second galley masked until the first is manned.  v1
# follows the spec: buying is legal while every unmanned galley's sailor stays payable
# (SE-7.3 / A-23), and Load ends only when the player ends it.
RULES_V0, RULES_V1 = 0, 1
# Decision cap (engine safety net, not a rule; option ``max_decisions``).  The rules end
# every game (SE-11.1 after the third scoring; the Doge deck moves the track), but a loaded
# or hand-made state, a custom map or a future rule bug must not run forever, in the AEC
# env, the batched env or an MCTS rollout.  Measured (200x3 random games per count and
# 30 greedy self-play games per count, placeholder and generated maps): longest random
# game 480 decisions (4 players), longest greedy 621; degenerate policies (always the first
# / last legal action, always pass) end by the rules within 252.  5,000 is eight times the
# longest game seen: no real game meets it, and a learner's episode stays short.  A game
# reaching it ends as a truncation (G_TRUNCATED = 1, PettingZoo truncations).
DEFAULT_MAX_DECISIONS = 5_000
MIN_MAX_DECISIONS, MAX_MAX_DECISIONS = 100, 1_000_000
MAX_TRACK = 60                       # longest round track a map may have (maps.py)
MAX_ROUNDS = 2 * MAX_TRACK + 2       # a round draws one Doge card; two draws move >= 2
MAX_LEDGER = 10 ** 6                 # generous bound on any money count (no overflow)

# Doge cards (SE-8.1): kinds and their count in the full deck.
CARD_WINE, CARD_ONE, CARD_TWO, CARD_SHUFFLE = range(4)
CARD_NAMES = ("wine", "1 hourglass", "2 hourglasses", "2 hourglasses + shuffle")
DECK = (1, 2, 1, 1)
CARD_STEPS = (0, 1, 2, 2)

# Closing order for 2/3 players (SE-12.1.4).
CLOSE_GOODS = (WOOD, WINE, STONE, MARBLE)

# --- flat action space (spec §15.2, sized by MAX_ZONES / MAX_PORTS) -------------------------
A_PASS = 0            # end Load / stop moving / end activation / decline block / done
A_ACTION = 1
A_INVEST = 2
A_BLOCK = 3
A_CONTINUE = 4
A_WITHDRAW = 5
A_PORT_TO_ACTIVE = 6
A_ACTIVE_TO_PORT = 7
A_LOAD = 8
A_ATTACK_PORT = 9
A_CLAIM = 10
A_JETTISON = 11       # + good
A_SELL = 17           # + good
A_TAKE = 23           # + good
A_LAND = 29           # + k, k = 0..5
A_GALLEY = 35         # + g: setup pick / buy galley g / attack galley g
A_SAILOR_FROM = 50    # + g: sailor galley g -> active
A_SAILOR_TO = 65      # + g: sailor active -> galley g
A_GOOD_FROM = 80      # + 6g + t: good galley g -> active
A_GOOD_TO = 170       # + 6g + t: good active -> galley g
A_MOVE = 260          # + zone
A_PORT = A_MOVE + MAX_ZONES          # + port: setup start port / close port / place galley
A_RECRUIT_PORT = A_PORT + MAX_PORTS  # + port
A_RECRUIT_GALLEY = A_RECRUIT_PORT + MAX_PORTS   # + g
A_FORT = A_RECRUIT_GALLEY + NUM_GALLEYS         # + port
A_BASILICA = A_FORT + MAX_PORTS                 # + port
NUM_ACTIONS = A_BASILICA + MAX_PORTS

# --- phases ----------------------------------------------------------------------------------
(PH_CLOSE, PH_SETUP_PORT, PH_SETUP_GALLEY, PH_CHOOSE, PH_LOAD, PH_MOVE, PH_BLOCK, PH_STEP3,
 PH_CONTINUE, PH_CAPTURE, PH_LAND, PH_INVEST, PH_PLACE_GALLEY, PH_SPECIAL, PH_CHANCE,
 PH_GAME_OVER) = range(16)
PHASE_NAMES = ("close_ports", "setup_port", "setup_galley", "choose", "load", "move",
               "block", "sell_or_combat", "continue_or_withdraw", "capture", "land",
               "investment", "place_galley", "special_investment", "chance", "game_over")

# chance kinds (what the pending event is)
CK_NONE, CK_CLOSE, CK_DOGE, CK_FORT, CK_BATTLE = range(5)
MAX_CHANCE_OUTCOMES = 36            # a battle round: (0..5) x (0..5) hits

# blocking occasions (SE-6.4.2)
OCC_NONE, OCC_MOVE, OCC_SELL, OCC_CLAIM = range(4)
# step-3 option chosen (SE-6.5.7)
OPT_NONE, OPT_SELL, OPT_COMBAT = range(3)
# port owner codes
NEUTRAL, CLOSED = -1, -2

# --- config block (map + options; copied into every state) -----------------------------------
CONFIG_BASE = HEADER_SIZE
C_NUM_ZONES = 0
C_NUM_PORTS = 1
C_TRACK_LAST = 2          # SE-5.5.2: steps from the 4p start to the last space
C_SCORING_4P = 3          # bitmask of scoring spaces (4 players)
C_START_23P = 4
C_SCORING_23P = 5         # bitmask (2/3 players)
C_CAPACITY = 6            # A-01 galley places
C_BLOCK_IN_START = 7      # A-08 flag
C_SELL_AFTER_BREAK = 8    # A-09 flag
C_NEW_ACTS = 9            # A-21 flag
C_CLOSE_CHOOSE = 10       # A-06 / SE-12.3.3: 0 random (chance), 1 players choose
C_HIDDEN_MONEY = 11       # SE-4.1.7
C_MAP_KIND = 12           # 0 placeholder (reconstruction), 1 user map, 2 generated
C_MAX_DECISIONS = 13      # the decision cap (engine, DEFAULT_MAX_DECISIONS)
C_SUPPLY0 = 14            # + good: initial goods supply
C_ZONE_PORT = C_SUPPLY0 + NUM_GOODS
C_ADJ = C_ZONE_PORT + MAX_ZONES          # + zone: neighbour bitmask
C_PORT_ZONE = C_ADJ + MAX_ZONES
C_PORT_GOOD = C_PORT_ZONE + MAX_PORTS
C_PORT_SIZE = C_PORT_GOOD + MAX_PORTS
C_PORT_START = C_PORT_SIZE + MAX_PORTS
C_SLOT = C_PORT_START + MAX_PORTS        # + 5p + i: sale value of slot i
C_SCORE = C_SLOT + MAX_PORTS * MAX_SIZE  # + 6p + n: ducats for n cubes
CONFIG_SIZE = C_SCORE + MAX_PORTS * (MAX_SIZE + 1)


def _cfg(offset: int) -> int:
    return CONFIG_BASE + offset


(K_NUM_ZONES, K_NUM_PORTS, K_TRACK_LAST, K_SCORING_4P, K_START_23P, K_SCORING_23P,
 K_CAPACITY, K_BLOCK_IN_START, K_SELL_AFTER_BREAK, K_NEW_ACTS, K_CLOSE_CHOOSE,
 K_HIDDEN_MONEY, K_MAP_KIND, K_MAX_DECISIONS) = (_cfg(i) for i in range(14))
K_SUPPLY0 = _cfg(C_SUPPLY0)
K_ZONE_PORT = _cfg(C_ZONE_PORT)
K_ADJ = _cfg(C_ADJ)
K_PORT_ZONE = _cfg(C_PORT_ZONE)
K_PORT_GOOD = _cfg(C_PORT_GOOD)
K_PORT_SIZE = _cfg(C_PORT_SIZE)
K_PORT_START = _cfg(C_PORT_START)
K_SLOT = _cfg(C_SLOT)
K_SCORE = _cfg(C_SCORE)

# --- dynamic state ---------------------------------------------------------------------------
_next = CONFIG_BASE + CONFIG_SIZE


def _alloc(length: int) -> int:
    global _next
    offset = _next
    _next += length
    return offset


S_G_OWNER = _alloc(NUM_GALLEYS)          # -1: not in play
S_G_ZONE = _alloc(NUM_GALLEYS)
S_G_SAIL = _alloc(NUM_GALLEYS)
S_G_GOODS = _alloc(NUM_GALLEYS * NUM_GOODS)
S_P_OWNER = _alloc(MAX_PORTS)            # seat, NEUTRAL or CLOSED
S_P_SAIL = _alloc(MAX_PORTS)
S_P_WH = _alloc(MAX_PORTS)               # bitmask of goods in the warehouse
S_P_FORT = _alloc(MAX_PORTS)
S_P_BAS = _alloc(MAX_PORTS)
S_DUCATS = _alloc(MAX_PLAYERS)
S_SUPPLY = _alloc(MAX_PLAYERS)           # unused sailors (SE-2.2.2)
S_GOODS = _alloc(NUM_GOODS)              # goods supply (SE-2.2.1)
# money ledger per seat (money is not conserved: the bank is unlimited, SE-2.2.6)
(L_SALES, L_FEES_IN, L_WINE, L_SCORING, L_LOAD_BANK, L_FEES_OUT, L_RECRUIT, L_GALLEY,
 L_FORT, L_BASILICA) = range(10)
LEDGER_KINDS = 10
LEDGER_NAMES = ("sales", "fees_received", "wine", "scoring", "load_bank", "fees_paid",
                "recruit", "galley", "fort", "basilica")
S_LEDGER = _alloc(MAX_PLAYERS * LEDGER_KINDS)
G_FIRST = _alloc(1)          # first player (SE-4.1.2)
G_TURN_OWNER = _alloc(1)     # whose activation / setup pick / special investment
G_ROUND = _alloc(1)
G_WHEEL = _alloc(1)          # last activated galley this round (-1: Doge space)
G_TRACK = _alloc(1)          # white marker, 0 = 4-player start
G_SCORINGS = _alloc(1)
G_PILE = _alloc(4)           # Doge draw pile composition by card kind (order is hidden)
G_LAST_CARD = _alloc(1)
G_SETUP_STEP = _alloc(1)
G_CLOSE_STEP = _alloc(1)
G_BOUGHT_ROUND = _alloc(1)   # bitmask of galleys bought this round (A-21 flag off)
G_SPECIAL_INDEX = _alloc(1)  # SE-10.3: position in clockwise order from the first player
G_CHANCE_KIND = _alloc(1)
G_ATT_DICE = _alloc(1)
G_DEF_DICE = _alloc(1)
G_LAST_ROLL = _alloc(1)      # last battle/fort outcome code (-1 none), for display
A_GAL = _alloc(1)            # active galley (-1 none)
A_OWNER = _alloc(1)
A_START_ZONE = _alloc(1)
A_MOVED = _alloc(1)
A_FREE_USED = _alloc(1)
A_V0 = _alloc(1)
A_OPT = _alloc(1)
A_SALE_BLOCKED = _alloc(1)   # 0, or 1 + battles finished when a sale was blocked
A_CLAIM_BLOCKED = _alloc(1)  # 0, or 1 + battles finished when a claim was blocked
A_LOAD_STEPS = _alloc(1)     # Load micro-actions taken this activation
A_BATTLES = _alloc(1)        # battles finished this activation
A_TARGET = _alloc(1)         # galley attacked, or -1
A_TARGET_PORT = _alloc(1)    # port attacked, or -1
A_OCC = _alloc(1)            # blocking occasion being asked
A_ASKED = _alloc(1)          # seats already asked (bitmask)
A_BLOCKER = _alloc(1)        # seat being asked
A_PENDING = _alloc(1)        # good of the pending sale
A_CAPTOR = _alloc(1)         # galley that takes goods (capture), -1
A_CAP_GOODS = _alloc(NUM_GOODS)
G_RULES = _alloc(1)          # RULES_V0 or RULES_V1 (set at init, never changed)
A_LAND_MIN = _alloc(1)
A_LAND_PORT = _alloc(1)
A_BOUGHT = _alloc(1)         # a galley was bought in this Investment
A_UNMANNED = _alloc(1)       # newly bought galley still without a sailor (-1 none)
A_RETURN_PHASE = _alloc(1)   # investment phase to return to after placing a galley
G_TRUNCATED = _alloc(1)      # 1: the game ended at the decision cap (a truncation)
STATE_SIZE = _next

STATE_FIELDS = {
    "config": (CONFIG_BASE, CONFIG_SIZE),
    "galley_owner": (S_G_OWNER, NUM_GALLEYS), "galley_zone": (S_G_ZONE, NUM_GALLEYS),
    "galley_sailors": (S_G_SAIL, NUM_GALLEYS),
    "galley_goods": (S_G_GOODS, NUM_GALLEYS * NUM_GOODS),
    "port_owner": (S_P_OWNER, MAX_PORTS), "port_sailors": (S_P_SAIL, MAX_PORTS),
    "port_warehouse": (S_P_WH, MAX_PORTS), "port_fort": (S_P_FORT, MAX_PORTS),
    "port_basilica": (S_P_BAS, MAX_PORTS),
    "ducats": (S_DUCATS, MAX_PLAYERS), "sailor_supply": (S_SUPPLY, MAX_PLAYERS),
    "goods_supply": (S_GOODS, NUM_GOODS), "ledger": (S_LEDGER, MAX_PLAYERS * LEDGER_KINDS),
}
for _name in ("G_FIRST", "G_TURN_OWNER", "G_ROUND", "G_WHEEL", "G_TRACK", "G_SCORINGS",
              "G_LAST_CARD", "G_SETUP_STEP", "G_CLOSE_STEP", "G_BOUGHT_ROUND",
              "G_SPECIAL_INDEX", "G_CHANCE_KIND", "G_ATT_DICE", "G_DEF_DICE", "G_LAST_ROLL",
              "A_GAL", "A_OWNER", "A_START_ZONE", "A_MOVED", "A_FREE_USED", "A_V0", "A_OPT",
              "A_SALE_BLOCKED", "A_CLAIM_BLOCKED", "A_LOAD_STEPS", "A_BATTLES", "A_TARGET",
              "A_TARGET_PORT", "A_OCC", "A_ASKED",
              "A_BLOCKER", "A_PENDING", "A_CAPTOR", "G_RULES", "A_LAND_MIN",
              "A_LAND_PORT", "A_BOUGHT", "A_UNMANNED", "A_RETURN_PHASE", "G_TRUNCATED"):
    STATE_FIELDS[_name.lower()] = (globals()[_name], 1)
STATE_FIELDS["doge_pile"] = (G_PILE, 4)
STATE_FIELDS["capture_goods"] = (A_CAP_GOODS, NUM_GOODS)
STATE_FIELDS = {"header": (0, HEADER_SIZE), **STATE_FIELDS}

# --- rule options (spec §14 flags; defaults are the spec's recommendations) ----------------
# ``map`` also takes distributions of generated maps ("generated:<a>-<b>", the splits).
BOARD_OPTION = "map"
DEFAULT_OPTIONS = {
    "map": "placeholder",               # a path, a dict, "placeholder" or "generated:<seed>"
    "galley_capacity": 5,               # A-01 (the seed's literal "4 places" is 4)
    "block_in_start_zone": False,
    "sell_after_breaking_block": False,
    "new_galley_acts_this_round": True,
    "close_ports": "random",            # A-06 / SE-12.3.3: "random" (chance) or "choose"
    "hidden_money": False,              # SE-4.1.7 (observation only)
    "goods_supply": DEFAULT_GOODS_SUPPLY,   # SE-2.2.1 (the Czech list has 12 gold, E4)
    "max_decisions": DEFAULT_MAX_DECISIONS,   # engine cap, a truncation (see above)
}

# --- observation ---------------------------------------------------------------------------
OBS_GALLEY = 1 + MAX_PLAYERS + MAX_ZONES + 1 + NUM_GOODS + 2
OBS_PORT = (MAX_PLAYERS + 2) + 1 + NUM_GOODS + 2 + NUM_GOODS + 1 + 1 + MAX_ZONES + 1
OBS_PLAYER = 8
OBS_GLOBAL = (len(PHASE_NAMES) + 4 + 4 + 4 + 8 + 11 + MAX_ZONES + NUM_GOODS * 2 + 3
              + MAX_PLAYERS + 3)
OBS_SIZE = (NUM_GALLEYS * OBS_GALLEY + MAX_PORTS * OBS_PORT + MAX_ZONES * MAX_ZONES
            + MAX_PLAYERS * OBS_PLAYER + OBS_GLOBAL)

# --- ranges of the saved fields (state_from_json refuses anything outside, before
# validate.py's cross-field checks: indices bounded by the map, num_players, the phase) ----
_SEAT = (0, MAX_PLAYERS - 1)
FIELD_BOUNDS = {
    # game id, players, seat to move / CHANCE / TERMINAL, phase, decisions (<= the cap)
    "header": (-2, MAX_MAX_DECISIONS),
    # map tables (-1: zone without a port) .. a scoring-space bitmask of a 60-space track
    "config": (-1, (1 << (MAX_TRACK + 1)) - 1),
    "galley_owner": (-1, MAX_PLAYERS - 1), "galley_zone": (-1, MAX_ZONES - 1),
    "galley_sailors": (0, MAX_SIZE), "galley_goods": (0, MAX_SIZE - 1),
    "port_owner": (CLOSED, MAX_PLAYERS - 1), "port_sailors": (0, MAX_SIZE),
    "port_warehouse": (0, (1 << NUM_GOODS) - 1), "port_fort": (0, 1), "port_basilica": (0, 1),
    "ducats": (0, MAX_LEDGER), "sailor_supply": (0, max(SAILORS_BY_PLAYERS)),
    "goods_supply": (0, 99), "ledger": (0, MAX_LEDGER),
    "g_first": _SEAT, "g_turn_owner": (-1, MAX_PLAYERS - 1), "g_round": (0, MAX_LEDGER),
    "g_wheel": (-1, NUM_GALLEYS), "g_track": (0, MAX_TRACK), "g_scorings": (0, 3),
    "g_last_card": (-1, len(DECK) - 1), "g_setup_step": (0, 2 * MAX_PLAYERS),
    "g_close_step": (0, len(CLOSE_GOODS)), "g_bought_round": (0, (1 << NUM_GALLEYS) - 1),
    "g_special_index": (0, MAX_PLAYERS), "g_chance_kind": (CK_NONE, CK_BATTLE),
    "g_att_dice": (0, MAX_SIZE), "g_def_dice": (0, MAX_SIZE),
    "g_last_roll": (-1, 100 + FORT_DICE),       # battle 6a+d (0..35) or fort 100+hits
    "a_gal": (-1, NUM_GALLEYS - 1), "a_owner": _SEAT, "a_start_zone": (-1, MAX_ZONES - 1),
    "a_moved": (0, MAX_SIZE), "a_free_used": (0, 1),
    "a_v0": (NO_V0, MAX_SIZE),                  # NO_V0 or sailors - moved (-4..5)
    "a_opt": (OPT_NONE, OPT_COMBAT),
    # 0, or 1 + battles finished at the block; one battle per sunk galley or port taken
    "a_sale_blocked": (0, NUM_GALLEYS + 1), "a_claim_blocked": (0, NUM_GALLEYS + 1),
    "a_load_steps": (0, MAX_LOAD_STEPS), "a_battles": (0, NUM_GALLEYS),
    "a_target": (-1, NUM_GALLEYS - 1), "a_target_port": (-1, MAX_PORTS - 1),
    "a_occ": (OCC_NONE, OCC_CLAIM), "a_asked": (0, (1 << MAX_PLAYERS) - 1),
    "a_blocker": (-1, MAX_PLAYERS - 1), "a_pending": (-1, NUM_GOODS - 1),
    "a_captor": (-1, NUM_GALLEYS - 1),
    "g_rules": (RULES_V0, RULES_V1),
    "a_land_min": (0, 1), "a_land_port": (-1, MAX_PORTS - 1), "a_bought": (0, 1),
    "a_unmanned": (-1, NUM_GALLEYS - 1), "a_return_phase": (0, len(PHASE_NAMES) - 1),
    "g_truncated": (0, 1),
    "doge_pile": (0, max(DECK)), "capture_goods": (0, MAX_SIZE - 1),
}
assert set(FIELD_BOUNDS) == set(STATE_FIELDS)
