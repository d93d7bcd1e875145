"""The observation kernel against a slow, obvious reference built in plain Python.

The reference reads the state's tile list, frontier, features and supplies and writes
every plane and vector entry the way ``observe.py``'s docstring describes them, one cell
and one seat at a time, from the tile rows' canonical edges rotated by hand (CA-3.4).  The
kernel (which writes only what is nonzero, from precomputed per-(type, rotation) tables)
must match it exactly, for every seat, on positions from random games of 2-6 players,
both placement layouts, with and without farmers and the expansion.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.masks import legal_actions
from meeplezoo.envs.carcassonne.observe import observe
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.carcassonne.policy import MAX_LIST
from meeplezoo.envs.carcassonne.rules import apply_action, init_state, resolve_chance
from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng, rand_below

W = D.OBS_WINDOW


def reference_observation(state, seat):
    s = [int(v) for v in state]
    out = np.zeros(D.OBS_SIZE, dtype=np.float32)
    planes = out[:D.OBS_PLANES_SIZE].reshape(D.OBS_CHANNELS, W, W)
    players = s[H_NUM_PLAYERS]
    placed = s[D.G_PLACED]
    xs = [D.xy_of(s[D.T_CELL + i])[0] for i in range(placed)]
    ys = [D.xy_of(s[D.T_CELL + i])[1] for i in range(placed)]
    x0 = (min(xs) + max(xs)) // 2 - W // 2
    y0 = (min(ys) + max(ys)) // 2 - W // 2
    outside = 0
    for i in range(placed):
        t, r = s[D.T_TYPE + i], s[D.T_ROT + i]
        col, row = xs[i] - x0, ys[i] - y0
        if not (0 <= col < W and 0 <= row < W):
            outside += 1
            continue
        planes[D.PL_OCCUPIED, row, col] = 1
        open_sides = 0
        for side in range(4):
            edge = int(D.EDGES[t, (side - r) % 4])          # canonical side on board side
            if edge == D.CITY_EDGE:
                planes[D.PL_CITY + side, row, col] = 1
            elif edge == D.ROAD_EDGE:
                planes[D.PL_ROAD + side, row, col] = 1
            if edge != D.FIELD_EDGE:
                slot = next(k for k in range(D.NUM_SLOTS[t])
                            if D.SEG_SIDES[t, k] >> ((side - r) % 4) & 1)
                root = s[D.N_ROOT + i * D.MAX_SLOTS + slot]
                open_sides += s[D.N_OPEN + root] > 0
        planes[D.PL_MONASTERY, row, col] = D.HAS_MONASTERY[t]
        planes[D.PL_SHIELD, row, col] = D.SEG_SHIELD[t].any()
        planes[D.PL_INN, row, col] = D.SEG_INN[t].any()
        if t == D.IC_TYPE and s[D.C_IC_INN] == 1:
            planes[D.PL_INN, row, col] = 2
        planes[D.PL_CATHEDRAL, row, col] = D.SEG_CATHEDRAL[t].any()
        planes[D.PL_OPEN_SIDES, row, col] = open_sides / 4
        for slot in range(D.NUM_SLOTS[t]):
            code = s[D.N_MEEPLE + i * D.MAX_SLOTS + slot]
            if code:
                owner, large = (code - 1) // 2, (code - 1) % 2
                planes[D.PL_MEEPLE + (owner - seat) % players, row, col] += 1 + large
                if D.SEG_KIND[t, slot] == D.FIELD:
                    planes[D.PL_FARMER, row, col] = 1
    phase, hand = s[H_PHASE], s[D.G_HAND]
    frontier = s[D.G_FRONTIER]
    for j in range(frontier):
        x, y = D.xy_of(s[D.F_CELL + j])
        col, row = x - x0, y - y0
        if j < D.FRONTIER_SLOTS:
            out[D.V_SLOTS + 3 * j:D.V_SLOTS + 3 * j + 3] = (1, col, row)
        if not (0 <= col < W and 0 <= row < W):
            continue
        planes[D.PL_FRONTIER, row, col] = 1
        if phase == D.PH_PLACE:
            for r in range(4):
                if s[D.C_DEDUPE] and r >= D.DISTINCT_ROTATIONS[hand]:
                    continue
                fits = all(
                    s[D.F_KEY + j] >> (2 * d) & 3 in (0, 1 + int(D.EDGES[hand, (d - r) % 4]))
                    for d in range(4))
                planes[D.PL_LEGAL + r, row, col] = fits
    if phase == D.PH_PLACE:
        out[D.V_PHASE] = 1
        out[D.V_HAND + hand] = 1
    elif phase == D.PH_MEEPLE:
        out[D.V_PHASE + 1] = 1
        col, row = xs[placed - 1] - x0, ys[placed - 1] - y0
        if 0 <= col < W and 0 <= row < W:
            planes[D.PL_LAST, row, col] = 1
    for t in range(D.NUM_TYPES):
        out[D.V_PILE + t] = np.float32(s[D.G_PILE + t] / D.TILE_COUNT[t])
    for rel in range(players):
        other = (seat + rel) % players
        out[D.V_SCORE + rel] = np.float32(s[D.G_SCORE + other] / 100.0)
        out[D.V_NORMAL + rel] = np.float32(s[D.G_NORMAL + other] / D.NORMAL_MEEPLES)
        out[D.V_LARGE + rel] = s[D.G_LARGE + other]
        out[D.V_PRESENT + rel] = 1
    out[D.V_PILE_LEFT] = np.float32(s[D.G_PILE_LEFT] / D.MAX_TILES)
    out[D.V_OUTSIDE] = np.float32(outside / 10.0)
    out[D.V_ORIGIN] = np.float32(x0 / D.MAX_TILES)
    out[D.V_ORIGIN + 1] = np.float32(y0 / D.MAX_TILES)
    out[D.V_FRONTIER] = np.float32(frontier / D.FRONTIER_SLOTS)
    return out


def random_positions(players, games, seed, every, **options):
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    actions = np.zeros(MAX_LIST, dtype=np.int64)
    rng = new_rng(seed)
    config = make_config(**options)
    for game in range(games):
        init_state(state, players, config, game % players)
        resolve_chance(state, rng)
        step = 0
        while state[H_TO_MOVE] != TERMINAL:
            if step % every == 0:
                yield state.copy()
            count = legal_actions(state, actions)
            apply_action(state, actions[rand_below(rng, count)])
            resolve_chance(state, rng)
            step += 1
        yield state.copy()


@pytest.mark.parametrize("players, options", [
    (2, {}),
    (3, {"farmers": False}),
    (4, {"expansion_inns_cathedrals": False}),
    (6, {"ic_tjunction_inn": "east_and_west", "dedupe_rotations": True}),
    (5, {"placement_layout": "grid"}),
])
def test_observation_matches_the_reference(players, options):
    out = np.empty(D.OBS_SIZE, dtype=np.float32)
    checked = 0
    for state in random_positions(players, 3, 17 + players, 7, **options):
        for seat in range(players):
            out.fill(np.nan)                 # the kernel must define every entry itself
            observe(state, seat, out)
            expected = reference_observation(state, seat)
            bad = np.flatnonzero(out != expected)
            assert bad.size == 0, (f"entries {bad[:10]}: kernel {out[bad[:10]]}, "
                                   f"reference {expected[bad[:10]]}")
            checked += 1
    assert checked > 50
