"""A network as the search's leaf evaluator: ``(states, masks) -> (values, priors)``.

Each leaf is observed by the seat the network speaks for (the seat to move; at a chance
node the seat whose turn it is), all leaves in one forward pass.  The network's values
come in the observer's rotated seat order and go back to absolute seats for the max^n
backup; its priors are the softmax of the masked logits.

``margin_weight`` w puts the score margin into the utility the search maximises: each
seat's value becomes ``(1 - w) * value + w * tanh(margin)``, the margin head's prediction
(that seat's score minus the best other seat's, over the training's ``margin_scale``).  A
side that is surely winning or losing then still prefers the larger margin, where the
win/loss value alone is flat (KataGo's score utility, in its simplest form).
"""

from __future__ import annotations

import numpy as np
import torch

from meeplezoo.agents.layers import masked_logits
from meeplezoo.envs.core.batch import observe_batch
from meeplezoo.envs.core.contract import H_NUM_PLAYERS, H_TO_MOVE, GameSpec


def observers(spec: GameSpec, states: np.ndarray) -> np.ndarray:
    """The seat each state is valued for: the seat to move, else the turn's owner; seat 0
    where neither is a seat (a finished game may clear its turn owner: the search values
    such a leaf exactly and ignores the network's answer)."""
    to_move = states[:, H_TO_MOVE]
    seats = np.where(to_move >= 0, to_move, states[:, spec.turn_owner_slot])
    return np.where((seats >= 0) & (seats < states[:, H_NUM_PLAYERS]), seats, 0)


def rotated_to_absolute(rotated: np.ndarray, seats: np.ndarray, players: int) -> np.ndarray:
    """``[B, players]`` by absolute seat from ``[B, >= players]`` in each row's rotated
    order (entry k of row b belongs to seat ``(seats[b] + k) % players``)."""
    rows = np.arange(rotated.shape[0])[:, None]
    absolute = np.empty((rotated.shape[0], players), dtype=np.float64)
    absolute[rows, (seats[:, None] + np.arange(players)[None, :]) % players] = \
        rotated[:, :players]
    return absolute


def absolute_to_rotated(absolute: np.ndarray, seats: np.ndarray, width: int) -> np.ndarray:
    """The inverse, padded with zeros to ``width`` seats (training targets)."""
    players = absolute.shape[1]
    rotated = np.zeros((absolute.shape[0], width), dtype=np.float32)
    rows = np.arange(absolute.shape[0])[:, None]
    rotated[:, :players] = absolute[rows, (seats[:, None] + np.arange(players)[None, :])
                                    % players]
    return rotated


def margin_utility(values: np.ndarray, margins: np.ndarray, weight: float) -> np.ndarray:
    """``(1 - weight) * values + weight * tanh(margins)`` (the module docstring)."""
    if weight == 0.0:
        return values
    return (1.0 - weight) * values + weight * np.tanh(margins)


class NetworkEvaluator:
    """Calls ``network`` on a batch of leaves (see the module docstring)."""

    def __init__(self, network: torch.nn.Module, spec: GameSpec, device: str = "cpu",
                 margin_weight: float = 0.0):
        self.network, self.spec, self.device = network, spec, torch.device(device)
        self.margin_weight = float(margin_weight)

    @torch.no_grad()
    def __call__(self, states: np.ndarray, masks: np.ndarray):
        seats = observers(self.spec, states)
        obs = torch.from_numpy(observe_batch(self.spec, states, seats)).to(self.device)
        logits, values, margins = self.network(obs)
        mask = torch.from_numpy(np.ascontiguousarray(masks)).to(self.device)
        priors = torch.softmax(masked_logits(logits.double(), mask), dim=-1)
        priors = torch.where(mask.bool(), priors, 0.0).cpu().numpy()   # chance, end: none
        players = int(states[0, H_NUM_PLAYERS])
        values = margin_utility(values.double().cpu().numpy(),
                                margins.double().cpu().numpy(), self.margin_weight)
        return rotated_to_absolute(values, seats, players), priors
