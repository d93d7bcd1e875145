"""The compiled union-find, completion and scoring against slow, obvious reference code.

The reference rebuilds every feature from scratch by flood fill over the placed tiles,
reading the tile rows of ``tiles.py`` directly (not the compiled tables) and rotating
ports by hand (CA-3.4), then scores from the rules' text (§9, §10, §12, AMB-1).  It is
compared with the kernels on thousands of positions taken from random games.
"""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.features import completed_points, count_tiles, final_points
from meeplezoo.envs.carcassonne.masks import legal_actions, legal_mask
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.carcassonne.policy import MAX_LIST
from meeplezoo.envs.carcassonne.rules import apply_action, init_state, resolve_chance
from meeplezoo.envs.carcassonne.tiles import ALL_TILES, HALF_EDGE_NAMES
from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng, rand_below

SIDES = "NESW"
DELTA = ((0, -1), (1, 0), (0, 1), (-1, 0))


def parse(row):
    """Segments of one tile row: (kind, sides, halves, shield, inn, cathedral, adjacent)."""
    out = []
    for text in row[5]:
        words = text.split()
        sides = {SIDES.index(w) for w in words[1:] if w in SIDES}
        halves = {HALF_EDGE_NAMES.index(w) for w in words[1:] if w in HALF_EDGE_NAMES}
        adjacent = set()
        for w in words[1:]:
            if w.startswith(">"):
                adjacent = {int(k) for k in w[1:].split(",")}
        out.append((words[0], sides, halves, "+shield" in words, "+inn" in words,
                    "+cathedral" in words, adjacent))
    return out


SEGMENTS = [parse(row) for row in ALL_TILES]


def tiles_of(state):
    placed = int(state[D.G_PLACED])
    return [(int(state[D.T_TYPE + i]), int(state[D.T_ROT + i]),
             *D.xy_of(int(state[D.T_CELL + i]))) for i in range(placed)]


def reference_features(state):
    """Flood fill: component id per (tile, slot) and per-component facts."""
    tiles = tiles_of(state)
    at = {(x, y): i for i, (_, _, x, y) in enumerate(tiles)}
    ic_both = int(state[D.C_IC_INN]) == 1

    def owner(i, board_side=None, board_half=None):
        t, r, _, _ = tiles[i]
        for slot, seg in enumerate(SEGMENTS[t]):
            if board_side is not None and (board_side - r) % 4 in seg[1]:
                return slot
            if board_half is not None and (board_half - 2 * r) % 8 in seg[2]:
                return slot
        return None

    links = {}
    for i, (t, _, x, y) in enumerate(tiles):
        for slot in range(len(SEGMENTS[t])):
            links.setdefault((i, slot), [])
        for d, (dx, dy) in enumerate(DELTA):
            j = at.get((x + dx, y + dy))
            if j is None:
                continue
            e = (d + 2) % 4
            pairs = []
            a, b = owner(i, board_side=d), owner(j, board_side=e)
            if a is not None and b is not None:
                pairs.append((a, b))
            for h, g in ((2 * d, 2 * e + 1), (2 * d + 1, 2 * e)):
                a, b = owner(i, board_half=h), owner(j, board_half=g)
                if a is not None and b is not None:
                    pairs.append((a, b))
            for a, b in pairs:
                links[(i, a)].append((j, b))
    component, facts = {}, []
    for start in links:
        if start in component:
            continue
        cid = len(facts)
        queue, members = deque([start]), []
        component[start] = cid
        while queue:
            node = queue.popleft()
            members.append(node)
            for nxt in links[node]:
                if nxt not in component:
                    component[nxt] = cid
                    queue.append(nxt)
        kind = SEGMENTS[tiles[start[0]][0]][start[1]][0]
        open_ports = shields = 0
        inn = cathedral = False
        for i, slot in members:
            t, r, x, y = tiles[i]
            seg = SEGMENTS[t][slot]
            shields += seg[3]
            inn |= seg[4] or (ic_both and D.TILE_NAMES[t] == "IC" and slot == 2)
            cathedral |= seg[5]
            for side in seg[1]:
                dx, dy = DELTA[(side + r) % 4]
                open_ports += (x + dx, y + dy) not in at
        facts.append({"kind": kind, "members": set(members), "open": open_ports,
                      "tiles": len({i for i, _ in members}), "shields": shields,
                      "inn": inn, "cathedral": cathedral})
    return tiles, at, component, facts


def strength(state, members, players):
    power = [0] * players
    for i, slot in members:
        code = int(state[D.N_MEEPLE + i * 8 + slot])
        if code:
            power[(code - 1) // 2] += 1 + (code - 1) % 2
    return power


def pay(power, points, out):
    best = max(power)
    if best > 0:
        for seat, p in enumerate(power):
            if p == best:
                out[seat] += points


def reference_final_points(state):
    players = int(state[H_NUM_PLAYERS])
    tiles, at, component, facts = reference_features(state)
    out = [0] * players
    for f in facts:
        power = strength(state, f["members"], players)
        if f["kind"] == "monastery":
            (i, _), = f["members"]
            _, _, x, y = tiles[i]
            around = sum((x + dx, y + dy) in at for dx in (-1, 0, 1) for dy in (-1, 0, 1)) - 1
            pay(power, 1 + around, out)
        elif f["kind"] in ("city", "road") and f["open"] > 0:
            if f["kind"] == "road":
                pay(power, 0 if f["inn"] else f["tiles"], out)
            else:
                pay(power, 0 if f["cathedral"] else f["tiles"] + f["shields"], out)
    if not state[D.C_FARMERS]:
        return out
    rule = D.FARM_RULES[int(state[D.C_FARM_RULE])]
    per_city_farmers, won = {}, [set() for _ in range(players)]
    for f in facts:
        if f["kind"] != "field":
            continue
        power = strength(state, f["members"], players)
        if max(power) == 0:
            continue
        cities = {component[(i, k)] for i, slot in f["members"]
                  for k in SEGMENTS[tiles[i][0]][slot][6]}
        done = {c for c in cities if facts[c]["open"] == 0}
        if rule == "c3":
            pay(power, 3 * len(done), out)
        for c in done:
            for seat in range(players):
                per_city_farmers.setdefault(c, [0] * players)[seat] += power[seat]
                if power[seat] == max(power):
                    won[seat].add(c)
    if rule == "c1_v2":
        for seat in range(players):
            out[seat] += 3 * len(won[seat])
    elif rule == "c1_v1":
        for power in per_city_farmers.values():
            pay(power, 4, out)
    return out


def reference_completed_points(state, f):
    if f["kind"] == "road":
        return f["tiles"] * (2 if f["inn"] else 1)
    if f["cathedral"]:
        return 3 * (f["tiles"] + f["shields"])
    if f["tiles"] == 2 and int(state[D.C_SMALL_CITY]) == 1:
        return f["tiles"] + f["shields"]
    return 2 * (f["tiles"] + f["shields"])


def check_position(state):
    tiles, _, component, facts = reference_features(state)
    groups = {}
    for node in component:
        groups.setdefault(int(state[D.N_ROOT + node[0] * 8 + node[1]]), set()).add(node)
    assert sorted(map(sorted, groups.values())) == sorted(sorted(f["members"]) for f in facts)
    for root, members in groups.items():
        f = facts[component[next(iter(members))]]
        assert root // 8 * 8 + root % 8 == root and (root // 8, root % 8) in members
        if f["kind"] in ("city", "road"):
            assert int(state[D.N_OPEN + root]) == f["open"]
            assert count_tiles(state, root) == f["tiles"]
            if f["open"] == 0:
                kind = D.CITY if f["kind"] == "city" else D.ROAD
                assert completed_points(state, root, kind) == reference_completed_points(state, f)
        assert int(state[D.N_SHIELDS + root]) == f["shields"]
        flags = int(state[D.N_FLAGS + root])
        assert bool(flags & D.FLAG_INN) == f["inn"]
        assert bool(flags & D.FLAG_CATHEDRAL) == f["cathedral"]
    points = np.zeros(D.MAX_PLAYERS, dtype=np.int64)
    final_points(state, points)
    players = int(state[H_NUM_PLAYERS])
    assert points[:players].tolist() == reference_final_points(state)


def reference_placements(state):
    """Brute force over every cell of the board's bounding box (CA-6.3)."""
    tiles = tiles_of(state)
    at = {(x, y): i for i, (_, _, x, y) in enumerate(tiles)}
    hand = int(state[D.G_HAND])
    xs, ys = [x for _, _, x, _ in tiles], [y for _, _, _, y in tiles]
    legal = set()
    for x in range(min(xs) - 1, max(xs) + 2):
        for y in range(min(ys) - 1, max(ys) + 2):
            if (x, y) in at:
                continue
            for r in range(4):
                touching, fits = 0, True
                for d, (dx, dy) in enumerate(DELTA):
                    j = at.get((x + dx, y + dy))
                    if j is None:
                        continue
                    touching += 1
                    t2, r2, _, _ = tiles[j]
                    mine = ALL_TILES[hand][3][(d - r) % 4]
                    theirs = ALL_TILES[t2][3][((d + 2) % 4 - r2) % 4]
                    fits &= mine == theirs
                if touching and fits:
                    legal.add(D.placement_action(state, x, y, r))
    return legal


OPTION_SETS = [{}, {"farm_scoring": "c1_v2", "auto_pass_meeple": False}, {"farm_scoring": "c1_v1"},
               {"small_city_rule": "c1_early", "ic_tjunction_inn": "east_and_west"},
               {"expansion_inns_cathedrals": False}, {"placement_layout": "grid"}]


@pytest.mark.parametrize("case", range(len(OPTION_SETS)))
def test_union_find_and_scoring_match_flood_fill_on_random_positions(case):
    options = OPTION_SETS[case]
    rng = new_rng(1234 + case)
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    layout = D.PLACEMENT_LAYOUTS.index(options.get("placement_layout", "frontier"))
    mask = np.zeros(D.num_actions_of(layout), dtype=np.int8)
    actions = np.empty(MAX_LIST, dtype=np.int64)
    positions = 0
    for game in range(16):
        players = 2 + (game + case) % (5 if options.get("expansion_inns_cathedrals", True) else 4)
        init_state(state, players, make_config(**options), 0)
        resolve_chance(state, rng)
        step = 0
        while int(state[H_TO_MOVE]) != TERMINAL:
            count = legal_actions(state, actions)
            if step % 2 == 0:
                check_position(state)
                positions += 1
                if int(state[H_PHASE]) == D.PH_PLACE and step % 9 == 0:
                    legal_mask(state, mask)
                    assert set(np.flatnonzero(mask.view(bool)).tolist()) == \
                        reference_placements(state) == set(actions[:count].tolist())
            apply_action(state, int(actions[rand_below(rng, count)]))
            resolve_chance(state, rng)
            step += 1
    assert positions > 800          # 6 cases: over 5,000 positions in all
