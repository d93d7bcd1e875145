"""The games a server is playing and the replays it is showing, one object each.

A :class:`WebGame` is the terminal player's table (``terminal.TerminalGame``: the same
seat checks, legal-move parsing, undo by snapshots, hint, saved-game validation) driven by
requests instead of a prompt; a :class:`ReplayView` is a replay (or a saved game)
re-simulated from its seed, as ``meeplezoo replay`` does.  Every method either does what
it is asked or raises ``ValueError`` (a bad request; the page shows the message) and
leaves the object as it was.  :class:`Sessions` keeps them by id, each behind its own
lock, so one server runs many games at once without mixing them.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict

from meeplezoo.agents.registry import agent_names, make_agent
from meeplezoo.envs import make, names
from meeplezoo.envs import spec as game_spec
from meeplezoo.play import replay as replays
from meeplezoo.play.terminal import (
    HUMAN,
    SAVE_FORMAT,
    SAVE_VERSION,
    TerminalGame,
    check_saved_state,
    runs_code,
)
from meeplezoo.play.web.board import board_view


class Conflict(ValueError):
    """A request that is well formed but not allowed now (not this seat's turn, game over)."""


class NoSession(LookupError):
    """No game or replay of that id (never opened, or closed to make room)."""


class _Table(TerminalGame):
    """The terminal table without the terminal: moves are remembered, nothing printed."""

    def show(self, headline: str | None = None) -> None:
        pass

    def say(self, text: str = "") -> None:
        pass


def _move_log(env_before, action: int, seat: int, who: str) -> dict:
    return {"seat": seat, "who": who, "move": env_before.action_to_str(action),
            "action": int(action)}


class WebGame:
    """A game in progress with people and bots at the seats.  ``allow_code``: whether a
    seat may run code its spec names (``terminal.runs_code``); only a server started
    with ``--allow-code-agents`` passes True, a file opened in the page never does."""

    kind = "game"

    def __init__(self, game: str, seats: list[str], seed: int | None = None,
                 options: dict | None = None, hint_sims: int = 400, allow_code: bool = False):
        if not isinstance(seats, list) or not all(isinstance(s, str) and s for s in seats):
            raise ValueError("seats must be a list of 'human' or agent specs")
        if options is not None and not isinstance(options, dict):
            raise ValueError("options must be an object of rule options")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError("seed must be a non-negative integer")
        self.table = _Table(game, seats, seed, hint_sims=hint_sims, options=options,
                            allow_code=allow_code)
        self.log = self._log_of(self.table.actions)
        self.evaluations: list[dict | None] = [None] * len(self.log)

    @classmethod
    def from_record(cls, data: dict, name: str = "saved game", hint_sims: int = 400) -> WebGame:
        """A saved game (the terminal's ``save`` format) or a replay, to play on from its
        last position (checked move by move, and a saved game against its state)."""
        fields, state = read_record(data, name)
        for seat, spec in enumerate(fields["seats"]):
            if runs_code(spec):
                raise ValueError(f"{name}: seat {seat} ({spec}) would run code the file names; "
                                 f"start a new game with that agent from the form instead")
        game = cls(fields["game"], fields["seats"], fields["seed"], fields["options"],
                   hint_sims)
        table = game.table
        try:
            table._start(table.game, table.options, table.seats, table.seed,
                         fields["actions"], state)
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
        game.log = game._log_of(table.actions)
        game.evaluations = list(fields.get("evaluations") or [None] * len(game.log))
        return game

    def _log_of(self, actions: list[int]) -> list[dict]:
        env = make(self.table.game, raw=True, num_players=len(self.table.seats),
                   **self.table.options)
        env.reset(seed=self.table.seed)
        log = []
        for action in actions:
            seat = env.agent_name_mapping[env.agent_selection]
            log.append(_move_log(env, action, seat, self.table.seats[seat]))
            env.step(action)
        return log

    # --- acting ---------------------------------------------------------------------------

    @property
    def human_to_move(self) -> bool:
        return not self.table.over and self.table.agents[self.table.seat_to_move] is None

    def move(self, action=None, text: str | None = None) -> None:
        """A person's move, at a person's seat: an action id legal here, or ``text`` as
        the terminal reads it (a move's name, its number in the list, ``#id``)."""
        self._check_turn(human=True)
        if text is not None:
            if not isinstance(text, str) or not text.strip():
                raise ValueError("type a move: its name, its number in the list, or #id")
            action = self.table.parse(text)
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"a move is an action id (an integer), not {action!r}")
        env = self.table.env
        if not 0 <= action < env.spec.num_actions or not env.action_mask()[action]:
            raise ValueError(f"action {action} is not a legal move here "
                             f"(phase {env.phase}); pick one of the moves offered")
        self._play(action, None)

    def step(self) -> None:
        """The bot to move plays one move."""
        self._check_turn(human=False)
        table = self.table
        agent = table.agents[table.seat_to_move]
        action = int(agent.act(table.env))
        self._play(action, replays.search_evaluation(agent, table.env))

    def _check_turn(self, human: bool) -> None:
        if self.table.over:
            raise Conflict("the game is over")
        if human != self.human_to_move:
            who = self.table.label(self.table.seat_to_move)
            raise Conflict(f"it is {who}'s turn" + (", a bot: let it move (step)" if human
                                                     else ", a person: play a move"))

    def _play(self, action: int, evaluation: dict | None) -> None:
        table = self.table
        entry = _move_log(table.env, action, table.seat_to_move, table.seats[table.seat_to_move])
        table.play(action)
        self.log.append(entry)
        self.evaluations.append(evaluation)

    def undo(self) -> None:
        if not self.table.undo():
            raise Conflict("nothing to undo: no earlier move of a person")
        del self.log[len(self.table.actions):]
        del self.evaluations[len(self.table.actions):]

    def hint(self) -> dict:
        if not self.human_to_move:
            raise Conflict("a hint is for a person's turn")
        action = self.table.hint()
        return {"action": action, "move": self.table.env.action_to_str(action),
                "simulations": self.table.hint_sims}

    def analysis(self, simulations: int = 400, network: str | None = None) -> dict:
        """The search's visits and values per move here (searched on a copy), and a trained
        network's priors and value where ``network`` names one (``az:default``, ``az:FILE``)."""
        if self.table.over:
            raise Conflict("the game is over: nothing to analyse")
        return analyse(self.table.game, self.table.env, simulations, network, self.table.seed)

    # --- showing --------------------------------------------------------------------------

    def view(self) -> dict:
        table, env = self.table, self.table.env
        legal = [] if table.over else [int(a) for a in env.legal_actions()]
        picture, target_of = board_view(env.spec, env.state, legal)
        moves = [{"action": a, "move": env.action_to_str(a), "target": target_of.get(a)}
                 for a in legal] if self.human_to_move else []
        view = {"kind": self.kind, "game": table.game, "seats": table.seats,
                "seed": table.seed, "options": table.options, "ply": len(table.actions),
                "over": table.over, "phase": env.phase,
                "to_move": None if table.over else table.seat_to_move,
                "human_to_move": self.human_to_move, "moves": moves, "board": picture,
                "scores": [int(s) for s in env.scores()], "log": self.log,
                "can_undo": any(table.agents[e["seat"]] is None for e in self.log)}
        if table.over:
            view["rewards"] = [float(env.rewards[a]) for a in env.possible_agents]
            view["result"] = result_text(table.seats, view["scores"], view["rewards"])
            view["cut_off"] = cut_off(env)
        return view

    def record(self) -> dict:
        """The replay of a finished game, or the saved game of one in progress."""
        if not self.table.over:
            return self.table.saved_game()
        record = self.table.replay_record()
        if any(e is not None for e in self.evaluations):
            record["evaluations"] = self.evaluations
        return record


def read_record(data: dict, name: str) -> tuple[dict, dict | None]:
    """A replay's or saved game's checked fields, and a saved game's state (else None)."""
    if data.get("format") == SAVE_FORMAT:
        fields = replays.check_game_fields(data, name, "meeplezoo saved game", SAVE_FORMAT,
                                           SAVE_VERSION)
        if not isinstance(data.get("state"), dict):
            raise ValueError(f"{name} is a corrupt meeplezoo saved game: 'state' must be an "
                             f"object")
        return fields, data["state"]
    return replays.check_replay(data, name), None


def result_text(seats: list[str], scores: list[int], rewards: list[float]) -> str:
    best = max(rewards)
    winners = [f"P{s} ({seats[s]})" for s, r in enumerate(rewards) if r == best]
    return ("winner: " if len(winners) == 1 else "shared win: ") + ", ".join(winners) + \
        "; final scores " + ", ".join(f"P{s} {v}" for s, v in enumerate(scores))


def cut_off(env) -> bool:
    """Whether a finished game ended at the decision cap, not by the rules: its final
    scores are then the 'as if it ended now' ones of the last position."""
    return any(bool(t) for t in env.truncations.values())


def analyse(game: str, env, simulations: int, network: str | None, seed: int) -> dict:
    """See :meth:`WebGame.analysis`; also used on a replay's position."""
    if isinstance(simulations, bool) or not isinstance(simulations, int) or \
            not 1 <= simulations <= 100_000:
        raise ValueError("simulations must be an integer in 1..100000")
    search = make_agent(f"mcts:{simulations}", game, seed=seed)
    search.reset(seed=seed)
    chosen = int(search.act(env.clone()))
    children = sorted(search.tree.root_children(), key=lambda c: (-c[1], c[0]))
    result = {"simulations": simulations, "best": env.action_to_str(chosen),
              "moves": [{"action": a, "move": env.action_to_str(a), "visits": n,
                         "value": round(v, 4)} for a, n, v in children]}
    if network:
        if not isinstance(network, str) or not network.startswith("az:"):
            raise ValueError("network must be a trained bot spec: az:default or az:FILE.pt")
        try:
            bot = make_agent(network, game, seed=seed)
        except (FileNotFoundError, ImportError, OSError) as err:
            raise ValueError(f"cannot load {network}: {err}") from None
        priors, values = bot.policy_and_value(env)
        legal = [int(a) for a in env.legal_actions()]
        ranked = sorted(legal, key=lambda a: -float(priors[a]))
        result["network"] = {"spec": network,
                             "value": [round(float(v), 4) for v in values],
                             "policy": [{"action": a, "move": env.action_to_str(a),
                                         "prior": round(float(priors[a]), 4)}
                                        for a in ranked]}
    return result


# Plies between the positions a replay view keeps.  A clone per ply made a 3,000-ply Hansa
# Teutonica replay ~30 MB of RSS (times 64 open sessions); one in 50 makes it ~1.2 MB, the
# move log and record included, and any position is at most 49 re-played moves (~0.02 ms
# a position measured) from a kept one.
SNAPSHOT_EVERY = 50


class ReplayView:
    """A recorded game (a replay or a saved game) to step through: positions 0..plies,
    each re-played on request from the nearest kept position (``SNAPSHOT_EVERY``)."""

    kind = "replay"

    def __init__(self, data: dict, name: str = "replay"):
        fields, self.saved_state = read_record(data, name)
        self.data, self.name, self.record = data, name, fields
        env, _, _ = replays.simulate(fields, name)              # every move checked
        if self.saved_state is None:   # no agent is made: a file's seats are names here
            replays.check_result(fields, env, name)
        else:
            try:
                check_saved_state(env, self.saved_state)
            except ValueError as err:
                raise ValueError(f"{name}: {err}") from None
        self.spec = env.spec
        walker = make(fields["game"], raw=True, num_players=fields["num_players"],
                      **fields["options"])
        walker.reset(seed=fields["seed"])
        self.log, self.snapshots = [], [walker.clone()]
        for ply, action in enumerate(fields["actions"], 1):
            seat = walker.agent_name_mapping[walker.agent_selection]
            self.log.append(_move_log(walker, action, seat, fields["seats"][seat]))
            walker.step(action)
            if ply % SNAPSHOT_EVERY == 0:
                self.snapshots.append(walker.clone())
        # The last position asked for: stepping through a game one move at a time re-plays
        # one move, not up to SNAPSHOT_EVERY.  Never stepped in place (callers only read
        # it, analysis searches a clone), so it and the snapshots stay as they were.
        self._recent = (0, self.snapshots[0])

    @property
    def plies(self) -> int:
        return len(self.record["actions"])

    def _env_at(self, ply) -> object:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self.plies:
            raise ValueError(f"no position {ply!r}: this game has positions 0..{self.plies}")
        base_ply = ply // SNAPSHOT_EVERY * SNAPSHOT_EVERY
        base = self.snapshots[ply // SNAPSHOT_EVERY]
        if base_ply <= self._recent[0] <= ply:
            base_ply, base = self._recent
        if base_ply == ply:
            return base
        env = base.clone()
        for action in self.record["actions"][base_ply:ply]:
            env.step(action)
        self._recent = (ply, env)
        return env

    def view(self, ply: int = 0) -> dict:
        env = self._env_at(ply)
        picture, _ = board_view(self.spec, env.state, [])
        evaluations = self.record.get("evaluations") or [None] * self.plies
        over = ply == self.plies and env.game_over
        view = {"kind": self.kind, "game": self.record["game"], "seats": self.record["seats"],
                "seed": self.record["seed"], "options": self.record["options"], "ply": ply,
                "plies": self.plies, "over": over, "phase": env.phase,
                "to_move": None if env.game_over else
                env.agent_name_mapping[env.agent_selection],
                "board": picture, "scores": [int(s) for s in env.scores()], "log": self.log,
                "next_evaluation": evaluations[ply] if ply < self.plies else None,
                "playable": self.saved_state is not None}
        if over:
            view["rewards"] = [float(r) for r in self.record["rewards"]]
            view["result"] = result_text(self.record["seats"], view["scores"], view["rewards"])
            view["cut_off"] = cut_off(env)
        return view

    def analysis(self, ply: int, simulations: int = 400, network: str | None = None) -> dict:
        env = self._env_at(ply)
        if env.game_over:
            raise Conflict("the game is over here: nothing to analyse")
        return analyse(self.record["game"], env.clone(), simulations, network,
                       self.record["seed"])


def setup_choices() -> dict:
    """What the page offers: each game's player counts and rule options, the agents."""
    games = []
    for name in names():
        rules = game_spec(name)
        games.append({"name": name, "min_players": rules.min_players,
                      "max_players": rules.max_players,
                      "options": {k: v for k, v in rules.default_options.items()}})
    examples = [HUMAN, "random", "greedy", "mcts:200", "mcts:1000", "az:default",
                "ppo:default"]
    return {"games": games, "agents": agent_names(), "seat_examples": examples}


class Sessions:
    """Games and replays by id, each with its own lock; the oldest idle ones go first
    once ``limit`` are open (a local server, not a service: memory stays bounded)."""

    def __init__(self, limit: int = 64):
        self.limit = limit
        self._items: OrderedDict[str, tuple[object, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item) -> str:
        key = secrets.token_hex(8)
        with self._lock:
            self._items[key] = (item, threading.Lock())
            while len(self._items) > self.limit:
                self._items.popitem(last=False)
        return key

    def get(self, key: str, kind: str):
        """(item, its lock) for ``key``; ``NoSession`` when there is none of that kind."""
        with self._lock:
            found = self._items.get(key)
            if found is None or found[0].kind != kind:
                raise NoSession(key)
            self._items.move_to_end(key)            # the most recently used goes last
            return found

    def __len__(self) -> int:
        return len(self._items)
