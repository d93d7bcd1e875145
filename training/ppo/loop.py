"""Self-play PPO on a batched MeepleZoo env (CleanRL style: options, then one loop).

    meeplezoo train saint_malo --players 2 --minutes 10
    python -m meeplezoo.training.ppo.loop --game saint_malo_v0 --num-envs 256 --resume

Every seat of every game is played by the current policy (see ``collect.py`` for the
per-seat trajectories), or with ``--opponent-fraction`` > 0 that fraction of the games pits
the learner (one seat) against a past snapshot from ``<run>/pool/`` (see ``pool.py``).  Logs go to
``<run-dir>/<run-name>/``: TensorBoard events, ``progress.csv`` and ``checkpoint.pt``
(written every ``checkpoint_every`` updates and at the end; ``--resume`` continues from
it with the same update counter, global step and training time), and ``eval.csv`` and
``learning_curve.png``: six evaluations over the budget by default
(``training/run/schedule.py``).  ``--minutes`` counts from the end of the compile.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn, optim

from meeplezoo.agents.ppo.network import make_network, network_meta
from meeplezoo.envs import resolve_game, spec
from meeplezoo.envs.core.batch import BatchEnv
from meeplezoo.training.ppo.collect import Collector, compute_gae
from meeplezoo.training.ppo.pool import OpponentPool
from meeplezoo.training.ppo.warm_start import warm_rows, warm_start
from meeplezoo.training.run.checkpoint import keep_copy, remove_stale_temporaries, save_checkpoint
from meeplezoo.training.run.checks import check_options, rule_options
from meeplezoo.training.run.evaluate import (
    announce_evaluations,
    evaluate_run,
    evaluation_files,
    evaluation_summary,
)
from meeplezoo.training.run.log import RunLog, budget_used, resume_or_refuse, torch_setup, tyro_main
from meeplezoo.training.run.paths import run_path
from meeplezoo.training.run.schedule import EvalSchedule, quiet, warm_up


@dataclass
class Options:
    game: str = "saint_malo_v0"
    """game to train on (``saint_malo`` is read as ``saint_malo_v0``)"""
    players: int = 2
    """number of seats; the current policy plays every seat, except the opponents' seats
    in the ``opponent_fraction`` of games that face the pool"""
    minutes: float = 0.0
    """training time budget in minutes across resumes (0: no time limit)"""
    total_steps: int = 10_000_000
    """budget of decisions (global step) across resumes; the learning rate anneals over
    whichever budget runs out first"""
    seed: int = 1
    """seed of torch, numpy and the games' dice"""
    num_envs: int = 256
    """games stepped together in one compiled call"""
    num_steps: int = 64
    """decisions per game per rollout (batch size = num_envs * num_steps)"""
    hidden: tuple[int, ...] = (256, 256)
    """hidden layer sizes of the MLP policy/value network (the convolutional network's
    head over its pooled features and the observation's vector part)"""
    architecture: str = "auto"
    """network: auto (the MLP), mlp, carcassonne-conv (Carcassonne's residual convolutions
    and per-slot placement logits, ``agents/ppo/conv_network.py``)"""
    channels: int = 16
    """convolution channels (convolutional networks)"""
    blocks: int = 3
    """residual blocks (convolutional networks)"""
    learning_rate: float = 2.5e-4
    """Adam learning rate at the start"""
    anneal_lr: bool = True
    """anneal the learning rate linearly to 0 over the budget"""
    gamma: float = 0.999
    """discount per decision of the same seat (rewards come only at the end of a game)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    update_epochs: int = 4
    """optimisation epochs over each rollout"""
    num_minibatches: int = 8
    """minibatches per epoch"""
    clip_coef: float = 0.2
    """PPO ratio clipping"""
    clip_vloss: bool = True
    """clip the value loss around the old values as well"""
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    ent_coef: float = 0.01
    """entropy bonus coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """gradient norm clipping"""
    target_kl: float | None = None
    """stop an update's epochs early when the approximate KL exceeds this"""
    board: str | None = None
    """board of every training game (Hansa's ``board``, Serenissima's ``map``): a file, or
    a distribution, a fresh board per game: ``generated:train`` (the standard training
    split), ``generated:<a>-<b>`` (see ``envs/core/boards.py``); default: the printed one"""
    max_decisions: int = 0
    """cut games off after this many decisions, scored from the points at the cut, in
    games with that rule option (Hansa Teutonica, Carcassonne); 0: the game's own"""
    reward_scheme: str = "win_loss"
    """final reward of each seat (see envs/core/rewards.py)"""
    device: str = "cpu"
    """torch device for the updates (``cuda`` if available); collection stays on CPU"""
    torch_threads: int = 0
    """torch CPU threads (0: torch's default)"""
    run_dir: str = "runs"
    """folder holding one folder per run"""
    run_name: str | None = None
    """run folder name (default ``<game>_<players>p_seed<seed>``)"""
    checkpoint_every: int = 10
    """write ``checkpoint.pt`` every this many updates (and at the end)"""
    resume: bool = False
    """continue the run in ``<run-dir>/<run-name>`` from its checkpoint"""
    progress: bool = True
    """show a progress bar with steps/s"""
    max_updates: int | None = None
    """stop after this many updates in total (for tests and smoke runs)"""
    evaluations: int = 6
    """evaluations against ``eval_opponents`` spread evenly over the budget (``--minutes``
    of training, else ``--total-steps``), the last at the end: ``eval.csv`` and
    ``learning_curve.png`` in the run folder (their time is not training time); 0 with no
    ``--eval-every``: no evaluation"""
    eval_every: int = 0
    """evaluate every this many updates instead (and at the end; 0: ``evaluations``)"""
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
    """keep each evaluation's checkpoint as ``checkpoints/iter_<update>.pt`` in the run
    folder (curves over a run, e.g. ``benchmarks.generalisation --checkpoints --template
    ppo:{checkpoint}``)"""
    opponent_fraction: float = 0.0
    """fraction of the games where the learner plays one seat against a pool snapshot
    (0: pure self-play)"""
    pool_every: int = 10
    """add a snapshot of the policy to the opponent pool every this many updates"""
    pool_size: int = 10
    """snapshots kept in the opponent pool (the oldest dropped)"""
    pool_recency: float = 0.8
    """sampling weight factor per step of a snapshot's age (1: no recency bias)"""
    warm_start: str | None = None
    """a new run first learns a teacher's moves and values from this positions file of
    ``training.expert`` (see ``training/ppo/warm_start.py``); a resumed run does not"""
    warm_epochs: int = 8
    """passes over the warm-start positions"""
    warm_policy_temperature: float = 0.25
    """warm-start policy target proportional to the teacher's move weights ** (1 / this)"""
    warm_value_mix: float = 1.0
    """warm-start value target: (1 - this) * result + this * the teacher's value"""


STAT_KEYS = ("policy_loss", "value_loss", "entropy", "approx_kl", "clipfrac")


def ppo_loss(new_logprob, old_logprob, advantages, new_value, old_value, returns, entropy,
             clip_coef: float, vf_coef: float, ent_coef: float, clip_vloss: bool = True,
             weights: torch.Tensor | None = None):
    """The clipped PPO objective (to minimise) and its parts as a dict of floats.

    With ``weights`` every per-sample term is averaged with those weights (0: ignored).
    """
    if weights is None:
        mean = torch.mean
    else:
        total = weights.sum().clamp_min(1e-8)

        def mean(x):
            return (x * weights).sum() / total
    logratio = new_logprob - old_logprob
    ratio = logratio.exp()
    pg_loss = mean(torch.max(-advantages * ratio,
                             -advantages * torch.clamp(ratio, 1 - clip_coef, 1 + clip_coef)))
    if clip_vloss:
        clipped = old_value + torch.clamp(new_value - old_value, -clip_coef, clip_coef)
        v_loss = 0.5 * mean(torch.max((new_value - returns) ** 2, (clipped - returns) ** 2))
    else:
        v_loss = 0.5 * mean((new_value - returns) ** 2)
    entropy_loss = mean(entropy)
    loss = pg_loss - ent_coef * entropy_loss + vf_coef * v_loss
    with torch.no_grad():
        stats = {"policy_loss": pg_loss.item(), "value_loss": v_loss.item(),
                 "entropy": entropy_loss.item(),
                 "approx_kl": mean((ratio - 1) - logratio).item(),
                 "clipfrac": mean(((ratio - 1.0).abs() > clip_coef).float()).item()}
    return loss, stats


def normalise_advantages(advantages: torch.Tensor, weights: torch.Tensor | None = None
                         ) -> torch.Tensor:
    """Advantages minus their mean over their std (both over weighted samples only)."""
    if weights is None:
        return (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    total = weights.sum()
    mean = (weights * advantages).sum() / total.clamp_min(1e-8)
    var = (weights * (advantages - mean) ** 2).sum() / (total - 1).clamp_min(1e-8)
    return (advantages - mean) / (var.sqrt() + 1e-8)


def train(options: Options) -> dict:
    """Train with ``options``; returns the final counters and the checkpoint path."""
    options = dataclasses.replace(options, game=resolve_game(options.game))
    game_spec = spec(options.game)
    check_options(options, game_spec)
    device, np_rng = torch_setup(options)
    folder = run_path(options)
    checkpoint_path = folder / "checkpoint.pt"
    remove_stale_temporaries(checkpoint_path)      # left by a run killed mid-write
    meta = network_meta(options.game, game_spec.obs_size, game_spec.num_actions, options.hidden,
                        options.architecture, options.channels, options.blocks)

    policy = make_network(meta).to(device)
    optimizer = optim.Adam(policy.parameters(), lr=options.learning_rate, eps=1e-5)
    counters = {"update": 0, "global_step": 0, "elapsed_s": 0.0}
    resume_or_refuse(options, checkpoint_path, meta, policy, optimizer, counters, np_rng, device)
    warm = None
    if options.warm_start and not options.resume:
        warm = warm_rows(game_spec, options)           # a bad file is refused before any write
    folder.mkdir(parents=True, exist_ok=True)
    if warm is not None:
        # the warm start is training: it counts against --minutes and in the logs' time
        counters["elapsed_s"] += warm_start(policy, warm, options, folder, np_rng,
                                            device)["seconds"]

    def compile_collection():
        """A few decisions of the run's own collection, so its first update is not the
        compile (the generator kept: the run is the same with or without the warm-up)."""
        tiny = BatchEnv(game_spec, 2, options.players, seed=0,
                        reward_scheme=options.reward_scheme, **rule_options(options))
        with torch.random.fork_rng():
            Collector(tiny, 2, 0.0).collect(policy, device, None)

    warm_up(options.game, compile_collection, say=print if options.progress else quiet)

    # New games on resume: the dice are seeded from the seed and the update counter.
    env_seed = int(np_rng.integers(2**31)) if counters["update"] else options.seed
    env = BatchEnv(game_spec, options.num_envs, options.players, seed=env_seed,
                   reward_scheme=options.reward_scheme, **rule_options(options))
    pool, use_pool = None, options.opponent_fraction > 0
    if use_pool:
        pool = OpponentPool(folder / "pool", options.pool_size, options.pool_recency)
        pool.truncate(counters["update"])
        if not len(pool):
            pool.add(counters["update"], policy.state_dict(), meta)
    collector = Collector(env, options.num_steps, options.opponent_fraction,
                          rng=np_rng if use_pool else None)
    batch_size = options.num_envs * options.num_steps
    minibatch_size = batch_size // options.num_minibatches

    log = RunLog(folder, options, counters, key="update", step_key="global_step",
                 total=options.total_steps, unit="step", desc=options.game,
                 resume=options.resume, progress=options.progress)

    def spent() -> float:
        return budget_used(counters["global_step"], options.total_steps, counters["elapsed_s"],
                           options.minutes)

    schedule = EvalSchedule(options.evaluations, options.eval_every, counters["update"],
                            spent(), options.eval_search_every)
    announce_evaluations(log, options, schedule)

    def evaluate(final: bool = False) -> None:
        save()
        if options.keep_checkpoints:
            keep_copy(checkpoint_path, counters["update"])
        stamp = {k: counters[k] for k in ("update", "global_step", "elapsed_s")}
        evaluate_run(checkpoint_path, options, stamp,
                     schedule.opponents(options.eval_opponents, final), log)
        schedule.evaluated(counters["update"])

    def save():
        if pool is not None:
            pool.save_index()
        save_checkpoint(checkpoint_path, meta=meta, model=policy, optimizer=optimizer,
                        options=dataclasses.asdict(options), counters=dict(counters),
                        np_rng=np_rng)

    try:
        while spent() < 1.0 and (options.max_updates is None
                                       or counters["update"] < options.max_updates):
            started = time.perf_counter()
            if options.anneal_lr:
                optimizer.param_groups[0]["lr"] = options.learning_rate * (1.0 - spent())
            policy.eval()
            snapshot_id, opponent = pool.sample(np_rng, device) if use_pool else (None, None)
            rollout = collector.collect(policy, device, opponent)
            collect_s = time.perf_counter() - started
            results, collector.opponent_results = collector.opponent_results, []
            for score in results:
                pool.report(snapshot_id, score)
            weights = rollout.weights if use_pool else None
            advantages, returns = compute_gae(
                rollout.rewards, rollout.values, rollout.dones, rollout.next_index,
                rollout.bootstrap, options.gamma, options.gae_lambda, options.num_envs,
                weights)

            policy.train()
            # (NaN unless some minibatch had learner samples; keeps the CSV row whole)
            stats: dict = dict.fromkeys(STAT_KEYS, float("nan"))
            order = np_rng.permutation(batch_size)
            for _epoch in range(options.update_epochs):
                np_rng.shuffle(order)
                for start in range(0, batch_size, minibatch_size):
                    mb = torch.from_numpy(order[start:start + minibatch_size])
                    _, logprob, entropy, value = policy.get_action_and_value(
                        rollout.obs[mb].to(device), rollout.masks[mb].to(device),
                        rollout.actions[mb].to(device))
                    mb_adv = advantages[mb].to(device)
                    mb_w = weights[mb].to(device) if weights is not None else None
                    if mb_w is not None and mb_w.sum() < 2:
                        continue                     # (almost) only opponent decisions
                    if options.norm_adv and mb_adv.numel() > 1:
                        mb_adv = normalise_advantages(mb_adv, mb_w)
                    loss, stats = ppo_loss(
                        logprob, rollout.logprobs[mb].to(device), mb_adv, value,
                        rollout.values[mb].to(device), returns[mb].to(device), entropy,
                        options.clip_coef, options.vf_coef, options.ent_coef,
                        options.clip_vloss, mb_w)
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(policy.parameters(), options.max_grad_norm)
                    optimizer.step()
                if options.target_kl is not None and stats["approx_kl"] > options.target_kl:
                    break

            elapsed = time.perf_counter() - started
            counters["update"] += 1
            counters["global_step"] += batch_size
            counters["elapsed_s"] += elapsed
            values, rets = rollout.values.numpy(), returns.numpy()
            if weights is not None:
                values, rets = values[weights.numpy() > 0], rets[weights.numpy() > 0]
            explained = 1 - np.var(rets - values) / max(np.var(rets), 1e-8)
            episodes, collector.episodes = collector.episodes, []
            row = {"update": counters["update"], "global_step": counters["global_step"],
                   "elapsed_s": round(counters["elapsed_s"], 3),
                   "steps_per_s": round(batch_size / elapsed, 1),
                   "collect_steps_per_s": round(batch_size / collect_s, 1),
                   "learning_rate": optimizer.param_groups[0]["lr"], **stats,
                   "explained_variance": float(explained), "episodes": len(episodes),
                   "episode_length": float(np.mean(episodes)) if episodes else float("nan")}
            if use_pool:
                row.update(pool_size=len(pool), opponent_games=len(results),
                           score_vs_pool=float(np.mean(results)) if results else float("nan"))
                if counters["update"] % options.pool_every == 0:
                    pool.add(counters["update"], policy.state_dict(), meta)
            log.write(row, batch_size, update=counters["update"],
                      sps=f"{row['steps_per_s']:.0f}", kl=f"{stats['approx_kl']:.4f}")
            if schedule.due(counters["update"], spent()):
                evaluate(final=spent() >= 1.0)      # (outside the timed update)
            elif counters["update"] % options.checkpoint_every == 0:
                save()
        if schedule.final_due(counters["update"]):
            evaluate(final=True)
        save()
    finally:
        log.close()
    return {**counters, "checkpoint": str(checkpoint_path), **evaluation_files(log)}


def train_main(argv: list[str] | None = None) -> int:
    """Entry point of ``meeplezoo train``: a positional game name is accepted first."""
    return tyro_main(Options, train, argv, "meeplezoo train", __doc__.splitlines()[0],
                     lambda r: f"trained {r['update']} updates, {r['global_step']} steps in "
                               f"{r['elapsed_s']:.0f} s; checkpoint: {r['checkpoint']}"
                               + evaluation_summary(r))


if __name__ == "__main__":
    import sys

    raise SystemExit(train_main(sys.argv[1:]))
