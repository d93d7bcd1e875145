"""One compiled Monte Carlo tree search for every game (see search.py)."""

from .agent import MCTSAgent, compiled_search
from .tree import Tree

__all__ = ["MCTSAgent", "Tree", "compiled_search"]
