"""The options of the AlphaZero-style trainer (``meeplezoo train --algo az``), apart from
its loop: the warm starts from the search (``training/expert``) and PPO's warm start build
on the same defaults without importing the loop."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Options:
    game: str = "hansa_v0"
    """game to train on (``hansa`` is read as ``hansa_v0``)"""
    players: int = 2
    """number of seats (the network plays every seat)"""
    seat_counts: tuple[int, ...] = ()
    """self-play at several seat counts at once, ``num_games`` shared evenly among them
    (``--seat-counts 2 3 4``: one network for every count the game allows; each count is
    evaluated); default: ``--players`` alone"""
    init_from: str | None = None
    """start the network from a checkpoint's weights, fresh optimizer and counters: a
    run's ``checkpoint.pt``, or a shipped network by name (``az:default``,
    ``az:default3p``, ``ppo:distilled``); it must be the network these flags build"""
    minutes: float = 0.0
    """training time budget in minutes across resumes (0: no time limit)"""
    iterations: int | None = None
    """budget of iterations across resumes (default: 1000, or none with ``--minutes``,
    whose training time is then the whole budget)"""
    seed: int = 1
    """seed of torch, numpy, the searches and the games' dice"""
    num_games: int = 128
    """games played in lockstep (their leaves share each forward pass; with 32 an
    iteration recorded 64 positions for 2,048 drawn, and a 10-minute Hansa run stayed
    near 0.1 against greedy: the network memorised its few games)"""
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
    evaluations: int = 6
    """evaluations against ``eval_opponents`` spread evenly over the budget (``--minutes``
    of training, else ``--iterations``), the last at the end: ``eval.csv`` and
    ``learning_curve.png`` in the run folder (their time is not training time); 0 with no
    ``--eval-every``: no evaluation"""
    eval_every: int = 0
    """evaluate every this many iterations instead (and at the end; 0: ``evaluations``)"""
    eval_games: int = 16
    """games per opponent in each evaluation (seats alternated)"""
    eval_opponents: tuple[str, ...] = ("random", "greedy", "mcts:200")
    """anchor agents of the periodic evaluation (agent specs: the game's rungs)"""
    eval_search_every: int = 2
    """opponents that search (``mcts:N``, ten to thirty times a greedy game's time) play at
    every this many evaluations and at the last one"""
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
