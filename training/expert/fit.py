"""Supervised passes over recorded positions, shared by ``training.expert``'s pretraining
and PPO's warm start (``training/ppo/warm_start.py``): games held out whole, shuffled
batches, clipped gradients, one row of losses per epoch measured on the held-out games.

Epoch 0 is the network before the fit.  The measured positions are the held-out games'
(columns ``held-out_*``) or, where no game is held out, the training positions
(``training_*``), so a reader of the CSV knows which it is.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
from torch import nn

from meeplezoo.training.run.value_measure import pearson


def fit_epochs(network: nn.Module, optimizer: torch.optim.Optimizer, train_rows: np.ndarray,
               held_rows: np.ndarray, *, epochs: int, batch_size: int, max_grad_norm: float,
               rng: np.random.Generator,
               batch_loss: Callable[[np.ndarray], tuple[torch.Tensor, dict]],
               measure: Callable[[np.ndarray], dict],
               line: Callable[[int, dict, dict, str], str], say=print) -> list[dict]:
    """``epochs`` passes over ``train_rows``; ``batch_loss(index)`` gives a batch's loss and
    its parts as floats, ``measure(index)`` the figures of the measured positions (in eval
    mode: it may call ``network.eval()``), ``line(epoch, train, measured, where)`` the
    progress line.  Returns one row per epoch, epoch 0 first."""
    measured, where = (held_rows, "held-out") if len(held_rows) else (train_rows, "training")
    history = [{"epoch": 0, **{f"{where}_{k}": v for k, v in measure(measured).items()}}]
    for epoch in range(1, epochs + 1):
        network.train()
        order = rng.permutation(train_rows)
        sums: dict[str, float] = {}
        steps = 0
        for start in range(0, len(order), batch_size):
            loss, parts = batch_loss(order[start:start + batch_size])
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(network.parameters(), max_grad_norm)
            optimizer.step()
            for name, value in parts.items():
                sums[name] = sums.get(name, 0.0) + value
            steps += 1
        train = {name: total / max(steps, 1) for name, total in sums.items()}
        held = measure(measured)
        history.append({"epoch": epoch, **{f"train_{k}": v for k, v in train.items()},
                        **{f"{where}_{k}": v for k, v in held.items()}})
        say(line(epoch, train, held, where))
    return history


def write_history(path: Path, history: list[dict]) -> None:
    """The rows of :func:`fit_epochs` as a CSV (``pretrain.csv``, ``warm_start.csv``); a
    column missing from a row (epoch 0 has no training loss) is left empty."""
    fields = list(dict.fromkeys(key for row in history for key in row))
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, restval="")
        writer.writeheader()
        writer.writerows(history)


def split_games(game_index: np.ndarray, holdout: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows), whole games apart: positions of one game share its
    result, so a split by position would measure memory, not judgement."""
    games = np.unique(game_index)
    held = min(len(games) - 1, max(1 if holdout > 0 else 0, round(holdout * len(games))))
    held_games = rng.permutation(games)[:held]
    is_held = np.isin(game_index, held_games)
    return np.flatnonzero(~is_held), np.flatnonzero(is_held)


def correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson's, as the value-quality benchmark measures it (NaN where either is flat)."""
    if len(a) < 2:                                    # no held-out games
        return float("nan")
    return float(pearson(np.asarray(a, np.float64), np.asarray(b, np.float64)))
