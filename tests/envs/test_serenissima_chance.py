"""Chance: battle-round and fort outcomes against brute-force enumeration of every die
face, whole-battle distributions against an absorbing-Markov-chain solve, the Doge pile,
and sampling against the exact distributions."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest
from serenissima_setup import BLUE, RED, activate, empty_game, galley, galley_action, play

from meeplezoo.envs.core.contract import CHANCE, H_PHASE, H_TO_MOVE
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.serenissima import chance, rules
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima.combat import battle_distribution

SKULL_FACES = (True, True, True, False, False, False)      # E3: 3 skulls, 3 blanks


def brute_round(a: int, d: int) -> dict[int, Fraction]:
    """Every face of every die (6^(a+d) equally likely rolls)."""
    out: dict[int, Fraction] = {}
    total = 6 ** (a + d)
    for faces in itertools.product(range(6), repeat=a + d):
        x = sum(SKULL_FACES[f] for f in faces[:a])
        y = sum(SKULL_FACES[f] for f in faces[a:])
        out[6 * x + y] = out.get(6 * x + y, Fraction(0)) + Fraction(1, total)
    return out


def battle_state(att: int, dfd: int, moved: int = 0):
    state = empty_game(4)
    galley(state, 4, BLUE, "Z2", att)
    galley(state, 7, RED, "Z2", dfd)
    activate(state, 4)
    state[D.A_MOVED] = moved
    play(state, D.A_ACTION)
    while state[H_PHASE] != D.PH_STEP3:
        play(state, D.A_PASS)
    play(state, galley_action(7))
    assert state[H_TO_MOVE] == CHANCE
    return state


def outcomes(state) -> dict[int, float]:
    codes = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.int64)
    probs = np.zeros(D.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    count = chance.chance_outcomes(state, codes, probs)
    return {int(codes[i]): float(probs[i]) for i in range(count)}


@pytest.mark.parametrize("att, dfd", [(1, 1), (2, 1), (3, 2), (1, 4), (3, 3), (2, 4)])
def test_battle_round_matches_every_die_face(att, dfd):
    state = battle_state(att, dfd)
    exact = outcomes(state)
    brute = brute_round(att, dfd)
    assert exact.keys() == brute.keys()
    for code, p in brute.items():
        assert exact[code] == pytest.approx(float(p), abs=1e-15)


def test_fatigue_limits_the_attacker_dice():
    state = battle_state(3, 2, moved=2)
    assert (state[D.G_ATT_DICE], state[D.G_DEF_DICE]) == (1, 2)
    assert outcomes(state).keys() == brute_round(1, 2).keys()


def markov_battle(v0: int, att: int, dfd: int) -> np.ndarray:
    """The battle as an absorbing Markov chain, transitions from brute-force dice,
    absorption probabilities by the fundamental matrix (no shared code with the kernel)."""
    states = [(a, d) for a in range(att + 1) for d in range(dfd + 1)]
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    transition = np.zeros((n, n))
    for (a, d), i in index.items():
        if a == 0 or d == 0:
            transition[i, i] = 1.0
            continue
        va = max(0, min(v0, a))
        for x in range(va + 1):
            for y in range(d + 1):
                p = sum(float(q) for code, q in brute_round_cached(va, d).items()
                        if code == 6 * x + y)
                transition[i, index[(a - min(y, a), d - min(x, d))]] += p
    transient = [i for (a, d), i in index.items() if a > 0 and d > 0]
    absorbing = [i for (a, d), i in index.items() if a == 0 or d == 0]
    q = transition[np.ix_(transient, transient)]
    r = transition[np.ix_(transient, absorbing)]
    b = np.linalg.solve(np.eye(len(transient)) - q, r)
    out = np.zeros((6, 6))
    if att == 0 or dfd == 0:
        out[att, dfd] = 1.0
        return out
    row = transient.index(index[(att, dfd)])
    for j, k in enumerate(absorbing):
        a, d = states[k]
        out[a, d] = b[row, j]
    return out


_ROUND_CACHE: dict[tuple[int, int], dict[int, Fraction]] = {}


def brute_round_cached(a, d):
    if (a, d) not in _ROUND_CACHE:
        # binomial per die (3 of 6 faces) = the same law as brute_round, cheaper for 5+5
        law: dict[int, Fraction] = {}
        for bits in itertools.product((0, 1), repeat=a + d):
            code = 6 * sum(bits[:a]) + sum(bits[a:])
            law[code] = law.get(code, Fraction(0)) + Fraction(1, 2 ** (a + d))
        _ROUND_CACHE[(a, d)] = law
    return _ROUND_CACHE[(a, d)]


@pytest.mark.parametrize("v0, att, dfd", [(3, 3, 2), (2, 3, 2), (1, 2, 3), (0, 4, 1),
                                          (5, 5, 5), (2, 1, 1), (4, 4, 4)])
def test_whole_battle_distribution_matches_the_markov_chain(v0, att, dfd):
    out = np.zeros((6, 6))
    battle_distribution(v0, 0, att, dfd, False, out)
    assert out.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(out, markov_battle(v0, att, dfd), atol=1e-12)
    assert out[1:, 1:].sum() == pytest.approx(0.0)        # a battle always ends


def test_battle_distribution_with_fatigue_and_a_fort():
    out = np.zeros((6, 6))
    battle_distribution(D.NO_V0, 1, 3, 2, False, out)    # v0 = 3 - 1 moved
    np.testing.assert_allclose(out, markov_battle(2, 3, 2), atol=1e-12)
    battle_distribution(D.NO_V0, 0, 2, 2, True, out)     # EX-21: fort first, v0 after it
    expected = (0.25 * markov_battle(2, 2, 2) + 0.5 * markov_battle(1, 1, 2))
    expected[0, 2] += 0.25                                # two skulls sink it first
    np.testing.assert_allclose(out, expected, atol=1e-12)


def test_sampled_battle_rounds_follow_the_exact_law():
    state = battle_state(3, 2)
    exact = outcomes(state)
    rng = new_rng(11)
    draws = 40_000
    counts: dict[int, int] = {}
    for _ in range(draws):
        code = int(chance.sample_chance(state, rng))
        counts[code] = counts.get(code, 0) + 1
    assert set(counts) <= set(exact)
    for code, p in exact.items():
        assert abs(counts.get(code, 0) / draws - p) < 5 * (p * (1 - p) / draws) ** 0.5 + 1e-3


def test_doge_draw_is_uniform_over_the_pile():
    state = empty_game(4)
    state[D.G_PILE:D.G_PILE + 4] = (1, 2, 0, 1)
    state[D.G_CHANCE_KIND] = D.CK_DOGE
    state[H_TO_MOVE] = CHANCE
    assert outcomes(state) == {0: 0.25, 1: 0.5, 3: 0.25}
    rng = new_rng(2)
    draws = [int(chance.sample_chance(state, rng)) for _ in range(8000)]
    assert abs(draws.count(1) / 8000 - 0.5) < 0.03 and 2 not in draws


def test_fort_roll_is_two_dice():
    state = empty_game(4)
    state[D.G_CHANCE_KIND] = D.CK_FORT
    state[H_TO_MOVE] = CHANCE
    assert outcomes(state) == {0: 0.25, 1: 0.5, 2: 0.25}


def test_closing_ports_is_uniform_over_candidates():
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    from meeplezoo.envs.serenissima.options import make_config

    rules.init_state(state, 3, make_config(), 0)
    law = outcomes(state)                                 # wood first: U1, U3, U6 [P]
    assert len(law) == 3 and all(p == pytest.approx(1 / 3) for p in law.values())
