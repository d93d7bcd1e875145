"""A greedy Saint Malo agent: the best immediate score, with sensible tie-breaks.

Every decision is scored by one static evaluation of the position *as if the game ended
now* (``city.end_score``, rules SM-11.3): the player's score minus the best opponent's, plus
small heuristic terms that break ties between moves of equal immediate score.

* **Turn decisions** (scoring option, placements, houses, the N-tower bonus).  Each legal
  action is applied to a copy of the state with the compiled ``apply_action`` kernel; while
  the same player still has to act in the same turn (placing the remaining crates or
  walls, the architect's houses, the tower bonus), the copy is continued greedily, one best
  follow-up at a time, until the turn's action is finished (swords marked, attacks
  resolved).  The finished copy is evaluated.  A character placement looks one level
  deeper (an architect's cell is worth the houses it lets the greedy build), so the
  scoring choice sees the real value of each option.
* **Roll decisions** (DP-1).  The value of each of the 28 scoring options is computed once
  per turn by the same greedy rollout on a copy whose dice all show the option's symbol (no
  coins spent, no swords); the coins paid for changed dice and the 0..5 swords (pirate
  boxes and any attack, SM-9) are then priced exactly on the rollout's final state.  That
  gives the greedy value of every one of the 252 dice states, and the optimal-keep DP of
  rule PR-7 over the exact re-roll distributions picks the re-roll mask with the best
  expected value (stopping on ties).

Heuristic terms (only as tie-breaks and to price the future a little; all shrink to 0 once
the end is triggered): coins and logs kept for later, defence against the coming attacks
(weighted by how soon they come), progress on unbroken sides, the best empty cell for a
future merchant / juggler / priest, churches not yet in a row, and the size of the largest
empty region.  Exact ties are broken by the agent's own generator.
"""

from .agent import SaintMaloGreedyAgent
from .evaluation import WIN_BONUS, context, static_eval
from .rolls import (
    DICE_STATES_ARR,
    INDEX_OF_CODE,
    KEPT_CODES,
    KEPT_OF,
    KEPT_SIZES,
    OUT_CODES,
    OUT_N,
    OUT_PROBS,
    reroll_values,
)
from .turn import action_values

__all__ = [
    "DICE_STATES_ARR", "INDEX_OF_CODE", "KEPT_CODES", "KEPT_OF", "KEPT_SIZES", "OUT_CODES",
    "OUT_N", "OUT_PROBS", "WIN_BONUS", "SaintMaloGreedyAgent", "action_values", "context",
    "reroll_values", "static_eval",
]
