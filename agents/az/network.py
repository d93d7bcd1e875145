"""The AlphaZero-style network: a trunk over the observation, then three heads (an MLP
trunk here; Carcassonne's convolutional one in ``carcassonne_network.py``).

- policy: one logit per action of the flat action space (mask with
  :func:`meeplezoo.agents.layers.masked_logits`, ``finfo.min`` for illegal moves);
- value: one value in [-1, 1] per seat, in the *rotated* seat order of the observation
  (entry 0 is the observer, 1 the next seat, ...), padded to the game's maximum player
  count, so max^n search works for 3-6 players;
- margin: per seat (same order), that seat's score minus the best other seat's, divided
  by ``margin_scale`` (an auxiliary target: it gives the trunk a dense signal in games that
  are mostly won or lost by a little).

The observer is the seat to move, or at a chance node the seat whose turn it is (the
network values the position before the draw; it never predicts dice or tiles: the
search takes those from the game's exact ``chance_outcomes``).

The shape is stored in the checkpoint (``meta``) and compared when one is loaded.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch
from torch import nn

from meeplezoo.agents.layers import SparseInputLinear, layer_init

ARCHITECTURES = ("az-mlp", "az-carcassonne-conv")
# Game families with their own trunk; every other game is an MLP over its observation.
# game -> the action count of its conv layout (both observation versions of Carcassonne)
CONV_GAMES = {"carcassonne_v0": 737, "carcassonne_v1": 737}


class AZNetwork(nn.Module):
    """MLP trunk (ReLU), policy / value / margin heads; see the module docstring."""

    def __init__(self, obs_size: int, num_actions: int, seats: int,
                 hidden: Sequence[int] = (512, 256)):
        super().__init__()
        if not hidden:
            raise ValueError("the network needs at least one hidden layer")
        self.obs_size, self.num_actions, self.seats = obs_size, num_actions, seats
        self.hidden = [int(h) for h in hidden]
        layers: list[nn.Module] = []
        width = obs_size
        for index, size in enumerate(self.hidden):
            linear = SparseInputLinear if index == 0 else nn.Linear
            layers += [layer_init(linear(width, size)), nn.ReLU()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy = layer_init(nn.Linear(width, num_actions), std=0.01)
        self.value = layer_init(nn.Linear(width, seats), std=0.01)
        self.margin = layer_init(nn.Linear(width, seats), std=0.01)

    def forward(self, obs: torch.Tensor):
        """Raw logits [B, A], values [B, seats] in [-1, 1], margins [B, seats]."""
        features = self.trunk(obs)
        return self.policy(features), torch.tanh(self.value(features)), self.margin(features)


def az_network_meta(game: str, obs_size: int, num_actions: int, seats: int,
                    hidden: Sequence[int], channels: int = 32, blocks: int = 3,
                    architecture: str = "auto") -> dict:
    """What a checkpoint records about its network (compared on load).  ``auto`` is the
    game family's network: Carcassonne's convolutional trunk (frontier layout), else
    the MLP."""
    if architecture == "auto":
        architecture = "az-carcassonne-conv" if CONV_GAMES.get(game) == num_actions \
            else "az-mlp"
    if architecture not in ARCHITECTURES:
        raise ValueError(f"unknown architecture {architecture!r}; known: "
                         f"{', '.join(ARCHITECTURES)} (or auto)")
    meta = {"game": game, "architecture": architecture, "obs_size": int(obs_size),
            "num_actions": int(num_actions), "seats": int(seats),
            "hidden": [int(h) for h in hidden]}
    if architecture == "az-carcassonne-conv":
        meta |= {"channels": int(channels), "blocks": int(blocks)}
    return meta


def check_conv_meta(meta: dict) -> None:
    """A convolutional network's ``channels`` and ``blocks`` from a checkpoint: ints in
    1..1024, or one clear error (a corrupt file must not size a network)."""
    for key in ("channels", "blocks"):
        value = meta.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1024:
            raise ValueError(f"meta[{key!r}] must be an int in 1..1024, got {value!r}")


def make_az_network(meta: dict) -> nn.Module:
    """The network ``meta`` describes; a clear error for anything else."""
    architecture = meta.get("architecture")
    if architecture not in ARCHITECTURES:
        raise ValueError(f"not an AlphaZero network: architecture {architecture!r} "
                         f"(known: {', '.join(ARCHITECTURES)})")
    if architecture == "az-carcassonne-conv":
        from .carcassonne_network import CarcassonneNetwork

        check_conv_meta(meta)
        return CarcassonneNetwork(meta["obs_size"], meta["num_actions"], meta["seats"],
                                  meta["channels"], meta["blocks"], meta["hidden"])
    return AZNetwork(meta["obs_size"], meta["num_actions"], meta["seats"], meta["hidden"])
