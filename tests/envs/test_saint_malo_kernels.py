"""Compiled kernels against slow, obvious reference code on random positions."""

from __future__ import annotations

import numpy as np
from saint_malo_setup import legal, new_game, set_dice

from meeplezoo.envs.saint_malo import chance, city
from meeplezoo.envs.saint_malo import data as D

LEVEL = dict(zip(D.CHARACTER_NAMES, D.CHARACTER_LEVEL.tolist(), strict=True))


def neighbours(cell, diagonal):
    r, c = divmod(cell, 7)
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0) or (not diagonal and dr and dc):
                continue
            rr, cc = r + dr, c + dc
            if 0 <= rr < 7 and 0 <= cc < 7 and not D.IS_TOWER[rr * 7 + cc]:
                yield rr * 7 + cc


def components(cells: set[int]) -> list[set[int]]:
    seen, out = set(), []
    for start in sorted(cells):
        if start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            for other in neighbours(stack.pop(), diagonal=False):
                if other in cells and other not in group:
                    group.add(other)
                    stack.append(other)
        seen |= group
        out.append(group)
    return out


def random_city(rng, fill):
    state = new_game(2)
    spaces = [i for i in range(49) if not D.IS_TOWER[i]]
    for cell in rng.choice(spaces, size=int(fill), replace=False):
        code = int(rng.choice([D.WALL, D.CRATE, D.HOUSE, D.CHURCH_1, D.CITIZEN, D.MERCHANT,
                               D.JUGGLER, D.NOBLE, D.ARCHITECT]))
        if code == D.WALL and not D.CELL_SIDE[cell] >= 0:
            code = D.CRATE
        state[D.PLAYERS_BASE + cell] = code
    empty = {i for i in spaces if state[D.PLAYERS_BASE + i] == D.EMPTY}
    return state, empty


def to_bb(cells):
    return sum(1 << c for c in cells)


def test_component_kernels_match_bfs():
    rng = np.random.default_rng(1)
    for _ in range(400):
        state, empty = random_city(rng, rng.integers(0, 46))
        groups = components(empty)
        assert city.empty_bb(state, D.PLAYERS_BASE) == to_bb(empty)
        assert city.largest_component(to_bb(empty)) == max(map(len, groups), default=0)
        for k in range(1, 6):
            expected = to_bb(set().union(*[g for g in groups if len(g) >= k]))
            assert city.crate_start_cells(to_bb(empty), k) == expected


def test_neighbour_counts_match_reference():
    rng = np.random.default_rng(2)
    for _ in range(200):
        state, _ = random_city(rng, rng.integers(0, 46))
        board = state[D.PLAYERS_BASE:D.PLAYERS_BASE + 49]
        for cell in range(49):
            if D.IS_TOWER[cell]:
                continue
            around = [int(board[o]) for o in neighbours(cell, diagonal=True)]
            assert city.count_n8(state, D.PLAYERS_BASE, cell, D.CRATE, D.CRATE) == around.count(
                D.CRATE)
            types = {c for c in around if c >= D.CITIZEN}
            assert city.distinct_character_types_n8(state, D.PLAYERS_BASE, cell) == len(types)


def reference_score_options(dice, coins, empty):
    """§13 'legal-action masks' for the scoring phase, written out plainly."""
    counts = [list(dice).count(f) for f in range(6)]
    usable = 5 - counts[D.SWORD]
    groups = components(empty)
    biggest = max(map(len, groups), default=0)
    outer = len([c for c in empty if D.CELL_SIDE[c] >= 0])
    options = {D.A_PASS}
    for k in range(1, usable + 1):
        for first, face, room in ((D.A_LOG, D.LOG, True), (D.A_CRATE, D.CRATE_FACE, biggest >= k),
                                  (D.A_WALL, D.WALL_FACE, outer >= k),
                                  (D.A_CHURCH, D.CROSS, len(empty) >= 1)):
            cost = 2 * max(0, k - counts[face]) + (2 if face == D.LOG else 0)
            if cost <= coins and room:
                options.add(first + k - 1)
    for index, name in enumerate(D.CHARACTER_NAMES):
        level = LEVEL[name]
        if level <= usable and 2 * max(0, level - counts[D.HEAD]) <= coins and empty:
            options.add(D.A_CHARACTER + index)
    return options


def test_score_mask_matches_reference():
    rng = np.random.default_rng(3)
    letters = "SLCWXH"
    for _ in range(1500):
        state, empty = random_city(rng, rng.choice([0, 10, 30, 40, 44, 45]))
        dice = "".join(letters[f] for f in rng.integers(0, 6, size=5))
        coins = int(rng.integers(0, 9))
        state[D.PLAYERS_BASE + D.P_COINS] = coins
        set_dice(state, dice, seat=0)
        faces = sorted(letters.index(ch) for ch in dice)
        assert legal(state) == reference_score_options(faces, coins, empty), (dice, coins)


def test_chance_outcomes_kernel_is_the_exact_roll_distribution():
    state = new_game(3)
    codes, probs = np.zeros(252, np.int64), np.zeros(252)
    for mask, size in ((0b11111, 252), (0b00101, 21), (0b10000, 6)):
        state[D.G_ROLL_MASK] = mask
        count = chance.chance_outcomes(state, codes, probs)
        assert count == size and abs(probs[:count].sum() - 1.0) < 1e-12
