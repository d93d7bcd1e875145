"""PPO policies: masked policy/value networks and a checkpoint-backed agent."""

from .agent import PPOAgent
from .network import MLPPolicy, make_network, masked_distribution, masked_logits, network_meta

__all__ = ["MLPPolicy", "PPOAgent", "make_network", "masked_distribution", "masked_logits",
           "network_meta"]
