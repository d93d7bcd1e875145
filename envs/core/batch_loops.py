"""Template: the batched stepper's compiled loops, written once for every game.

The contract's kernels (``env_step``, ``env_reset``, ``observe``, ``scores``,
``tiebreaks``) are free names here: :func:`meeplezoo.envs.core.specialize.game_module`
writes a per-game copy that imports them from the game first, and numba caches that copy
on disk.  Do not import this module directly.  (No ``from __future__`` here: the per-game
copy puts its imports above this text.)
"""
# ruff: noqa: F821 - the kernels are bound by the per-game copy

import numpy as np

from meeplezoo.envs.core.batch import pick_random_legal, start_seat_of
from meeplezoo.envs.core.contract import TERMINAL
from meeplezoo.envs.core.jit import njit
from meeplezoo.envs.core.rewards import final_rewards
from meeplezoo.envs.core.rng import rand_below


@njit
def new_game(state, num_players, configs, start_seat, rng, mask):
    """Reset one game; with more than one config row (a board distribution, ``boards.py``)
    its board is the generator's first draw, as ``KernelEnv.reset`` draws it."""
    row = 0
    if configs.shape[0] > 1:
        row = rand_below(rng, configs.shape[0])
    first = start_seat_of(start_seat, rng, num_players)
    return env_reset(state, num_players, configs[row], first, rng, mask)


@njit
def step(states, actions, rngs, masks, obs, to_move, rewards, done, scores_out,
         num_players, configs, start_seat, scheme, margin_scale, write_obs):
    """Every game one decision on; a finished game reports its rewards and restarts."""
    tiebreak_out = np.zeros(num_players, dtype=np.int64)
    for game in range(states.shape[0]):
        rewards[game, :] = 0.0
        done[game] = 0
        seat = env_step(states[game], actions[game], rngs[game], masks[game])
        if seat == TERMINAL:
            scores(states[game], scores_out[game])
            tiebreaks(states[game], tiebreak_out)
            final_rewards(scores_out[game], tiebreak_out, num_players, scheme, margin_scale,
                          rewards[game])
            done[game] = 1
            seat = new_game(states[game], num_players, configs, start_seat, rngs[game],
                            masks[game])
        to_move[game] = seat
        if write_obs:
            observe(states[game], seat, obs[game])


@njit
def reset(states, rngs, masks, obs, to_move, num_players, configs, start_seat, write_obs):
    for game in range(states.shape[0]):
        seat = new_game(states[game], num_players, configs, start_seat, rngs[game],
                        masks[game])
        to_move[game] = seat
        if write_obs:
            observe(states[game], seat, obs[game])


@njit
def playouts(num_games, num_players, config, start_seat, rng, state, mask):
    """Play ``num_games`` uniformly random games to the end; returns decisions made."""
    decisions = 0
    for _ in range(num_games):
        env_reset(state, num_players, config, start_seat_of(start_seat, rng, num_players), rng,
                  mask)
        while True:
            decisions += 1
            if env_step(state, pick_random_legal(mask, rng), rng, mask) == TERMINAL:
                break
    return decisions


@njit
def observe_rows(states, seats, obs):
    """Row ``r`` of ``obs`` is ``states[r]`` observed by seat ``seats[r]`` (a search's
    leaves, valued by a network in one batch)."""
    for row in range(states.shape[0]):
        observe(states[row], seats[row], obs[row])
