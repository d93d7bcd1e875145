"""Hansa (Michael Schacht, Abacus / Uberplay 2004) as a PettingZoo AEC environment.

| Import             | ``from meeplezoo.envs import hansa_v0``                            |
|--------------------|--------------------------------------------------------------------|
| Actions            | Discrete(66), masked (spec §14)                                    |
| Players            | 2-4 (``player_0`` .. ``player_3``)                                |
| Observation        | dict: ``observation`` float32[781], ``action_mask`` int8[66]      |
| Rewards            | at the end only; ``win_loss`` (default), ``rank``, ``score_margin`` |
| Chance             | every token drawn from the face-down stacks, by the env's generator |

Actions: 0-8 initial placement of two stalls in city c, 9-17 sail to city c, 18 refill, 19
skip the refill, 20-21 buy the token on warehouse space 1/2 of the ship's city, 22-39 place
k stalls paying with a token of colour c (22 + 3c + k - 1), 40-57 mark a token of type t
for a sale, 58 sell the marked tokens, 59 end the action phase, 60-65 discard a token of
colour c at the goods limit.  City ids: TON AAL CPH LUB DAN KAL STO REV RIG (0-8).

**The board is a reconstruction.**  Board numbers 2-8, warehouse counts and some one-way
routes of the printed board are not known from any public source (spec HS-2, A-1).  The
default board is the spec's reconstruction (its placeholder values and three guessed
routes), and ``render`` says so in its title.  ``board=`` takes a path to a JSON board or a
dict (format in ``board.py``), so the printed board can be played once written down;
``board="generated:<seed>"`` (``generate_board(seed)``) is a random valid board of the
same shape, and ``board="generated:<a>-<b>"`` / ``"generated:train"`` / ``"generated:test"``
a distribution: each ``reset(seed=...)`` draws one (``env.board_seed``; ``core/boards.py``).
The observation holds the board (route matrix, city numbers, warehouse spaces), so a
policy can play any board.

Rule options (spec §13): ``board``, ``init_order`` ("reverse_rounds" | "reverse_pairs",
A-2), ``place_exact`` (A-10), ``sell_whole_colour`` (A-11), ``stack_sizes``
("larger_first" | "larger_last", A-6), ``max_turns`` (1..10,000, default 500; see
below).  Env options: ``num_players``, ``render_mode``, ``reward_scheme``,
``margin_scale``, ``start_seat`` ("random", the default, drawn from the reset seed as
HS-3.6 asks; or a seat), and in ``env()`` ``illegal``.

**Turn cap.** HS-10.3: nothing in the rules forces progress (if no one buys, no token is
ever drawn and the game never ends), so after ``max_turns`` turns the game is cut off as
a PettingZoo truncation (``truncations`` True, ``infos["truncated"]``), rewards from the
running scores; the kernels enforce it, so batched envs and MCTS rollouts end too.  The
default 500 is about 4x the longest of 600 uniform-random games (116 turns, 423 decisions,
4 players) and 12x the longest greedy game (40 turns): it never cuts a game that makes
progress, and a policy that never buys (always "end", always the first or last legal
action) is cut after at most about 2,000 decisions.

Engine choices where the spec leaves room (all from its [R] resolutions): an opponent who
loses a token to a sale loses the one with the fewest barrels (A-12); forced steps are
automatic (an impossible refill is skipped, a compulsory one made, a tax discard with one
colour in hand is applied).  Version history: v0, first release.
"""

from __future__ import annotations

from ..core.aec import KernelEnv
from ..core.game import env_metadata, game_spec
from ..core.wrappers import make_env_factory
from . import chance, masks, policy, rules
from . import data as D
from . import observe as observation
from .board import load_board
from .notation import action_to_str
from .options import make_config
from .validate import validate_state

SPEC = game_spec(
    "hansa_v0", D, (rules, chance, masks, observation, policy),
    make_config=make_config, action_to_str=action_to_str, validate_state=validate_state,
    render_module=__package__ + ".render", turn_owner_slot=D.G_ACTIVE)


class raw_env(KernelEnv):  # noqa: N801 (PettingZoo's naming)
    spec = SPEC
    metadata = env_metadata(SPEC.name)

    def __init__(self, num_players: int = 2, render_mode: str | None = None, **options):
        super().__init__(num_players=num_players, render_mode=render_mode, **options)
        board = self.rule_options.get("board")
        self._board = load_board(None if self.boards is not None else board)

    @property
    def board(self):
        """The board of this game: with a distribution, the one its reset drew (made when
        asked, for the render's title: resets of self-play games never need it)."""
        if self.boards is not None and self.board_seed is not None:
            return load_board(f"generated:{self.board_seed}")
        return self._board

    def render(self):
        if self.render_mode in ("ansi", "human"):
            from . import render  # imported on first use: most training never renders

            text = render.render_ansi(self.state, title=f"Hansa - board: {self.board.name}")
            if self.render_mode == "human":
                print(text)
                return None
            return text
        return super().render()


env = make_env_factory(raw_env)
