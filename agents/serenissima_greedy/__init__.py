"""A greedy Serenissima agent: rules of thumb on the current position, no search.

* Setup: the free start port with the most neutral ports within two spaces; the lowest
  galley numbers (they act first on the wheel).
* Action or Investment: act when the galley can reach (movement reachability with
  blocking) a port that buys one of its goods or a neutral port to claim; invest when a
  fort or basilica is buildable and nothing better is in reach, or to grow the fleet.
* Load one cube of the port's good when there is room; sail along a shortest path to the
  zone worth most (best sale, spices +2, or a claim); sell everything that sells; claim
  neutral ports, landing all but one sailor; attack only with more dice than the defender
  has sailors, and withdraw when outnumbered; always block; take captured goods.
* Investment: man a new galley, then basilica, fort, a third or fourth galley, sailors
  for thin galleys and ports.

The same heuristic (with random noise) is the compiled ``rollout_policy`` of the env, for
MCTS rollouts.
"""

from .agent import SerenissimaGreedyAgent
from .choice import greedy_action

__all__ = ["SerenissimaGreedyAgent", "greedy_action"]
