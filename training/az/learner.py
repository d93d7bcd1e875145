"""The learner of the AlphaZero-style trainer: network, optimizer, replay buffer, counters,
logs and checkpoints of one run, the same whether self-play runs in this process
(``training/az/loop.py``) or on Ray actors (``training/az/ray.py``).

One iteration is a batch of self-play moves added to the buffer followed by
``updates_per_iteration`` gradient steps (:meth:`Learner.learn`) and one log row
(:meth:`Learner.record`), which also writes the checkpoint and runs the periodic
evaluation on their schedules.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import torch
from torch import nn, optim
from torch.nn import functional as F

from meeplezoo.agents.az.knowledge import Knowledge
from meeplezoo.agents.az.network import az_network_meta, make_az_network
from meeplezoo.agents.layers import masked_logits
from meeplezoo.envs import resolve_game, spec
from meeplezoo.training.az.selfplay import ReplayBuffer
from meeplezoo.training.run.checkpoint import keep_copy, remove_stale_temporaries, save_checkpoint
from meeplezoo.training.run.checks import check_options, rule_options
from meeplezoo.training.run.evaluate import announce_evaluations, evaluate_run, evaluation_files
from meeplezoo.training.run.log import RunLog, budget_used, resume_or_refuse, torch_setup
from meeplezoo.training.run.paths import run_path
from meeplezoo.training.run.schedule import EvalSchedule
from meeplezoo.training.run.seats import trained_counts
from meeplezoo.training.run.value_log import log_value_quality

# ``--iterations`` when not given: a budget for a run without ``--minutes``; with them, a
# ceiling the time reaches long before (the ``--iterations`` check's own maximum).
DEFAULT_ITERATIONS = 1000
UNLIMITED_ITERATIONS = 10**9
NO_LOSSES = {"policy_loss": float("nan"), "value_loss": float("nan"),
             "margin_loss": float("nan")}


def az_loss(network, batch: dict, players: int, margin_coef: float, device):
    """(loss, stats): policy cross-entropy + value MSE + margin_coef * margin MSE, the
    value terms over the seats at each row's table only: its ``players`` column where the
    batch has one (a buffer of games at several seat counts), else ``players``."""
    obs = torch.from_numpy(batch["obs"].astype(np.float32)).to(device)
    mask = torch.from_numpy(batch["masks"]).to(device)
    target_policy = torch.from_numpy(batch["policies"]).to(device)
    logits, values, margins = network(obs)
    log_policy = F.log_softmax(masked_logits(logits, mask), dim=-1)
    policy_loss = -(target_policy * log_policy).sum(-1).mean()
    counts = np.asarray(batch.get("players", np.full(len(obs), players)), dtype=np.int64)
    seated = torch.from_numpy(
        (np.arange(batch["values"].shape[1])[None, :] < counts[:, None]).astype(np.float32)
    ).to(device)
    target_values = torch.from_numpy(batch["values"]).to(device)
    target_margins = torch.from_numpy(batch["margins"]).to(device)
    width = target_values.shape[1]
    value_loss = (((values[:, :width] - target_values) ** 2) * seated).sum() / seated.sum()
    margin_loss = (((margins[:, :width] - target_margins) ** 2) * seated).sum() / seated.sum()
    loss = policy_loss + value_loss + margin_coef * margin_loss
    return loss, {"policy_loss": policy_loss.item(), "value_loss": value_loss.item(),
                  "margin_loss": margin_loss.item()}


def selfplay_settings(options) -> dict:
    """The keyword arguments of :func:`~.mixed.make_selfplay` the options set (all but
    the spec and the seed), for a local run and for every Ray actor alike."""
    return dict(num_games=options.num_games, players=options.players,
                seat_counts=tuple(options.seat_counts),
                simulations=options.simulations, fast_simulations=options.fast_simulations,
                full_fraction=options.full_fraction, considered=options.considered,
                margin_scale=options.margin_scale, leaf_batch=options.leaf_batch,
                rule_options=rule_options(options), value_mix=options.value_mix,
                knowledge=knowledge_of(options, lam_at(options, 0)).as_dict(),
                explore_moves=options.explore_moves, late_gumbel=options.late_gumbel,
                q_scale=options.q_scale,
                opponents=tuple(options.opponents), opponent_share=options.opponent_share)


def knowledge_of(options, lam: float) -> Knowledge:
    """The search's knowledge the run mixes in, at the network's share ``lam``."""
    return Knowledge(lam=lam, prior_mix=options.prior_mix, rollouts=options.heuristic_rollouts)


def lam_at(options, iteration: int) -> float:
    """The network's share of the leaf value at ``iteration`` (linear schedule)."""
    if not options.lam_iterations:
        return options.lam_start
    done = min(1.0, iteration / options.lam_iterations)
    return options.lam_start + (options.lam_end - options.lam_start) * done


def check_schedule(options) -> None:
    """A knowledge schedule that can work: shares in [0, 1], and a change of share only
    with iterations to make it over, within the run's budget."""
    knowledge_of(options, options.lam_start)
    knowledge_of(options, options.lam_end)
    if options.lam_start != options.lam_end and not options.lam_iterations:
        raise ValueError("--lam-start and --lam-end differ but --lam-iterations is 0: "
                         "give the iterations the hand-over takes")
    if options.lam_iterations > options.iterations:
        raise ValueError(f"--lam-iterations {options.lam_iterations} is past the run's "
                         f"--iterations {options.iterations}: the schedule would never end")


def start_from(network, source: str, game: str, meta: dict, device) -> None:
    """``network`` given the weights of ``source`` (``--init-from``): a checkpoint path,
    or the name of one of the game's shipped networks (``az:default``, ``az:default3p``,
    ``ppo:distilled``: a policy distilled into this network); it must match ``meta``."""
    from meeplezoo.training.run.checkpoint import load_checkpoint, load_weights

    path = source
    prefix, _, name = source.partition(":")
    if prefix in ("az", "ppo") and name:
        from meeplezoo.agents.shipped import shipped_name

        named = shipped_name(name)
        if named is None:
            raise ValueError(f"--init-from {source}: not a shipped bot's name (az:default, "
                             f"az:default3p, ppo:distilled...); give a checkpoint's path")
        if prefix == "az":
            from meeplezoo.agents.az.agent import shipped_checkpoint as shipped
        else:
            from meeplezoo.agents.ppo.agent import shipped_policy as shipped
        path = shipped(game, *named)
    payload = load_checkpoint(path, expect=meta, map_location=device)
    load_weights(network, payload["model"], path)


class Learner:
    """Everything of a run that lives on the driver (module docstring).  Building one
    checks the options, seeds everything and, with ``--resume``, restores the network,
    optimizer, counters, generator and buffer; without it, refuses to overwrite a run."""

    def __init__(self, options):
        counts = "-".join(map(str, trained_counts(options)))
        name = options.run_name or f"{options.game}_{counts}p_az_seed{options.seed}"
        if options.iterations is None:
            iterations = UNLIMITED_ITERATIONS if options.minutes else DEFAULT_ITERATIONS
            options = dataclasses.replace(options, iterations=iterations)
        options = dataclasses.replace(options, game=resolve_game(options.game),
                                      run_name=name)
        self.options, self.spec = options, spec(options.game)
        check_options(options, self.spec)
        check_schedule(options)
        if options.lr_schedule not in ("constant", "cosine"):
            raise ValueError(f"--lr-schedule must be constant or cosine, not "
                             f"{options.lr_schedule!r}")
        self.device, self.np_rng = torch_setup(options)
        self.folder = run_path(options)
        self.checkpoint_path = self.folder / "checkpoint.pt"
        self.buffer_path = self.folder / "buffer.npz"
        for path in (self.checkpoint_path, self.buffer_path):
            remove_stale_temporaries(path)
        seats = self.spec.max_players
        self.meta = az_network_meta(options.game, self.spec.obs_size, self.spec.num_actions,
                                    seats, options.hidden, options.channels, options.blocks,
                                    options.architecture)
        self.network = make_az_network(self.meta).to(self.device)
        self.optimizer = optim.AdamW(self.network.parameters(), lr=options.learning_rate,
                                     weight_decay=options.weight_decay)
        self.counters = {"iteration": 0, "positions": 0, "moves": 0, "games": 0,
                         "updates": 0, "elapsed_s": 0.0}
        shape = (self.spec.obs_size, self.spec.num_actions, seats)
        self.buffer = ReplayBuffer(options.buffer_size, *shape)
        resumed = resume_or_refuse(options, self.checkpoint_path, self.meta, self.network,
                                   self.optimizer, self.counters, self.np_rng, self.device)
        if options.init_from and not resumed:
            start_from(self.network, options.init_from, options.game, self.meta, self.device)
        if resumed and self.buffer_path.exists():
            self.buffer = ReplayBuffer.load(self.buffer_path, options.buffer_size, *shape,
                                            players=options.players)
        # rows a warm start put in the buffer without self-play recording them (``train
        # --algo expert``): they count as positions the learner may draw
        self.preloaded = max(0, self.buffer.size - self.counters["positions"])
        self.folder.mkdir(parents=True, exist_ok=True)
        self.log: RunLog | None = None

    def open_log(self) -> RunLog:
        options = self.options
        self.log = RunLog(self.folder, options, self.counters, key="iteration",
                          step_key="iteration", total=options.iterations, unit="it",
                          desc=f"{options.game} az", resume=options.resume,
                          progress=options.progress)
        self.schedule = EvalSchedule(options.evaluations, options.eval_every,
                                     self.counters["iteration"], self.spent(),
                                     options.eval_search_every)
        announce_evaluations(self.log, options, self.schedule, unit="iterations")
        return self.log

    def spent(self) -> float:
        return budget_used(self.counters["iteration"], self.options.iterations,
                           self.counters["elapsed_s"], self.options.minutes)

    def learn(self) -> dict:
        """``updates_per_iteration`` gradient steps once the buffer holds ``min_buffer``
        positions (the last step's losses; NaN if none was taken)."""
        options, stats = self.options, dict(NO_LOSSES)
        if self.buffer.size < options.min_buffer:
            return stats
        self.network.train()
        # cosine decay of the learning rate over the budget (``lr_schedule``; the training
        # minutes or the iterations): late updates refine instead of chasing the newest games
        if options.lr_schedule == "cosine":
            done = min(1.0, self.spent())
            for group in self.optimizer.param_groups:
                group["lr"] = options.learning_rate * (0.1 + 0.9 * 0.5 * (1 + math.cos(
                    math.pi * done)))
        for _ in range(options.updates_per_iteration):
            loss, stats = az_loss(self.network,
                                  self.buffer.sample(self.np_rng, options.batch_size),
                                  options.players, options.margin_coef, self.device)
            self.optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(self.network.parameters(), options.max_grad_norm)
            self.optimizer.step()
            self.counters["updates"] += 1
        self.network.eval()
        return stats

    def weights(self) -> dict[str, np.ndarray]:
        """The network's weights as CPU arrays (what Ray actors load)."""
        return {name: tensor.detach().cpu().numpy()
                for name, tensor in self.network.state_dict().items()}

    def record(self, *, moves: int, positions: int, games: int, moves_per_s: float,
               elapsed_s: float, update_s: float, stats: dict, **extra) -> dict:
        """Count one iteration, log its row (``extra``: columns of a Ray run), write the
        checkpoint and evaluate when their turn comes; returns the row."""
        counters, options = self.counters, self.options
        counters["iteration"] += 1
        counters["positions"] += positions
        counters["moves"] += moves
        counters["games"] += games
        counters["elapsed_s"] += elapsed_s
        row = {"iteration": counters["iteration"], "moves": counters["moves"],
               "positions": counters["positions"], "games": counters["games"],
               "updates": counters["updates"], "elapsed_s": round(counters["elapsed_s"], 3),
               "selfplay_moves_per_s": round(moves_per_s, 1), "update_s": round(update_s, 3),
               "buffer": self.buffer.size,
               # is the learner learning? its share of the iteration's wall time, and how
               # often each recorded position has been drawn into a batch so far
               "learner_share": round(update_s / elapsed_s, 3) if elapsed_s > 0 else 0.0,
               "draws_per_position": round(counters["updates"] * options.batch_size / max(
                   counters["positions"] + self.preloaded, 1), 2),
               "lam": lam_at(options, counters["iteration"] - 1),   # this iteration's
               **stats, **extra}
        self.log.write(row, 1, games=counters["games"], buffer=self.buffer.size,
                       mps=f"{row['selfplay_moves_per_s']:.0f}")
        if self.schedule.due(counters["iteration"], self.spent()):
            self.save()
            self._evaluate(final=self.spent() >= 1.0)
        elif counters["iteration"] % options.checkpoint_every == 0:
            self.save()
        return row

    def finish(self) -> None:
        """The end of a run: the last evaluation (unless the last iteration made it) and
        the checkpoint."""
        self.save()
        if self.schedule.final_due(self.counters["iteration"]):
            self._evaluate(final=True)

    def save(self) -> None:
        self.buffer.save(self.buffer_path)
        save_checkpoint(self.checkpoint_path, meta=self.meta, model=self.network,
                        optimizer=self.optimizer, options=dataclasses.asdict(self.options),
                        counters=dict(self.counters), np_rng=self.np_rng,
                        play=self.knowledge().as_dict())

    def knowledge(self) -> Knowledge:
        """The knowledge the next self-play iteration mixes in: the network's share by the
        schedule (saved with each checkpoint, so ``az:`` plays as the run last searched)."""
        return knowledge_of(self.options, lam_at(self.options, self.counters["iteration"]))

    def _evaluate(self, final: bool = False) -> None:
        """One periodic evaluation (outside the time budget), rows keyed by the iteration."""
        options, counters = self.options, self.counters
        if options.keep_checkpoints:
            keep_copy(self.checkpoint_path, counters["iteration"])
        stamp = {"update": counters["iteration"], "global_step": counters["moves"],
                 "elapsed_s": counters["elapsed_s"]}
        evaluate_run(self.checkpoint_path, options, stamp,
                     self.schedule.opponents(options.eval_opponents, final), self.log,
                     agent=f"az:{{checkpoint}},sims={options.eval_simulations}",
                     step=counters["iteration"])
        self.schedule.evaluated(counters["iteration"])
        log_value_quality(self.folder, options, self.network, self.spec, self.device, stamp,
                          self.log.writer)

    def result(self, **extra) -> dict:
        files = evaluation_files(self.log) if self.log is not None else {}
        return {**self.counters, "checkpoint": str(self.checkpoint_path), **files, **extra}
