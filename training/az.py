"""Self-play with search and a network (AlphaZero-style), CleanRL style: options, one loop.

    meeplezoo train hansa --algo az --minutes 10
    python -m meeplezoo.training.az --game hansa_v0 --num-games 64 --resume

Each iteration plays ``moves_per_iteration`` moves in each of ``num_games`` games, all
searched in lockstep with a Gumbel root (``training/az_selfplay.py``), adds the recorded
positions to the replay buffer, then takes ``updates_per_iteration`` gradient steps on
batches drawn from it.  Loss: cross-entropy against the search's improved policy, squared
error of the per-seat values against the final rewards mixed with the search's values
(``value_mix``), and ``margin_coef`` times that
of the score margins.  Logs go to ``<run-dir>/<run-name>/``: TensorBoard events,
``progress.csv``, ``checkpoint.pt`` and ``buffer.npz`` (every ``checkpoint_every``
iterations and at the end; ``--resume`` continues with the same counters and buffer),
and ``eval.csv`` with ``--eval-every``.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn, optim
from torch.nn import functional as F

from meeplezoo.agents.az.evaluator import NetworkEvaluator
from meeplezoo.agents.az.network import az_network_meta, make_az_network
from meeplezoo.agents.ppo.network import masked_logits
from meeplezoo.envs import spec

from .az_selfplay import LockstepSelfPlay, ReplayBuffer
from .checkpoint import (
    remove_stale_temporaries,
    save_checkpoint,
)
from .checks import check_options, rule_options
from .evaluate import append_eval_rows, evaluate_checkpoint
from .ppo import canonical_game, run_path
from .runlog import RunLog, budget_used, resume_or_refuse, torch_setup, tyro_main


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
    eval_simulations: int = 32
    """search budget of the evaluated bot (``az:<checkpoint>,sims=N``)"""


def az_loss(network, batch: dict, players: int, margin_coef: float, device):
    """(loss, stats): policy cross-entropy + value MSE + margin_coef * margin MSE, the
    value terms over the seats at the table only."""
    obs = torch.from_numpy(batch["obs"].astype(np.float32)).to(device)
    mask = torch.from_numpy(batch["masks"]).to(device)
    target_policy = torch.from_numpy(batch["policies"]).to(device)
    logits, values, margins = network(obs)
    log_policy = F.log_softmax(masked_logits(logits, mask), dim=-1)
    policy_loss = -(target_policy * log_policy).sum(-1).mean()
    target_values = torch.from_numpy(batch["values"][:, :players]).to(device)
    target_margins = torch.from_numpy(batch["margins"][:, :players]).to(device)
    value_loss = ((values[:, :players] - target_values) ** 2).mean()
    margin_loss = ((margins[:, :players] - target_margins) ** 2).mean()
    loss = policy_loss + value_loss + margin_coef * margin_loss
    return loss, {"policy_loss": policy_loss.item(), "value_loss": value_loss.item(),
                  "margin_loss": margin_loss.item()}


def _run_name(options: Options) -> Options:
    name = options.run_name or f"{options.game}_{options.players}p_az_seed{options.seed}"
    return dataclasses.replace(options, run_name=name)


def train(options: Options) -> dict:
    """Train with ``options``; returns the final counters and the checkpoint path."""
    options = _run_name(dataclasses.replace(options, game=canonical_game(options.game)))
    game_spec = spec(options.game)
    check_options(options, game_spec)
    if not 0.0 <= options.value_mix <= 1.0:
        raise ValueError(f"--value-mix must be in [0, 1], got {options.value_mix}")
    device, np_rng = torch_setup(options)
    folder = run_path(options)
    checkpoint_path, buffer_path = folder / "checkpoint.pt", folder / "buffer.npz"
    for path in (checkpoint_path, buffer_path):
        remove_stale_temporaries(path)
    seats = game_spec.max_players
    meta = az_network_meta(options.game, game_spec.obs_size, game_spec.num_actions, seats,
                           options.hidden, options.channels, options.blocks,
                           options.architecture)
    network = make_az_network(meta).to(device)
    optimizer = optim.AdamW(network.parameters(), lr=options.learning_rate,
                            weight_decay=options.weight_decay)
    counters = {"iteration": 0, "positions": 0, "moves": 0, "games": 0, "updates": 0,
                "elapsed_s": 0.0}
    buffer = ReplayBuffer(options.buffer_size, game_spec.obs_size, game_spec.num_actions, seats)
    if resume_or_refuse(options, checkpoint_path, meta, network, optimizer, counters, np_rng,
                        device) and buffer_path.exists():
        buffer = ReplayBuffer.load(buffer_path, options.buffer_size, game_spec.obs_size,
                                   game_spec.num_actions, seats)
    folder.mkdir(parents=True, exist_ok=True)
    selfplay = LockstepSelfPlay(game_spec, options.num_games, options.players,
                                options.simulations, options.fast_simulations,
                                options.full_fraction, options.considered, options.margin_scale,
                                seed=int(np_rng.integers(1 << 31)), leaf_batch=options.leaf_batch,
                                rule_options=rule_options(options),
                                value_mix=options.value_mix)
    evaluator = NetworkEvaluator(network, game_spec, options.device)

    log = RunLog(folder, options, counters, key="iteration", step_key="iteration",
                 total=options.iterations, unit="it", desc=f"{options.game} az",
                 resume=options.resume, progress=options.progress)

    def spent() -> float:
        return budget_used(counters["iteration"], options.iterations, counters["elapsed_s"],
                           options.minutes)

    def save():
        buffer.save(buffer_path)
        save_checkpoint(checkpoint_path, meta=meta, model=network, optimizer=optimizer,
                        options=dataclasses.asdict(options), counters=dict(counters),
                        np_rng=np_rng)

    try:
        while spent() < 1.0:
            started = time.perf_counter()
            network.eval()
            games_before, moves_before = selfplay.games_finished, selfplay.moves_played
            positions = selfplay.play_moves(evaluator,
                                            options.moves_per_iteration * options.num_games)
            recorded = len(positions["obs"]) if positions else 0
            if positions:
                buffer.add(**positions)
            selfplay_s = time.perf_counter() - started
            stats = {"policy_loss": float("nan"), "value_loss": float("nan"),
                     "margin_loss": float("nan")}
            if buffer.size >= options.min_buffer:
                network.train()
                for _ in range(options.updates_per_iteration):
                    loss, stats = az_loss(network, buffer.sample(np_rng, options.batch_size),
                                          options.players, options.margin_coef, device)
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(network.parameters(), options.max_grad_norm)
                    optimizer.step()
                    counters["updates"] += 1
            elapsed = time.perf_counter() - started
            moves = selfplay.moves_played - moves_before
            counters["iteration"] += 1
            counters["positions"] += recorded
            counters["moves"] += moves
            counters["games"] += selfplay.games_finished - games_before
            counters["elapsed_s"] += elapsed
            row = {"iteration": counters["iteration"], "moves": counters["moves"],
                   "positions": counters["positions"], "games": counters["games"],
                   "updates": counters["updates"], "elapsed_s": round(counters["elapsed_s"], 3),
                   "selfplay_moves_per_s": round(moves / selfplay_s, 1),
                   "update_s": round(elapsed - selfplay_s, 3), "buffer": buffer.size, **stats}
            log.write(row, 1, games=counters["games"], buffer=buffer.size,
                      mps=f"{row['selfplay_moves_per_s']:.0f}")
            evaluate_now = options.eval_every and counters["iteration"] % options.eval_every == 0
            if counters["iteration"] % options.checkpoint_every == 0 or evaluate_now:
                save()
            if evaluate_now:
                _evaluate(checkpoint_path, options, counters, log.eval_path, log.writer)
        save()
    finally:
        log.close()
    return {**counters, "checkpoint": str(checkpoint_path)}


def _evaluate(checkpoint_path, options: Options, counters: dict, eval_path, writer) -> None:
    """One periodic evaluation (outside the time budget), rows keyed by the iteration."""
    rows = evaluate_checkpoint(checkpoint_path, options.game, options.eval_opponents,
                               options.eval_games, options.players,
                               seed=10_000 * counters["iteration"],
                               agent=f"az:{{checkpoint}},sims={options.eval_simulations}")
    stamp = {"update": counters["iteration"], "global_step": counters["moves"],
             "elapsed_s": counters["elapsed_s"]}
    append_eval_rows(eval_path, [{**stamp, **row} for row in rows])
    for row in rows:
        writer.add_scalar(f"eval/score_vs_{row['opponent']}", row["score"],
                          counters["iteration"])


def train_main(argv: list[str] | None = None) -> int:
    """Entry point of ``meeplezoo train --algo az``: a positional game name first."""
    return tyro_main(Options, train, argv, "meeplezoo train --algo az",
                     __doc__.splitlines()[0],
                     lambda r: f"trained {r['iteration']} iterations ({r['games']} games, "
                               f"{r['positions']} positions, {r['updates']} updates) in "
                               f"{r['elapsed_s']:.0f} s; checkpoint: {r['checkpoint']}")


if __name__ == "__main__":
    import sys

    raise SystemExit(train_main(sys.argv[1:]))
