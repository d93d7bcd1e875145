"""Self-play with search and a network (AlphaZero-style), CleanRL style: options, one loop.

    meeplezoo train hansa --algo az --minutes 10
    python -m meeplezoo.training.az.loop --game hansa_v0 --num-games 64 --resume

Each iteration plays ``moves_per_iteration`` moves in each of ``num_games`` games, all
searched in lockstep with a Gumbel root (``training/az/selfplay.py``), adds the recorded
positions to the replay buffer, then takes ``updates_per_iteration`` gradient steps on
batches drawn from it.  Loss: cross-entropy against the search's improved policy, squared
error of the per-seat values against the final rewards mixed with the search's values
(``value_mix``), and ``margin_coef`` times that
of the score margins.  Logs go to ``<run-dir>/<run-name>/``: TensorBoard events,
``progress.csv``, ``checkpoint.pt`` and ``buffer.npz`` (every ``checkpoint_every``
iterations and at the end; ``--resume`` continues with the same counters and buffer),
and ``eval.csv`` and ``learning_curve.png``: six evaluations over the budget by default
(``training/run/schedule.py``).  ``--minutes`` counts from the end of the compile.

    meeplezoo train hansa --algo az --ray --actors 2          # a local Ray, 2 actors
    meeplezoo train hansa --algo az --ray auto --actors 64    # the cluster `ray start` made

With ``--ray`` the games are played by self-play actors on the cluster's nodes and the
network learns here (``training/az/ray.py``); the options, logs and checkpoints are the
same, and a run may be resumed with or without Ray.
"""

from __future__ import annotations

import time

from meeplezoo.agents.az.evaluator import NetworkEvaluator
from meeplezoo.training.az.learner import Learner, selfplay_settings
from meeplezoo.training.az.mixed import make_selfplay
from meeplezoo.training.az.options import Options
from meeplezoo.training.run.evaluate import evaluation_summary
from meeplezoo.training.run.log import tyro_main
from meeplezoo.training.run.schedule import quiet, warm_up


def train(options: Options) -> dict:
    """Train with ``options``; returns the final counters and the checkpoint path.  With
    ``--ray`` the self-play runs on Ray actors (``training/az/ray.py``)."""
    if options.ray is not None:
        from meeplezoo.training.az.ray import train_on_ray

        return train_on_ray(options)
    learner = Learner(options)
    options = learner.options
    selfplay = make_selfplay(learner.spec, selfplay_settings(options),
                             seed=int(learner.np_rng.integers(1 << 31)))
    evaluator = NetworkEvaluator(learner.network, learner.spec, options.device)

    def compile_selfplay():
        """A few searched moves of two games with the run's settings and network, so its
        first iteration is not the compile."""
        tiny = make_selfplay(learner.spec, {**selfplay_settings(options), "num_games": max(
            2, len(options.seat_counts))}, seed=0)
        tiny.play_moves(evaluator, 4)

    warm_up(options.game, compile_selfplay, say=print if options.progress else quiet)
    log = learner.open_log()
    try:
        while learner.spent() < 1.0:
            started = time.perf_counter()
            learner.network.eval()
            games_before, moves_before = selfplay.games_finished, selfplay.moves_played
            selfplay.set_lam(learner.knowledge().lam)
            positions = selfplay.play_moves(evaluator,
                                            options.moves_per_iteration * options.num_games)
            if positions:
                learner.buffer.add(**positions)
            selfplay_s = time.perf_counter() - started
            stats = learner.learn()
            if learner.counters["iteration"] % options.checkpoint_every == 0:
                selfplay.remember(learner.network)     # a past self for ``--opponents past``
            elapsed = time.perf_counter() - started
            moves = selfplay.moves_played - moves_before
            learner.record(moves=moves, positions=len(positions["obs"]) if positions else 0,
                           games=selfplay.games_finished - games_before,
                           moves_per_s=moves / selfplay_s, elapsed_s=elapsed,
                           update_s=elapsed - selfplay_s, stats=stats)
        learner.finish()
    finally:
        log.close()
    return learner.result()


def train_main(argv: list[str] | None = None) -> int:
    """Entry point of ``meeplezoo train --algo az``: a positional game name first;
    ``--ray`` without an address means a local Ray."""
    argv = optional_value(list(argv or []), "--ray", "local")
    return tyro_main(Options, train, argv, "meeplezoo train --algo az", __doc__.splitlines()[0],
                     lambda r: f"trained {r['iteration']} iterations ({r['games']} games, "
                               f"{r['positions']} positions, {r['updates']} updates) in "
                               f"{r['elapsed_s']:.0f} s; checkpoint: {r['checkpoint']}"
                               + evaluation_summary(r))


def optional_value(argv: list[str], flag: str, default: str) -> list[str]:
    """``argv`` with ``default`` after ``flag`` where no value follows it (tyro has no
    flags with an optional value)."""
    for index, argument in enumerate(argv):
        if argument == flag and (index + 1 == len(argv) or argv[index + 1].startswith("-")):
            return [*argv[:index + 1], default, *argv[index + 1:]]
    return argv


if __name__ == "__main__":
    import sys

    raise SystemExit(train_main(sys.argv[1:]))
