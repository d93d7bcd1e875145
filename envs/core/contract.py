"""The kernel contract every game implements (see DESIGN.md, "The kernel contract").

A game's state is one flat ``int64`` array.  Its first ``HEADER_SIZE`` slots have the same
meaning in every game, so the AEC env, the batched stepper and the search read them
without knowing the game; the rest is laid out by the game's ``data.py``.

Each game's ``rules.py`` provides these ``@njit`` kernels (state is ``int64[:]``):

=============================================  ===========================================
``init_state(state, num_players, config,      the start position, before any chance event
start_seat)``
``legal_mask(state, mask) -> int``             write 0/1 into ``int8[num_actions]``; count
``apply_action(state, action)``                one decision by the seat to move
``chance_outcomes(state, codes, probs)``       exact distribution of the pending event
``sample_chance(state, rng) -> code``          one draw of the pending event
``apply_chance(state, code)``                  resolve the pending event
``resolve_chance(state, rng)``                 draw and apply until a seat is to move
``scores(state, out)``                         score per seat: final at the end; before
                                               it the running score, or where the game
                                               says so (Carcassonne) the score as if the
                                               game ended now
``tiebreaks(state, out)``                      per seat, compared when scores tie
``observe(state, seat, out)``                  ``float32`` observation, seats rotated
``env_step(state, action, rng, mask)``         fused: apply, resolve chance, write the
                                               mask; returns the seat to move, TERMINAL,
                                               or ILLEGAL (nothing applied) when ``mask``
                                               forbids ``action``
``env_reset(state, num_players, config,       fused: ``init_state``, resolve chance,
start_seat, rng, mask)``                       write the mask
=============================================  ===========================================

and a ``GameSpec`` (below) that names them for the Python side.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

# Header slots shared by every game's state array.
H_GAME_ID = 0        # which game (guards against loading a state into the wrong game)
H_NUM_PLAYERS = 1
H_TO_MOVE = 2        # a seat 0..n-1, or CHANCE, or TERMINAL
H_PHASE = 3          # the game's own phase code
H_PLY = 4            # decisions applied so far (chance events not counted)
HEADER_SIZE = 5

CHANCE = -1
TERMINAL = -2
ILLEGAL = -3          # env_step's answer to an action its mask forbids (nothing is applied)

STATE_DTYPE = np.int64
MASK_DTYPE = np.int8
OBS_DTYPE = np.float32


@dataclass(frozen=True, eq=False)
class GameSpec:
    """Everything generic code needs to drive one game."""

    name: str                      # registry name, e.g. "saint_malo_v0"
    game_id: int
    min_players: int
    max_players: int
    num_actions: int
    state_size: int
    obs_size: int
    max_chance_outcomes: int
    phase_names: tuple[str, ...]
    kernels: dict[str, Callable] = field(repr=False)
    make_config: Callable[..., np.ndarray] = field(repr=False)
    action_to_str: Callable[[np.ndarray, int], str] = field(repr=False)
    validate_state: Callable[[np.ndarray], None] = field(repr=False)
    state_fields: dict[str, tuple[int, int]] = field(repr=False, default_factory=dict)
    # The slot holding the seat whose turn it is, also during that turn's chance events
    # (a search that plans one turn ahead stops where it changes).
    turn_owner_slot: int = H_TO_MOVE
    # Per field name, the inclusive range (low, high) of values the rules can reach: a
    # loaded state outside it is refused before any kernel sees it (memory safety).
    field_bounds: dict[str, tuple[int, int]] = field(repr=False, default_factory=dict)
    # The slot a kernel sets when it cuts a game off at its decision cap: that ending is
    # a PettingZoo truncation, not a termination.  None: the game has no such slot.
    truncated_slot: int | None = None
    default_options: dict = field(repr=False, default_factory=dict)   # rule option -> default
    # Who starts when the caller does not say: every rulebook here draws the start player
    # at random (HS-3.6, SE-4.1.2, HT-4.4, CA-2.6, SM A-2), from the seed; a seat fixes it.
    default_start_seat: int | str = "random"
    # The rule option naming the board or map (``board``, ``map``) for a game whose boards
    # are data with a seeded generator, so it takes distributions (``core.boards``).
    board_option: str | None = None
    render_ansi: Callable[[np.ndarray], str] | None = field(repr=False, default=None)
    render_rgb: Callable[[np.ndarray], np.ndarray] | None = field(repr=False, default=None)
    # Where a move goes on the ``render_rgb`` picture: action -> (y, x, height, width) in
    # pixels, for the moves that have a place on the board (the browser makes them
    # clickable); {} for a game whose moves are all chosen from a list.
    move_targets: Callable[[np.ndarray], dict] | None = field(repr=False, default=None)

    def kernel(self, name: str) -> Callable:
        return self.kernels[name]


KERNEL_NAMES = (
    "init_state", "legal_mask", "apply_action", "chance_outcomes", "sample_chance",
    "apply_chance", "resolve_chance", "scores", "tiebreaks", "observe", "env_step",
    "env_reset",
)
OPTIONAL_KERNELS = ("rollout_policy",)     # a cheap heuristic policy for MCTS rollouts


def collect_kernels(*modules) -> dict[str, Callable]:
    """The contract's kernels, each taken from the first module that defines it."""
    kernels = {}
    for name in KERNEL_NAMES + OPTIONAL_KERNELS:
        found = [getattr(m, name) for m in modules if hasattr(m, name)]
        if found:
            kernels[name] = found[0]
        elif name in KERNEL_NAMES:
            raise TypeError(f"no module among {[m.__name__ for m in modules]} defines {name}")
    return kernels
