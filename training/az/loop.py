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
and ``eval.csv`` with ``--eval-every``.

    meeplezoo train hansa --algo az --ray --actors 2          # a local Ray, 2 actors
    meeplezoo train hansa --algo az --ray auto --actors 64    # the cluster `ray start` made

With ``--ray`` the games are played by self-play actors on the cluster's nodes and the
network learns here (``training/az/ray.py``); the options, logs and checkpoints are the
same, and a run may be resumed with or without Ray.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from meeplezoo.agents.az.evaluator import NetworkEvaluator
from meeplezoo.training.az.learner import Learner, selfplay_settings
from meeplezoo.training.az.selfplay import LockstepSelfPlay
from meeplezoo.training.run.log import tyro_main


@dataclass
class Options:
    game: str = "hansa_v0"
    """game to train on (``hansa`` is read as ``hansa_v0``)"""
    players: int = 2
    """number of seats (the network plays every seat)"""
    minutes: float = 0.0
    """training time budget in minutes across resumes (0: no time limit)"""
    iterations: int = 1000
    """budget of iterations across resumes"""
    seed: int = 1
    """seed of torch, numpy, the searches and the games' dice"""
    num_games: int = 32
    """games played in lockstep (their leaves share each forward pass)"""
    simulations: int = 32
    """search budget of a full move (its position becomes a training target)"""
    fast_simulations: int = 8
    """search budget of the other moves (playout-cap randomisation; not recorded)"""
    full_fraction: float = 0.25
    """share of the moves searched with the full budget"""
    considered: int = 16
    """moves the Gumbel root considers (sequential halving over them)"""
    leaf_batch: int = 4
    """leaves per game per network call (virtual loss keeps them apart)"""
    moves_per_iteration: int = 8
    """moves per game per iteration (``moves_per_iteration * num_games`` in all; the games
    do not wait for each other, so one game may play more of them than another)"""
    hidden: tuple[int, ...] = (256, 256)
    """hidden layer sizes of the MLP (the trunk; Carcassonne: the head after the convs)"""
    architecture: str = "auto"
    """network: auto (the game family's: Carcassonne convolutional, else MLP), az-mlp,
    az-carcassonne-conv"""
    channels: int = 16
    """convolution channels (convolutional networks; 16 keeps Carcassonne's forward pass
    cheap enough on a CPU that batching, not raw compute, sets the self-play speed)"""
    blocks: int = 3
    """residual blocks (convolutional networks)"""
    learning_rate: float = 1e-3
    """Adam learning rate"""
    weight_decay: float = 1e-4
    """AdamW weight decay"""
    lr_schedule: str = "constant"
    """learning rate over the iteration budget: constant, or cosine (down to a tenth)"""
    batch_size: int = 256
    """positions per gradient step"""
    updates_per_iteration: int = 8
    """gradient steps per iteration"""
    buffer_size: int = 50_000
    """positions kept in the replay buffer (oldest replaced)"""
    min_buffer: int = 256
    """positions needed before the first gradient step"""
    value_mix: float = 0.5
    """value target: (1 - value_mix) * final reward + value_mix * the search's value of the
    position (0: the outcome alone, which a short run's network memorises game by game)"""
    lam_start: float = 1.0
    """the network's share of each leaf value at the start, the game's heuristic the rest
    (``agents/az/knowledge.py``; 0: the heuristic alone, as ``mcts:N`` values leaves)"""
    lam_end: float = 1.0
    """the network's share once the schedule is over"""
    lam_iterations: int = 0
    """iterations over which the share moves linearly from ``lam_start`` to ``lam_end``
    (0: no schedule; then ``lam_start`` must equal ``lam_end``)"""
    prior_mix: float = 0.0
    """share of each prior put on the game's heuristic move"""
    heuristic_rollouts: int = 1
    """heuristic rollouts per leaf in games the tuned search values by rollouts"""
    explore_moves: int = 0
    """decisions of each self-play game that pick the played move with full Gumbel noise;
    later ones use ``late_gumbel`` (0: full noise at every move)"""
    late_gumbel: float = 1.0
    """Gumbel noise scale of the played move after ``explore_moves`` (0: the search's best)"""
    q_scale: float = 0.1
    """c_scale of the Gumbel root's sigma(q) (mctx's 0.1), in its choice of the move and in
    the policy target: the moves' q rescaled to [0, 1] is worth (50 + visits) * q_scale
    nats over the prior.  With noisy leaf values (a rollout, a weak value head) that
    rescaled noise outweighs a good prior; 0.005 keeps a warm start's policy"""
    opponents: tuple[str, ...] = ()
    """agents seated in a share of the self-play games (e.g. greedy mcts:64), so the
    values learn other players too; their moves are played, not recorded.  ``past``: the
    learner's own network as it was at one of its last four ``checkpoint_every``
    iterations (the first at the start), playing its policy (kept in memory: a resumed run
    starts the pool again from the network it resumes)"""
    opponent_share: float = 0.0
    """share of the self-play games with one of ``opponents`` at a random seat"""
    board: str | None = None
    """board of every training game (Hansa's ``board``, Serenissima's ``map``): a file, or
    a distribution, a fresh board per game: ``generated:train`` (the standard training
    split), ``generated:<a>-<b>`` (see ``envs/core/boards.py``); default: the printed one"""
    max_decisions: int = 0
    """cut self-play games off after this many decisions, scored from the points at the
    cut, in games with that rule option (Hansa Teutonica, Carcassonne); 0: the game's own"""
    margin_scale: float = 50.0
    """score points per unit of the margin target"""
    margin_coef: float = 0.25
    """weight of the auxiliary margin loss"""
    max_grad_norm: float = 1.0
    """gradient norm clipping"""
    device: str = "cpu"
    """torch device for the updates and the self-play network calls"""
    torch_threads: int = 0
    """torch CPU threads (0: torch's default)"""
    run_dir: str = "runs"
    """folder holding one folder per run"""
    run_name: str | None = None
    """run folder name (default ``<game>_<players>p_az_seed<seed>``)"""
    checkpoint_every: int = 50
    """write the checkpoint and the buffer every this many iterations (and at the end;
    the buffer is tens of MB, so writing it every few seconds would cost half the run)"""
    resume: bool = False
    """continue the run in ``<run-dir>/<run-name>`` from its checkpoint and buffer"""
    progress: bool = True
    """show a progress bar"""
    eval_every: int = 0
    """evaluate against ``eval_opponents`` every this many iterations (0: off)"""
    eval_games: int = 20
    """games per opponent in each evaluation (seats alternated)"""
    eval_opponents: tuple[str, ...] = ("random", "greedy")
    """anchor agents of the periodic evaluation"""
    eval_board: str | None = None
    """board of the evaluation games: ``generated:test`` logs the held-out score during
    training (a board per game from that range); default: the printed one"""
    keep_checkpoints: bool = False
    """keep each evaluation's checkpoint as ``checkpoints/iter_<N>.pt`` in the run folder
    (curves over a run, e.g. ``benchmarks.generalisation --checkpoints``)"""
    eval_simulations: int = 32
    """search budget of the evaluated bot (``az:<checkpoint>,sims=N``)"""
    value_set: str | None = "auto"
    """frozen test set the value head is measured on at each evaluation
    (``value_quality.csv``, ``training/run/value_log.py``): ``auto`` the set ``python -m
    meeplezoo.benchmarks.studies.value_quality build GAME`` cached for the game and players, if
    any; a path; None: off"""
    ray: str | None = None
    """run self-play on Ray actors: ``local`` (what ``--ray`` alone means) starts a Ray
    here, ``auto`` or ``HOST:PORT`` joins a cluster; the learner stays in this process"""
    actors: int = 2
    """self-play actors with ``--ray`` (one CPU each, ``num_games`` games each)"""
    max_actor_restarts: int = 20
    """actors that die (worker or node lost) are replaced, up to this many times a run"""


def train(options: Options) -> dict:
    """Train with ``options``; returns the final counters and the checkpoint path.  With
    ``--ray`` the self-play runs on Ray actors (``training/az/ray.py``)."""
    if options.ray is not None:
        from meeplezoo.training.az.ray import train_on_ray

        return train_on_ray(options)
    learner = Learner(options)
    options = learner.options
    selfplay = LockstepSelfPlay(learner.spec, **selfplay_settings(options),
                                seed=int(learner.np_rng.integers(1 << 31)))
    evaluator = NetworkEvaluator(learner.network, learner.spec, options.device)
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
        learner.save()
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
                               f"{r['elapsed_s']:.0f} s; checkpoint: {r['checkpoint']}")


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
