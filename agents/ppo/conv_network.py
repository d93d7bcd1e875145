"""PPO's convolutional actor-critic for Carcassonne (``--architecture carcassonne-conv``).

The trunk and the placement logits are AlphaZero's (``agents/az/carcassonne_network.py``):
residual convolutions over the observation's 27 board planes, each frontier slot's four
rotation logits read from the window cell it names, so the policy is
translation-equivariant as the rules are.  The MLP over the flat observation treats a
tile at cell (3, 4) and the same tile at (4, 4) as unrelated inputs; on the tuned
search's positions it matched the search's top move on 22% of held-out positions
(BENCHMARKS.md, "PPO from a warm start").

PPO needs one value for the seat to move, unbounded (its returns may be score margins),
so the AZ network's per-seat tanh values and margin head give way to one linear value.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from meeplezoo.agents.az.carcassonne_network import CarcassonneNetwork

from .actor_critic import ActorCriticCalls


class CarcassonneConvPolicy(ActorCriticCalls, CarcassonneNetwork):
    """``forward`` returns raw (unmasked) logits [B, A] and values [B], as ``MLPPolicy``."""

    def __init__(self, obs_size: int, num_actions: int, channels: int = 16, blocks: int = 3,
                 hidden: Sequence[int] = (256,)):
        super().__init__(obs_size, num_actions, seats=1, channels=channels, blocks=blocks,
                         hidden=hidden)
        del self.margin                 # PPO has no margin target; ``value`` stays, untanh'd

    def forward(self, obs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits, summary = self.logits_and_summary(obs)
        return logits, self.value(summary).squeeze(-1)
