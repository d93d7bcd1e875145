"""The calls PPO makes on a policy (CleanRL's ``get_value``, ``get_action_and_value``),
written once over any network whose ``forward(obs)`` returns raw logits and values; the
MLP and Carcassonne's convolutional policy both inherit them."""

from __future__ import annotations

import torch

from meeplezoo.agents.layers import masked_distribution


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
