"""Warm start from the search (expert iteration), CleanRL style: options, one run.

    python -m meeplezoo.training.expert.loop saint_malo --games 480 --run-name sm_expert
    meeplezoo train saint_malo --algo az --resume --run-name sm_expert     # self-play on

The tuned search (``mcts:N`` with the game's defaults, the strongest bot we ship) plays
``games`` games against itself in ``workers`` processes (``training/expert/games.py``);
at a share of its decisions it leaves a position: the state, the root's visit
distribution, every seat's search value, and after the game the result and score margin.
A fresh AlphaZero network, the one ``meeplezoo train --algo az`` builds for the same
``--hidden`` / ``--architecture`` / ``--channels`` / ``--blocks``, then learns them for
``epochs`` epochs with the AZ trainer's own loss (policy cross-entropy against the visit
distribution sharpened by ``policy_temperature``, value targets ``(1 - value_mix) *
result + value_mix * search value``, margins), and ``holdout`` of the games are kept
apart to measure how well its value predicts results it never saw.

The run folder ``<run-dir>/<run-name>/`` is the AZ trainer's own, written by its
``Learner``: ``checkpoint.pt`` (iteration 0, the pretrained weights and optimizer) and
``buffer.npz`` (every position, as self-play rows), so ``--algo az --resume`` starts
self-play from the pretrained network with the search's positions in its replay buffer
(pass it the same network and ``--buffer-size`` flags).  Beside them: ``positions.npz``
(``--positions`` pretrains from it again without replaying the games) and
``pretrain.csv`` (losses and held-out value correlation per epoch).
"""

from __future__ import annotations

import dataclasses
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from meeplezoo.envs import resolve_game, spec
from meeplezoo.training.az.learner import Learner, az_loss
from meeplezoo.training.az.options import Options as AZOptions
from meeplezoo.training.az.selfplay import BUFFER_FIELDS
from meeplezoo.training.expert.fit import correlation, fit_epochs, split_games, write_history
from meeplezoo.training.expert.games import (
    buffer_rows,
    generate,
    load_positions,
    make_teacher,
    save_positions,
)
from meeplezoo.training.run import flags
from meeplezoo.training.run.checks import check_options, rule_options
from meeplezoo.training.run.log import tyro_main

AZ = AZOptions()        # the self-play run resumes with these defaults unless told otherwise
PROG = "meeplezoo train --algo expert"


@dataclass
class Options:
    game: str = "saint_malo_v0"
    """game to play and train on (``saint_malo`` is read as ``saint_malo_v0``)"""
    players: int = 2
    """number of seats (the search plays every seat)"""
    seed: int = 1
    """seed of the games (game g is seeded from (seed, g) alone), torch and the split"""
    games: int = 400
    """games the search plays against itself"""
    teacher: str = "mcts"
    """who plays every seat and is learnt from: ``mcts`` (the tuned search at
    ``--simulations``: its visit distribution and values), any ``mcts:`` spec (e.g. the
    fitted search ``mcts:100,leaf=fitted``, its own budget), a network-guided search
    (``az:CHECKPOINT,sims=N``, any ``az:`` options: its visits and values, the next
    network learning from the search of the last), a trained policy
    (``ppo:default``, ``ppo:PATH``: its move distribution, and its value at two players)
    or a hand-written bot (``expert``, ``greedy``: its move; the result as the value)"""
    simulations: int = 200
    """budget of the search at every seat: ``mcts:N`` with the game's tuned defaults"""
    record_fraction: float = 0.05
    """share of the decisions kept as positions: a few from each of many games, since the
    positions of one game share its result and a network memorises them game by game
    (forced moves are never kept)"""
    sample_share: float = 0.1
    """share of the moves sampled from the visit distribution instead of the most
    visited move, so games differ (the policy target stays the visit distribution)"""
    temperature: float = 1.0
    """a sampled move is drawn with probability proportional to visits ** (1 / temperature)"""
    workers: int = 2
    """processes playing the games (the positions do not depend on it)"""
    policy_temperature: float = 0.25
    """policy target proportional to visits ** (1 / policy_temperature); 1 is the visit
    distribution itself.  Saint Malo's tuned search (UCT, c 0.5) spreads 200 visits over
    ~17 moves almost evenly (2.54 nats against 2.59 for uniform): its policy alone scored
    0.15 against greedy pretrained on that, 0.60 on the target at 0.25 (BENCHMARKS.md)"""
    positions: str | None = None
    """pretrain on a positions file an earlier run wrote (``<run>/positions.npz``)
    instead of playing games"""
    epochs: int = 20
    """passes over the positions"""
    batch_size: int = AZ.batch_size
    """positions per gradient step"""
    learning_rate: float = AZ.learning_rate
    """AdamW learning rate (kept in the optimizer the self-play run resumes)"""
    weight_decay: float = AZ.weight_decay
    """AdamW weight decay"""
    holdout: float = 0.1
    """share of the games kept out of training to measure the network's value on"""
    hidden: tuple[int, ...] = AZ.hidden
    """hidden layer sizes of the MLP (as ``--algo az --hidden``)"""
    architecture: str = AZ.architecture
    """network: auto, az-mlp, az-carcassonne-conv (as ``--algo az``)"""
    channels: int = AZ.channels
    """convolution channels (convolutional networks)"""
    blocks: int = AZ.blocks
    """residual blocks (convolutional networks)"""
    value_mix: float = 1.0
    """value target: (1 - value_mix) * final reward + value_mix * the search's value below
    the move played, as in self-play (whose default is 0.5).  The search's value is the
    tuned heuristic's, a function of the position; a few hundred games' results are not:
    at Saint Malo the network's held-out value~result correlation was 0.14 at 0.5, 0.35 at
    1 (BENCHMARKS.md).  Only this run's positions get it; self-play mixes with its own"""
    margin_scale: float = AZ.margin_scale
    """score points per unit of the margin target"""
    margin_coef: float = AZ.margin_coef
    """weight of the auxiliary margin loss"""
    max_grad_norm: float = AZ.max_grad_norm
    """gradient norm clipping"""
    buffer_size: int = AZ.buffer_size
    """capacity of the replay buffer written for the self-play run (resume with the same
    ``--buffer-size``; the newest positions are kept if there are more)"""
    board: str | None = None
    """board of every training game (Hansa's ``board``, Serenissima's ``map``): a file, or
    a distribution, a fresh board per game: ``generated:train`` (the standard training
    split), ``generated:<a>-<b>`` (see ``envs/core/boards.py``); default: the printed one"""
    max_decisions: int = 0
    """cut games off after this many decisions, in games with that rule option; 0: the
    game's own"""
    device: str = "cpu"
    """torch device of the pretraining"""
    torch_threads: int = 0
    """torch CPU threads (0: torch's default)"""
    run_dir: str = "runs"
    """folder holding one folder per run"""
    run_name: str | None = None
    """run folder name (default ``<game>_<players>p_expert_seed<seed>``)"""
    overwrite: bool = False
    """replace the run files in an existing run folder"""
    progress: bool = True
    """show a progress bar"""


# The options the self-play run shares with this one (what its Learner is built from).
SHARED = ("game", "players", "seed", "hidden", "architecture", "channels", "blocks",
          "learning_rate", "weight_decay", "batch_size", "buffer_size", "value_mix",
          "board", "max_decisions", "margin_scale", "margin_coef", "max_grad_norm", "device",
          "torch_threads", "run_dir", "run_name", "progress")
# Files of a run that --overwrite removes (nothing else in the folder is touched).
RUN_FILES = ("checkpoint.pt", "buffer.npz", "positions.npz", "pretrain.csv", "progress.csv",
             "eval.csv", "events.out.tfevents.*")


def check(options: Options, game_spec) -> Path:
    """Every flag checked before any game is played; returns the run folder, refused if it
    holds anything and ``--overwrite`` is not given."""
    check_options(az_options(options), game_spec)
    flags.check_count("--simulations", options.simulations, 1, 100_000)
    if options.teacher != "mcts":
        from meeplezoo.play.terminal import runs_code

        if options.teacher.startswith("random") or runs_code(options.teacher):
            raise ValueError(f"--teacher must be mcts (with --simulations), a search spec "
                             f"(mcts:100,leaf=fitted), a network's search (az:PATH,sims=N), "
                             f"a policy (ppo:default, ppo:PATH) or a hand-written bot "
                             f"(expert, greedy), not {options.teacher!r}")
        # the teacher the games will use: unknown names and a search-less az: fail here
        make_teacher({"game": game_spec.name, "teacher": options.teacher}, seed=0)
    flags.check_count("--games", options.games, 1, 1_000_000)
    flags.check_count("--epochs", options.epochs, 1, 100_000)
    flags.check_workers("--workers", options.workers)
    flags.check_number("--record-fraction", options.record_fraction, 0.0, 1.0, low_open=True)
    flags.check_number("--sample-share", options.sample_share, 0.0, 1.0)
    flags.check_number("--temperature", options.temperature, 0.0, 100.0, low_open=True)
    flags.check_number("--policy-temperature", options.policy_temperature, 0.0, 100.0,
                       low_open=True)
    flags.check_number("--holdout", options.holdout, 0.0, 0.9)
    name = options.run_name
    if name in ("", ".", "..") or "/" in name or "\\" in name:
        raise ValueError(f"--run-name {name!r} must be a plain folder name")
    folder = Path(options.run_dir) / name
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file, not a run folder")
    if folder.is_dir() and any(folder.iterdir()) and not options.overwrite:
        raise ValueError(f"{folder} exists: pass --overwrite to replace that run, or choose "
                         f"another --run-name")
    return folder


def az_options(options: Options) -> AZOptions:
    """The options of the self-play run that resumes from this one."""
    return AZOptions(**{name: getattr(options, name) for name in SHARED},
                     min_buffer=min(AZ.min_buffer, options.buffer_size))


@torch.no_grad()
def measure(network, rows: dict, index: np.ndarray, options: Options, device) -> dict:
    """Loss terms on ``index`` (the AZ trainer's own loss) and the correlation of the
    network's value for the seat to move with that seat's final result."""
    network.eval()
    totals = {"policy_loss": 0.0, "value_loss": 0.0, "margin_loss": 0.0}
    values = []
    for start in range(0, len(index), 1024):
        chunk = index[start:start + 1024]
        batch = {name: rows[name][chunk] for name in BUFFER_FIELDS}
        _, stats = az_loss(network, batch, options.players, options.margin_coef, device)
        for name in totals:
            totals[name] += stats[name] * len(chunk)
        obs = torch.from_numpy(batch["obs"].astype(np.float32)).to(device)
        values.append(network(obs)[1][:, 0].double().cpu().numpy())
    count = max(len(index), 1)
    value = np.concatenate(values) if values else np.zeros(0)
    return {**{name: total / count for name, total in totals.items()},
            "value_correlation": correlation(value, rows["result"][index])}


def pretrain(learner: Learner, rows: dict, train_rows: np.ndarray, held_rows: np.ndarray,
             options: Options, say) -> list[dict]:
    """``epochs`` passes over ``train_rows`` in shuffled batches; one row of losses per
    epoch (epoch 0: the fresh network), measured on the held-out games (on the training
    positions where none are held out; ``fit.py``)."""
    network, device = learner.network, learner.device
    parts = ("policy_loss", "value_loss", "margin_loss")

    def batch_loss(index):
        batch = {name: rows[name][index] for name in BUFFER_FIELDS}
        loss, stats = az_loss(network, batch, options.players, options.margin_coef, device)
        return loss, {name: stats[name] for name in parts}

    def line(epoch, train, held, where):
        return (f"epoch {epoch}/{options.epochs}: train policy {train['policy_loss']:.3f} "
                f"value {train['value_loss']:.3f} | {where} policy {held['policy_loss']:.3f} "
                f"value {held['value_loss']:.3f} value~result {held['value_correlation']:.3f}")

    return fit_epochs(network, learner.optimizer, train_rows, held_rows, epochs=options.epochs,
                      batch_size=options.batch_size, max_grad_norm=options.max_grad_norm,
                      rng=learner.np_rng, batch_loss=batch_loss,
                      measure=lambda index: measure(network, rows, index, options, device),
                      line=line, say=say)


def clear_run(folder: Path) -> None:
    for pattern in RUN_FILES:
        for path in folder.glob(pattern):
            path.unlink()


def resume_command(options: Options) -> str:
    """The ``--algo az`` command that continues this run (the flags its Learner must match)."""
    words = [f"meeplezoo train {options.game} --algo az --resume",
             f"--run-dir {options.run_dir} --run-name {options.run_name}"]
    for name in ("players", "hidden", "architecture", "channels", "blocks", "buffer_size",
                 "board", "max_decisions"):
        value = getattr(options, name)
        if value != getattr(AZ, name):
            shown = " ".join(map(str, value)) if isinstance(value, tuple) else value
            words.append(f"--{name.replace('_', '-')} {shown}")
    return " ".join(words)


def train(options: Options) -> dict:
    """Play (or load) the positions, pretrain, write the run folder; returns the figures."""
    game = resolve_game(options.game)
    options = dataclasses.replace(
        options, game=game,
        run_name=options.run_name or f"{game}_{options.players}p_expert_seed{options.seed}")
    game_spec = spec(options.game)
    folder = check(options, game_spec)
    say = print if options.progress else (lambda *_: None)

    # 1. the search's positions
    generation = {}
    if options.positions:
        positions = load_positions(options.positions, game_spec, options.players)
    else:
        jobs = [dict(game=game, players=options.players, teacher=options.teacher,
                     simulations=options.simulations,
                     record_fraction=options.record_fraction,
                     sample_share=options.sample_share, temperature=options.temperature,
                     rule_options=rule_options(options), seed=options.seed, index=g)
                for g in range(options.games)]
        positions, generation = generate(jobs, options.workers, options.progress)
    rows = buffer_rows(game_spec, positions, options.value_mix, options.margin_scale,
                       options.policy_temperature)

    # 2. a fresh network of the self-play run, pretrained on them
    if options.overwrite and folder.is_dir():
        clear_run(folder)
    learner = Learner(az_options(options))     # seeds torch and numpy, builds the network
    train_rows, held_rows = split_games(positions["game_index"], options.holdout,
                                        learner.np_rng)
    started = time.perf_counter()
    history = pretrain(learner, rows, train_rows, held_rows, options, say)
    pretrain_s = time.perf_counter() - started

    # 3. the run folder the self-play trainer resumes
    learner.buffer.add(**{name: rows[name] for name in BUFFER_FIELDS})
    learner.save()
    save_positions(folder / "positions.npz", positions, game, options.players,
                   options.simulations)
    write_history(folder / "pretrain.csv", history)
    search = {f"search_{name}_correlation": correlation(rows[name][held_rows],
                                                        rows["result"][held_rows])
              for name in ("search", "root")}
    return {"positions": len(positions["game_index"]), "held_out": int(len(held_rows)),
            "generation": generation, "pretrain_s": pretrain_s, "history": history,
            **search, "folder": str(folder), "checkpoint": str(learner.checkpoint_path),
            "resume": resume_command(options)}


def generated_line(generation: dict) -> str:
    return (f"generated {generation['positions']} positions from {generation['games']} games "
            f"({generation['decisions']} decisions) in {generation['seconds']:.1f} s: "
            f"{generation['positions'] / generation['seconds']:.1f} positions/s")


def summary(result: dict) -> str:
    """The run's closing lines (printed with or without ``--progress``: the generation's
    time is a result, the games' budget in a recipe)."""
    last = result["history"][-1]
    corr = last.get("held-out_value_correlation", float("nan"))
    generated = generated_line(result["generation"]) + "\n" if result["generation"] else ""
    return (f"{generated}pretrained on {result['positions']} positions in "
            f"{result['pretrain_s']:.0f} s; held-out value~result correlation {corr:.3f} "
            f"(the search's own value: {result['search_search_correlation']:.3f}); "
            f"run folder {result['folder']}\n"
            f"self-play from it: {result['resume']}")


def train_main(argv: list[str] | None = None) -> int:
    """Entry point of ``meeplezoo train --algo expert``: a positional game name first."""
    return tyro_main(Options, train, argv, PROG, __doc__.splitlines()[0], summary)


def main(argv: list[str] | None = None) -> int:
    """``python -m meeplezoo.training.expert.loop``: bad input is one line and exit status 2."""
    try:
        return train_main(argv)
    except (ValueError, FileNotFoundError) as err:
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        print(f"{PROG}: error: {first}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
