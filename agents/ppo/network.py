"""PPO's policy/value networks over a game's flat observation (their layers and masked
logits are in ``agents/layers.py``, shared with AlphaZero's networks).

:func:`network_meta` records what a checkpoint must match to be loaded, and
:func:`make_network` builds it: the MLP over the flat observation (every game's default),
or Carcassonne's convolutional policy (``conv_network.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from meeplezoo.agents.layers import SparseInputLinear, layer_init

from .actor_critic import ActorCriticCalls


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
