"""The sequential probability ratio test on paired games, as engine changes are accepted
in chess (fishtest): is A stronger than B by ``elo1`` rather than by ``elo0``?

Games come in **pairs**, one deal played in both seatings, so the luck of the deal cancels.
A pair's outcome is A's points over its two games (1 a win, 1/2 a tie), one of five
values 0, 1/2, 1, 3/2, 2: the **pentanomial** counts ``[LL, LD, DD+WL, WD, WW]``.  Each
hypothesis says A's expected score per game, ``s = 1 / (1 + 10^(-elo / 400))`` (logistic
Elo).  The test is the generalised SPRT of Van den Bergh ("Comments on the SPRT", used by
fishtest): under each hypothesis, the maximum-likelihood pentanomial distribution whose
mean score is that hypothesis's ``s``; the log-likelihood ratio is the number of pairs
times the Kullback-Leibler gain ``sum_i p_i log(p1_i / p0_i)`` of the observed frequencies
``p``.  Stop when it leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``: above,
H1 (A is ``elo1`` stronger) is accepted; below, H0.

Every function works on arrays of runs at once (the last axis holds the five counts), so
``simulate`` runs thousands of simulated matches together to measure the test's error rates.
"""

from __future__ import annotations

import math

import numpy as np

PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])   # A's mean score per game in a pair
EMPTY_CELL = 1e-3             # counts of zero replaced (fishtest's regularisation)


def elo_to_score(elo) -> np.ndarray:
    return 1.0 / (1.0 + 10.0 ** (-np.asarray(elo, dtype=np.float64) / 400.0))


def score_to_elo(score) -> np.ndarray:
    score = np.clip(np.asarray(score, dtype=np.float64), 1e-9, 1 - 1e-9)
    return -400.0 * np.log10(1.0 / score - 1.0)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """(lower, upper) LLR bounds: below accepts H0, above accepts H1.  Error rates of a
    half or more would put the lower bound above the upper (at alpha + beta >= 1)."""
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"alpha and beta must be in (0, 0.5), got {alpha}, {beta}")
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def constrained_mle(frequencies: np.ndarray, score: float, values: np.ndarray = PAIR_SCORES,
                    iterations: int = 60) -> np.ndarray:
    """The distribution over ``values`` with mean ``score`` that maximises the likelihood
    of the observed ``frequencies`` (rows summing to 1, all > 0).  By Lagrange, it is
    ``p_i = f_i / (1 + theta (x_i - score))`` with ``theta`` the root of ``sum_i p_i (x_i -
    score) = 0``, which is decreasing in ``theta``: found by bisection on the interval
    that keeps every ``p_i`` positive."""
    shifted = values - score                       # x_i - s: both signs, as 0 < s < 1
    low = np.full(frequencies.shape[:-1], -1.0 / shifted.max()) * (1 - 1e-12)
    high = np.full(frequencies.shape[:-1], -1.0 / shifted.min()) * (1 - 1e-12)
    for _ in range(iterations):
        theta = (low + high) / 2
        gradient = (frequencies * shifted / (1 + theta[..., None] * shifted)).sum(-1)
        low, high = np.where(gradient > 0, theta, low), np.where(gradient > 0, high, theta)
    theta = (low + high) / 2
    return frequencies / (1 + theta[..., None] * shifted)


def llr(counts, elo0: float, elo1: float) -> np.ndarray:
    """The log-likelihood ratio of H1 against H0 after the pairs in ``counts`` (``[..., 5]``,
    pentanomial), zero for no pairs."""
    counts = np.asarray(counts, dtype=np.float64)
    pairs = counts.sum(-1)
    regular = np.where(counts > 0, counts, EMPTY_CELL)
    frequencies = regular / regular.sum(-1, keepdims=True)
    p0 = constrained_mle(frequencies, float(elo_to_score(elo0)))
    p1 = constrained_mle(frequencies, float(elo_to_score(elo1)))
    return np.where(pairs > 0, pairs * (frequencies * np.log(p1 / p0)).sum(-1), 0.0)


def llr_normal(counts, elo0: float, elo1: float) -> np.ndarray:
    """The normal approximation of :func:`llr` (fishtest's older formula), a check."""
    counts = np.asarray(counts, dtype=np.float64)
    pairs = counts.sum(-1)
    frequencies = counts / np.maximum(pairs, 1)[..., None]
    mean = (frequencies * PAIR_SCORES).sum(-1)
    variance = (frequencies * (PAIR_SCORES - mean[..., None]) ** 2).sum(-1)
    s0, s1 = float(elo_to_score(elo0)), float(elo_to_score(elo1))
    return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * np.maximum(variance, 1e-12))


def elo_estimate(counts) -> tuple[float, float, float]:
    """A's Elo over B from the pairs' mean score, with a 95% interval from the pairs'
    variance (the pentanomial's, smaller than independent games' when deals matter)."""
    counts = np.asarray(counts, dtype=np.float64)
    pairs = counts.sum()
    if pairs == 0:
        return 0.0, -math.inf, math.inf
    mean = float((counts * PAIR_SCORES).sum() / pairs)
    spread = math.sqrt(float((counts * (PAIR_SCORES - mean) ** 2).sum() / pairs) / pairs)
    elo = score_to_elo([mean, mean - 1.96 * spread, mean + 1.96 * spread])
    return float(elo[0]), float(elo[1]), float(elo[2])


def pair_probabilities(elo: float, draw: float) -> np.ndarray:
    """Pentanomial probabilities of two independent games at ``elo`` with draw rate
    ``draw`` (each game: win w, draw d, loss l with w - l = 2 s - 1 and w + d + l = 1)."""
    score = float(elo_to_score(elo))
    win, loss = score - draw / 2, 1 - score - draw / 2
    if min(win, loss) < 0:
        raise ValueError(f"draw rate {draw} is too high for {elo} Elo")
    game = np.array([loss, draw, win])                 # A's points 0, 1/2, 1
    return np.convolve(game, game)                     # 0, 1/2, ..., 2 over two games


def simulate(true_elo: float, elo0: float, elo1: float, runs: int = 1000,
             alpha: float = 0.05, beta: float = 0.05, draw: float = 0.2,
             max_pairs: int = 200_000, seed: int = 0) -> dict:
    """``runs`` simulated matches at ``true_elo``, each stopped by the SPRT; the share
    that accepted H1 and the pairs they took.  Matches are checked after every pair."""
    rng = np.random.default_rng(seed)
    probabilities = pair_probabilities(true_elo, draw)
    lower, upper = bounds(alpha, beta)
    counts = np.zeros((runs, 5))
    verdict = np.zeros(runs, dtype=np.int8)            # 0 running, 1 H1, -1 H0
    stopped_at = np.zeros(runs, dtype=np.int64)
    for pair in range(1, max_pairs + 1):
        running = verdict == 0
        if not running.any():
            break
        outcomes = rng.choice(5, size=int(running.sum()), p=probabilities)
        counts[np.flatnonzero(running), outcomes] += 1
        ratio = llr(counts[running], elo0, elo1)
        decided = np.where(ratio >= upper, 1, np.where(ratio <= lower, -1, 0))
        index = np.flatnonzero(running)
        verdict[index] = decided
        stopped_at[index[decided != 0]] = pair
    finished = verdict != 0
    return {"true_elo": true_elo, "runs": runs, "accepted_h1": float((verdict == 1).mean()),
            "accepted_h0": float((verdict == -1).mean()),
            "undecided": int((~finished).sum()),
            "mean_pairs": float(stopped_at[finished].mean()) if finished.any() else math.nan}
