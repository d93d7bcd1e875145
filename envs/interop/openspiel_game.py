"""Every MeepleZoo game as an OpenSpiel Python game, so OpenSpiel's algorithms run on it.

>>> from meeplezoo.envs.interop.openspiel_game import load_game
>>> game = load_game("saint_malo_v0", players=3)        # a pyspiel.Game
>>> state = game.new_initial_state()                    # a chance node: the first roll

``register(name)`` registers ``meeplezoo_<name>`` with pyspiel (``load_game`` does it on
first use), so ``pyspiel.load_game("meeplezoo_saint_malo_v0", {"players": 3})`` works too.

How the kernel contract maps onto OpenSpiel:

* **Chance nodes are chance nodes.**  ``chance_outcomes()`` is the kernel's exact
  enumeration; the chance *action* is the outcome's index in that enumeration (its order
  is fixed by the kernel), so the action ids stay below ``max_chance_outcomes``.
* **Decisions** are the flat action ids of the AEC env, legal exactly where its mask is 1.
* **Returns** are the env's default ``win_loss`` rewards (zero-sum, ties shared): +1/-1
  for two players, each of W winners ``(P/W - 1)/(P - 1)`` and ``-1/(P - 1)`` otherwise.
* **Observation tensor** is the AEC observation of that seat (seats rotated so the
  observer is first); every game is public apart from its chance events, so the type is
  perfect information with explicit chance.  The observation string is the ``ansi`` board.
* **The start player** follows the rulebooks (every one draws it at random): with the
  default ``start_seat=-1`` the initial state is a chance node with one equally likely
  outcome per seat (outcome ``k``: seat ``k`` starts); ``start_seat=k`` fixes it and the
  initial state is the game's own first node.  ``start_seat`` is a pyspiel parameter.
* Rule options other than ``players`` and ``start_seat`` are taken by
  ``load_game(name, players, **options)`` (they are not pyspiel parameters).
* **A board distribution** (``board="generated:train"``, ``map="generated:0-99"``,
  ``core.boards``) is one more chance node, before the start seat: one equally likely
  outcome per board of the range (outcome ``i``: generator seed ``first + i``).
  ``game.initial_chance_actions(seed)`` gives the outcomes the AEC env's ``reset(seed)``
  draws, so both play the same board from the same seat.
"""

from __future__ import annotations

import numpy as np

from .. import names, spec
from ..core.boards import first_config
from ..core.contract import (
    CHANCE,
    H_NUM_PLAYERS,
    H_PLY,
    H_TO_MOVE,
    MASK_DTYPE,
    OBS_DTYPE,
    STATE_DTYPE,
    TERMINAL,
)
from ..core.extras import require
from ..core.options import check_int
from ..core.rewards import final_rewards
from ..core.rng import new_rng

pyspiel = require("pyspiel", "openspiel", "the OpenSpiel adapter")

PREFIX = "meeplezoo_"
# OpenSpiel wants a bound on a game's length; ours end long before (each game's tests
# report its longest random game).
MAX_GAME_LENGTH = 100_000
RANDOM_START = -1          # start_seat: drawn at a chance node before the game's first node
_REGISTERED: dict[str, pyspiel.GameType] = {}
_GAME_CLASSES: dict[str, type] = {}


def register(name: str) -> str:
    """Register game ``name`` (e.g. ``saint_malo_v0``) with pyspiel; returns its short name."""
    if name not in names():
        raise ValueError(f"unknown game {name!r}; available: {', '.join(names())}")
    short_name = PREFIX + name
    if name not in _REGISTERED:
        game_spec = spec(name)
        game_type = pyspiel.GameType(
            short_name=short_name,
            long_name=f"MeepleZoo {name}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.PERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=game_spec.max_players,
            min_num_players=game_spec.min_players,
            provides_information_state_string=False,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"players": game_spec.min_players,
                                     "start_seat": RANDOM_START},
        )
        # A class, not a lambda, as the factory: pyspiel keeps it in a C++ static that is
        # released after the interpreter finalises, and releasing a function object
        # there aborts the process (a class stays alive through this module).
        game_class = type(f"MeepleZoo_{name}", (MeepleZooGame,), {"game_name": name})
        pyspiel.register_game(game_type, game_class)
        _REGISTERED[name] = game_type
        _GAME_CLASSES[name] = game_class
    return short_name


def load_game(name: str, players: int | None = None, start_seat: int = RANDOM_START,
              **rule_options) -> MeepleZooGame:
    """A pyspiel game for ``name`` with ``players`` seats, the start seat (``-1``: drawn at
    a chance node, as the rulebooks say) and the game's rule options."""
    register(name)
    params = {"start_seat": start_seat}
    if players is not None:
        params["players"] = players
    return _GAME_CLASSES[name](params, rule_options=rule_options)


class MeepleZooGame(pyspiel.Game):
    """Base of the per-game classes that ``register`` makes (each sets ``game_name``)."""

    game_name: str

    def __init__(self, params: dict | None = None, rule_options: dict | None = None):
        name = self.game_name
        game_spec = spec(name)
        params = dict(params or {})
        players = params.get("players", game_spec.min_players)
        if not isinstance(players, int) or isinstance(players, bool) or \
                not game_spec.min_players <= players <= game_spec.max_players:
            raise ValueError(f"{name} is for {game_spec.min_players}-{game_spec.max_players} "
                             f"players, got players={players!r}")
        start_seat = params.get("start_seat", RANDOM_START)
        if start_seat != RANDOM_START:
            check_int("start_seat", start_seat, 0, players - 1)
        config, boards = first_config(game_spec, dict(rule_options or {}))
        info = pyspiel.GameInfo(
            num_distinct_actions=game_spec.num_actions,
            max_chance_outcomes=max(game_spec.max_chance_outcomes,
                                    0 if boards is None else boards.seeds.size, players),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_REGISTERED[name], info, {"players": players, "start_seat": start_seat})
        self.game_spec = game_spec
        self.num_seats = players
        self.start_seat = int(start_seat)
        self.config, self.boards = config, boards

    def initial_chance_actions(self, seed: int) -> list[int]:
        """The chance actions (board, then start seat) that ``reset(seed=seed)`` of the AEC
        env with the same options draws: apply them to ``new_initial_state()`` to play the
        AEC env's game."""
        rng = new_rng(seed)
        actions = []
        if self.boards is not None and self.boards.seeds.size > 1:
            actions.append(self.boards.draw(rng) - self.boards.seeds.first)
        if self.start_seat == RANDOM_START:
            actions.append(int(rng[0] % np.uint64(self.num_seats)))
        return actions

    def new_initial_state(self) -> MeepleZooState:
        return MeepleZooState(self)

    def state_from_array(self, array: np.ndarray) -> MeepleZooState:
        """A pyspiel state holding a copy of a kernel state (e.g. an AEC env's ``state``).

        Its OpenSpiel history starts there (pyspiel clones Python states by copying their
        attributes, so search from it is exact)."""
        array = np.asarray(array)
        if array.shape != (self.game_spec.state_size,) or int(array[H_NUM_PLAYERS]) != \
                self.num_seats:
            raise ValueError(f"not a {self.num_seats}-player {self.game_name} state")
        state = MeepleZooState(self)
        state.array[:] = array
        state.start_pending = False
        state.board_count = 0
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return MeepleZooObserver(self.game_spec)


class MeepleZooState(pyspiel.State):
    # pyspiel clones a Python state by deep-copying every attribute in its __dict__, so
    # the instance holds only small arrays and numbers; the spec lives on the class side.
    def __init__(self, game: MeepleZooGame):
        super().__init__(game)
        game_spec = game.game_spec
        self.name, self.num_seats = game_spec.name, game.num_seats
        self.array = np.zeros(game_spec.state_size, dtype=STATE_DTYPE)
        self.config = game.config
        # Boards to draw from at the first chance node (0: the board is fixed).
        self.board_count = 0 if game.boards is None or game.boards.seeds.size == 1 else \
            game.boards.seeds.size
        # True until the start-seat chance node is resolved (start_seat=-1, the default).
        self.start_pending = game.start_seat == RANDOM_START
        game_spec.kernels["init_state"](self.array, game.num_seats, game.config,
                                        max(game.start_seat, 0))
        self._mask = np.zeros(game_spec.num_actions, dtype=MASK_DTYPE)
        self._codes = np.zeros(game_spec.max_chance_outcomes, dtype=np.int64)
        self._probs = np.zeros(game_spec.max_chance_outcomes, dtype=np.float64)

    @property
    def game_spec(self):
        return spec(self.name)

    @property
    def kernels(self) -> dict:
        return spec(self.name).kernels

    # --- the pyspiel.State API ---------------------------------------------------------------

    def current_player(self) -> int:
        if self.board_count or self.start_pending:
            return pyspiel.PlayerId.CHANCE
        to_move = int(self.array[H_TO_MOVE])
        if to_move == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if to_move == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return to_move

    def _legal_actions(self, player: int) -> list[int]:
        if self.board_count:
            return list(range(self.board_count)) if player == pyspiel.PlayerId.CHANCE else []
        if self.start_pending:
            return list(range(self.num_seats)) if player == pyspiel.PlayerId.CHANCE else []
        if player != int(self.array[H_TO_MOVE]):
            return []
        self.kernels["legal_mask"](self.array, self._mask)
        return np.flatnonzero(self._mask).tolist()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.board_count:
            return [(board, 1.0 / self.board_count) for board in range(self.board_count)]
        if self.start_pending:
            return [(seat, 1.0 / self.num_seats) for seat in range(self.num_seats)]
        count = self._enumerate_chance()
        return [(index, float(self._probs[index])) for index in range(count)]

    def _apply_action(self, action: int) -> None:
        if self.board_count:
            if not 0 <= action < self.board_count:
                raise ValueError(f"board outcome {action} out of range 0..{self.board_count - 1}")
            game = self.get_game()
            self.config = game.boards.config_of(game.boards.seeds.seed_at(action))
            self.kernels["init_state"](self.array, self.num_seats, self.config,
                                       max(game.start_seat, 0))
            self.board_count = 0
        elif self.start_pending:
            if not 0 <= action < self.num_seats:
                raise ValueError(f"start seat {action} out of range 0..{self.num_seats - 1}")
            self.kernels["init_state"](self.array, self.num_seats, self.config, int(action))
            self.start_pending = False
        elif int(self.array[H_TO_MOVE]) == CHANCE:
            count = self._enumerate_chance()
            if not 0 <= action < count:
                raise ValueError(f"chance outcome {action} out of range 0..{count - 1}")
            self.kernels["apply_chance"](self.array, self._codes[action])
        else:
            self.kernels["apply_action"](self.array, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.board_count:
                return f"board {self.get_game().boards.seeds.seed_at(action)}"
            if self.start_pending:
                return f"start seat {action}"
            if int(self.array[H_TO_MOVE]) == CHANCE and action < self._enumerate_chance():
                return f"chance outcome {int(self._codes[action])}"
            return f"chance outcome #{action}"
        return self.game_spec.action_to_str(self.array, int(action))

    def is_terminal(self) -> bool:
        return int(self.array[H_TO_MOVE]) == TERMINAL

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_seats
        return final_rewards_of(self.game_spec, self.array, self.num_seats).tolist()

    def __str__(self) -> str:
        render = self.game_spec.render_ansi
        text = render(self.array) if render else ""
        return f"ply {int(self.array[H_PLY])}\n{text}"

    # --- helpers -------------------------------------------------------------------------------

    def _enumerate_chance(self) -> int:
        return int(self.kernels["chance_outcomes"](self.array, self._codes, self._probs))


def final_rewards_of(game_spec, array: np.ndarray, num_players: int) -> np.ndarray:
    """The AEC env's default (``win_loss``) final rewards of a finished state."""
    scores = np.zeros(num_players, dtype=np.int64)
    tiebreaks = np.zeros(num_players, dtype=np.int64)
    game_spec.kernels["scores"](array, scores)
    game_spec.kernels["tiebreaks"](array, tiebreaks)
    out = np.zeros(num_players, dtype=np.float64)
    final_rewards(scores, tiebreaks, num_players, 0, 1.0, out)
    return out


class MeepleZooObserver:
    """The PyObserver interface: the AEC observation of one seat, and the ansi board."""

    def __init__(self, game_spec):
        self.game_spec = game_spec
        self.tensor = np.zeros(game_spec.obs_size, dtype=OBS_DTYPE)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MeepleZooState, player: int) -> None:
        self.game_spec.kernels["observe"](state.array, player, self.tensor)

    def string_from(self, state: MeepleZooState, player: int) -> str:
        return f"player {player}\n{state}"
