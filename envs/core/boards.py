"""Board distributions: a new generated board at every reset, for generalisation research.

Hansa's boards and Serenissima's maps are data, and each game has a seeded generator of
valid ones (``board="generated:<seed>"``, ``map="generated:<seed>"``).  The same option
also takes a *range* of generator seeds, and then every ``reset(seed=...)`` draws one board
from it, deterministically from the reset seed:

* ``"generated:<a>-<b>"``: the boards of seeds ``a..b`` (inclusive);
* ``"generated:train"`` / ``"generated:test"``: the standard splits (:data:`SPLITS`), fixed
  so that results on them can be compared across papers ("MeepleZoo-Gen").

The draw is the first thing taken from the game's own generator at a reset, before the
start seat: ``rand_below(rng, size)``.  The AEC env makes it in Python and the batched
stepper in its compiled loop, from the same generator, so a seed gives the same board and
the same game in both.  A range of one board (``generated:5-5``) draws nothing, exactly as
``generated:5`` does.

The batched stepper needs every board's config at hand inside compiled code, so it asks
for the whole range's configs at once (:meth:`BoardDistribution.bank`); they are built
once per process (the train split's 10,000 boards take 2-12 s; at most
:data:`MAX_BANK_BOARDS`, with a progress line every 5 s) and kept in a file cache
(``$MEEPLEZOO_CACHE`` or ``~/.cache/meeplezoo``, plain ``.npy`` read without pickle and
checked for shape, rebuilt if it does not match).
"""

from __future__ import annotations

import hashlib
import io
import os
import sys
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .files import read_bytes
from .rng import rand_below

PREFIX = "generated:"
# The standard splits, inclusive.  Never change them: results name them.
SPLITS = {"train": (0, 9_999), "test": (1_000_000, 1_000_199)}
MAX_SEED = 10**18                       # what the games' single-board syntax accepts
# The most boards a batched stepper builds up front (``BoardDistribution.bank``): ten times
# the train split, a few minutes of generation and ~100 MB of configs.  A range drawn
# from by the AEC env builds only the boards it deals, so it may be as wide as the seeds.
MAX_BANK_BOARDS = 100_000
# Bumped whenever a game's generator or config layout changes, so stale caches rebuild.
BANK_FORMAT = 1


class BoardRangeError(ValueError):
    """A board range or split that cannot be used (one clear message)."""


@dataclass(frozen=True)
class SeedRange:
    """Generator seeds ``first..last`` (inclusive); ``name`` is the split's, if one."""

    first: int
    last: int
    name: str | None = None

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def seed_at(self, index: int) -> int:
        return self.first + int(index)

    def overlaps(self, other: SeedRange) -> bool:
        return self.first <= other.last and other.first <= self.last

    def spec(self) -> str:
        """The option text that names this range."""
        return PREFIX + (self.name or f"{self.first}-{self.last}")

    def __str__(self) -> str:
        span = f"seeds {self.first:,}-{self.last:,} ({self.size:,} boards)"
        return f"{self.name} split, {span}" if self.name else span


def split(name: str) -> SeedRange:
    if name not in SPLITS:
        raise BoardRangeError(f"unknown split {name!r}; the splits are {', '.join(SPLITS)}")
    return SeedRange(*SPLITS[name], name=name)


def parse_range(value) -> SeedRange | None:
    """The range a board option names, or ``None`` when it names one board (a file, a dict,
    ``generated:<seed>``, the default) that the game itself reads."""
    if not isinstance(value, str) or not value.startswith(PREFIX):
        return None
    rest = value[len(PREFIX):]
    if rest in SPLITS:
        return split(rest)
    if "-" not in rest:
        return None                             # generated:<seed>: the game checks it
    low, _, high = rest.partition("-")
    if not all(part.isascii() and part.isdigit() and len(part) <= 18 for part in (low, high)):
        raise BoardRangeError(
            f"board range {value[:60]!r}: write 'generated:<a>-<b>' with integer seeds "
            f"0 <= a <= b < 10**18, or a split: {', '.join(PREFIX + s for s in SPLITS)}")
    first, last = int(low), int(high)
    if last < first:
        raise BoardRangeError(f"board range {value!r} is reversed: {first} > {last}; "
                              f"write 'generated:{last}-{first}'")
    return SeedRange(first, last)


def board_option_of(game_spec) -> str:
    """The name of the game's board option (``board``, ``map``), or a clear error."""
    if game_spec.board_option is None:
        raise BoardRangeError(f"{game_spec.name} has no generated boards; games with them: "
                              "hansa (board=...), serenissima (map=...)")
    return game_spec.board_option


def board_options(game_spec, board: str | None, flag: str = "--board") -> dict:
    """``{"board": board}`` / ``{"map": board}``: the game's own name for its board option
    (nothing for ``None``); a game without generated boards is one line naming ``flag``."""
    if board is None:
        return {}
    try:
        return {board_option_of(game_spec): board}
    except ValueError as err:
        raise ValueError(f"{flag}: {err}") from None


def distribution_of(game_spec, rule_options: dict) -> BoardDistribution | None:
    """The board distribution the rule options ask for, or ``None`` for a fixed board."""
    option = game_spec.board_option
    if option is None or option not in rule_options:
        return None
    seeds = parse_range(rule_options[option])
    if seeds is None:
        return None
    return BoardDistribution(game_spec, seeds, rule_options)


def first_config(game_spec, rule_options: dict) -> tuple[np.ndarray, BoardDistribution | None]:
    """``make_config`` for options that may name a distribution: the config (of the range's
    first board, for a distribution) and the distribution or ``None``.  Every option is
    checked now, the range included."""
    dist = distribution_of(game_spec, rule_options)
    if dist is None:
        return game_spec.make_config(**rule_options), None
    return dist.config_of(dist.seeds.first), dist


class BoardDistribution:
    """The boards of a seed range for one game with fixed other options."""

    def __init__(self, game_spec, seeds: SeedRange, rule_options: dict):
        self.spec, self.seeds = game_spec, seeds
        self.option = board_option_of(game_spec)
        self.other_options = {k: v for k, v in rule_options.items() if k != self.option}
        self.config_of = lru_cache(maxsize=1024)(self._config_of)
        self.config_of(seeds.first)             # validates the other options now
        self._bank: np.ndarray | None = None

    def _config_of(self, board_seed: int) -> np.ndarray:
        # Shared by every reset of this board: kernels only read a config (never made
        # read-only: numba would compile the kernels again for that array type).
        return self.spec.make_config(**{**self.other_options,
                                        self.option: f"{PREFIX}{board_seed}"})

    def draw(self, rng: np.ndarray) -> int:
        """The board seed of the next game, taken from the game's generator ``rng``."""
        if self.seeds.size == 1:
            return self.seeds.first
        return self.seeds.seed_at(rand_below(rng, self.seeds.size))

    def bank(self, progress: bool = True) -> np.ndarray:
        """``int64 [size, config]``: every board's config, row ``i`` for seed ``first + i``."""
        if self._bank is None:
            if self.seeds.size > MAX_BANK_BOARDS:
                raise BoardRangeError(
                    f"{self.spec.name}: {self.option}={self.seeds.spec()} is "
                    f"{self.seeds.size:,} boards; a batched run builds every board of its "
                    f"range first, at most {MAX_BANK_BOARDS:,} (the train split is "
                    f"{SPLITS['train'][1] - SPLITS['train'][0] + 1:,})")
            self._bank = _cached_bank(self, progress)
        return self._bank

    def build_rows(self, progress: bool) -> np.ndarray:
        """Every board's config, built now (a line every 5 s with ``progress``)."""
        rows = np.zeros((self.seeds.size, self.config_of(self.seeds.first).size),
                        dtype=np.int64)
        began = last = time.perf_counter()
        if progress and self.seeds.size > 10_000:
            print(f"{self.spec.name}: building {self.seeds.size:,} boards (a line every 5 s)",
                  file=sys.stderr, flush=True)
        for row in range(self.seeds.size):
            rows[row] = self._config_of(self.seeds.seed_at(row))
            now = time.perf_counter()
            if progress and now - last > 5.0:
                last = now
                print(f"{self.spec.name}: building boards {row + 1:,}/{self.seeds.size:,} "
                      f"({now - began:.0f} s)", file=sys.stderr, flush=True)
        return rows


def cache_dir() -> Path:
    root = os.environ.get("MEEPLEZOO_CACHE") or Path.home() / ".cache" / "meeplezoo"
    return Path(root) / "boards"


def _bank_key(dist: BoardDistribution) -> str:
    other = repr(sorted(dist.other_options.items()))
    digest = hashlib.sha256(f"{BANK_FORMAT}|{dist.spec.name}|{other}".encode()).hexdigest()
    return f"{dist.spec.name}-{dist.seeds.first}-{dist.seeds.last}-{digest[:16]}.npy"


def _cached_bank(dist: BoardDistribution, progress: bool) -> np.ndarray:
    """The range's configs from the file cache, or built (and cached when it took long
    enough to be worth a file: small ranges are built in a moment)."""
    width = dist.config_of(dist.seeds.first).size
    path = cache_dir() / _bank_key(dist)
    try:
        # A regular file of at most the bank's own size (a FIFO or a link to /dev/zero
        # left in the cache is refused, then rebuilt over).
        size = dist.seeds.size * width * 8 + 4096
        bank = np.load(io.BytesIO(read_bytes(path, "positions", limit=size)),
                       allow_pickle=False)
        if bank.shape == (dist.seeds.size, width) and bank.dtype == np.int64 and \
                np.array_equal(bank[0], dist.config_of(dist.seeds.first)) and \
                np.array_equal(bank[-1], dist.config_of(dist.seeds.last)):
            return bank
    except (OSError, ValueError):
        pass                                    # missing, unreadable or not ours: rebuild
    began = time.perf_counter()
    bank = dist.build_rows(progress)
    if dist.seeds.size >= 256:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(partial, bank, allow_pickle=False)
            os.replace(partial, path)
        except OSError:
            pass                                # a read-only home: keep it in memory only
    if progress and time.perf_counter() - began > 2.0:
        print(f"{dist.spec.name}: {dist.seeds.size:,} boards built in "
              f"{time.perf_counter() - began:.1f} s (cached in {path.parent})",
              file=sys.stderr, flush=True)
    return bank
