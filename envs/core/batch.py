"""Many games stepped in one compiled call (the batched stepper of DESIGN.md).

``BatchEnv(spec, batch_size, num_players)`` holds ``batch_size`` independent games as
rows of one state matrix.  ``step(actions)`` advances every game by the action of its
seat to move, auto-resets finished games (reporting their final rewards first), and
writes each game's next mask and, optionally, the observation of the seat to move: the
loop a self-play collector needs, with no Python per game.

The compiled loops are written once (``batch_loops.py``, a template); each game gets a
generated copy bound to its kernels, which numba caches on disk like any kernel, so a new
process's first ``step`` loads compiled code instead of compiling it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from .boards import first_config
from .contract import H_NUM_PLAYERS, MASK_DTYPE, OBS_DTYPE, STATE_DTYPE, GameSpec
from .jit import njit
from .options import check_float, check_int
from .rewards import scheme_code
from .rng import new_rng, rand_below, spawn_rngs


@njit
def pick_random_legal(mask, rng):
    """A uniformly random legal action of ``mask`` (at least one must be set)."""
    count = 0
    for action in range(mask.shape[0]):
        count += mask[action]
    pick = rand_below(rng, count)
    for action in range(mask.shape[0]):
        if mask[action]:
            if pick == 0:
                return action
            pick -= 1
    return -1


@njit
def random_legal_actions(masks, rng, out):
    """One uniformly random legal action per row of ``masks`` (a baseline policy)."""
    for game in range(masks.shape[0]):
        out[game] = pick_random_legal(masks[game], rng)


RANDOM_START = -1          # start_seat: drawn from each game's generator, as the AEC env does


@njit
def start_seat_of(start_seat, rng, num_players):
    """The seat that starts a new game: ``start_seat``, or for ``RANDOM_START`` the same
    draw from the game's generator as ``KernelEnv.reset`` makes (so both start alike)."""
    if start_seat >= 0:
        return start_seat
    return np.int64(rng[0] % np.uint64(num_players))


@cache
def compiled_loops(spec: GameSpec):
    """The game's copy of the loops in ``batch_loops.py`` (step, reset, playouts), cached
    on disk by numba (see ``specialize``): a new process loads them, it does not compile."""
    from .specialize import game_module

    loops = game_module(spec, "meeplezoo.envs.core.batch_loops")
    return loops.step, loops.reset, loops.playouts


def observe_batch(spec: GameSpec, states: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """``float32 [B, obs_size]``: each state observed by its seat (compiled, cached)."""
    from .specialize import game_module

    states = np.ascontiguousarray(states, dtype=STATE_DTYPE)
    seats = np.ascontiguousarray(seats, dtype=np.int64)
    if states.ndim != 2 or states.shape[1] != spec.state_size or seats.shape != states.shape[:1]:
        raise ValueError(f"expected states [B, {spec.state_size}] and seats [B]")
    players = states[:, H_NUM_PLAYERS]
    if ((seats < 0) | (seats >= players)).any():
        raise ValueError("every seat must be one of its game's seats")
    obs = np.zeros((states.shape[0], spec.obs_size), dtype=OBS_DTYPE)
    game_module(spec, "meeplezoo.envs.core.batch_loops").observe_rows(states, seats, obs)
    return obs


class BatchEnv:
    """``batch_size`` games of one kind, stepped together; see the module docstring.

    Arrays (row = game): ``states``, ``masks`` int8 [B, A], ``obs`` float32 [B, O],
    ``to_move`` [B] (the seat whose action ``step`` expects next).  ``step`` returns
    ``(rewards [B, P], done [B])``; a done game's row already holds the next game.
    """

    def __init__(self, spec: GameSpec, batch_size: int, num_players: int = 2, seed: int = 0,
                 reward_scheme: str = "win_loss", margin_scale: float = 50.0,
                 with_observations: bool = True, start_seat: int | str | None = None,
                 **rule_options):
        num_players = check_int("num_players", num_players, spec.min_players, spec.max_players)
        batch_size = check_int("batch_size", batch_size, 1, 1 << 24)
        self.spec, self.batch_size, self.num_players = spec, batch_size, num_players
        config, self.boards = first_config(spec, rule_options)
        # One row per board: a fixed board's config, or every board of a distribution's
        # range (its game draws a row at each reset, inside the compiled loop).
        self.configs = config[None, :] if self.boards is None else self.boards.bank()
        self.config = config
        self.scheme = scheme_code(reward_scheme)
        self.margin_scale = check_float("margin_scale", margin_scale, 0.0, low_open=True)
        self.with_observations = with_observations
        if start_seat is None:
            start_seat = spec.default_start_seat
        self.start_seat = RANDOM_START if start_seat == "random" else check_int(
            "start_seat", start_seat, 0, num_players - 1)
        self.states = np.zeros((batch_size, spec.state_size), dtype=STATE_DTYPE)
        self.masks = np.zeros((batch_size, spec.num_actions), dtype=MASK_DTYPE)
        self.obs = np.zeros((batch_size, spec.obs_size if with_observations else 1),
                            dtype=OBS_DTYPE)
        self.to_move = np.zeros(batch_size, dtype=np.int64)
        self.rewards = np.zeros((batch_size, num_players), dtype=np.float64)
        self.done = np.zeros(batch_size, dtype=np.int8)
        self.final_scores = np.zeros((batch_size, num_players), dtype=np.int64)
        self.rngs = spawn_rngs(seed, batch_size)
        self._step, self._reset, _ = compiled_loops(spec)
        self._policy_rng = spawn_rngs(seed ^ 0x5EED, 1)[0]
        self._random_actions = np.zeros(batch_size, dtype=np.int64)

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game (own generator, not the dice's)."""
        random_legal_actions(self.masks, self._policy_rng, self._random_actions)
        return self._random_actions

    def reset(self, seed: int | None = None, seeds=None):
        """Start every game again: from ``seed`` (each game its own generator derived from
        it), or with ``seeds`` (one per game) exactly as the AEC env's ``reset(seed=s)``
        starts it (same board of a distribution, same start seat, same dice)."""
        if seeds is not None:
            seeds = [check_int("seeds", s, 0, (1 << 64) - 1) for s in seeds]
            if len(seeds) != self.batch_size:
                raise ValueError(f"seeds: expected {self.batch_size} (one per game), "
                                 f"got {len(seeds)}")
            self.rngs = np.stack([new_rng(s) for s in seeds])
        elif seed is not None:
            self.rngs = spawn_rngs(seed, self.batch_size)
        self._reset(self.states, self.rngs, self.masks, self.obs, self.to_move,
                    self.num_players, self.configs, self.start_seat, self.with_observations)
        return self.obs, self.masks, self.to_move

    def step(self, actions: np.ndarray):
        actions = np.asarray(actions, dtype=np.int64)
        if actions.shape != (self.batch_size,):
            raise ValueError(f"expected {self.batch_size} actions, got shape {actions.shape}")
        rows = np.arange(self.batch_size)
        inside = (actions >= 0) & (actions < self.spec.num_actions)
        legal = inside & (self.masks[rows, np.clip(actions, 0, self.spec.num_actions - 1)] == 1)
        if not legal.all():
            game = int(np.flatnonzero(~legal)[0])
            raise ValueError(f"game {game}: action {int(actions[game])} is not legal for seat "
                             f"{int(self.to_move[game])}")
        self._step(self.states, actions, self.rngs, self.masks, self.obs, self.to_move,
                   self.rewards, self.done, self.final_scores, self.num_players, self.configs,
                   self.start_seat, self.scheme, self.margin_scale, self.with_observations)
        return self.rewards, self.done


def random_playouts(spec: GameSpec, num_games: int, num_players: int = 2, seed: int = 0,
                    **rule_options) -> int:
    """Play random games entirely in compiled code; returns the number of decisions."""
    _, _, playouts = compiled_loops(spec)
    rng = spawn_rngs(seed, 1)[0]
    state = np.zeros(spec.state_size, dtype=STATE_DTYPE)
    mask = np.zeros(spec.num_actions, dtype=MASK_DTYPE)
    start = spec.default_start_seat
    config, boards = first_config(spec, rule_options)
    if boards is not None:
        raise ValueError("random_playouts plays one board; give one board, not a range")
    return int(playouts(num_games, num_players, config,
                        RANDOM_START if start == "random" else start, rng, state, mask))
