"""Saint Malo dice (rules §14, SM-1.4/1.5, SM-5.x, DP-1, EC-21) against brute-force references.

Every exact quantity is checked against an enumeration of all ordered rolls (6**m sequences)
or against independent exact arithmetic; the printed §14 tables are checked to the digits
the spec gives.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement, product
from math import comb, factorial, prod

import numpy as np
import pytest

from meeplezoo.envs.core.rng import new_rng, rand_below
from meeplezoo.envs.saint_malo import dice as D

SORTED_STATES = list(combinations_with_replacement(range(6), 5))


def code_of(faces) -> int:
    return sum(6**f for f in faces)


def brute_roll(m: int) -> dict[int, Fraction]:
    """P(outcome code) over all 6**m ordered sequences of m dice (PR-1)."""
    hits = Counter(code_of(seq) for seq in product(range(6), repeat=m))
    return {code: Fraction(n, 6**m) for code, n in hits.items()}


def brute_reroll(sorted_faces, mask: int) -> dict[int, Fraction]:
    """P(next state index) after re-rolling the dice in ``mask``, over all ordered rolls."""
    kept = [f for i, f in enumerate(sorted_faces) if not (mask >> i) & 1]
    m = 5 - len(kept)
    hits = Counter(
        int(D.STATE_INDEX_OF_CODE[code_of(kept) + code_of(seq)])
        for seq in product(range(6), repeat=m)
    )
    return {s: Fraction(n, 6**m) for s, n in hits.items()}


def keep_target_propagation(target: int, rolls: int) -> np.ndarray:
    """State distribution after ``rolls`` rolls of keep-target (PR-3), via the keep tensor."""
    masks = (D.DICE_SORTED != target) @ (1 << np.arange(5))
    step = D.keep_transition_matrix()[np.arange(252), masks]
    dist = D.STATE_WAYS / 7776.0
    for _ in range(rolls - 1):
        dist = dist @ step
    return dist


# --------------------------------------------------------------------------- codes, PR-2


def test_encode_decode_round_trip_sm_1_4():
    out = np.zeros(6, dtype=np.int64)
    for m in range(6):
        for faces in combinations_with_replacement(range(6), m):
            counts = np.array([faces.count(f) for f in range(6)], dtype=np.int64)
            code = D.encode_counts(counts)
            assert code == code_of(faces) == D.code_of_faces(np.array(faces, dtype=np.int64))
            D.decode_counts(code, out)
            assert out.tolist() == counts.tolist()


@pytest.mark.parametrize("m", range(6))
def test_roll_outcomes_match_brute_force_pr_2(m):
    codes = np.zeros(252, dtype=np.int64)
    probs = np.zeros(252, dtype=np.float64)
    n = D.roll_outcomes(m, codes, probs)
    assert n == (1, 6, 21, 56, 126, 252)[m]
    expected = brute_roll(m)
    assert sorted(codes[:n].tolist()) == sorted(expected)
    for code, prob in zip(codes[:n].tolist(), probs[:n].tolist(), strict=True):
        assert prob == float(expected[code])  # both correctly rounded from the same rational
        assert round(prob * 6**m) * Fraction(1, 6**m) == expected[code]
    assert sum(expected.values()) == 1
    assert probs[:n].sum() == pytest.approx(1.0, abs=1e-14)
    # fixed order: sorted face lists in lexicographic order
    order = [code_of(f) for f in combinations_with_replacement(range(6), m)]
    assert codes[:n].tolist() == order == D.OUTCOME_CODES[m].tolist()


def test_dice_states_table_pr_2():
    codes = np.zeros(252, dtype=np.int64)
    probs = np.zeros(252, dtype=np.float64)
    D.roll_outcomes(5, codes, probs)
    assert D.DICE_STATES.shape == (252, 6) and D.DICE_STATES.dtype == np.int64
    assert (D.DICE_STATES @ D.POW6).tolist() == codes.tolist()
    assert D.DICE_SORTED.tolist() == [list(s) for s in SORTED_STATES]
    assert np.all(D.DICE_STATES.sum(axis=1) == 5)
    assert (D.STATE_WAYS / 7776.0).tolist() == probs.tolist()
    for s, counts in enumerate(D.DICE_STATES):
        assert D.state_index(counts) == s
    assert np.count_nonzero(D.STATE_INDEX_OF_CODE >= 0) == 252
    with pytest.raises(ValueError):
        D.state_index([1, 1, 1, 1, 0, 0])


# --------------------------------------------------------------------------- sampling, SM-1.5


def test_sample_roll_uses_rand_below_in_order_sm_1_5():
    rng, ref = new_rng(7), new_rng(7)
    for m in (0, 1, 3, 5, 5, 2):
        assert D.sample_roll(m, rng) == code_of(rand_below(ref, 6) for _ in range(m))
    assert rng.tolist() == ref.tolist()


@pytest.mark.parametrize("m, samples", [(1, 6000), (2, 12000), (3, 20000), (5, 60000)])
def test_sample_roll_frequencies_pr_2(m, samples):
    rng = new_rng(20240 + m)
    hits = Counter(D.sample_roll(m, rng) for _ in range(samples))
    expected = brute_roll(m)
    assert set(hits) <= set(expected)
    chi2 = sum((hits[c] - samples * float(p)) ** 2 / (samples * float(p))
               for c, p in expected.items())
    df = len(expected) - 1
    assert chi2 < df + 6 * (2 * df) ** 0.5, chi2  # ~6 sigma for a fixed seed


# --------------------------------------------------------------------------- keep tensor, SM-5.3


def test_keep_transition_rows_are_distributions_sm_5_3():
    t = D.keep_transition_matrix()
    assert t.shape == (252, 32, 252) and t.dtype == np.float64
    assert t is D.keep_transition_matrix()  # cached
    assert np.all(t >= 0)
    np.testing.assert_allclose(t.sum(axis=2), 1.0, rtol=0, atol=1e-13)
    assert np.all(D.keep_transition_counts().sum(axis=2) == 7776)
    np.testing.assert_array_equal(t[:, 0, :], np.eye(252))  # mask 0 keeps all (stop)


@pytest.mark.parametrize("state", [0, 1, 57, 100, 125, 200, 251])
def test_keep_transition_matches_brute_force_sm_5_4(state):
    t = D.keep_transition_matrix()
    faces = SORTED_STATES[state]
    for mask in range(32):
        expected = np.zeros(252)
        for s, p in brute_reroll(faces, mask).items():
            expected[s] = float(p)
        np.testing.assert_array_equal(t[state, mask], expected)


def test_reroll_distribution_any_order_matches_tensor_sm_5_4():
    t = D.keep_transition_matrix()
    rng = np.random.default_rng(3)
    for _ in range(40):
        state = int(rng.integers(252))
        mask = int(rng.integers(32))
        perm = rng.permutation(5)
        dice = D.DICE_SORTED[state][perm]
        perm_mask = sum(((mask >> int(p)) & 1) << i for i, p in enumerate(perm))
        codes, probs = D.reroll_distribution(dice, perm_mask)
        assert probs.sum() == pytest.approx(1.0, abs=1e-14)
        got = np.zeros(252)
        got[D.STATE_INDEX_OF_CODE[codes]] = probs
        np.testing.assert_array_equal(got, t[state, mask])
    with pytest.raises(ValueError):
        D.reroll_distribution([0, 1, 2, 3, 6], 1)


# --------------------------------------------------------------------------- DP-1, EC-21


def test_canonical_masks_count_and_cover_dp_1_ec_21():
    t = D.keep_transition_matrix()
    for state, faces in enumerate(SORTED_STATES):
        dice = np.array(faces, dtype=np.int64)
        canon = D.canonical_reroll_masks(dice)
        assert canon[0] == 0
        assert len(canon) == prod(n + 1 for n in D.DICE_STATES[state])
        rows = {t[state, r].tobytes(): r for r in canon}
        assert len(rows) == len(canon)  # canonical masks give distinct distributions
        for mask in range(32):
            c = D.canonicalize_reroll(dice, mask)
            assert D.is_canonical_reroll(dice, mask) == (mask in canon) == (c == mask)
            assert c in canon and bin(c).count("1") == bin(mask).count("1")
            assert rows[t[state, mask].tobytes()] == c  # same kept multiset, same distribution
    with pytest.raises(ValueError):
        D.canonical_reroll_masks([3, 1, 1, 1, 1])


def test_canonical_masks_prefix_convention_ec_21():
    # two LOGs then three HEADs: re-rolling one LOG is bit 0, two HEADs are bits 2 and 3
    assert D.canonical_reroll_masks([1, 1, 5, 5, 5]) == [
        0b00000, 0b00001, 0b00011, 0b00100, 0b00101, 0b00111,
        0b01100, 0b01101, 0b01111, 0b11100, 0b11101, 0b11111,
    ]
    assert len(D.canonical_reroll_masks([0, 1, 2, 3, 4])) == 32
    assert len(D.canonical_reroll_masks([4, 4, 4, 4, 4])) == 6


# --------------------------------------------------------------------------- PR-3 .. PR-5


def test_target_count_table_pr_3():
    table = {
        1: [.40188, .40188, .16075, .03215, .00322, .00013],
        2: [.16151, .35531, .31267, .13758, .03027, .00266],
        3: [.06491, .23626, .34399, .25042, .09115, .01327],
    }
    for rolls, printed in table.items():
        dist = D.target_count_distribution(rolls)
        assert np.round(dist, 5).tolist() == printed
        p = 1 - Fraction(5, 6) ** rolls
        assert p == (Fraction(1, 6), Fraction(11, 36), Fraction(91, 216))[rolls - 1]
        exact = D.target_count_distribution(rolls, exact=True)
        assert exact.tolist() == [comb(5, x) * p**x * (1 - p) ** (5 - x) for x in range(6)]
        # keep-target propagated through the keep tensor gives the same law
        prop = np.bincount(D.DICE_STATES[:, D.HEAD], keep_target_propagation(D.HEAD, rolls), 6)
        np.testing.assert_allclose(prop, dist, rtol=0, atol=1e-14)
    exact = D.target_count_distribution(3, exact=True)
    assert exact[5] == Fraction(91**5, 470_184_984_576) and round(float(exact[5]), 4) == .0133
    assert exact @ np.arange(6) == Fraction(5 * 91, 216)


def test_target_and_swords_pr_4():
    joint = D.target_sword_distribution(3, exact=True)
    swords = joint.sum(axis=0)
    assert swords.tolist() == [comb(5, s) * Fraction(25, 216) ** s * Fraction(191, 216) ** (5 - s)
                               for s in range(6)]
    assert np.round(swords.astype(float), 5).tolist() == [
        .54063, .35381, .09262, .01212, .00079, .00002]
    assert swords @ np.arange(6) == Fraction(125, 216)
    assert joint[2, 1] == 5 * 4 * 3 * Fraction(91, 216) ** 2 * Fraction(25, 216) * Fraction(
        100, 216) ** 2 / 2
    one = D.target_sword_distribution(1, exact=True).sum(axis=0)
    assert one @ np.arange(6) == Fraction(5, 6)
    for rolls in (1, 2, 3):
        dist = keep_target_propagation(D.CROSS, rolls)
        prop = np.zeros((6, 6))
        np.add.at(prop, (D.DICE_STATES[:, D.CROSS], D.DICE_STATES[:, D.SWORD]), dist)
        np.testing.assert_allclose(prop, D.target_sword_distribution(rolls), rtol=0, atol=1e-14)


def test_paid_change_table_pr_5():
    printed = np.array([
        [.9351, .6988, .3548, .1044, .0133],
        [1.0000, .9347, .6961, .3448, .0862],
        [1.0000, .9992, .9259, .6530, .2465],
        [1.0000, .9992, .9871, .8466, .4226],
        [1.0000, .9992, .9871, .8944, .5194],
    ])
    table = D.paid_change_table()
    assert table.shape == (5, 5)
    np.testing.assert_allclose(table, printed, rtol=0, atol=5e-5 + 1e-12)
    # brute force from the final states of keep-target (target LOG), U = X + min(b, O)
    dist = keep_target_propagation(D.LOG, 3)
    x, s = D.DICE_STATES[:, D.LOG], D.DICE_STATES[:, D.SWORD]
    for b in range(5):
        u = x + np.minimum(b, 5 - x - s)
        for k in range(1, 6):
            assert table[b, k - 1] == pytest.approx(dist[u >= k].sum(), abs=1e-14)


# --------------------------------------------------------------------------- PR-6, PR-7


def exact_best_symbol_reference(k: int) -> Fraction:
    """Optimal P(Y >= k) with 3 rolls: the PR-7 DP over sorted tuples in exact integers."""
    def value(faces):
        return int(max(faces.count(f) for f in range(1, 6)) >= k)

    outcomes = {}
    for m in range(6):
        outcomes[m] = [(o, factorial(m) // prod(factorial(o.count(f)) for f in range(6))
                        * 6 ** (5 - m)) for o in combinations_with_replacement(range(6), m)]
    v = {s: value(s) for s in SORTED_STATES}  # numerators over 6**(5t)
    for t in (1, 2):
        nxt = {}
        for s in SORTED_STATES:
            best = value(s) * 7776**t
            for keep in product(*(range(s.count(f) + 1) for f in range(6))):
                kept = [f for f in range(6) for _ in range(keep[f])]
                if len(kept) == 5:
                    continue
                total = sum(w * v[tuple(sorted(kept + list(o)))]
                            for o, w in outcomes[5 - len(kept)])
                best = max(best, total)
            nxt[s] = best
        v = nxt
    return sum(Fraction(w, 7776**3) * v[o] for o, w in outcomes[5])


def test_best_symbol_optimal_thresholds_pr_6():
    got = D.best_symbol_optimal_thresholds()
    assert np.round(got[1:], 5).tolist() == [.99507, .70702, .26642, .04099]
    exact = D.best_symbol_optimal_thresholds(exact=True)
    assert exact[4] == Fraction(19271254055, 470184984576)
    assert exact[0] == 1 - Fraction(1, 6**15)  # only three all-sword rolls miss
    np.testing.assert_allclose(exact.astype(float), got, rtol=0, atol=1e-14)


@pytest.mark.parametrize("k", [5, 3])
def test_best_symbol_optimal_matches_exact_reference_pr_6_pr_7(k):
    assert D.best_symbol_optimal_thresholds(exact=True)[k - 1] == exact_best_symbol_reference(k)


def test_greedy_best_symbol_pr_6():
    y, s = D.greedy_best_symbol_distribution()
    assert np.round(y, 5).tolist() == [0.0, .00517, .28781, .44060, .22543, .04099]
    assert np.round(s, 5).tolist() == [.65033, .29969, .04726, .00270, .00002, 0.0]
    assert y @ np.arange(6) == pytest.approx(3.009, abs=5e-4)
    assert s @ np.arange(6) == pytest.approx(0.402, abs=5e-4)
    # greedy reaches the optimum for k >= 3
    optimal = D.best_symbol_optimal_thresholds()
    for k in (3, 4, 5):
        assert y[k:].sum() == pytest.approx(optimal[k - 1], abs=1e-12)
    assert y[2:].sum() < optimal[1] - 1e-4  # but not for k = 2


def test_one_roll_best_symbol_pr_6():
    y, s = D.greedy_best_symbol_distribution(rolls=1)
    assert np.round(y, 5).tolist() == [.00013, .19869, .62371, .16075, .01608, .00064]
    hits = Counter(max(seq.count(f) for f in range(1, 6)) for seq in product(range(6), repeat=5))
    assert y.tolist() == pytest.approx([hits[i] / 7776 for i in range(6)], abs=1e-15)
    assert s @ np.arange(6) == pytest.approx(5 / 6, abs=1e-14)


def test_optimal_keep_values_fixed_target_pr_3_pr_7():
    # maximising the count of one symbol: keep-target is optimal (PR-3)
    values, masks = D.optimal_keep_values(D.DICE_STATES[:, D.WALL].astype(float), 2)
    assert values.shape == masks.shape == (3, 252)
    assert np.all(masks[0] == 0)
    np.testing.assert_array_equal(values[0], D.DICE_STATES[:, D.WALL])
    assert D.STATE_WAYS @ values[2] / 7776 == pytest.approx(5 * 91 / 216, abs=1e-13)
    assert D.STATE_WAYS @ values[1] / 7776 == pytest.approx(5 * 11 / 36, abs=1e-13)
    values, _ = D.optimal_keep_values((D.DICE_STATES[:, D.WALL] == 5).astype(float), 2)
    assert D.STATE_WAYS @ values[2] / 7776 == pytest.approx((91 / 216) ** 5, abs=1e-15)
    for t in (1, 2):
        assert np.all(values[t] >= values[t - 1])
        for s in range(252):
            assert D.is_canonical_reroll(D.DICE_SORTED[s], masks[t, s])


def test_optimal_keep_values_policy_is_greedy_in_value_pr_7():
    rng = np.random.default_rng(11)
    value = rng.random(252)
    t = D.keep_transition_matrix()
    values, masks = D.optimal_keep_values(value, 2)
    for s in range(0, 252, 7):
        options = [value[s]] + [t[s, r] @ values[0] for r in range(1, 32)]
        assert values[1, s] == pytest.approx(max(options), abs=1e-14)
        assert options[masks[1, s]] == pytest.approx(max(options), abs=1e-14)
    with pytest.raises(ValueError):
        D.optimal_keep_values(np.zeros(10), 1)
