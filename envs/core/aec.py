"""The PettingZoo AEC environment every game shares, built on the kernel contract.

A game's ``env.py`` only subclasses :class:`KernelEnv` with its ``GameSpec``.  Each
``step`` is one fused compiled call (apply the action, roll what is due, write the next
mask); observations are computed on demand for the agent asked about.  The env checks
turn order and legality itself (cheaper than PettingZoo's wrapper chain, see DESIGN.md)
and raises ``ValueError`` naming the action, the agent and the phase.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .boards import first_config
from .contract import (
    CHANCE,
    H_NUM_PLAYERS,
    H_PHASE,
    H_TO_MOVE,
    ILLEGAL,
    MASK_DTYPE,
    OBS_DTYPE,
    STATE_DTYPE,
    TERMINAL,
    GameSpec,
)
from .jit import direct_entry
from .notation import parse_move
from .options import check_float, check_int
from .rewards import final_rewards, scheme_code
from .rng import new_rng
from .state_io import StateFormatError, state_from_json, state_to_json


class KernelEnv(AECEnv):
    """AEC env over a compiled game.  Subclasses set ``spec`` and ``metadata``."""

    spec: GameSpec
    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "is_parallelizable": False}

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        reward_scheme: str = "win_loss",
        margin_scale: float = 50.0,
        start_seat: int | str | None = None,
        **rule_options,
    ):
        super().__init__()
        spec = self.spec
        if not isinstance(num_players, int | np.integer) or isinstance(num_players, bool) or not (
            spec.min_players <= num_players <= spec.max_players
        ):
            raise ValueError(
                f"{spec.name} is for {spec.min_players}-{spec.max_players} players, "
                f"got num_players={num_players!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; choose from {self.metadata['render_modes']}"
            )
        if start_seat is None:              # the rulebook's way (GameSpec.default_start_seat)
            start_seat = spec.default_start_seat
        if start_seat != "random":
            start_seat = check_int("start_seat", start_seat, 0, num_players - 1)
        self.num_players = int(num_players)
        self.render_mode = render_mode
        self._scheme = scheme_code(reward_scheme)       # ValueError naming the schemes
        self.reward_scheme = reward_scheme
        # Checked whatever the scheme, so a typo never waits for a switch of scheme.
        self._margin_scale = check_float("margin_scale", margin_scale, 0.0, low_open=True)
        self._start_seat = start_seat
        self.rule_options = dict(rule_options)
        # Validates the options; a board range (core.boards) draws a board at each reset.
        self._config, self.boards = first_config(spec, self.rule_options)
        self.board_seed: int | None = None      # the generator seed of a drawn board

        self.possible_agents = [f"player_{seat}" for seat in range(self.num_players)]
        self.agent_name_mapping = {name: seat for seat, name in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (spec.obs_size,), dtype=OBS_DTYPE),
            "action_mask": spaces.Box(0, 1, (spec.num_actions,), dtype=MASK_DTYPE),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(spec.num_actions) for a in self.possible_agents}

        k = spec.kernels
        self._env_step, self._env_reset = k["env_step"], k["env_reset"]
        self._observe, self._legal_mask = k["observe"], k["legal_mask"]
        self._scores, self._tiebreaks = k["scores"], k["tiebreaks"]
        self.state = np.zeros(spec.state_size, dtype=STATE_DTYPE)
        self.rng = new_rng(0)
        self._mask = np.zeros(spec.num_actions, dtype=MASK_DTYPE)
        self._obs_size, self._num_actions = spec.obs_size, spec.num_actions
        self._obs_dtype = np.dtype(OBS_DTYPE)
        self._direct = False
        self._game_over = True
        self._zero_mask = np.zeros(spec.num_actions, dtype=MASK_DTYPE)
        self._final = np.zeros(self.num_players, dtype=np.float64)
        self._has_reset = False
        self._ended_flags = (True, False)        # (terminated, truncated) of the ended game
        self.agents = []

    # --- PettingZoo API ---------------------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.rng = new_rng(seed)
        if self.boards is not None:             # first draw of the game's generator
            self.board_seed = self.boards.draw(self.rng)
            self._config = self.boards.config_of(self.board_seed)
        start = self._start_seat
        if start == "random":
            start = int(self.rng[0] % np.uint64(self.num_players))
        self._env_reset(
            self.state, self.num_players, self._config, int(start), self.rng, self._mask
        )
        if not self._direct:
            self._bind_direct_entries()
        self._begin_episode()

    def _bind_direct_entries(self):
        """Swap the per-turn kernels for their typed entry points (the arrays they take are
        this env's own and never change dtype)."""
        state, rng, mask = self.state, self.rng, self._mask
        observation = np.empty(self._obs_size, dtype=self._obs_dtype)
        self._env_step = direct_entry(self._env_step, state, 0, rng, mask)
        self._observe = direct_entry(self._observe, state, 0, observation)
        self._direct = True

    def _begin_episode(self):
        self._has_reset = True
        self._game_over = False
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._sync_turn()

    def step(self, action):
        if self._game_over:
            self._step_after_end(action)
            return
        # Fast path for an int in range, plain or numpy (what policies hand back): the
        # kernel itself refuses an action its mask forbids (ILLEGAL, nothing applied).
        # Anything else gets the full check and its message.
        if type(action) is not int:
            if isinstance(action, np.integer):
                action = int(action)
            else:
                self._check_legal(self.agent_selection, action)
                action = int(action)
        if not 0 <= action < self._num_actions:
            self._check_legal(self.agent_selection, action)    # raises, naming the range
        to_move = self._env_step(self.state, action, self.rng, self._mask)
        if to_move == ILLEGAL:
            self._check_legal(self.agent_selection, action)     # raises, naming the moves
            raise RuntimeError(f"the step kernel refused action {action} that the mask allows")
        if to_move >= 0:
            # Rewards come only at the end, so every cumulative reward is still 0 here.
            self.agent_selection = self.possible_agents[to_move]
        else:
            self._cumulative_rewards[self.agent_selection] = 0.0
            self._finish()
            self._accumulate_rewards()

    def observe(self, agent):
        if not self._has_reset:
            raise RuntimeError(f"{self.spec.name}: call reset() before observe()")
        seat = self.agent_name_mapping[agent]
        observation = np.empty(self._obs_size, dtype=self._obs_dtype)
        self._observe(self.state, seat, observation)
        on_turn = agent == self.agent_selection and not self._game_over
        return {
            "observation": observation,
            "action_mask": (self._mask if on_turn else self._zero_mask).copy(),
        }

    def last(self, observe: bool = True):
        # PettingZoo's last() inlined with observe(): this pair runs once per turn of every
        # training loop, and the two method calls and lookups are a tenth of a turn's cost.
        try:
            agent = self.agent_selection
        except AttributeError:
            raise RuntimeError(f"{self.spec.name}: call reset() before last()") from None
        if observe:
            observation = np.empty(self._obs_size, dtype=self._obs_dtype)
            self._observe(self.state, self.agent_name_mapping[agent], observation)
            mask = (self._zero_mask if self._game_over else self._mask).copy()
            observation = {"observation": observation, "action_mask": mask}
        else:
            observation = None
        try:
            return (observation, self._cumulative_rewards[agent], self.terminations[agent],
                    self.truncations[agent], self.infos[agent])
        except KeyError:
            # Every agent has stepped None and left: the ended game's last word, unchanged
            # by further calls (PettingZoo's classic envs raise KeyError here).
            return (observation, 0.0, *self._ended_flags, {})

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "human":
            print(self.spec.render_ansi(self.state))        # the terminal is the screen
            return None
        if self.render_mode == "ansi":
            return self.spec.render_ansi(self.state)
        return self.spec.render_rgb(self.state)

    def close(self):
        pass

    # --- game-level helpers (not part of PettingZoo) ----------------------------------------

    @property
    def game_over(self) -> bool:
        """Whether the game has ended: by its rules (terminated) or at its decision cap
        (truncated)."""
        return self._game_over

    @property
    def phase(self) -> str:
        return self.spec.phase_names[int(self.state[H_PHASE])]

    def legal_actions(self) -> list[int]:
        # A bool view scans the int8 mask about 8x faster (Carcassonne's has 131,061 slots).
        return np.flatnonzero(self._mask.view(bool)).tolist()

    def action_mask(self) -> np.ndarray:
        return self._mask.copy()

    def scores(self) -> np.ndarray:
        """Score per seat: final at the end, 'as if the game ended now' before."""
        out = np.zeros(self.num_players, dtype=np.int64)
        self._scores(self.state, out)
        return out

    def tiebreaks(self) -> np.ndarray:
        """Tiebreak per seat (the rules' own, e.g. money left), as :meth:`scores`."""
        out = np.zeros(self.num_players, dtype=np.int64)
        self._tiebreaks(self.state, out)
        return out

    def action_to_str(self, action: int) -> str:
        return self.spec.action_to_str(self.state, int(action))

    def str_to_action(self, text: str) -> int:
        return parse_move(self.state, self._mask, text, self.spec.action_to_str)

    def legal_move_names(self) -> list[str]:
        """The name of each legal action, in ``legal_actions()`` order (one per action)."""
        to_str = self.spec.action_to_str
        return [to_str(self.state, action) for action in self.legal_actions()]

    def state_to_json(self) -> str:
        return state_to_json(self.spec, self.state, self.rng)

    def state_from_json(self, text: str) -> None:
        """Load a saved state (validated first; the env is unchanged if it fails)."""
        state, rng = state_from_json(self.spec, text)
        if int(state[H_NUM_PLAYERS]) != self.num_players:
            raise StateFormatError(
                f"the saved game has {int(state[H_NUM_PLAYERS])} players, this env "
                f"{self.num_players}: make the env with num_players="
                f"{int(state[H_NUM_PLAYERS])} to load it")
        self.state[:] = state
        if rng is not None:
            self.rng[:] = rng           # in place: the bound step kernel expects this dtype
        if int(self.state[H_TO_MOVE]) == CHANCE:
            # Saved at a chance node (a search or the kernels can write one): the env rolls
            # what is due with its generator, as after any step.
            self.spec.kernels["resolve_chance"](self.state, self.rng)
        self._refresh_mask()
        if int(self.state[H_TO_MOVE]) < 0:
            # An ended game loaded into an env that has not played: someone must be
            # selected so that last() and step(None) work as after any other ending.
            self.agent_selection = getattr(self, "agent_selection", self.possible_agents[0])
        self._begin_episode()
        if int(self.state[H_TO_MOVE]) == TERMINAL:
            self._finish()

    def clone(self) -> KernelEnv:
        """An independent copy of this env, mid-game included."""
        twin = self.__class__.__new__(self.__class__)
        twin.__dict__.update(self.__dict__)
        for name in ("state", "rng", "_mask", "_final"):
            setattr(twin, name, getattr(self, name).copy())
        for name in ("agents", "possible_agents"):
            setattr(twin, name, list(getattr(self, name)))
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            setattr(twin, name, dict(getattr(self, name)))
        twin.infos = {a: dict(info) for a, info in self.infos.items()}
        return twin

    # --- internals ------------------------------------------------------------------------------

    def _refresh_mask(self):
        if int(self.state[H_TO_MOVE]) >= 0:
            self._legal_mask(self.state, self._mask)
        else:
            self._mask[:] = 0

    def _sync_turn(self):
        to_move = int(self.state[H_TO_MOVE])
        if to_move >= 0:
            self.agent_selection = self.possible_agents[to_move]

    def _check_legal(self, agent, action):
        # Only integers are actions: a float that happens to be whole (3.0), a bool, a 0-d
        # array or inf is refused like any other non-integer, not rounded into a move.
        is_integer = isinstance(action, int | np.integer) and not isinstance(action, bool)
        index = int(action) if is_integer else -1
        if not 0 <= index < self.spec.num_actions:
            raise ValueError(
                f"{agent}: action {action!r} is not an integer in [0, {self.spec.num_actions}) "
                f"(phase {self.phase})"
            )
        if not self._mask[index]:
            raise ValueError(
                f"{agent}: illegal action {index} ({self.action_to_str(index)}) in phase "
                f"{self.phase}; legal: {', '.join(self.legal_move_names())}"
            )

    def _step_after_end(self, action):
        """``step`` once the game is over: agents leave one ``None`` at a time, as in
        PettingZoo; once all have left, a ``None`` is ignored with PettingZoo's warning."""
        if not self._has_reset:
            raise RuntimeError(f"{self.spec.name}: call reset() before step()")
        if self.agents:
            self._was_dead_step(action)
            return
        if action is not None:
            raise ValueError(
                f"{self.spec.name}: the game is over and every agent has left; "
                f"the only valid action is None (got {action!r}); call reset()"
            )
        import gymnasium

        gymnasium.logger.warn("step() called after all agents are terminated or truncated. "
                              "Should reset() first.")

    def _finish(self):
        self._game_over = True
        scores = np.zeros(self.num_players, dtype=np.int64)
        tiebreaks = np.zeros(self.num_players, dtype=np.int64)
        self._scores(self.state, scores)
        self._tiebreaks(self.state, tiebreaks)
        final_rewards(scores, tiebreaks, self.num_players, self._scheme, self._margin_scale,
                      self._final)
        # A game cut off at its decision cap is a truncation, not a termination; the
        # rewards are those of the scores at the cut, and ``infos`` say so.
        slot = self.spec.truncated_slot
        truncated = slot is not None and bool(self.state[slot])
        self._ended_flags = (not truncated, truncated)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(self._final[seat])
            self.terminations[agent] = not truncated
            self.truncations[agent] = truncated
            self.infos[agent] = {"score": int(scores[seat]), "tiebreak": int(tiebreaks[seat])}
            if truncated:
                self.infos[agent]["truncated"] = True
