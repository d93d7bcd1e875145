"""Checks of a training run's options, before anything is built or written.

Shared by the trainers: each option dataclass is checked by the fields it has, so a bad
flag is one clear ``ValueError`` (the CLI prints one line and exits 2), never a crash in
the first update.
"""

from __future__ import annotations

import math


def check_options(options, game_spec) -> None:
    """Refuse, with one clear ``ValueError`` naming the flag, a budget or a network shape
    that cannot train (``--hidden 0``, ``--num-envs 0``, a NaN learning rate...)."""
    if not game_spec.min_players <= options.players <= game_spec.max_players:
        raise ValueError(f"--players {options.players}: {options.game} is for "
                         f"{game_spec.min_players}-{game_spec.max_players} players")
    if not options.hidden or any(size < 1 for size in options.hidden):
        raise ValueError(f"--hidden needs one or more layer sizes >= 1, got {options.hidden}")
    for name in ("num_envs", "num_steps", "update_epochs", "num_minibatches",
                 "checkpoint_every", "eval_games", "pool_every", "pool_size", "num_games",
                 "simulations", "fast_simulations", "considered", "batch_size",
                 "updates_per_iteration", "moves_per_iteration", "buffer_size", "actors"):
        if hasattr(options, name) and getattr(options, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 1, "
                             f"got {getattr(options, name)}")
    if hasattr(options, "num_minibatches") and \
            (options.num_envs * options.num_steps) % options.num_minibatches:
        raise ValueError("--num-minibatches must divide num_envs * num_steps")
    for name in ("learning_rate", "gamma", "gae_lambda", "clip_coef", "max_grad_norm",
                 "margin_scale"):
        if not hasattr(options, name):
            continue
        value = getattr(options, name)
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"--{name.replace('_', '-')} must be a finite number > 0, "
                             f"got {value}")
    game_spec.make_config(**rule_options(options))   # a game without the option refuses
    fraction = getattr(options, "opponent_fraction", getattr(options, "full_fraction", 0.5))
    if not 0 <= fraction <= 1 or not math.isfinite(options.minutes) or options.minutes < 0:
        raise ValueError("--opponent-fraction / --full-fraction must be in [0, 1] and "
                         "--minutes >= 0")


def rule_options(options) -> dict:
    """The game rule options a trainer's flags set (``--max-decisions``), refused with one
    clear error by a game that has no such option."""
    cut = getattr(options, "max_decisions", 0)
    if cut < 0:
        raise ValueError(f"--max-decisions must be >= 0, got {cut}")
    return {"max_decisions": cut} if cut else {}
