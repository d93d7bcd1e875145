"""The ``env()`` factory every game exports (PettingZoo's ``env`` / ``raw_env`` pair).

By default ``env()`` returns the bare env: it checks turn order and legality itself, and
PettingZoo's wrapper chain would cost more per step than the game (DESIGN.md, Speed).
``illegal="penalty"`` adds PettingZoo's terminate-on-illegal convention for RL code that
expects it; ``wrappers=True`` adds the usual bounds and order-enforcing wrappers too.
"""

from __future__ import annotations

from pettingzoo.utils import wrappers as pz_wrappers


def make_env_factory(raw_env_class):
    def env(illegal: str = "raise", wrappers: bool = False, illegal_reward: float = -1.0,
            **kwargs):
        if illegal not in ("raise", "penalty"):
            raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
        instance = raw_env_class(**kwargs)
        if illegal == "penalty":
            instance = pz_wrappers.TerminateIllegalWrapper(instance, illegal_reward)
        if wrappers:
            instance = pz_wrappers.AssertOutOfBoundsWrapper(instance)
            instance = pz_wrappers.OrderEnforcingWrapper(instance)
        return instance

    env.__doc__ = f"The {raw_env_class.metadata['name']} env; see ``raw_env`` for options."
    return env
