"""Policy/value networks over a game's flat observation, with masked logits.

Illegal actions get the smallest finite logit of the dtype (``torch.finfo(dtype).min``),
never ``-inf``: the softmax gives them probability 0, yet log-probabilities, entropies and
their gradients stay finite (``-inf`` turns ``0 * -inf`` into NaN).

:func:`network_meta` records what a checkpoint must match to be loaded, and
:func:`make_network` builds it: the MLP over the flat observation (every game's default),
or Carcassonne's convolutional policy (``conv_network.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical
from torch.nn import functional as F

from .sparse import nonzero_rows


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights, constant bias (the CleanRL PPO initialisation)."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action where ``mask`` is 0 set to ``finfo(dtype).min``."""
    return torch.where(mask.bool(), logits, torch.finfo(logits.dtype).min)


def masked_distribution(logits: torch.Tensor, mask: torch.Tensor) -> Categorical:
    """A categorical distribution that never samples an illegal action."""
    return Categorical(logits=masked_logits(logits, mask))


class SparseInputLinear(nn.Linear):
    """``nn.Linear`` that, when no gradient is needed, multiplies only the nonzero inputs.

    Board observations are mostly zeros (about 1% nonzero for Saint Malo), so inference
    gathers the weight rows of the nonzero inputs (``embedding_bag`` with the input values
    as weights) instead of a dense matmul: the same function, several times faster at
    batch 1024.  Training (gradients on) uses the dense product; parameters and
    checkpoints are those of ``nn.Linear``.
    """

    DENSE_ABOVE = 0.2          # fraction of nonzeros above which the dense product wins

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() != 2 or x.device.type != "cpu" or x.dtype != torch.float32 or (
                torch.is_grad_enabled() and self.weight.requires_grad):
            return super().forward(x)
        cols, values, offsets = nonzero_rows(np.ascontiguousarray(x.detach().numpy()))
        if cols.size > self.DENSE_ABOVE * x.numel():
            return super().forward(x)
        out = F.embedding_bag(torch.from_numpy(cols), self._input_rows(),
                              torch.from_numpy(offsets), mode="sum",
                              per_sample_weights=torch.from_numpy(values))
        return out + self.bias

    def _input_rows(self) -> torch.Tensor:
        """The weight transposed (one row per input), cached until the weight changes."""
        key = (self.weight._version, self.weight.data_ptr(), self.weight.device)
        if getattr(self, "_rows_key", None) != key:
            self._rows = self.weight.detach().t().contiguous()
            self._rows_key = key
        return self._rows


class ActorCriticCalls:
    """CleanRL's calls on top of a network's ``forward(obs) -> (raw logits [B, A], values
    [B])``; shared by the MLP and Carcassonne's convolutional policy."""

    def get_value(self, obs: torch.Tensor) -> torch.Tensor:
        return self(obs)[1]

    def get_action_and_value(self, obs: torch.Tensor, mask: torch.Tensor,
                             action: torch.Tensor | None = None):
        """CleanRL's one call: (action, log-prob, entropy, value); samples if no action."""
        logits, value = self(obs)
        dist = masked_distribution(logits, mask)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), value


class MLPPolicy(ActorCriticCalls, nn.Module):
    """A shared MLP trunk (tanh), a policy head (one logit per action) and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: Sequence[int] = (256, 256)):
        super().__init__()
        self.obs_size, self.num_actions, self.hidden = obs_size, num_actions, list(hidden)
        layers: list[nn.Module] = []
        width = obs_size
        for index, size in enumerate(hidden):
            linear = SparseInputLinear if index == 0 else nn.Linear
            layers += [layer_init(linear(width, size)), nn.Tanh()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy = layer_init(nn.Linear(width, num_actions), std=0.01)
        self.value = layer_init(nn.Linear(width, 1), std=1.0)

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Raw (unmasked) logits [B, A] and values [B]."""
        features = self.trunk(obs)
        return self.policy(features), self.value(features).squeeze(-1)

    def get_value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.value(self.trunk(obs)).squeeze(-1)     # (no policy head needed)


ARCHITECTURES = ("mlp", "carcassonne-conv")


def network_meta(game: str, obs_size: int, num_actions: int, hidden: Sequence[int],
                 architecture: str = "auto", channels: int = 16, blocks: int = 3) -> dict:
    """What a checkpoint stores about its network, compared when it is loaded.  ``auto``
    is the MLP for every game (the shipped policies are MLPs)."""
    if architecture == "auto":
        architecture = "mlp"
    if architecture not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {architecture!r}; known: "
                         f"{', '.join(ARCHITECTURES)} (or auto)")
    meta = {"game": game, "architecture": architecture, "obs_size": int(obs_size),
            "num_actions": int(num_actions), "hidden": [int(h) for h in hidden]}
    if architecture == "carcassonne-conv":
        from meeplezoo.agents.az.network import CONV_GAMES

        if CONV_GAMES.get(game) != num_actions:
            raise ValueError(f"architecture carcassonne-conv is for Carcassonne's frontier "
                             f"action layout, not {game} with {num_actions} actions")
        meta |= {"channels": int(channels), "blocks": int(blocks)}
    return meta


def make_network(meta: dict) -> nn.Module:
    """The network :func:`network_meta` describes; a clear error for anything else."""
    architecture = meta.get("architecture")
    if architecture == "mlp":
        return MLPPolicy(meta["obs_size"], meta["num_actions"], meta["hidden"])
    if architecture == "carcassonne-conv":
        from meeplezoo.agents.az.network import check_conv_meta

        from .conv_network import CarcassonneConvPolicy

        check_conv_meta(meta)
        return CarcassonneConvPolicy(meta["obs_size"], meta["num_actions"], meta["channels"],
                                     meta["blocks"], meta["hidden"])
    raise ValueError(f"unknown network architecture {architecture!r}")
