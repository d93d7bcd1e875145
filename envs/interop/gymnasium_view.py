"""Any game as a single-agent ``gymnasium.Env``: the learner holds one seat, agents the rest.

>>> from meeplezoo.envs.interop.gymnasium_view import SingleAgentEnv
>>> env = SingleAgentEnv("saint_malo_v0", opponents=["greedy"])
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))

* Observation: the game's flat ``float32`` observation from the learner's seat (``Box``);
  the legal actions come from ``action_masks()`` (the name ``sb3_contrib.MaskablePPO``
  looks for) and ``info["action_mask"]``.
* Reward: 0 until the end, then the learner's final reward under the env's
  ``reward_scheme`` (``win_loss`` by default: +1 / -1, ties shared).  A game cut off at its
  decision cap comes back ``truncated=True, terminated=False``.
* Opponents: agent specs as the arena writes them (``"random"``, ``"greedy"``,
  ``"mcts:200"``, ``"ppo:<checkpoint>"``) or ``Agent`` objects; they move inside ``step``
  until the learner is to move again or the game ends.
* ``seat``: the learner's seat, or ``"random"`` (drawn at each reset) so one policy learns
  every seat.
* An illegal action: by default (``illegal="penalty"``) the episode ends with
  ``illegal_reward`` and ``info["illegal_action"] = True``, as PettingZoo's
  TerminateIllegalWrapper does — a Gymnasium training loop must not crash on the
  unmasked ``action_space.sample()`` that ``check_env`` sends; ``illegal="raise"`` raises
  the AEC env's ``ValueError`` instead.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces

from ...agents.base import Agent
from .. import make, spec


class SingleAgentEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, game: str = "saint_malo_v0", opponents=("random",),
                 seat: int | str = 0, illegal: str = "penalty", illegal_reward: float = -1.0,
                 render_mode: str | None = None, **env_options):
        if isinstance(opponents, str | Agent):
            opponents = [opponents]
        opponents = list(opponents)
        if not opponents:
            raise ValueError("give at least one opponent (an agent spec or Agent object)")
        num_players = env_options.pop("num_players", len(opponents) + 1)
        if num_players != len(opponents) + 1:
            raise ValueError(f"num_players={num_players} needs {num_players - 1} opponents, "
                             f"got {len(opponents)}")
        if illegal not in ("penalty", "raise"):
            raise ValueError("illegal must be 'penalty' or 'raise'")
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < num_players):
            raise ValueError(f"seat must be 'random' or a seat 0..{num_players - 1}")
        self.game_spec = spec(game)
        self.env = make(game, raw=True, num_players=num_players, render_mode=render_mode,
                        **env_options)
        from ...agents.registry import make_agent

        self.opponents = [o if isinstance(o, Agent) else make_agent(o, game) for o in opponents]
        self.seat_choice, self.illegal, self.illegal_reward = seat, illegal, float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.game_spec.obs_size,),
                                            dtype=np.float32)
        self.action_space = spaces.Discrete(self.game_spec.num_actions)
        self.seat = 0 if seat == "random" else seat
        self._agents_by_seat: dict[int, Agent] = {}
        self._illegal_end = False          # the episode ended on an illegal action

    # --- gymnasium API ------------------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        seeds = self.np_random.integers(0, 2**31 - 1, size=len(self.opponents) + 2)
        num_players = self.env.num_players
        if self.seat_choice == "random":
            self.seat = int(seeds[0] % num_players)
        others = [s for s in range(num_players) if s != self.seat]
        self._agents_by_seat = dict(zip(others, self.opponents, strict=True))
        for agent, agent_seed in zip(self.opponents, seeds[2:], strict=True):
            agent.reset(seed=int(agent_seed))
        self.env.reset(seed=int(seeds[1]))
        self._illegal_end = False
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action):
        learner = self.env.possible_agents[self.seat]
        if self._over():
            raise RuntimeError("step() after the episode ended; call reset()")
        legal = isinstance(action, int | np.integer) and not isinstance(action, bool) \
            and 0 <= int(action) < len(self._mask()) and self._mask()[int(action)]
        if not legal and self.illegal == "penalty":
            info = self._info()
            info["illegal_action"] = True
            self._illegal_end = True
            return self._observation(), self.illegal_reward, True, False, info
        self.env.step(int(action))
        self._play_opponents()
        over = self._over()
        reward = float(self.env.rewards[learner]) if over else 0.0
        # A game cut off at its decision cap is truncated, not terminated: a learner that
        # bootstraps must not read the cut as the game's true end.
        truncated = over and bool(self.env.truncations[learner])
        return self._observation(), reward, over and not truncated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner as ``bool`` (all False once the episode is over)."""
        if self._over():
            return np.zeros(self.game_spec.num_actions, dtype=bool)
        return self._mask().astype(bool)

    def render(self):
        return self.env.render()

    # --- internals ---------------------------------------------------------------------------

    def _over(self) -> bool:
        return self.env._game_over or self._illegal_end

    def _mask(self) -> np.ndarray:
        return self.env._mask

    def _play_opponents(self):
        env = self.env
        while not env._game_over and env.agent_name_mapping[env.agent_selection] != self.seat:
            mover = self._agents_by_seat[env.agent_name_mapping[env.agent_selection]]
            env.step(int(mover.act(env)))

    def _observation(self) -> np.ndarray:
        out = np.empty(self.game_spec.obs_size, dtype=np.float32)
        self.env._observe(self.env.state, self.seat, out)
        return out

    def _info(self) -> dict:
        info = {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}
        if self.env._game_over:
            info["scores"] = self.env.scores().tolist()
        return info
