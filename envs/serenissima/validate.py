"""Consistency checks of a Serenissima state (JSON loading, tests, the fuzzer).

``state_from_json`` first holds every field to ``data.FIELD_BOUNDS``; ``validate_state``
then raises ``ValueError`` saying what is wrong with what a single range cannot say: the
config block (map tables against the map's own zone and port counts, the round track,
options), the header (phase, seat to move, the decision count under the cap), every index
that depends on the map, ``num_players`` or the phase (zones, ports, galleys, seats, the
pending decision of each phase), then every invariant of spec §13 (``check_invariants``)
and, last, that the decision has a legal action or the chance event an outcome.  The
checks run in that order so each compiled kernel only ever sees indices already checked:
after a successful load no kernel can index outside the state or the map tables.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import (
    CHANCE,
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_PLY,
    H_TO_MOVE,
    TERMINAL,
)
from . import data as D
from .chance import chance_outcomes
from .invariants import ERRORS, check_invariants
from .masks import close_candidates, legal_mask

# Phases inside an activation, where an active galley in play acts (A_GAL).
_ACTIVATION = (D.PH_CHOOSE, D.PH_LOAD, D.PH_MOVE, D.PH_BLOCK, D.PH_STEP3, D.PH_CONTINUE,
               D.PH_LAND, D.PH_INVEST)


def _fail(message: str):
    raise ValueError(message)


def _popcount(x: int) -> int:
    return bin(x).count("1")


def validate_config(state: np.ndarray) -> None:
    """The map tables and options of the config block, as ``make_config`` writes them."""
    nz, n_ports = int(state[D.K_NUM_ZONES]), int(state[D.K_NUM_PORTS])
    if not 2 <= nz <= D.MAX_ZONES or not 1 <= n_ports <= min(nz, D.MAX_PORTS):
        _fail(f"map has {nz} zones and {n_ports} ports (limits {D.MAX_ZONES}, {D.MAX_PORTS})")
    adj = state[D.K_ADJ:D.K_ADJ + D.MAX_ZONES]
    for z in range(D.MAX_ZONES):
        row = int(adj[z])
        if row < 0 or row >> nz or (z >= nz and row) or (row >> z) & 1:
            _fail(f"adjacency of zone {z} is invalid")
        for y in range(nz):
            if (row >> y) & 1 and not (int(adj[y]) >> z) & 1:
                _fail(f"adjacency {z}-{y} is not symmetric")
    zone_port = [int(v) for v in state[D.K_ZONE_PORT:D.K_ZONE_PORT + D.MAX_ZONES]]
    for z in range(D.MAX_ZONES):
        p = zone_port[z]
        if z >= nz and p != -1 or not -1 <= p < n_ports:
            _fail(f"zone {z} names port {p}, not a port of this map")
        if p >= 0 and state[D.K_PORT_ZONE + p] != z:
            _fail(f"zone {z} and port {p} disagree")
    starts = 0
    for p in range(D.MAX_PORTS):
        slots = [int(v) for v in state[D.K_SLOT + D.MAX_SIZE * p:D.K_SLOT + D.MAX_SIZE * (p + 1)]]
        base = D.K_SCORE + (D.MAX_SIZE + 1) * p
        score = [int(v) for v in state[base:base + D.MAX_SIZE + 1]]
        tables = (state[D.K_PORT_ZONE + p], state[D.K_PORT_GOOD + p], state[D.K_PORT_SIZE + p],
                  state[D.K_PORT_START + p])
        if p >= n_ports:
            if any(tables) or any(slots) or any(score):
                _fail(f"port slot {p} is not on the map but has tables")
            continue
        z = int(state[D.K_PORT_ZONE + p])
        if not 0 <= z < nz or zone_port[z] != p:
            _fail(f"port {p} and zone {z} disagree")
        if not 0 <= state[D.K_PORT_GOOD + p] < D.NUM_GOODS:
            _fail(f"port {p} produces an unknown good")
        size = int(state[D.K_PORT_SIZE + p])
        if not 1 <= size <= D.MAX_SIZE:
            _fail(f"port {p} has size {size}")
        if state[D.K_PORT_START + p] not in (0, 1):
            _fail(f"port {p}: the start flag must be 0 or 1")
        starts += int(state[D.K_PORT_START + p])
        if not all(2 <= v <= 6 for v in slots[:size]) or slots[:size] != sorted(slots[:size]) \
                or any(slots[size:]):                                    # SE-6.5.4
            _fail(f"port {p}: sale values {slots} do not fit size {size}")
        if score[0] != 0 or score[:size + 1] != sorted(score[:size + 1]) \
                or score[size] > 100 or any(score[size + 1:]):          # SE-9.1
            _fail(f"port {p}: scoring scale {score} does not fit size {size}")
    if starts < D.MAX_PLAYERS:                                           # SE-4.1.4
        _fail(f"map has {starts} start ports, needs at least {D.MAX_PLAYERS}")
    _validate_track(state)
    if int(state[D.K_CAPACITY]) not in (4, 5):
        _fail("galley capacity must be 4 or 5")
    for slot in (D.K_BLOCK_IN_START, D.K_SELL_AFTER_BREAK, D.K_NEW_ACTS, D.K_CLOSE_CHOOSE,
                 D.K_HIDDEN_MONEY):
        if state[slot] not in (0, 1):
            _fail("option flags must be 0 or 1")
    if state[D.K_MAP_KIND] not in (0, 1, 2):
        _fail("unknown map kind")
    if not D.MIN_MAX_DECISIONS <= state[D.K_MAX_DECISIONS] <= D.MAX_MAX_DECISIONS:
        _fail(f"max_decisions must be {D.MIN_MAX_DECISIONS}..{D.MAX_MAX_DECISIONS}")
    supply = state[D.K_SUPPLY0:D.K_SUPPLY0 + D.NUM_GOODS]
    if (supply < 0).any() or (supply > 99).any():
        _fail("initial goods supply must be 0..99")


def _validate_track(state: np.ndarray) -> None:
    """SE-5.4, SE-11.1: three scoring spaces per track, the last one at ``last``."""
    last, start = int(state[D.K_TRACK_LAST]), int(state[D.K_START_23P])
    if not 3 <= last <= D.MAX_TRACK or not 0 <= start <= last - 3:
        _fail(f"round track: last space {last}, 2/3-player start {start}")
    for slot, low in ((D.K_SCORING_4P, 0), (D.K_SCORING_23P, start)):
        spaces = int(state[slot])
        allowed = (1 << (last + 1)) - (1 << (low + 1))
        if spaces & ~allowed or not (spaces >> last) & 1 or _popcount(spaces) != 3:
            _fail("round track: each track needs exactly three scoring spaces, the last "
                  "at the last space (SE-11.1)")


def validate_state(state: np.ndarray, rules: int = D.RULES_V0) -> None:
    """Raise ``ValueError`` unless ``state`` is a consistent state of the version whose
    rules are ``rules`` (``data.RULES_V0``: serenissima_v0, ``RULES_V1``: serenissima_v1)."""
    if state.shape != (D.STATE_SIZE,):
        _fail(f"state must have {D.STATE_SIZE} slots, got shape {state.shape}")
    if state[H_GAME_ID] != D.GAME_ID:
        _fail(f"game id {int(state[H_GAME_ID])} is not Serenissima's ({D.GAME_ID})")
    played = int(state[D.G_RULES])
    if played not in (D.RULES_V0, D.RULES_V1):
        _fail(f"unknown rules version g_rules {played}")
    if played != rules:
        _fail(f"this state plays serenissima_v{played}'s rules (g_rules {played}), not "
              f"serenissima_v{rules}'s: load it into serenissima_v{played}")
    n = int(state[H_NUM_PLAYERS])
    if not D.MIN_PLAYERS <= n <= D.MAX_PLAYERS:
        _fail(f"num_players {n} outside {D.MIN_PLAYERS}..{D.MAX_PLAYERS}")
    validate_config(state)
    phase, to_move = int(state[H_PHASE]), int(state[H_TO_MOVE])
    if not 0 <= phase < len(D.PHASE_NAMES):
        _fail(f"unknown phase {phase}")
    name = D.PHASE_NAMES[phase]
    expected = {D.PH_CHANCE: CHANCE, D.PH_GAME_OVER: TERMINAL}.get(phase)
    if expected is not None and to_move != expected:
        _fail(f"to_move {to_move} does not fit phase {name}")
    if expected is None and not 0 <= to_move < n:
        _fail(f"to_move {to_move} is not a seat in phase {name}")
    over = phase == D.PH_GAME_OVER
    ply, cap = int(state[H_PLY]), int(state[D.K_MAX_DECISIONS])
    if not 0 <= ply <= cap or (ply == cap and not over):
        _fail(f"{ply} decisions made, but the cap is {cap} and the game goes on")
    if state[D.G_TRUNCATED] and not over:
        _fail("a truncated game must be over")
    _validate_board(state, n, phase)
    _validate_round(state, n, phase, over)
    _validate_turn(state, n, phase, to_move)
    error = int(check_invariants(np.ascontiguousarray(state, dtype=np.int64)))
    if error:
        _fail(ERRORS[error])
    _validate_has_a_move(state, phase)


def _validate_board(state: np.ndarray, n: int, phase: int) -> None:
    """Seats, zones and ports of every piece within this game's players and map."""
    nz, n_ports = int(state[D.K_NUM_ZONES]), int(state[D.K_NUM_PORTS])
    for seat in range(n, D.MAX_PLAYERS):
        ledger = state[D.S_LEDGER + D.LEDGER_KINDS * seat:D.S_LEDGER + D.LEDGER_KINDS * (seat + 1)]
        if state[D.S_DUCATS + seat] or state[D.S_SUPPLY + seat] or ledger.any():
            _fail(f"seat {seat} is not in the game but has ducats, sailors or a ledger")
    for p in range(n_ports, D.MAX_PORTS):
        if state[D.S_P_OWNER + p] != D.CLOSED or state[D.S_P_SAIL + p] \
                or state[D.S_P_WH + p] or state[D.S_P_FORT + p] or state[D.S_P_BAS + p]:
            _fail(f"port slot {p} is not on the map but is in use")
    for p in range(n_ports):
        if state[D.S_P_OWNER + p] >= n:
            _fail(f"port {p} is owned by seat {int(state[D.S_P_OWNER + p])}, not in the game")
    unmanned = int(state[D.A_UNMANNED])
    for g in range(D.NUM_GALLEYS):
        owner, zone = int(state[D.S_G_OWNER + g]), int(state[D.S_G_ZONE + g])
        if owner >= n:
            _fail(f"galley {g + 1} is owned by seat {owner}, not in the game")
        if owner < 0 and zone != -1:
            _fail(f"galley {g + 1} is not in play but lies in zone {zone}")
        being_placed = g == unmanned and phase == D.PH_PLACE_GALLEY and zone == -1
        if owner >= 0 and not 0 <= zone < nz and not being_placed:
            _fail(f"galley {g + 1} lies in zone {zone}, not a zone of this map")
    if unmanned >= 0:
        if phase not in (D.PH_INVEST, D.PH_SPECIAL, D.PH_PLACE_GALLEY, D.PH_GAME_OVER):
            _fail(f"a newly bought galley waits for a sailor in phase {D.PHASE_NAMES[phase]}")
        if state[D.S_G_OWNER + unmanned] < 0 or state[D.S_G_SAIL + unmanned] != 0:
            _fail("the newly bought galley is not an owned galley without sailors")
        if phase != D.PH_GAME_OVER and state[D.S_G_OWNER + unmanned] != state[D.G_TURN_OWNER]:
            _fail("the newly bought galley is not the investing player's")
    if phase == D.PH_PLACE_GALLEY and unmanned < 0:
        _fail("placing a galley needs the galley just bought")
    start = int(state[D.A_START_ZONE])
    if start >= nz:
        _fail(f"start zone {start} is not a zone of this map")
    if any(state[D.A_CAP_GOODS:D.A_CAP_GOODS + D.NUM_GOODS]) and phase != D.PH_CAPTURE:
        _fail("goods wait for a capture outside the capture phase")
    pile = [int(v) for v in state[D.G_PILE:D.G_PILE + len(D.DECK)]]
    if any(v > d for v, d in zip(pile, D.DECK, strict=True)) or pile[D.CARD_SHUFFLE] != 1:
        _fail(f"Doge pile {pile} is not a part of the deck holding the shuffle card (SE-8.6)")
    roll = int(state[D.G_LAST_ROLL])
    if not (roll == -1 or 0 <= roll < 36 or 100 <= roll <= 100 + D.FORT_DICE):
        _fail(f"last roll code {roll} is unknown")


def _validate_round(state: np.ndarray, n: int, phase: int, over: bool) -> None:
    """Setup counters, the round track, scorings and the chance kind."""
    total = D.GALLEYS_AT_START[n] * n
    step, close = int(state[D.G_SETUP_STEP]), int(state[D.G_CLOSE_STEP])
    kind = int(state[D.G_CHANCE_KIND])
    closing = phase == D.PH_CLOSE or (phase == D.PH_CHANCE and kind == D.CK_CLOSE)
    setup = phase in (D.PH_SETUP_PORT, D.PH_SETUP_GALLEY)
    if step > total or (setup or closing) and step == total:
        _fail(f"setup step {step} does not fit phase {D.PHASE_NAMES[phase]}")
    if not (setup or closing or over) and step != total:
        _fail(f"phase {D.PHASE_NAMES[phase]} before the setup is complete")
    if closing:
        if n == D.MAX_PLAYERS or close >= len(D.CLOSE_GOODS) or step:
            _fail("closing ports happens only first, with 2 or 3 players (SE-12.1.4)")
        if close_candidates(state, close, np.zeros(D.NUM_ACTIONS, np.int8), 0) == 0:
            _fail("no port can be closed at this closing step")
        if (state[D.S_G_OWNER:D.S_G_OWNER + D.NUM_GALLEYS] >= 0).any() \
                or (state[D.S_P_OWNER:D.S_P_OWNER + D.MAX_PORTS] >= 0).any():
            _fail("ports are closed before anyone picks a port or a galley (SE-12.1.4)")
    elif close != len(D.CLOSE_GOODS) and not (over and step == 0):
        _fail("the ports to close (SE-12.1.4) are not all closed yet")
    if (phase == D.PH_CHANCE) != (kind != D.CK_NONE):
        _fail(f"chance kind {kind} does not fit phase {D.PHASE_NAMES[phase]}")
    last = int(state[D.K_TRACK_LAST])
    first = 0 if n == D.MAX_PLAYERS else int(state[D.K_START_23P])
    spaces = int(state[D.K_SCORING_4P] if n == D.MAX_PLAYERS else state[D.K_SCORING_23P])
    track = int(state[D.G_TRACK])
    if not first <= track <= last:
        _fail(f"round track at {track}, outside {first}..{last}")
    passed = _popcount(spaces & ((1 << (track + 1)) - (1 << (first + 1))))
    if state[D.G_SCORINGS] != passed:                                   # SE-5.4.2
        _fail(f"{int(state[D.G_SCORINGS])} scorings, but the track passed {passed}")
    if (track == last) != (over and not state[D.G_TRUNCATED]):         # SE-11.1
        _fail("the game ends exactly when the track reaches its last space")
    if not 0 <= state[D.G_FIRST] < n:
        _fail(f"first player {int(state[D.G_FIRST])} is not a seat")
    if not 0 <= state[D.A_OWNER] < n:
        _fail(f"active player {int(state[D.A_OWNER])} is not a seat")
    owner = int(state[D.G_TURN_OWNER])
    if not (-1 if over else 0) <= owner < n:
        _fail(f"turn owner {owner} is not a seat")
    if state[D.A_ASKED] >> n or state[D.G_SPECIAL_INDEX] > n:
        _fail("seats asked to block or the special-investment position exceed the players")


def _galley_ok(state: np.ndarray, g: int) -> bool:
    return 0 <= g < D.NUM_GALLEYS and state[D.S_G_OWNER + g] >= 0 \
        and state[D.S_G_SAIL + g] > 0


def _validate_turn(state: np.ndarray, n: int, phase: int, to_move: int) -> None:
    """What the decision (or chance event) of the phase reads: the right seat to move,
    the active galley, the target of a battle, the pending sale, claim, landing, capture."""
    name = D.PHASE_NAMES[phase]
    g, owner = int(state[D.A_GAL]), int(state[D.A_OWNER])
    turn = int(state[D.G_TURN_OWNER])
    kind = int(state[D.G_CHANCE_KIND])
    battle = phase == D.PH_CHANCE and kind in (D.CK_BATTLE, D.CK_FORT)
    invest_place = phase == D.PH_PLACE_GALLEY and state[D.A_RETURN_PHASE] == D.PH_INVEST
    if phase in _ACTIVATION or battle or invest_place:
        if not _galley_ok(state, g) or state[D.S_G_OWNER + g] != owner or turn != owner:
            _fail(f"phase {name} needs an active galley in play, of the player whose turn it is")
        if state[D.G_WHEEL] != g or not 0 <= state[D.A_START_ZONE] < state[D.K_NUM_ZONES]:
            _fail(f"phase {name}: the wheel or the start zone does not fit the active galley")
    if state[D.A_V0] != D.NO_V0 and not -D.MAX_SIZE <= state[D.A_V0] <= D.MAX_SIZE:
        _fail(f"combat value {int(state[D.A_V0])} cannot occur")
    battles = int(state[D.A_BATTLES])
    if state[D.A_SALE_BLOCKED] > battles + 1 or state[D.A_CLAIM_BLOCKED] > battles + 1:
        _fail("a block is dated after the battles fought")
    occ = int(state[D.A_OCC])
    if phase == D.PH_BLOCK:
        if not D.OCC_MOVE <= occ <= D.OCC_CLAIM or to_move == owner \
                or state[D.A_BLOCKER] != to_move or (state[D.A_ASKED] >> to_move) & 1:
            _fail("a block question needs an occasion and an opponent not yet asked")
        _validate_block_occasion(state, g, occ)
    elif phase == D.PH_CAPTURE:
        captor = int(state[D.A_CAPTOR])
        if occ not in (0, 1) or not _galley_ok(state, captor) \
                or to_move != state[D.S_G_OWNER + captor] or turn != owner:
            _fail("a capture needs a surviving galley whose owner decides")
        if (occ == 0) != (captor == g) or state[D.G_WHEEL] != g or not 0 <= g \
                or (occ == 1 and state[D.S_G_OWNER + captor] == owner):
            _fail("the capturing galley does not fit the battle")
    elif occ != D.OCC_NONE:
        _fail(f"a blocking occasion is pending in phase {name}")
    elif phase not in (D.PH_CHANCE, D.PH_GAME_OVER) and to_move != turn:
        _fail(f"phase {name}: player {to_move} moves in player {turn}'s turn")
    if phase == D.PH_CLOSE and to_move != (state[D.G_FIRST] + state[D.G_CLOSE_STEP]) % n:
        _fail("the wrong player closes a port")
    if phase in (D.PH_SETUP_PORT, D.PH_SETUP_GALLEY):
        _validate_setup(state, n, phase, to_move)
    if phase == D.PH_SPECIAL and (state[D.G_SPECIAL_INDEX] >= n or owner != to_move or
                                  to_move != (state[D.G_FIRST] + state[D.G_SPECIAL_INDEX]) % n):
        _fail("the wrong player makes the special investment (SE-10)")
    if phase == D.PH_PLACE_GALLEY and (state[D.A_RETURN_PHASE] not in (D.PH_INVEST, D.PH_SPECIAL)
                                       or owner != to_move):
        _fail("a galley is placed outside an investment")
    if phase == D.PH_CONTINUE or battle:
        _validate_battle(state, g, owner, phase == D.PH_CHANCE and kind == D.CK_FORT)
    if phase == D.PH_LAND:
        p = int(state[D.A_LAND_PORT])
        if not 0 <= p < state[D.K_NUM_PORTS] or state[D.S_P_OWNER + p] != D.NEUTRAL \
                or state[D.K_PORT_ZONE + p] != state[D.S_G_ZONE + g] \
                or state[D.A_LAND_MIN] > min(state[D.S_G_SAIL + g], state[D.K_PORT_SIZE + p]):
            _fail("landing needs the neutral port of the active galley's zone")


def _setup_seat(state: np.ndarray, n: int, step: int) -> int:
    """SE-4.1.4/5: clockwise from the first player, then back from the last."""
    r, i = divmod(step, n)
    first = int(state[D.G_FIRST])
    return (first + i) % n if r % 2 == 0 else (first + n - 1 - i) % n


def _validate_setup(state: np.ndarray, n: int, phase: int, to_move: int) -> None:
    """The setup so far is exactly the picks its order made: per seat, one start port
    once its first turn came, and one galley per pick."""
    step = int(state[D.G_SETUP_STEP])
    galleys, ports = [0] * n, [0] * n
    for k in range(step):
        seat = _setup_seat(state, n, k)
        galleys[seat] += 1
        ports[seat] = 1
    if to_move != _setup_seat(state, n, step):
        _fail("the setup order (SE-4.1.4/5) does not fit the player to move")
    if phase == D.PH_SETUP_GALLEY:
        ports[to_move] = 1
    for seat in range(n):
        owned_galleys = sum(1 for g in range(D.NUM_GALLEYS) if state[D.S_G_OWNER + g] == seat)
        owned_ports = sum(1 for p in range(int(state[D.K_NUM_PORTS]))
                          if state[D.S_P_OWNER + p] == seat)
        if (owned_galleys, owned_ports) != (galleys[seat], ports[seat]):
            _fail(f"setup step {step}: seat {seat} holds {owned_galleys} galleys and "
                  f"{owned_ports} ports, the setup order gives {galleys[seat]} and "
                  f"{ports[seat]} (SE-4.1.4/5)")


def _validate_block_occasion(state: np.ndarray, g: int, occ: int) -> None:
    """The sale or claim asked about must still be possible (the question's answer
    carries it out without looking again)."""
    p = int(state[D.K_ZONE_PORT + state[D.S_G_ZONE + g]])
    if occ == D.OCC_MOVE:
        return
    if p < 0 or state[D.S_P_OWNER + p] == D.CLOSED:
        _fail("a sale or claim block needs an open port in the zone")
    if occ == D.OCC_CLAIM:
        if state[D.S_P_OWNER + p] != D.NEUTRAL:
            _fail("a claim needs a neutral port")
        return
    t = int(state[D.A_PENDING])
    wh = int(state[D.S_P_WH + p])
    if not 0 <= t < D.NUM_GOODS or state[D.S_G_GOODS + D.NUM_GOODS * g + t] == 0 \
            or state[D.K_PORT_GOOD + p] == t or (wh >> t) & 1 \
            or _popcount(wh) >= state[D.K_PORT_SIZE + p]:
        _fail("the sale asked about cannot be made (SE-6.5.2)")


def _validate_battle(state: np.ndarray, g: int, owner: int, fort: bool) -> None:
    """SE-6.6, SE-6.7.4: the target galley or owned port of the battle under way."""
    h, p = int(state[D.A_TARGET]), int(state[D.A_TARGET_PORT])
    zone = state[D.S_G_ZONE + g]
    if h >= 0:
        if fort or p != -1 or h == g or not _galley_ok(state, h) \
                or state[D.S_G_OWNER + h] == owner or state[D.S_G_ZONE + h] != zone:
            _fail("the attacked galley is not an opponent's galley in the zone")
        defender = int(state[D.S_G_SAIL + h])
    else:
        if not 0 <= p < state[D.K_NUM_PORTS] or state[D.K_PORT_ZONE + p] != zone \
                or not 0 <= state[D.S_P_OWNER + p] != owner or state[D.S_P_SAIL + p] < 1 \
                or (fort and not state[D.S_P_FORT + p]):
            _fail("the attacked port is not an opponent's held port in the zone")
        defender = int(state[D.S_P_SAIL + p])
    rolling = state[H_PHASE] == D.PH_CHANCE and not fort
    if rolling and (state[D.G_ATT_DICE] > state[D.S_G_SAIL + g]
                    or state[D.G_DEF_DICE] != defender):
        _fail("the battle's dice do not fit the sailors (SE-6.6.2/3)")
    if not fort and state[D.A_V0] == D.NO_V0:
        _fail("a battle round without the attacker's combat value (SE-6.6.2)")


def _validate_has_a_move(state: np.ndarray, phase: int) -> None:
    if phase == D.PH_GAME_OVER:
        return
    work = np.ascontiguousarray(state, dtype=np.int64)
    if phase == D.PH_CHANCE:
        codes = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.int64)
        probs = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.float64)
        if chance_outcomes(work, codes, probs) == 0:
            _fail("the pending chance event has no outcome")
    elif legal_mask(work, np.zeros(D.NUM_ACTIONS, dtype=np.int8)) == 0:
        _fail(f"no legal action in phase {D.PHASE_NAMES[phase]}")
