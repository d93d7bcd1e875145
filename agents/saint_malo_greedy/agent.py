"""The ``SaintMaloGreedyAgent`` class."""

from __future__ import annotations

import numpy as np

from ...envs.core.contract import H_GAME_ID, H_PHASE, H_PLY
from ...envs.saint_malo.data import (
    G_ACTIVE,
    G_DICE,
    G_ROLLS_USED,
    GAME_ID,
    MAX_ROLLS,
    NUM_ACTIONS,
    NUM_DICE,
    P_COINS,
    PH_ROLL_DECISION,
)
from ...envs.saint_malo.dice import (
    code_of_faces,
)
from ...envs.saint_malo.masks import player_base
from ..base import Agent
from .evaluation import NEG
from .rolls import (
    DICE_STATES_ARR,
    INDEX_OF_CODE,
    KEPT_CODES,
    KEPT_OF,
    KEPT_SIZES,
    NUM_MASKS,
    OPT_EXTRA,
    OPT_K,
    OPT_SYM,
    OUT_CODES,
    OUT_N,
    OUT_PROBS,
    dice_values,
    option_table,
    reroll_values,
)
from .turn import action_values

# --- the agent -------------------------------------------------------------------------------

class SaintMaloGreedyAgent(Agent):
    """Greedy on the immediate score (see the module docstring); ``act`` ~0.1-1 ms."""

    name = "greedy"
    TOLERANCE = 1e-9

    def __init__(self, seed: int | None = None, rerolls: bool = True):
        super().__init__(seed)
        # rerolls=False: the plain greedy, which takes the dice as they fall (a re-roll has
        # no immediate value); True: the exact re-roll expectimax of rule PR-7 (``expert``).
        self.rerolls = rerolls
        self._table_key: bytes | None = None
        self._table = None

    def act(self, env) -> int:
        state = env.state
        if int(state[H_GAME_ID]) != GAME_ID:
            raise ValueError(f"{type(self).__name__} plays saint_malo, not game {state[H_GAME_ID]}")
        mask = env.action_mask()
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        if legal.size == 1:
            return int(legal[0])
        phase = int(state[H_PHASE])
        if phase == PH_ROLL_DECISION and not self.rerolls:
            return 0
        if phase == PH_ROLL_DECISION:
            values = np.full(NUM_ACTIONS, NEG)
            values[:NUM_MASKS] = self._roll_values(state)
        else:
            values = action_values(state, mask)
        values = np.where(mask.astype(bool), values, -np.inf)
        best = values.max()
        tied = np.flatnonzero(values >= best - self.TOLERANCE)
        if phase == PH_ROLL_DECISION and values[0] >= best - self.TOLERANCE:
            return 0                                        # stopping wins a tie
        if tied.size == 1:
            return int(tied[0])
        return int(self.rng.choice(tied))

    def _roll_values(self, state: np.ndarray) -> np.ndarray:
        """Expected greedy value of stopping / each re-roll mask (index = action 0..31)."""
        key = self._board_key(state)
        if key != self._table_key:
            self._table = option_table(state, OPT_SYM)
            self._table_key = key
        feasible, values, final_coins, future = self._table
        coins = int(state[player_base(int(state[G_ACTIVE])) + P_COINS])
        v0 = dice_values(coins, feasible, values, final_coins, future, OPT_SYM, OPT_K,
                         OPT_EXTRA, DICE_STATES_ARR)
        dice = state[G_DICE:G_DICE + NUM_DICE]
        current = int(INDEX_OF_CODE[code_of_faces(dice)])
        rolls_left = MAX_ROLLS - int(state[G_ROLLS_USED])
        return reroll_values(v0, current, rolls_left, KEPT_OF, KEPT_CODES, KEPT_SIZES,
                             OUT_CODES, OUT_PROBS, OUT_N, INDEX_OF_CODE)

    @staticmethod
    def _board_key(state: np.ndarray) -> bytes:
        """The state without the dice: the option table is the same for every roll."""
        key = state.copy()
        key[G_DICE:G_DICE + NUM_DICE] = 0
        key[G_ROLLS_USED] = 0
        key[H_PLY] = 0
        return key.tobytes()


