"""AlphaZero-style agents: a policy/value network guiding the compiled search."""

from .agent import AZAgent, load_az_network, shipped_checkpoint
from .evaluator import NetworkEvaluator
from .network import AZNetwork, az_network_meta, make_az_network

__all__ = ["AZAgent", "AZNetwork", "NetworkEvaluator", "az_network_meta", "load_az_network",
           "make_az_network", "shipped_checkpoint"]
