"""A greedy Hansa agent: the best position after this decision and one follow-up.

Every decision of the turn is scored by ``envs/hansa/policy.position_value`` (the player's
VP now plus rough worth of thalers, goods and city leads, minus the best opponent's) on a
copy of the state after the decision *and* the best single follow-up in the same turn (so
sailing somewhere is worth the best action there, and a buy is weighed against ending the
turn and paying taxes).  A sale is one macro: marking a token marks every sellable token
and commits.  Refills follow a rule of thumb (refill when two or more spaces are empty, or
one and thalers would be lost to the tax anyway).  Ties go to the agent's generator.
"""

from .agent import HansaGreedyAgent
from .values import action_values

__all__ = ["HansaGreedyAgent", "action_values"]
