"""Saint Malo dice: outcome codes, exact roll distributions, re-roll tables and §14 analysis.

Five identical d6 (SM-1.4), faces 0 SWORD, 1 LOG, 2 CRATE, 3 WALL, 4 CROSS, 5 HEAD, each with
probability 1/6 (SM-1.5, PR-1).  A multiset of dice is stored as its **code**
``sum_f counts[f] * 6**f``; codes add, so the state after a re-roll is
``code(kept) + code(outcome)`` (PR-2).  The 252 multisets of five dice are ``DICE_STATES``, in
lexicographic order of their sorted face lists (= the order of ``roll_outcomes(5)``).

A re-roll mask has bit i set when die i of the sorted dice is rolled again; mask 0 means stop
(SM-5.3, DP-1).  Copies of one face are interchangeable (EC-21), so the *canonical* masks
re-roll a prefix of each run of equal faces; there are ``prod_f (n_f + 1)`` of them.

Kernels (``@njit``) take arrays and scalars only; the tables and the analysis helpers below
them are plain numpy / Python, cheap to build at import (the 252x32x252 tensor is built on
first use and cached).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod

import numpy as np

from ..core.jit import njit
from ..core.rng import rand_below

NUM_FACES = 6
NUM_DICE = 5
SWORD, LOG, CRATE, WALL, CROSS, HEAD = range(NUM_FACES)
NUM_MASKS = 1 << NUM_DICE
MAX_OUTCOMES = 252  # multisets of 5 dice: C(10, 5)
OUTCOME_COUNTS = (1, 6, 21, 56, 126, 252)  # multisets of m = 0..5 dice
CODE_SPACE = NUM_FACES**NUM_FACES  # every code of <= 5 dice is below 6**6
POW6 = np.array([NUM_FACES**f for f in range(NUM_FACES)], dtype=np.int64)


# --------------------------------------------------------------------------- kernels


@njit
def encode_counts(counts):
    """Code of a multiset given its face counts (int64[6])."""
    code = 0
    place = 1
    for f in range(NUM_FACES):
        code += counts[f] * place
        place *= NUM_FACES
    return code


@njit
def decode_counts(code, counts_out):
    """Write the face counts of ``code`` into ``counts_out`` (int64[6])."""
    rest = code
    for f in range(NUM_FACES):
        counts_out[f] = rest % NUM_FACES
        rest //= NUM_FACES


@njit
def code_of_faces(dice):
    """Code of a list of faces (any order, any length <= 5)."""
    code = 0
    for i in range(dice.shape[0]):
        code += NUM_FACES ** dice[i]
    return code


@njit
def roll_outcomes(m, codes_out, probs_out):
    """Enumerate the multisets of m dice (PR-2) with probability m!/prod(a_f!)/6**m.

    Order: sorted face lists in lexicographic order.  Returns the number of outcomes
    (1, 6, 21, 56, 126, 252 for m = 0..5); the buffers need room for 252.
    """
    fact = np.ones(NUM_DICE + 1, dtype=np.int64)
    for i in range(1, NUM_DICE + 1):
        fact[i] = fact[i - 1] * i
    total = 1
    for _ in range(m):
        total *= NUM_FACES
    seq = np.zeros(max(m, 1), dtype=np.int64)
    counts = np.zeros(NUM_FACES, dtype=np.int64)
    n = 0
    while True:
        counts[:] = 0
        for i in range(m):
            counts[seq[i]] += 1
        ways = fact[m]
        for f in range(NUM_FACES):
            ways //= fact[counts[f]]
        codes_out[n] = encode_counts(counts)
        probs_out[n] = ways / total  # exact integers, so the quotient is correctly rounded
        n += 1
        # next non-decreasing sequence: bump the rightmost face below 5, level the tail
        i = m - 1
        while i >= 0 and seq[i] == NUM_FACES - 1:
            i -= 1
        if i < 0:
            return n
        seq[i] += 1
        for j in range(i + 1, m):
            seq[j] = seq[i]


@njit
def sample_roll(m, rng):
    """Roll m dice (one ``rand_below(rng, 6)`` each, in order) and return the outcome code."""
    code = 0
    for _ in range(m):
        code += NUM_FACES ** rand_below(rng, NUM_FACES)
    return code


@njit
def is_canonical_reroll(dice, mask):
    """True when ``mask`` re-rolls a prefix of every run of equal faces in sorted ``dice``."""
    for i in range(1, dice.shape[0]):
        if (mask >> i) & 1 and dice[i] == dice[i - 1] and not (mask >> (i - 1)) & 1:
            return False
    return True


@njit
def canonicalize_reroll(dice, mask):
    """The canonical mask equivalent to ``mask`` (same multiset kept) for sorted ``dice``."""
    out = 0
    n = dice.shape[0]
    i = 0
    while i < n:
        j = i
        rerolled = 0
        while j < n and dice[j] == dice[i]:
            rerolled += (mask >> j) & 1
            j += 1
        for k in range(i, i + rerolled):
            out |= 1 << k
        i = j
    return out


# --------------------------------------------------------------------------- tables


def _outcome_table(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Codes and multinomial counts (numerators over 6**m) of the m-dice multisets."""
    codes, ways = [], []
    for faces in combinations_with_replacement(range(NUM_FACES), m):
        counts = [faces.count(f) for f in range(NUM_FACES)]
        codes.append(sum(c * NUM_FACES**f for f, c in enumerate(counts)))
        ways.append(factorial(m) // prod(factorial(c) for c in counts))
    return np.array(codes, dtype=np.int64), np.array(ways, dtype=np.int64)


OUTCOME_CODES, OUTCOME_WAYS = zip(*(_outcome_table(m) for m in range(NUM_DICE + 1)), strict=True)
DICE_SORTED = np.array(list(combinations_with_replacement(range(NUM_FACES), NUM_DICE)),
                       dtype=np.int64)  # [252, 5], dice of each state sorted by face
DICE_STATES = np.stack([(DICE_SORTED == f).sum(axis=1) for f in range(NUM_FACES)], axis=1)
STATE_CODES = DICE_STATES @ POW6  # [252]
STATE_WAYS = OUTCOME_WAYS[NUM_DICE]  # P(state on a fresh roll) = STATE_WAYS / 6**5
STATE_INDEX_OF_CODE = np.full(CODE_SPACE, -1, dtype=np.int64)  # njit-friendly lookup
STATE_INDEX_OF_CODE[STATE_CODES] = np.arange(MAX_OUTCOMES)
for _arr in (*OUTCOME_CODES, *OUTCOME_WAYS, DICE_SORTED, DICE_STATES, STATE_CODES,
             STATE_INDEX_OF_CODE):
    _arr.setflags(write=False)


def state_index(counts) -> int:
    """Index in ``DICE_STATES`` of a count vector of five dice."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.shape != (NUM_FACES,) or counts.min() < 0 or counts.sum() != NUM_DICE:
        raise ValueError(f"expected 6 non-negative counts summing to 5, got {counts.tolist()}")
    return int(STATE_INDEX_OF_CODE[int(counts @ POW6)])


def _check_dice(dice, *, sorted_: bool) -> np.ndarray:
    dice = np.asarray(dice, dtype=np.int64)
    if dice.shape != (NUM_DICE,) or dice.min() < 0 or dice.max() >= NUM_FACES:
        raise ValueError(f"expected 5 faces in 0..5, got {dice.tolist()}")
    if sorted_ and np.any(np.diff(dice) < 0):
        raise ValueError(f"dice must be sorted by face, got {dice.tolist()}")
    return dice


def reroll_distribution(dice, reroll_mask: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact distribution of the 5-dice multiset after re-rolling the dice in ``reroll_mask``.

    ``dice`` are five faces in any order (bit i refers to ``dice[i]``).  Returns the codes of
    the resulting full states and their probabilities (outcomes in ``roll_outcomes`` order).
    """
    dice = _check_dice(dice, sorted_=False)
    if not 0 <= reroll_mask < NUM_MASKS:
        raise ValueError(f"re-roll mask must be in 0..31, got {reroll_mask}")
    kept = [int(dice[i]) for i in range(NUM_DICE) if not (reroll_mask >> i) & 1]
    m = NUM_DICE - len(kept)
    kept_code = sum(NUM_FACES**f for f in kept)
    return OUTCOME_CODES[m] + kept_code, OUTCOME_WAYS[m] / float(NUM_FACES**m)


def canonical_reroll_masks(sorted_dice) -> list[int]:
    """The re-roll masks that differ up to swapping equal dice (EC-21, DP-1), mask 0 first."""
    dice = _check_dice(sorted_dice, sorted_=True)
    return [r for r in range(NUM_MASKS) if is_canonical_reroll(dice, r)]


@lru_cache(maxsize=1)
def keep_transition_counts() -> np.ndarray:
    """int64[252, 32, 252]: ``7776 * P(next state | state, re-roll mask)``, exact integers."""
    out = np.zeros((MAX_OUTCOMES, NUM_MASKS, MAX_OUTCOMES), dtype=np.int64)
    for s in range(MAX_OUTCOMES):
        for r in range(NUM_MASKS):
            rerolled = [(r >> i) & 1 for i in range(NUM_DICE)]
            m = sum(rerolled)
            kept_code = sum(POW6[DICE_SORTED[s, i]] for i in range(NUM_DICE) if not rerolled[i])
            nxt = STATE_INDEX_OF_CODE[OUTCOME_CODES[m] + kept_code]
            out[s, r, nxt] = OUTCOME_WAYS[m] * NUM_FACES ** (NUM_DICE - m)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=1)
def keep_transition_matrix() -> np.ndarray:
    """float64[252, 32, 252]: P(next state | sorted state, re-roll mask); mask 0 keeps all."""
    out = keep_transition_counts() / float(NUM_FACES**NUM_DICE)
    out.setflags(write=False)
    return out


# --------------------------------------------------------------------------- §14 analysis


def _as(values: list[Fraction], exact: bool) -> np.ndarray:
    return np.array(values, dtype=object) if exact else np.array([float(v) for v in values])


def _keep_target_faces(rolls: int) -> tuple[Fraction, Fraction, Fraction]:
    """Per-die (target, sword, other) probabilities under keep-target with ``rolls`` rolls."""
    if not 1 <= rolls <= 3:
        raise ValueError(f"rolls must be 1..3, got {rolls}")
    miss = Fraction(5, 6) ** (rolls - 1)  # the die missed on every earlier roll
    return 1 - Fraction(5, 6) ** rolls, miss / 6, miss * 4 / 6


def target_count_distribution(rolls: int = 3, exact: bool = False) -> np.ndarray:
    """PR-3: P(X = x), x = 0..5, target count under keep-target; X ~ Bin(5, 1 - (5/6)**rolls)."""
    p, _, _ = _keep_target_faces(rolls)
    return _as([factorial(5) // factorial(x) // factorial(5 - x) * p**x * (1 - p) ** (5 - x)
                for x in range(NUM_DICE + 1)], exact)


def _trinomial(rolls: int):
    """Yield (x, s, o, probability) of (target, sword, other) counts under keep-target."""
    pt, ps, po = _keep_target_faces(rolls)
    for x in range(NUM_DICE + 1):
        for s in range(NUM_DICE + 1 - x):
            o = NUM_DICE - x - s
            ways = factorial(5) // (factorial(x) * factorial(s) * factorial(o))
            yield x, s, o, ways * pt**x * ps**s * po**o


def target_sword_distribution(rolls: int = 3, exact: bool = False) -> np.ndarray:
    """PR-4: joint P(X = x, S = s) as a [6, 6] array (x rows, s columns; O = 5 - x - s).

    ``.sum(axis=0)`` is the sword distribution, Bin(5, 25/216) for 3 rolls, Bin(5, 1/6) for 1.
    """
    joint = np.full((NUM_DICE + 1, NUM_DICE + 1), Fraction(0), dtype=object)
    for x, s, _, prob in _trinomial(rolls):
        joint[x, s] = prob
    return joint if exact else joint.astype(np.float64)


def paid_change_table(rolls: int = 3, exact: bool = False) -> np.ndarray:
    """PR-5: [b, k-1] = P(X + min(b, O) >= k) for b = 0..4 affordable changes, k = 1..5."""
    table = np.full((5, NUM_DICE), Fraction(0), dtype=object)
    for x, _, o, prob in _trinomial(rolls):
        for b in range(5):
            for k in range(1, x + min(b, o) + 1):
                table[b, k - 1] += prob
    return table if exact else table.astype(np.float64)


def best_symbol_value(k: int) -> np.ndarray:
    """float64[252]: 1 where some non-sword face shows at least k times (PR-6 threshold k)."""
    return (DICE_STATES[:, 1:].max(axis=1) >= k).astype(np.float64)


def optimal_keep_values(value, rolls_left: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """PR-7 DP: ``V_t(d) = max(value(d), max_{mask != 0} sum_o P(o | d, mask) V_{t-1}(o))``.

    ``value`` is float64[252] over ``DICE_STATES`` (the worth of stopping there).  Returns
    ``(values, masks)``, both [rolls_left + 1, 252]: ``values[t]`` is V_t with t re-rolls left
    and ``masks[t]`` its best mask (0 = stop; ties go to stopping, then to the lowest mask,
    which is the canonical one).  Before roll 1, E[V_2] = ``STATE_WAYS @ values[2] / 7776``.
    """
    value = np.asarray(value, dtype=np.float64)
    if value.shape != (MAX_OUTCOMES,):
        raise ValueError(f"value must have shape (252,), got {value.shape}")
    reroll = keep_transition_matrix()[:, 1:, :]
    values = np.empty((rolls_left + 1, MAX_OUTCOMES))
    masks = np.zeros((rolls_left + 1, MAX_OUTCOMES), dtype=np.int64)
    values[0] = value
    for t in range(1, rolls_left + 1):
        cont = reroll @ values[t - 1]  # [252, 31]
        best = cont.argmax(axis=1)
        best_value = cont[np.arange(MAX_OUTCOMES), best]
        go = best_value > value
        values[t] = np.where(go, best_value, value)
        masks[t] = np.where(go, best + 1, 0)
    return values, masks


def _optimal_start_exact(value: np.ndarray, rolls_left: int) -> Fraction:
    """E[V] before roll 1 in exact integers: V_t is kept as a numerator over 6**(5t)."""
    reroll = keep_transition_counts()[:, 1:, :]
    v = value.astype(np.int64)
    for t in range(1, rolls_left + 1):
        v = np.maximum(value.astype(np.int64) * 7776**t, (reroll @ v).max(axis=1))
    return Fraction(int(STATE_WAYS @ v), 7776 ** (rolls_left + 1))


def best_symbol_optimal_thresholds(rolls: int = 3, exact: bool = False) -> np.ndarray:
    """PR-6: optimal P(Y >= k), k = 1..5, Y = the largest non-sword count, via the PR-7 DP."""
    out = []
    for k in range(1, NUM_DICE + 1):
        value = best_symbol_value(k)
        if exact:
            out.append(_optimal_start_exact(value, rolls - 1))
        else:
            values, _ = optimal_keep_values(value, rolls - 1)
            out.append(STATE_WAYS @ values[rolls - 1] / 7776.0)
    return np.array(out, dtype=object) if exact else np.array(out)


def greedy_best_symbol_distribution(rolls: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """PR-6 greedy: keep the most common non-sword face (re-roll all if none), roll every time.

    Returns ``(P(Y = y), P(S = s))`` for y, s = 0..5.  ``rolls=1`` is the one-roll distribution.
    """
    face = 1 + DICE_STATES[:, 1:].argmax(axis=1)  # ties: by symmetry any choice is the same
    has = DICE_STATES[np.arange(MAX_OUTCOMES), face] > 0
    masks = np.where(has[:, None], DICE_SORTED != face[:, None], True) @ (1 << np.arange(5))
    step = keep_transition_matrix()[np.arange(MAX_OUTCOMES), masks]  # [252, 252]
    dist = STATE_WAYS / 7776.0
    for _ in range(rolls - 1):
        dist = dist @ step
    y = np.bincount(DICE_STATES[:, 1:].max(axis=1), weights=dist, minlength=NUM_DICE + 1)
    s = np.bincount(DICE_STATES[:, 0], weights=dist, minlength=NUM_DICE + 1)
    return y, s
