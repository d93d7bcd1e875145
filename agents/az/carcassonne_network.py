"""Carcassonne's AlphaZero network: a residual convolutional trunk over the observation's
27 board planes, and placement logits gathered per frontier slot from the cell it names.

The frontier layout's placement actions ``4 * j + r`` put the tile on frontier slot ``j``
with rotation ``r``, and the observation tells, per slot, whether it is present and its
(column, row) in the 15 x 15 window (``envs/carcassonne/observe.py``; ``carcassonne_v1``
stores them divided by 14, ``observe_v1.py``, and the network scales them back, so one
network class serves both versions, told apart by the observation size).  A 1x1 convolution
gives every cell four rotation logits; slot ``j``'s four come from its cell, so the policy
is translation-equivariant, as the rules are.  A slot outside the window (a board wider
than 13 tiles) gets a learned logit per rotation.  The other actions (meeple placements,
pass), the values and the margins come from an MLP over the vector part of the
observation and the trunk's pooled features.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from meeplezoo.envs.carcassonne.data import (
    FRONTIER_SLOTS,
    NUM_PLACEMENTS,
    OBS_CHANNELS,
    OBS_PLANES_SIZE,
    OBS_WINDOW,
    V_SLOTS,
)
from meeplezoo.envs.carcassonne.observe_v1 import slot_unit


class ResidualBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.first = nn.Conv2d(channels, channels, 3, padding=1)
        self.second = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return torch.relu(x + self.second(torch.relu(self.first(x))))


class CarcassonneNetwork(nn.Module):
    """See the module docstring; ``forward`` returns what ``AZNetwork`` returns."""

    def __init__(self, obs_size: int, num_actions: int, seats: int, channels: int = 32,
                 blocks: int = 3, hidden: Sequence[int] = (256,)):
        super().__init__()
        if num_actions <= NUM_PLACEMENTS:
            raise ValueError("the convolutional network needs the frontier action layout")
        self.obs_size, self.num_actions, self.seats = obs_size, num_actions, seats
        self.slot_unit = slot_unit(obs_size)     # v1's slots back to window cells
        self.stem = nn.Sequential(nn.Conv2d(OBS_CHANNELS, channels, 3, padding=1), nn.ReLU())
        self.blocks = nn.Sequential(*[ResidualBlock(channels) for _ in range(blocks)])
        self.cell_logits = nn.Conv2d(channels, 4, 1)
        self.outside_logits = nn.Parameter(torch.zeros(4))
        layers: list[nn.Module] = []
        width = obs_size - OBS_PLANES_SIZE + channels
        for size in hidden:
            layers += [nn.Linear(width, size), nn.ReLU()]
            width = size
        self.head = nn.Sequential(*layers)
        self.other_logits = nn.Linear(width, num_actions - NUM_PLACEMENTS)
        self.value = nn.Linear(width, seats)
        self.margin = nn.Linear(width, seats)

    def forward(self, obs: torch.Tensor):
        logits, summary = self.logits_and_summary(obs)
        return logits, torch.tanh(self.value(summary)), self.margin(summary)

    def logits_and_summary(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The logits of every action and the summary features the value heads read
        (PPO's convolutional policy puts its own value head on them)."""
        batch = obs.shape[0]
        planes = obs[:, :OBS_PLANES_SIZE].reshape(batch, OBS_CHANNELS, OBS_WINDOW, OBS_WINDOW)
        features = self.blocks(self.stem(planes))
        cells = self.cell_logits(features).reshape(batch, 4, OBS_WINDOW * OBS_WINDOW)
        slots = obs[:, V_SLOTS:V_SLOTS + 3 * FRONTIER_SLOTS].reshape(batch, FRONTIER_SLOTS, 3)
        column = (slots[..., 1] * self.slot_unit).round().long()
        row = (slots[..., 2] * self.slot_unit).round().long()
        inside = (column >= 0) & (column < OBS_WINDOW) & (row >= 0) & (row < OBS_WINDOW)
        index = torch.where(inside, row * OBS_WINDOW + column, 0)
        gathered = cells.gather(2, index[:, None, :].expand(batch, 4, FRONTIER_SLOTS))
        gathered = torch.where(inside[:, None, :], gathered, self.outside_logits[None, :, None])
        placements = gathered.transpose(1, 2).reshape(batch, NUM_PLACEMENTS)   # 4 * j + r
        pooled = features.mean(dim=(2, 3))
        summary = self.head(torch.cat([obs[:, OBS_PLANES_SIZE:], pooled], dim=1))
        return torch.cat([placements, self.other_logits(summary)], dim=1), summary
