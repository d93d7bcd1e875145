"""People and bots at one table in the terminal: ``meeplezoo play <game> --seats ...``.

    meeplezoo play saint_malo --seats human mcts:2000 --seed 7 --save-to game.json

The board (the game's text render) is printed after every move.  At a person's turn the
legal moves are listed, numbered, in the game's move notation; type a move's name or its
number (``#N`` plays action id N).  Commands: ``help``, ``moves``, ``board``, ``undo``,
``hint``, ``save FILE``, ``load FILE``, ``quit``.  Commands win over a move of the same
name; ``#N`` still reaches such a move.

Undo keeps a ``clone()`` of the env before every move, so going back restores the state
and the env's dice generator exactly: the same dice come up again.  A saved game is
versioned JSON (game, options, seats, seed, the moves, and the state as a check); loading
re-plays the moves from the seed (so undo works after a load) and refuses a file whose
state does not match its moves, leaving the game in progress untouched.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence

from meeplezoo.agents.registry import agent_names, make_agent
from meeplezoo.envs import make, resolve_game
from meeplezoo.envs import spec as game_spec
from meeplezoo.envs.core.notation import normalise
from meeplezoo.envs.core.state_io import state_from_json
from meeplezoo.play import replay

SAVE_FORMAT = "meeplezoo-saved-game"
SAVE_VERSION = 1
HUMAN = "human"
COMMANDS = """commands:
  <move>       play a move by its name (as listed) or its number; #N plays action id N
  moves        list the legal moves again
  board        show the board again
  undo         take back moves up to your previous decision
  hint         what MCTS would play here
  save FILE    save the game in progress (resume with load FILE or play --load FILE)
  load FILE    load a saved game
  quit         leave the game"""


def runs_code(spec: str) -> bool:
    """Whether seating ``spec`` imports or starts code the spec itself names: a file or
    module (``path/to/bot.py:Bot``, ``package.module:Bot``) or ``process:<spec>``."""
    from meeplezoo.agents.external import is_external

    return spec.partition(":")[0] == "process" or is_external(spec, agent_names())


def build_agents(game: str, seats: Sequence[str], seed: int, allow_code: bool = False) -> list:
    """One agent per seat (``None`` for a person); a bad spec is a one-line ValueError.

    ``allow_code``: whether a seat may run code its spec names (:func:`runs_code`).  Off
    unless the caller is the person's own command line (``meeplezoo play``) or a server
    started with ``--allow-code-agents``.  Every seat is checked before any agent is made,
    so a refused table has imported nothing and started no process."""
    for index, spec in enumerate(seats):
        if spec == HUMAN:
            continue
        if runs_code(spec):
            if not allow_code:
                raise ValueError(f"seat {index} ({spec}) runs code the spec names; only "
                                 f"seats you give yourself may (--seats; a server started "
                                 f"with --allow-code-agents), never a file's")
        elif spec.partition(":")[0] not in agent_names():
            raise ValueError(f"unknown seat {spec!r}; use {HUMAN} or an agent: "
                             f"{', '.join(agent_names())}, or your own as "
                             f"path/to/file.py:Name")
    agents = []
    for index, spec in enumerate(seats):
        if spec == HUMAN:
            agents.append(None)
            continue
        try:
            agent = make_agent(spec, game, seed=seed)
        except FileNotFoundError as err:              # a ppo checkpoint that is not there
            raise ValueError(f"seat {index} ({spec}): {err}") from None
        except ImportError as err:                    # ppo without torch
            raise ValueError(f"seat {index} ({spec}) needs the [train] extra "
                             f"({err.name} is missing)") from None
        except ValueError as err:
            raise ValueError(f"seat {index} ({spec}): {err}") from None
        agent.reset(seed=seed * 1000 + index)          # as play.play_game seeds its agents
        agents.append(agent)
    return agents


class TerminalGame:
    """A game in progress with people (``human`` seats) and agents; see the module doc.

    ``input_fn(prompt) -> str`` and ``out`` (a text stream) are injectable, so a test can
    script a whole game.
    """

    def __init__(self, game: str, seats: Sequence[str], seed: int | None = None,
                 hint_sims: int = 1000, options: dict | None = None,
                 input_fn: Callable[[str], str] | None = None, out=None,
                 allow_code: bool = True):
        if not seats:
            raise ValueError("give one seat per player, e.g. --seats human mcts:2000")
        if hint_sims < 1:
            raise ValueError("--hint-sims must be at least 1")
        self.input, self.out = input_fn or input, out or sys.stdout
        self.hint_sims = int(hint_sims)
        self._hint_agent = None
        # The terminal is the person's own command line: their seats may be their own code
        # (a web table turns this off unless the server was started to allow it).
        self.allow_code = allow_code
        seed = random.SystemRandom().randrange(2**31) if seed is None else int(seed)
        if seed < 0:
            raise ValueError("--seed must be non-negative")
        self._start(resolve_game(game), dict(options or {}), list(seats), seed, [])

    # --- setting up ------------------------------------------------------------------------

    def _start(self, game, options, seats, seed, actions, expected_state=None,
               allow_code: bool | None = None):
        """Build the whole game aside, then swap it in: a failure changes nothing."""
        rules = game_spec(game)
        if not rules.min_players <= len(seats) <= rules.max_players:
            raise ValueError(f"{len(seats)} seat(s) given; {game} is for "
                             f"{rules.min_players}-{rules.max_players} players")
        try:
            env = make(game, raw=True, num_players=len(seats), **options)
        except TypeError as err:                      # an unknown rule option
            raise ValueError(f"bad options for {game}: {err}") from None
        agents = build_agents(game, seats, seed,
                              allow_code=self.allow_code if allow_code is None else allow_code)
        env.reset(seed=seed)
        history = []
        for index, action in enumerate(actions):
            if env.game_over:
                raise ValueError(f"the game is over after {index} moves, but "
                                 f"{len(actions)} are listed")
            if action >= env.spec.num_actions or not env.action_mask()[action]:
                raise ValueError(f"move {index + 1} (action {action}) is not legal there")
            history.append(env.clone())
            env.step(action)
        if expected_state is not None:
            check_saved_state(env, expected_state)
        if game != getattr(self, "game", game):
            self._hint_agent = None                   # a hint searcher is per game
        self.game, self.options, self.seats, self.seed = game, options, seats, seed
        self.env, self.agents, self.history = env, agents, history
        self.actions = [int(a) for a in actions]

    @classmethod
    def from_file(cls, path, **kwargs) -> TerminalGame:
        data = read_saved_game(path)
        # The seats come from the file, not from the person: a file never seats code
        # (a saved game from someone else would otherwise run what it names).
        game = cls(data["game"], data["seats"], data["seed"], options=data["options"],
                   **{**kwargs, "allow_code": False})
        game.load(path)
        return game

    # --- state of play ---------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.env.game_over

    @property
    def seat_to_move(self) -> int:
        return self.env.agent_name_mapping[self.env.agent_selection]

    def label(self, seat: int) -> str:
        return f"P{seat} ({self.seats[seat]})"

    def legal_moves(self) -> list[tuple[str, int]]:
        """(name, action) per legal move, in action order: the numbered list."""
        return list(zip(self.env.legal_move_names(), self.env.legal_actions(), strict=True))

    def play(self, action: int) -> None:
        seat = self.seat_to_move
        name = self.env.action_to_str(action)
        self.history.append(self.env.clone())
        self.env.step(int(action))
        self.actions.append(int(action))
        self.show(f"move {len(self.actions)}: {self.label(seat)} plays {name}")

    def undo(self) -> bool:
        """Back to the latest earlier position where a person was to move."""
        for index in range(len(self.history) - 1, -1, -1):
            snapshot = self.history[index]
            seat = snapshot.agent_name_mapping[snapshot.agent_selection]
            if self.seats[seat] == HUMAN:
                self.env = snapshot.clone()       # keep the snapshot intact for a later undo
                del self.history[index:]
                del self.actions[index:]
                return True
        return False

    def parse(self, text: str) -> int:
        """The legal action a person typed: a listed name, a list number, or ``#id``."""
        moves = self.legal_moves()
        key = normalise(text)
        for name, action in moves:
            if normalise(name) == key:
                return action
        if key.isdigit():
            number = int(key)
            if 1 <= number <= len(moves):
                return moves[number - 1][1]
            raise ValueError(f"there is no move {number}: choose 1-{len(moves)}")
        if key.startswith("#"):
            return self.env.str_to_action(key)
        if self._names_some_move(key):
            raise ValueError(f"{text.strip()!r} is not legal now (phase {self.env.phase})")
        raise ValueError(f"{text.strip()!r} is not a legal move here (phase {self.env.phase}) "
                         f"nor a command: pick a listed move or its number, or type help")

    def _names_some_move(self, key: str) -> bool:
        """Whether ``key`` names any action here, legal or not (for a precise message)."""
        spec, state = self.env.spec, self.env.state
        for action in range(spec.num_actions):
            try:
                if normalise(spec.action_to_str(state, action)) == key:
                    return True
            except Exception:       # noqa: BLE001 - some games cannot name illegal actions
                continue
        return False

    def hint(self) -> int:
        """What MCTS with ``hint_sims`` simulations would play here (searched on a clone)."""
        if self._hint_agent is None:
            self._hint_agent = make_agent(f"mcts:{self.hint_sims}", self.game, seed=self.seed)
        return int(self._hint_agent.act(self.env.clone()))

    # --- files -----------------------------------------------------------------------------

    def saved_game(self) -> dict:
        return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "game": self.game,
                "num_players": len(self.seats), "options": self.options,
                "seats": self.seats, "seed": self.seed, "actions": self.actions,
                "state": json.loads(self.env.state_to_json())}

    def save(self, path) -> None:
        replay.write_replay(path, self.saved_game())

    def load(self, path) -> None:
        """Replace the game in progress by a saved one (validated first, else unchanged)."""
        data = read_saved_game(path)
        try:
            self._start(data["game"], data["options"], data["seats"], data["seed"],
                        data["actions"], data["state"], allow_code=False)
        except ValueError as err:
            raise ValueError(f"{path}: {err}") from None

    def replay_record(self) -> dict:
        return replay.make_record(self.game, self.options, self.seats, self.seed,
                                  self.actions, self.env)

    # --- the terminal ----------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self, headline: str | None = None) -> None:
        env = self.env
        if headline:
            self.say(f"--- {headline}")
        self.say(replay.board_text(env.spec, env.state))
        scores = ", ".join(f"{self.label(s)} {int(v)}" for s, v in enumerate(env.scores()))
        # env.scores() counts what the rules would score if the game ended now (open
        # features, end-of-game bonuses); the board above shows the running score
        if self.over:
            self.say(f"game over. final scores: {scores}")
        else:
            self.say(f"{self.label(self.seat_to_move)} to move, phase {env.phase}; "
                     f"scores if the game ended now: {scores}")

    def list_moves(self) -> None:
        cells = [f"{number:>3}. {name}" for number, (name, _) in enumerate(self.legal_moves(), 1)]
        width = max(len(cell) for cell in cells) + 2
        columns = max(1, 96 // width)
        self.say("legal moves:")
        for row in range(0, len(cells), columns):
            self.say("".join(cell.ljust(width) for cell in cells[row:row + columns]).rstrip())

    def human_turn(self) -> bool:
        """Read commands until a move is played or the position changes; False to quit."""
        self.list_moves()
        while True:
            try:
                line = self.input(f"{self.label(self.seat_to_move)} move> ")
            except (EOFError, KeyboardInterrupt):
                line = "quit"
            word, _, rest = line.strip().partition(" ")
            command, rest = word.lower(), rest.strip()
            if not command:
                continue
            if command in ("help", "?"):
                self.say(COMMANDS)
            elif command == "moves":
                self.list_moves()
            elif command == "board":
                self.show()
            elif command in ("quit", "exit"):
                self.say(f"left the game after {len(self.actions)} moves"
                         + ("" if self.over else " (save FILE keeps a game to resume)"))
                return False
            elif command == "undo":
                if self.undo():
                    self.show(f"undone: back to move {len(self.actions) + 1}")
                    return True
                self.say("nothing to undo: no earlier decision of a person")
            elif command == "hint":
                action = self.hint()
                number = [a for _, a in self.legal_moves()].index(action) + 1
                self.say(f"hint (MCTS, {self.hint_sims} simulations): "
                         f"{self.env.action_to_str(action)} ({number})")
            elif command in ("save", "load"):
                if not rest:
                    self.say(f"usage: {command} FILE")
                    continue
                try:
                    self.save(rest) if command == "save" else self.load(rest)
                except (ValueError, OSError) as err:
                    self.say(f"{command} failed: {err}")
                    continue
                if command == "save":
                    self.say(f"saved to {rest} (move {len(self.actions) + 1})")
                    continue
                self.show(f"loaded {rest}: {self.game}, move {len(self.actions) + 1}")
                return True
            else:
                try:
                    action = self.parse(line)
                except ValueError as err:
                    self.say(str(err))
                    self.list_moves()
                    continue
                self.play(action)
                return True

    def run(self) -> bool:
        """Play to the end (True) or until a person quits (False)."""
        self.say(f"{self.game}: " + ", ".join(self.label(s) for s in range(len(self.seats)))
                 + f"; seed {self.seed}. Type help for commands.")
        self.show()
        while not self.over:
            agent = self.agents[self.seat_to_move]
            if agent is None:
                if not self.human_turn():
                    return False
            else:
                self.play(agent.act(self.env))
        rewards = [self.env.rewards[a] for a in self.env.possible_agents]
        self.say("final: " + ", ".join(
            f"{self.label(seat)} score {int(score)} reward {reward:g}"
            for seat, (score, reward) in enumerate(zip(self.env.scores(), rewards, strict=True))))
        return True


def check_saved_state(env, saved: dict) -> None:
    """A saved game's state must be where re-playing its moves from the seed leads."""
    state, rng = state_from_json(env.spec, saved)
    if not (state == env.state).all() or (rng is not None and (rng != env.rng).any()):
        raise ValueError("its state does not match re-playing its moves from the seed "
                         "(edited, or saved under other rules)")


def read_saved_game(path) -> dict:
    """A validated saved game (``ValueError`` with one clear line if not)."""
    what = "meeplezoo saved game"
    data = replay.read_json(path, what)
    fields = replay.check_game_fields(data, path, what, SAVE_FORMAT, SAVE_VERSION)
    if not isinstance(data.get("state"), dict):
        raise ValueError(f"{path} is a corrupt {what}: 'state' must be an object")
    fields["state"] = data["state"]
    return fields


def play_command(args, input_fn: Callable[[str], str] | None = None, out=None) -> int:
    """``meeplezoo play``: set up (every bad input is a ValueError), play, write the replay."""
    from meeplezoo.training.run import flags

    flags.check_count("--hint-sims", args.hint_sims, 1, 1_000_000)
    flags.check_seed("--seed", args.seed)
    if args.save_to:                # checked now: a bad path would lose the whole game
        flags.check_output_file("--save-to", args.save_to)
    kwargs = {"hint_sims": args.hint_sims, "input_fn": input_fn, "out": out}
    if args.load:
        if args.seats or args.seed is not None:
            raise ValueError("--load takes the seats and the seed from the saved game; "
                             "drop --seats/--seed")
        game = TerminalGame.from_file(args.load, **kwargs)
        if args.game and resolve_game(args.game) != game.game:
            raise ValueError(f"{args.load} is a {game.game} game, not {args.game}")
    else:
        if not args.game:
            raise ValueError("name a game (meeplezoo games lists them) or give --load FILE")
        if not args.seats:
            raise ValueError("give one --seats entry per player, e.g. --seats human mcts:2000")
        game = TerminalGame(args.game, args.seats, args.seed, **kwargs)
    try:
        finished = game.run()
    except KeyboardInterrupt:                # Ctrl-C while a bot thinks: leave quietly
        game.say(f"\ninterrupted after {len(game.actions)} moves")
        return 130
    if finished and args.save_to:
        path = replay.write_replay(args.save_to, game.replay_record())
        game.say(f"replay written to {path} (watch it with: meeplezoo replay {path})")
    return 0


def add_arguments(parser) -> None:
    parser.add_argument("game", nargs="?", help="e.g. saint_malo (or saint_malo_v0)")
    parser.add_argument("--seats", nargs="+",
                        help=f"one per player: {HUMAN} or an agent "
                             f"({', '.join(agent_names())}), e.g. human mcts:2000 ppo:ckpt.pt")
    parser.add_argument("--seed", type=int, default=None, help="env seed (default: random)")
    parser.add_argument("--hint-sims", type=int, default=1000,
                        help="MCTS simulations behind the hint command")
    parser.add_argument("--save-to", help="write the finished game's replay here")
    parser.add_argument("--load", help="resume a game saved with the save command")
