"""serenissima_v1's start kernels: v0's, with the state's rules version set to v1.

Every other kernel is shared: the few rules that differ read ``G_RULES`` from the state
(``data.RULES_V0`` / ``RULES_V1``), so the compiled code stays cacheable and a saved
state carries the rules it plays.  The flag is set before the first decision; setup
(start ports, galleys, closed ports) reads nothing it changes.
"""

from __future__ import annotations

from ..core.contract import H_TO_MOVE
from ..core.jit import njit
from .data import G_RULES, RULES_V1
from .masks import legal_mask
from .rules import init_state as init_state_v0
from .rules import resolve_chance


@njit
def init_state(state, num_players, config, start_seat):
    init_state_v0(state, num_players, config, start_seat)
    state[G_RULES] = RULES_V1


@njit
def env_reset(state, num_players, config, start_seat, rng, mask):
    init_state(state, num_players, config, start_seat)
    resolve_chance(state, rng)
    legal_mask(state, mask)
    return state[H_TO_MOVE]
