"""Compiling each game's first-game paths in the background while ``meeplezoo serve`` runs.

numba compiles a kernel the first time it runs (or loads it from the on-disk cache,
``envs/core/jit.py``), and a shipped network's bot imports torch and loads its checkpoint:
on a cold cache the first game of a game took a minute or more before its page appeared.
At server start one background thread (a daemon: it never holds up a request or the
server's shutdown, and one at a time leaves the other core to the requests) runs, game by
game, what the page's first game of it runs (``stages``):

- ``env``: a random game through the env (reset, step, legal moves, observations:
  ``warmup.play_random_game``) and the new-game view the page draws (its board picture);
- ``search``: the game's search as a hint, an analysis or an ``mcts:N`` seat runs it;
- ``az:default``: the shipped network's bot searching, where the game ships one.

``GET /api/warmup`` reports each game ``waiting``, ``preparing`` (with its stage),
``ready`` or ``failed`` (with the reason); the page shows "preparing <game>…" until its
game is ready.  A game may still be started before then: its request compiles what it
still needs (numba compiles one kernel at a time, whichever thread asks), the page says it
is compiling, and the game it names moves to the front of the queue.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

from meeplezoo.agents.shipped import SHIPPED_DATA
from meeplezoo.envs import resolve_game
from meeplezoo.envs.core.files import only_inside

STATES = ("waiting", "preparing", "ready", "failed")
DEFAULT_NETWORK = "az:default"


def ships_network(game: str) -> bool:
    """Whether ``game`` ships the network bot ``az:default`` (2 players)."""
    from meeplezoo.agents.shipped import AGENTS_DIR, bot_stem

    return (AGENTS_DIR / "az" / "bots" / f"{bot_stem(game)}.pt").is_file()


def _first_view(game: str) -> None:
    """What ``POST /api/games`` does for a person against ``random``: the table, its view
    (the board picture, the legal moves), and a move each."""
    from meeplezoo.play.web.sessions import WebGame

    web = WebGame(game, ["human", "random"], seed=0)
    for _ in range(2):
        if web.table.over:
            break
        if web.human_to_move:
            web.move(int(web.table.env.legal_actions()[0]))
        else:
            web.step()
        web.view()


def stages(game: str) -> list[tuple[str, Callable[[], object]]]:
    """(name, call) of each thing the first game of ``game`` compiles or loads, in order."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.play import warmup

    steps = [("env", lambda: (warmup.play_random_game(game, seed=0), _first_view(game))),
             ("search", lambda: warmup.search_twice(game, make_agent("mcts:8", game, seed=0)))]
    if ships_network(game):
        steps.append((DEFAULT_NETWORK, lambda: warmup.search_twice(
            game, make_agent(DEFAULT_NETWORK, game, seed=0))))
    return steps


def _one_line(err: BaseException) -> str:
    text = (str(err).strip().splitlines() or [""])[0]
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


class Warming:
    """The warm-up of ``games``, in order, on one background thread; nothing when
    ``games`` is empty (``--no-warmup``).  ``stages_of``: a game's stages (a test may
    swap it before ``start``)."""

    def __init__(self, games: Sequence[str] = (),
                 stages_of: Callable[[str], list] = stages):
        self._games = list(games)
        self._queue = list(games)
        self.stages_of = stages_of
        self._status = {g: {"game": g, "state": "waiting", "stage": None, "reason": None,
                            "skipped": [], "seconds": {}} for g in games}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def enabled(self) -> bool:
        return bool(self._games)

    def start(self) -> None:
        if self.enabled and self._thread is None:
            self._thread = threading.Thread(target=self._run, name="meeplezoo-warmup",
                                            daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """No stage starts after this (the one running finishes: a compile cannot be cut
        short, and the thread, a daemon, does not hold up the process's exit)."""
        self._stop.set()

    def join(self, seconds: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(seconds)

    def prefer(self, game: str) -> None:
        """``game`` (a name the page sent) warms next if it is still waiting."""
        try:
            game = resolve_game(game)
        except (ValueError, TypeError):
            return                       # the request itself reports the unknown game
        with self._lock:
            if game in self._queue:
                self._queue.remove(game)
                self._queue.insert(0, game)

    def status(self) -> dict:
        """``{enabled, done, games: [{game, state, stage, reason, skipped, seconds}]}``:
        ``stage`` the one running while preparing, ``reason`` why a game failed,
        ``skipped`` stages left out (no torch), ``seconds`` each finished stage's time."""
        with self._lock:
            games = [{**self._status[g], "skipped": list(self._status[g]["skipped"]),
                      "seconds": dict(self._status[g]["seconds"])} for g in self._games]
        return {"enabled": self.enabled,
                "done": all(g["state"] in ("ready", "failed") for g in games),
                "games": games}

    def _set(self, game: str, **fields) -> None:
        with self._lock:
            self._status[game].update(fields)

    def _next(self) -> str | None:
        with self._lock:
            if self._stop.is_set() or not self._queue:
                return None
            return self._queue.pop(0)

    def _run(self) -> None:
        # The warm-up names only the shipped bots; it reads under the requests' own policy.
        with only_inside(*SHIPPED_DATA):
            while (game := self._next()) is not None:
                self._warm(game)

    def _warm(self, game: str) -> None:
        self._set(game, state="preparing")
        stage = "stages"
        try:
            for stage, run in self.stages_of(game):
                if self._stop.is_set():
                    return
                self._set(game, stage=stage)
                began = time.perf_counter()
                try:
                    run()
                except ImportError as err:   # an extra not installed (torch): play goes on
                    with self._lock:
                        self._status[game]["skipped"].append(f"{stage} ({_one_line(err)})")
                    continue
                with self._lock:
                    self._status[game]["seconds"][stage] = round(time.perf_counter() - began,
                                                                 2)
        except Exception as err:  # noqa: BLE001 - reported on the page; the server serves on
            self._set(game, state="failed", stage=None, reason=f"{stage}: {_one_line(err)}")
            return
        self._set(game, state="ready", stage=None)
