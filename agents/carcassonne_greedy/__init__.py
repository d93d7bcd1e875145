"""A greedy Carcassonne agent: the best one-turn look-ahead on the as-if-ended score.

Each legal placement is tried on a copy of the state with the compiled rules, then each
legal meeple decision on a copy of that (scoring included); the pair with the best value
wins.  The value of a position for the agent's seat is its score as if the game ended now
(running score plus the final points of its incomplete roads, cities, monasteries and
farms, CA-12) minus the best opponent's, plus a small value for meeples kept in the supply
early in the game (``envs/carcassonne/policy.py``).  Exact ties are broken by the agent's
own generator.  About 1-5 ms a decision.  It reads actions through the state's placement
layout, so it plays the same moves with ``placement_layout="frontier"`` (the default) and
``"grid"``.
"""

from .agent import CarcassonneGreedyAgent

__all__ = ["CarcassonneGreedyAgent"]
