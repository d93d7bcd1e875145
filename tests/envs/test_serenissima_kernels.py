"""Hot-path kernels against slow, obvious reference code on random reachable positions:
the legal mask of the Load, Sell-or-Combat and Investment steps, the blocker order,
movement reachability with blocking, and scoring."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima import rules
from meeplezoo.envs.serenissima.board import next_blocker, reachable
from meeplezoo.envs.serenissima.maps import PLACEHOLDER_MAP, validate_map
from meeplezoo.envs.serenissima.masks import legal_mask
from meeplezoo.envs.serenissima.options import make_config

MAP = validate_map(PLACEHOLDER_MAP)


def positions(players: int, games: int, seed: int):
    """Every decision position of some random games (copies)."""
    for game in range(games):
        state = np.zeros(D.STATE_SIZE, dtype=np.int64)
        mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
        rng = new_rng(seed + game)
        policy = np.random.default_rng(seed + game)
        rules.env_reset(state, players, make_config(), 0, rng, mask)
        while int(state[H_TO_MOVE]) != TERMINAL:
            yield state.copy()
            rules.env_step(state, int(policy.choice(np.flatnonzero(mask))), rng, mask)


def galleys_in(state, zone):
    return [g for g in range(15) if state[D.S_G_OWNER + g] >= 0 and state[D.S_G_ZONE + g] == zone]


def ref_load(state) -> set[int]:
    g = int(state[D.A_GAL])
    seat, zone = int(state[D.S_G_OWNER + g]), int(state[D.S_G_ZONE + g])

    def load(h):
        return int(state[D.S_G_SAIL + h] + state[D.S_G_GOODS + 6 * h:D.S_G_GOODS + 6 * h + 6].sum())

    room = load(g) < 5
    out = {D.A_PASS}
    port = int(MAP["zone_port"][zone])
    if port >= 0 and state[D.S_P_OWNER + port] != D.CLOSED:
        owner = int(state[D.S_P_OWNER + port])
        if owner == seat and room and state[D.S_P_SAIL + port] > 1:
            out.add(D.A_PORT_TO_ACTIVE)
        if owner == seat and state[D.S_P_SAIL + port] < MAP["size"][port]:
            out.add(D.A_ACTIVE_TO_PORT)
        price = 0 if owner == seat and not state[D.A_FREE_USED] else 1
        if room and state[D.S_GOODS + MAP["good"][port]] > 0 and state[D.S_DUCATS + seat] >= price:
            out.add(D.A_LOAD)
    for t in range(6):
        if state[D.S_G_GOODS + 6 * g + t]:
            out.add(D.A_JETTISON + t)
    for h in galleys_in(state, zone):
        if h == g or state[D.S_G_OWNER + h] != seat:
            continue
        if room:
            out.add(D.A_SAILOR_FROM + h)
            out |= {D.A_GOOD_FROM + 6 * h + t for t in range(6) if state[D.S_G_GOODS + 6 * h + t]}
        if load(h) < 5:
            out.add(D.A_SAILOR_TO + h)
            out |= {D.A_GOOD_TO + 6 * h + t for t in range(6) if state[D.S_G_GOODS + 6 * g + t]}
    return out


def ref_step3(state) -> set[int]:
    g = int(state[D.A_GAL])
    seat, zone = int(state[D.S_G_OWNER + g]), int(state[D.S_G_ZONE + g])
    port = int(MAP["zone_port"][zone])
    out = {D.A_PASS}
    opt, blocked = int(state[D.A_OPT]), int(state[D.A_SALE_BLOCKED])
    if port >= 0 and state[D.S_P_OWNER + port] != D.CLOSED and (
            opt == D.OPT_SELL or (opt == D.OPT_NONE and not blocked)):
        stored = [t for t in range(6) if int(state[D.S_P_WH + port]) >> t & 1]
        for t in range(6):
            if state[D.S_G_GOODS + 6 * g + t] and t != MAP["good"][port] and t not in stored \
                    and len(stored) < MAP["size"][port]:
                out.add(D.A_SELL + t)
    if opt == D.OPT_SELL:
        return out
    out |= {D.A_GALLEY + h for h in galleys_in(state, zone) if state[D.S_G_OWNER + h] != seat}
    if port >= 0:
        owner = int(state[D.S_P_OWNER + port])
        claim_blocked = int(state[D.A_CLAIM_BLOCKED])
        if owner == D.NEUTRAL and (not claim_blocked or state[D.A_BATTLES] >= claim_blocked):
            out.add(D.A_CLAIM)
        elif owner >= 0 and owner != seat and not any(
                state[D.S_G_OWNER + h] == owner for h in galleys_in(state, zone)) and sum(
                state[D.S_P_OWNER + p] == owner for p in range(19)) >= 2:
            out.add(D.A_ATTACK_PORT)
    return out


def ref_blocker_order(state) -> list[int]:
    g = int(state[D.A_GAL])
    zone, owner, mine = (int(state[D.S_G_ZONE + g]), int(state[D.S_G_OWNER + g]),
                         int(state[D.S_G_SAIL + g]))
    if zone == state[D.A_START_ZONE]:
        return []
    rows = []
    for seat in range(int(state[H_NUM_PLAYERS])):
        mine_here = [h for h in galleys_in(state, zone) if state[D.S_G_OWNER + h] == seat]
        total = sum(int(state[D.S_G_SAIL + h]) for h in mine_here)
        if seat != owner and total > mine:
            rows.append((-total, min(mine_here), seat))
    return [seat for _, _, seat in sorted(rows)]


def ref_reachable(state, steps) -> dict[int, int]:
    g = int(state[D.A_GAL])
    start = int(state[D.S_G_ZONE + g])
    order = ref_blocker_order

    def stoppable(zone):
        probe = state.copy()
        probe[D.S_G_ZONE + g] = zone
        return bool(order(probe))

    best = {start: 0}
    frontier = [start]
    for step in range(1, steps + 1):
        nxt = []
        for zone in frontier:
            if step > 1 and stoppable(zone):
                continue
            for other in np.flatnonzero(MAP["adj"][zone]):
                if int(other) not in best:
                    best[int(other)] = step
                    nxt.append(int(other))
        frontier = nxt
    return best


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernels_match_reference_code(players):
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    out = np.zeros(D.MAX_ZONES, dtype=np.int64)
    checked = {"load": 0, "step3": 0, "blockers": 0, "reach": 0, "score": 0}
    rng = np.random.default_rng(players)
    for state in positions(players, 25, 1000 * players):
        phase = int(state[H_PHASE])
        if phase in (D.PH_LOAD, D.PH_STEP3):
            legal_mask(state, mask)
            got = set(int(a) for a in np.flatnonzero(mask))
            expected = ref_load(state) if phase == D.PH_LOAD else ref_step3(state)
            assert got == expected
            checked["load" if phase == D.PH_LOAD else "step3"] += 1
        if phase in (D.PH_MOVE, D.PH_STEP3, D.PH_LOAD):
            order = ref_blocker_order(state)
            state[D.A_ASKED] = 0
            for seat in order:
                assert next_blocker(state) == seat
                state[D.A_ASKED] |= 1 << seat
            assert next_blocker(state) == -1
            state[D.A_ASKED] = 0
            checked["blockers"] += 1
            steps = int(rng.integers(0, 6))
            reachable(state, steps, out)
            expected = ref_reachable(state, steps)
            got = {z: int(out[z]) for z in range(20) if out[z] >= 0}
            assert got == expected
            checked["reach"] += 1
        if rng.random() < 0.05:
            before = state[D.S_DUCATS:D.S_DUCATS + 4].copy()
            rules.score_ports(state)
            gain = state[D.S_DUCATS:D.S_DUCATS + 4] - before
            expected = np.zeros(4, dtype=np.int64)
            for p in range(19):
                owner = int(state[D.S_P_OWNER + p])
                if owner >= 0:
                    cubes = bin(int(state[D.S_P_WH + p])).count("1")
                    expected[owner] += MAP["score"][p][cubes] + 5 * int(state[D.S_P_BAS + p])
            assert gain.tolist() == expected.tolist()
            checked["score"] += 1
    assert all(count > 20 for count in checked.values()), checked
