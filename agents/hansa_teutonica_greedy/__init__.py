"""A greedy Hansa Teutonica agent (the heuristic of ``envs/hansa_teutonica/policy.py``).

It establishes every route it owns (taking a Kontor before an ability, an ability before an
extra Kontor or a Coellen space), uses +3/+4 and Upgrade markers at once, hires when its
supply runs dry, places on the route closest to being its own (preferring routes with a
free office at an end), displaces rivals from such routes, regroups pieces with Move when
stuck and, in the 2-player regions variant, moves the pawn to the most promising region.
"""

from .agent import HansaTeutonicaGreedyAgent

__all__ = ["HansaTeutonicaGreedyAgent"]
