"""PPO policies: masked policy/value networks and a checkpoint-backed agent (the masked
logits and distribution themselves are ``meeplezoo.agents.layers``)."""

from .agent import PPOAgent
from .network import MLPPolicy, make_network, network_meta

__all__ = ["MLPPolicy", "PPOAgent", "make_network", "network_meta"]
