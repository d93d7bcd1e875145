"""Explicit, portable random numbers for kernels: xoroshiro128+ seeded by splitmix64.

The generator state is a ``uint64[2]`` array owned by the caller (the env, a batch, an MCTS
search), so a kernel never hides randomness and the same seed gives the same game on any
machine.  All arithmetic stays in uint64: numba promotes uint64 mixed with int64 to
float64, so every constant below is an explicit ``np.uint64``.
"""

from __future__ import annotations

import operator

import numpy as np

from .jit import njit

RNG_WORDS = 2
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_MASK64 = (1 << 64) - 1


@njit
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit
def _splitmix64(z):
    z = z + _GOLDEN
    x = z
    x = (x ^ (x >> np.uint64(30))) * _MIX1
    x = (x ^ (x >> np.uint64(27))) * _MIX2
    return z, x ^ (x >> np.uint64(31))


@njit
def seed_rng(rng, seed):
    """Fill ``rng`` (uint64[2]) from a 64-bit seed via splitmix64 (never all zero)."""
    z = np.uint64(seed)
    z, rng[0] = _splitmix64(z)
    z, rng[1] = _splitmix64(z)
    if rng[0] == np.uint64(0) and rng[1] == np.uint64(0):
        rng[1] = _GOLDEN


@njit
def next_u64(rng):
    """xoroshiro128+ step: returns a uint64 and advances ``rng`` in place."""
    s0 = rng[0]
    s1 = rng[1]
    result = s0 + s1
    s1 ^= s0
    rng[0] = _rotl(s0, 24) ^ s1 ^ (s1 << np.uint64(16))
    rng[1] = _rotl(s1, 37)
    return result


@njit
def rand_below(rng, n):
    """Uniform integer in ``[0, n)`` (n >= 1), from the top 53 bits (bias < 2**-40)."""
    top = next_u64(rng) >> np.uint64(11)
    return int(np.float64(top) * (1.0 / 9007199254740992.0) * n)


@njit
def rand_float(rng):
    """Uniform float in ``[0, 1)``."""
    return np.float64(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def new_rng(seed: int | None = None) -> np.ndarray:
    """A fresh generator state; ``seed=None`` draws one from the OS."""
    if seed is None:
        seed = int(np.random.SeedSequence().entropy) & _MASK64
    try:
        seed = operator.index(seed)
    except TypeError:
        raise ValueError(f"a seed is an integer, not {type(seed).__name__}") from None
    if not 0 <= seed <= _MASK64:
        # Not reduced modulo 2**64: two seeds shown apart would play the same game.
        raise ValueError(f"a seed is an integer in 0..2**64-1, not {seed}")
    rng = np.zeros(RNG_WORDS, dtype=np.uint64)
    seed_rng(rng, np.uint64(seed))
    return rng


def spawn_rngs(seed: int, count: int) -> np.ndarray:
    """``count`` independent generator states (rows) derived from one seed."""
    out = np.zeros((count, RNG_WORDS), dtype=np.uint64)
    for row in range(count):
        seed_rng(out[row], np.uint64((int(seed) * 1_000_003 + row * 7919 + 1) & _MASK64))
    return out
