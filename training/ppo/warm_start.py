"""Warm start of a PPO run from a teacher's positions (behaviour cloning, then self-play).

    python -m meeplezoo.training.expert.loop hansa_teutonica --games 800 --run-name ht_expert
    meeplezoo train hansa_teutonica --algo ppo --warm-start runs/ht_expert/positions.npz

PPO from a random policy never gets going where random play does not end games: at
Hansa Teutonica no 2-player random game ends by the rules (BENCHMARKS.md, "how games
end"), and 20 minutes of PPO from scratch did not take one game from ``greedy``.  A new
run given ``--warm-start`` first fits its actor-critic to a positions file of
``training.expert`` (any teacher: the tuned search, ``greedy``, a network): the policy
head to the teacher's move distribution sharpened by ``--warm-policy-temperature``
(cross-entropy over the legal moves), the value head to ``(1 - --warm-value-mix) *
result + --warm-value-mix * the teacher's value``, for the seat to move, for
``--warm-epochs`` passes in batches of the AZ trainer's size and learning rate (as
``training.expert`` pretrains; PPO's own 2.5e-4 in batches of 2,048 would take a dozen
steps an epoch).  A tenth of the games are held out whole, to report how well the
policy predicts the teacher's moves and the value the results on games it never saw; the
losses per epoch go to ``warm_start.csv``.

Measured (BENCHMARKS.md, "PPO from a warm start"): at Hansa Teutonica, from 800 games of
``mcts:200``, 24.5 minutes of PPO beat ``mcts:1000`` in 398 of 400 games; at Saint Malo,
from the imitation of ``expert``, 30 minutes of PPO passed ``expert`` itself.

The fit's seconds count as training time: against ``--minutes`` and in the logs.

The values are win/loss values in [-1, 1], the scale of the ``win_loss`` reward scheme; a
run with another scheme starts from a value head on that scale and refits it.  A resumed
run continues from its checkpoint and does not pretrain again.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from meeplezoo.agents.layers import masked_logits
from meeplezoo.training.az.options import Options as AZOptions
from meeplezoo.training.expert.fit import correlation, fit_epochs, split_games, write_history
from meeplezoo.training.expert.games import buffer_rows, load_positions

HOLDOUT = 0.1
AZ = AZOptions()        # the fit's batch size and learning rate are the AZ trainer's


def warm_rows(game_spec, options) -> dict:
    """The positions file of ``options.warm_start`` as training arrays for the seat to
    move: observations, masks, sharpened policy targets, value targets and results."""
    positions = load_positions(options.warm_start, game_spec, options.players)
    rows = buffer_rows(game_spec, positions, options.warm_value_mix, margin_scale=1.0,
                       policy_temperature=options.warm_policy_temperature)
    return {"obs": rows["obs"], "masks": rows["masks"], "policies": rows["policies"],
            "values": rows["values"][:, 0].astype(np.float32), "result": rows["result"],
            "game_index": positions["game_index"]}


def warm_loss(policy: nn.Module, rows: dict, index: np.ndarray, device):
    """(policy cross-entropy + value MSE, its parts, the masked logits, the values) on
    ``rows[index]``."""
    obs = torch.from_numpy(rows["obs"][index].astype(np.float32)).to(device)
    mask = torch.from_numpy(rows["masks"][index]).to(device)
    target = torch.from_numpy(rows["policies"][index]).to(device)
    logits, value = policy(obs)
    logits = masked_logits(logits, mask)
    # illegal moves have target 0 and a finite log-probability: no NaN, no weight
    policy_loss = -(target * F.log_softmax(logits, dim=-1)).sum(dim=-1).mean()
    value_loss = F.mse_loss(value, torch.from_numpy(rows["values"][index]).to(device))
    return policy_loss + value_loss, policy_loss.item(), value_loss.item(), logits, value


@torch.no_grad()
def measure(policy: nn.Module, rows: dict, index: np.ndarray, device) -> dict:
    """Held-out policy cross-entropy, agreement of the argmax with the teacher's most
    likely move, value MSE and the value's correlation with the mover's result."""
    policy.eval()
    sums, values, agree = np.zeros(2), [], 0
    for start in range(0, len(index), 1024):
        chunk = index[start:start + 1024]
        _, policy_loss, value_loss, logits, value = warm_loss(policy, rows, chunk, device)
        sums += np.array([policy_loss, value_loss]) * len(chunk)
        agree += int((logits.argmax(-1).cpu().numpy()
                      == rows["policies"][chunk].argmax(-1)).sum())
        values.append(value.double().cpu().numpy())
    count = max(len(index), 1)
    return {"policy_loss": sums[0] / count, "value_loss": sums[1] / count,
            "top_move_agreement": agree / count,
            "value_correlation": correlation(np.concatenate(values), rows["result"][index])}


def warm_start(policy: nn.Module, rows: dict, options, folder: Path, np_rng, device,
               say=print) -> dict:
    """Fit ``policy`` to ``rows`` (:func:`warm_rows`; see the module docstring); writes
    ``<folder>/warm_start.csv`` and returns the last epoch's row.  The fit has an
    optimizer of its own, so PPO's Adam starts without the moments of another loss."""
    started = time.perf_counter()
    optimizer = torch.optim.Adam(policy.parameters(), lr=AZ.learning_rate, eps=1e-5)
    train_rows, held_rows = split_games(rows["game_index"], HOLDOUT, np_rng)
    say(f"warm start: {len(train_rows):,} positions to learn, {len(held_rows):,} held out "
        f"({options.warm_start})")

    def batch_loss(index):
        loss, policy_loss, value_loss, _, _ = warm_loss(policy, rows, index, device)
        return loss, {"policy_loss": policy_loss, "value_loss": value_loss}

    def line(epoch, train, held, where):
        return (f"warm start epoch {epoch}/{options.warm_epochs}: train policy "
                f"{train['policy_loss']:.3f} value {train['value_loss']:.3f} | {where} policy "
                f"{held['policy_loss']:.3f} top move {held['top_move_agreement']:.2f} "
                f"value~result {held['value_correlation']:.2f}")

    history = fit_epochs(policy, optimizer, train_rows, held_rows, epochs=options.warm_epochs,
                         batch_size=AZ.batch_size, max_grad_norm=options.max_grad_norm,
                         rng=np_rng, batch_loss=batch_loss,
                         measure=lambda index: measure(policy, rows, index, device),
                         line=line, say=say)
    write_history(folder / "warm_start.csv", history)
    seconds = time.perf_counter() - started
    say(f"warm start done in {seconds:.0f} s")
    return {**history[-1], "seconds": seconds}
