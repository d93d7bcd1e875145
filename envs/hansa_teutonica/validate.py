"""Consistency checks of a Hansa Teutonica state (JSON loading and the test invariants).

``validate_state`` raises ``ValueError`` naming what is wrong.  It checks every field
against ``data.FIELD_BOUNDS`` (as ``state_from_json`` does first), then what depends on
other fields: seats below ``num_players``, the board side's routes and spaces, the fields
each phase reads (the route being established, the displacement's victim and origin, the
pieces in hand, the plate, the revealed marker) and their resting values elsewhere, the
decision cap and counters (HT-9.5), a legal move at every decision, the piece conservation
of HT-4.5 for every player and the conservation of the 16 bonus markers (HT-1.4).  After
it passes, no kernel can index outside its arrays or loop without end.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from ..core.state_io import check_field_bounds
from . import data as D
from .board import route_owned_by
from .masks import legal_mask


def _fail(message: str):
    raise ValueError(message)


def player_block(state: np.ndarray, seat: int) -> np.ndarray:
    base = D.PLAYERS_BASE + seat * D.PLAYER_SIZE
    return state[base:base + D.PLAYER_SIZE]


def piece_totals(state: np.ndarray, seat: int) -> tuple[int, int]:
    """HT-4.5: every trader and merchant of ``seat``, wherever it is (score cube included)."""
    p = player_block(state, seat)
    track = p[D.P_TRACK:D.P_TRACK + 5]
    desk_t = sum(int(D.TRACK_MAX[t] - track[t]) for t in (0, 1, 2, 4))
    desk_m = int(D.TRACK_MAX[3] - track[3])
    counts = [desk_t + 1, desk_m]                     # + the score cube (HT-4.3)
    for t in range(2):
        counts[t] += int(p[D.P_PERSONAL + t] + p[D.P_GENERAL + t])
    n_space = D.NUM_SPACES
    owner = state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + n_space]
    kind = state[D.G_SPACE_TYPE:D.G_SPACE_TYPE + n_space]
    off_o = state[D.G_OFFICE_OWNER:D.G_OFFICE_OWNER + D.NUM_CITIES * D.MAX_OFFICES]
    off_t = state[D.G_OFFICE_TYPE:D.G_OFFICE_TYPE + D.NUM_CITIES * D.MAX_OFFICES]
    ext_o = state[D.G_EXTRA_OWNER:D.G_EXTRA_OWNER + D.NUM_CITIES * D.MAX_EXTRA]
    ext_t = state[D.G_EXTRA_TYPE:D.G_EXTRA_TYPE + D.NUM_CITIES * D.MAX_EXTRA]
    for t in range(2):
        counts[t] += int(((owner == seat) & (kind == t)).sum())
        counts[t] += int(((off_o == seat) & (off_t == t)).sum())
        counts[t] += int(((ext_o == seat) & (ext_t == t)).sum())
    counts[1] += int((state[D.G_COELLEN:D.G_COELLEN + 4] == seat).sum())
    if state[D.G_ACTIVE] == seat:                     # pieces lifted by a Move
        counts[0] += int(state[D.G_HAND])
        counts[1] += int(state[D.G_HAND + 1])
    if state[D.G_DISP_VICTIM] == seat:                # a displaced piece not yet placed
        for slot in (D.G_DISP_PENDING, D.G_COMP_HAND):
            if state[slot] >= 0:
                counts[int(state[slot])] += 1
    return counts[0], counts[1]


def marker_total(state: np.ndarray, players: int) -> int:
    total = int(state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_MARKER_KINDS].sum())
    total += int((state[D.G_ROUTE_MARKER:D.G_ROUTE_MARKER + D.NUM_ROUTES] >= 0).sum())
    for seat in range(players):
        p = player_block(state, seat)
        total += int(p[D.P_UNUSED:D.P_UNUSED + D.NUM_MARKER_KINDS].sum() + p[D.P_USED])
    total += int(state[D.G_MARKERS_LOST]) + (1 if state[D.G_REVEALED] >= 0 else 0)
    return total


def validate_state(state: np.ndarray) -> None:
    """Every check a loaded state must pass so that no kernel indexes out of range, loops
    forever or meets a decision without a legal move; then the rules' conservation laws."""
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    check_field_bounds(D.STATE_FIELDS, D.FIELD_BOUNDS, state)   # for direct callers
    players = int(state[H_NUM_PLAYERS])
    side = int(state[D.G_SIDE])
    if side != (0 if players <= 3 else 1):
        _fail(f"board side {side} does not fit {players} players (HT-4.1)")
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    active = int(state[D.G_ACTIVE])
    if not active < players or not state[D.G_START_SEAT] < players:
        _fail(f"active seat {active} or start seat {int(state[D.G_START_SEAT])} is not a seat")
    _validate_config(state, players)
    _validate_phase(state, players, side, phase)
    expected = {D.PH_SETUP: CHANCE, D.PH_MARKER_DRAW: CHANCE, D.PH_GAME_OVER: TERMINAL,
                D.PH_COMPENSATE: int(state[D.G_DISP_VICTIM]),
                D.PH_PAWN_SETUP: (int(state[D.G_START_SEAT]) + 1) % players}.get(phase, active)
    if to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {D.PHASE_NAMES[phase]} (expected {expected})")
    spaces = D.SPACES_ON_SIDE[side]
    owner = state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + D.NUM_SPACES]
    if (owner >= players).any() or (owner[spaces:] >= 0).any():
        _fail("a route space holds an unknown owner or lies off this board side")
    routes = D.ROUTES_ON_SIDE[side]
    if (state[D.G_ROUTE_MARKER + routes:D.G_ROUTE_MARKER + D.NUM_ROUTES] >= 0).any():
        _fail("a bonus marker lies on a route off this board side")
    if (state[D.G_COELLEN:D.G_COELLEN + 4] >= players).any():
        _fail("a Coellen space holds an unknown owner")
    _validate_cities(state, players, side)
    _validate_players(state, players)
    if phase != D.PH_SETUP and marker_total(state, players) != D.MARKER_TOTAL:
        _fail(f"{marker_total(state, players)} bonus markers accounted for, not 16 (HT-1.4)")
    supply = state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_MARKER_KINDS]
    if (supply > D.MARKER_COUNTS).any() or not state[D.G_PLATE] <= supply.sum():
        _fail("the marker supply or plate count is inconsistent (HT-1.4, HT-7.4)")
    if to_move >= 0 and legal_mask(state, np.zeros(D.NUM_ACTIONS, dtype=np.int8)) == 0:
        _fail(f"no legal move for seat {to_move} in phase {D.PHASE_NAMES[phase]}")


def _validate_config(state: np.ndarray, players: int) -> None:
    if state[D.C_REGIONS_ON] and players != 2:
        _fail("the regions variant is for 2 players only (HT-11)")
    adj = state[D.C_REGION_ADJ:D.C_REGION_ADJ + D.NUM_REGIONS]
    for g in range(D.NUM_REGIONS):                    # as options.load_regions checks
        for h in range(D.NUM_REGIONS):
            if (adj[g] >> h) & 1 and (h == g or not (adj[h] >> g) & 1):
                _fail("the region adjacency must be symmetric and without loops")


def _validate_phase(state: np.ndarray, players: int, side: int, phase: int) -> None:
    """The fields each phase reads hold what the phase needs; outside it, their resting
    values.  A game cut off at the cap (HT-9.5) keeps what it had when cut."""
    def value(slot):
        return int(state[slot])

    if state[D.C_REGIONS_ON] == 0 and phase in (D.PH_PAWN_SETUP, D.PH_PAWN_END):
        _fail("a pawn phase without the regions variant (HT-11)")
    if value(D.G_TRUNCATED) and phase != D.PH_GAME_OVER:
        _fail("only an ended game can be truncated")
    if phase != D.PH_GAME_OVER and value(H_PLY) >= value(D.C_MAX_DECISIONS):
        _fail("a game at its decision cap has ended (HT-9.5)")
    # Every turn but the first begins after a decision (one ended the turn before).
    turns, ply = value(D.G_TURNS), value(H_PLY)
    if phase in (D.PH_SETUP, D.PH_PAWN_SETUP) and (turns or ply):
        _fail("no turn has begun before setup ends (HT-4, HT-11.3)")
    if turns > ply + (phase != D.PH_MARKER_DRAW):
        _fail("every turn after the first begins with a new decision (turns <= ply + 1)")
    # What the turn has had plus what it can still gain (Actiones upgrades up to 5, the
    # active player's +3/+4 markers) stays within MAX_ACTIONS, so no counter outgrows it.
    active = player_block(state, value(D.G_ACTIVE))
    level = min(int(active[D.P_TRACK + D.ACTIONES]), int(D.TRACK_MAX[D.ACTIONES]))
    gain = (int(D.TRACK_VALUES[D.ACTIONES].max() - D.TRACK_VALUES[D.ACTIONES, level])
            + 3 * int(active[D.P_UNUSED + D.MK_PLUS3]) + 4 * int(active[D.P_UNUSED + D.MK_PLUS4]))
    if value(D.G_ACTIONS_LEFT) + value(D.G_ACTIONS_TAKEN) + gain > D.MAX_ACTIONS:
        _fail(f"a turn has at most {D.MAX_ACTIONS} actions (Actiones 5, +3 and +4 markers)")
    if value(D.G_END) and phase not in (D.PH_REWARD, D.PH_GAME_OVER):
        _fail("the end is triggered only during an Establish action (HT-9)")
    over = phase == D.PH_GAME_OVER
    routes = D.ROUTES_ON_SIDE[side]
    route = value(D.G_EST_ROUTE)
    if phase == D.PH_REWARD and not (0 <= route < routes and route_owned_by(
            state, route, value(D.G_ACTIVE))):
        _fail("the reward phase needs the active player's established route (HT-6.5)")
    if route >= routes or (route >= 0 and phase != D.PH_REWARD and not over):
        _fail(f"establish_route {route} outside an Establish action")
    if value(D.G_EXTRA_OK) and phase != D.PH_REWARD and not over:
        _fail("extra_kontor_held outside an Establish action")
    displacing = phase in (D.PH_PAY, D.PH_COMPENSATE)
    victim, origin = value(D.G_DISP_VICTIM), value(D.G_DISP_ORIGIN)
    pending, hand = value(D.G_DISP_PENDING), value(D.G_COMP_HAND)
    if displacing:
        if not 0 <= victim < players or victim == value(D.G_ACTIVE) or not 0 <= origin < routes:
            _fail("a displacement needs a displaced rival and an origin route (HT-6.3)")
        if phase == D.PH_PAY and (hand >= 0 or pending < 0 or value(D.G_PAY_LEFT) < 1):
            _fail("paying for a displacement: nothing is in hand yet, something is owed")
        if phase == D.PH_COMPENSATE and value(D.G_PAY_LEFT):
            _fail("compensation starts once the displacement is paid for")
        base = D.PLAYERS_BASE + value(D.G_ACTIVE) * D.PLAYER_SIZE
        if phase == D.PH_PAY and (state[base + D.P_PERSONAL] + state[base + D.P_PERSONAL + 1]
                                  < state[D.G_PAY_LEFT]):
            _fail("the displacement cost exceeds the personal supply (HT-6.3.2)")
        if phase == D.PH_COMPENSATE and _free_spaces(state, side, origin) < (
                (pending >= 0) + (hand >= 0)):
            _fail("the displaced pieces have no empty space left (HT-6.3.3)")
    elif not over and (victim >= 0 or origin >= 0 or pending >= 0 or hand >= 0
                       or value(D.G_DISP_EXTRAS) or value(D.G_PAY_LEFT)):
        _fail("displacement fields are set outside a displacement")
    if victim >= players or origin >= routes:
        _fail("the displaced player or origin route is out of range")
    if state[D.G_COMP_PLACED + 1] >> (D.NUM_SPACES - D.COMP_BITS):
        _fail("compensation_placed marks spaces beyond the board")
    hand_n = value(D.G_HAND) + value(D.G_HAND + 1)
    picked = value(D.G_MOVE_PICKED)
    if phase == D.PH_MOVE_PICK and hand_n != picked:
        _fail("a Move lifts one piece per pick (HT-6.4)")
    if phase == D.PH_MOVE_DROP and not 1 <= hand_n <= picked:
        _fail("a Move's drop phase needs pieces in hand (HT-6.4)")
    if phase not in (D.PH_MOVE_PICK, D.PH_MOVE_DROP) and not over and (hand_n or picked):
        _fail("pieces are in hand outside a Move action")
    remove_left = value(D.G_REMOVE_LEFT)
    if (phase == D.PH_REMOVE3) != (remove_left > 0) and not over:
        _fail("remove_left is set exactly during a Remove 3 (HT-7.6.5)")
    if phase == D.PH_MARKER_DRAW and value(D.G_PLATE) < 1:
        _fail("a marker draw needs a marker on the plate (HT-7.4)")
    if (phase == D.PH_MARKER_PLACE) != (value(D.G_REVEALED) >= 0) and not over:
        _fail("revealed_marker is set exactly while a marker is placed (HT-7.4)")
    if phase == D.PH_SETUP and (
            (state[D.G_ROUTE_MARKER:D.G_ROUTE_MARKER + D.NUM_ROUTES] >= 0).any()
            or marker_total(state, players) != D.MARKER_TOTAL - len(D.START_MARKERS)):
        _fail("before setup the three starting markers are not yet out (HT-4.2)")


def _free_spaces(state: np.ndarray, side: int, origin: int) -> int:
    """Empty spaces off the origin route (where compensation pieces can go, HT-6.3.3)."""
    owner = state[D.G_SPACE_OWNER:D.G_SPACE_OWNER + D.SPACES_ON_SIDE[side]]
    return int(((owner < 0) & (D.SPACE_ROUTE[:len(owner)] != origin)).sum())


def _validate_players(state: np.ndarray, players: int) -> None:
    for seat in range(players):
        p = player_block(state, seat)
        track = p[D.P_TRACK:D.P_TRACK + 5]
        if (track > D.TRACK_MAX).any():
            _fail(f"seat {seat}: a track level is out of range (HT-3.1)")
        if (p[D.P_UNUSED:D.P_USED + 1] > D.MARKER_TOTAL).any() or p[D.P_EW_DONE] > 1:
            _fail(f"seat {seat}: a marker count or the East-West flag is out of range")
        t, m = piece_totals(state, seat)
        if (t, m) != (D.TRADERS_PER_PLAYER, D.MERCHANTS_PER_PLAYER):
            _fail(f"seat {seat}: {t} traders and {m} merchants, not 27 and 4 (HT-4.5)")
    for seat in range(players, D.MAX_PLAYERS):
        if player_block(state, seat).any():
            _fail(f"seat {seat} is not in the game but has pieces")
    done = sum(int(player_block(state, seat)[D.P_EW_DONE]) for seat in range(players))
    if done != state[D.G_EW_COUNT]:
        _fail(f"east_west_count {int(state[D.G_EW_COUNT])} but {done} players linked (HT-6.5.7)")


def _validate_cities(state: np.ndarray, players: int, side: int) -> None:
    completed = 0
    for city in range(D.NUM_CITIES):
        n = int(D.CITY_NOFF[side, city])
        owners = state[D.G_OFFICE_OWNER + city * D.MAX_OFFICES:][:D.MAX_OFFICES]
        if (owners >= players).any() or (owners[n:] >= 0).any():
            _fail(f"{D.CITY_NAMES[city]}: an office holds an unknown owner")
        filled = owners[:n] >= 0
        if filled.sum() and not filled[:filled.sum()].all():
            _fail(f"{D.CITY_NAMES[city]}: offices must fill from the left")
        completed += bool(filled.all())
        extra = int(state[D.G_EXTRA_N + city])
        if extra and not filled[0]:
            _fail(f"{D.CITY_NAMES[city]}: extra offices need an occupied office (A-11)")
        ext = state[D.G_EXTRA_OWNER + city * D.MAX_EXTRA:][:D.MAX_EXTRA]
        if (ext[:extra] < 0).any() or (ext[:extra] >= players).any() or (ext[extra:] >= 0).any():
            _fail(f"{D.CITY_NAMES[city]}: extra office owners are inconsistent")
    if completed != state[D.G_COMPLETED]:
        _fail(f"completed cities {int(state[D.G_COMPLETED])} but {completed} cities are full")
