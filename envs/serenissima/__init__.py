"""Serenissima: Mediterranean trade with galleys, blocking and combat (2-4 players).

The shipped map is a labelled reconstruction (spec Appendix A), not the printed board;
see ``env.py`` and ``maps.py``.
"""

from .env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
