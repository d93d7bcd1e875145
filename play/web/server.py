"""``meeplezoo serve``: the games in a browser (Starlette + uvicorn, the ``web`` extra).

    meeplezoo serve                      # http://127.0.0.1:8000
    meeplezoo serve --allow-code-agents  # seats may be your own bots: path/to/bot.py:Bot
    meeplezoo serve --allow-files runs/  # seats may play checkpoints in runs/: az:runs/x.pt
    meeplezoo serve --port 8080 --host 192.168.1.20   # other machines too: no
                                         # authentication, and never code agents

The page (``static/``) talks to a small JSON API; every answer is a view of one game or
replay (``sessions.py``).  A bad request gets ``{"error": message}`` with status 400 (bad
input: an illegal move, a corrupt file, an unknown agent or option), 404 (no such game),
409 (not allowed now: a bot's turn, the game over) or 413 (a body over ``MAX_BODY``), and
changes nothing.  A view's ``scores`` are ``env.scores()``: as if the game ended now while
it runs, the final scores once it is over (``cut_off``: ended at the decision cap); its
``board.targets`` are the click boxes ``[top, left, height, width]`` in the picture's
pixels, and each legal move's ``target`` the index of its box (or null).

Before any route, ``guard.py`` refuses a request for another Host (400: DNS rebinding), a
POST from another site's page (403: its Origin) or not sent as JSON (415), so a page on
the web cannot drive this server through the person's browser.  A seat may run code only
when the server was started with ``--allow-code-agents``, which loopback alone accepts:
``process:...``, ``path/to/bot.py:Name`` and ``module:Name`` are refused before anything
is imported or started, and a file opened in the page never makes such a seat.

A request names no file on the server.  Seats play the registry's agents with the shipped
bots and fitted values (``az:default``, ``mcts:N,leaf=fitted``), on the built-in and
``generated:`` boards and maps; every file read while a request is served goes through
``envs/core/files.py`` limited to the package's own data (``agents/shipped.py``), so
``az:/etc/shadow``, ``leaf=fitted:/dev/zero`` or ``map=/some/fifo`` get the same 400
whether the path exists or not, and nothing is opened.  ``--allow-files FOLDER`` (loopback
only) adds one folder whose checkpoints, fits, boards and maps a request may name.

| request | does |
|---|---|
| ``GET /api/setup`` | the games, their player counts and rule options, the agents |
| ``GET /api/warmup`` | each game's warm-up: waiting, preparing, ready or failed |
| ``POST /api/games`` ``{game, seats, seed?, options?}`` | a new game; its view |
| ``GET /api/games/ID`` | the game's view (board, legal moves, scores, log, result) |
| ``POST /api/games/ID/move`` ``{action}`` or ``{move}`` | a person's move (an id, or typed) |
| ``POST /api/games/ID/step`` | the bot to move plays one move |
| ``POST /api/games/ID/undo`` | back to the person's previous decision |
| ``POST /api/games/ID/hint`` | what the search would play |
| ``POST /api/games/ID/analysis`` ``{simulations?, network?}`` | visits, values, priors |
| ``GET /api/games/ID/record`` | the replay (finished) or saved game (in progress) |
| ``POST /api/replays`` (the file's JSON as the body) | open a replay or saved game |
| ``GET /api/replays/ID?ply=N`` | the position after N moves |
| ``POST /api/replays/ID/analysis`` ``{ply, simulations?, network?}`` | as for a game |
| ``POST /api/replays/ID/play`` | play on from a saved game's last position |

At start the server compiles, game by game on one background thread, what each game's
first game runs (``warming.py``); ``--no-warmup`` leaves that to the first request.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from meeplezoo.agents.shipped import SHIPPED_DATA
from meeplezoo.envs.core.files import only_inside, parse_json
from meeplezoo.play.terminal import runs_code
from meeplezoo.play.web.guard import Guard, is_loopback
from meeplezoo.play.web.sessions import (
    Conflict,
    NoSession,
    ReplayView,
    Sessions,
    WebGame,
    setup_choices,
)
from meeplezoo.play.web.warming import Warming

STATIC = Path(__file__).parent / "static"
MAX_BODY = 8 * 1024 * 1024           # a replay of the longest game is well under 1 MB


class TooLarge(ValueError):
    """A request body over ``MAX_BODY`` (413): refused before it is all read."""


def _starlette():
    try:
        import starlette  # noqa: F401
    except ImportError:
        raise ValueError("meeplezoo serve needs the web extra: pip install "
                         "'meeplezoo[web]'") from None


def create_app(limit: int = 64, allow_code_agents: bool = False, host: str = "127.0.0.1",
               port: int = 8000, allow_files: str | Path | None = None,
               warm_games: Sequence[str] = ()):
    """The ASGI app with its own sessions (a test makes one per server), for a server bound
    to ``host``:``port`` (the Host and Origin it accepts; ``guard.py``).
    ``allow_code_agents``: whether a seat may run code the request names (``process:``,
    ``path/to/bot.py:Name``, ``module:Name``); loopback only, as anyone who can reach the
    server could name any file or command.  ``allow_files``: a folder whose checkpoints,
    fitted values, boards and maps a request may name (loopback only); without it a
    request reads only the package's shipped files (``readable_folders``).
    ``warm_games``: the games to compile in the background from the server's start
    (``warming.py``); none by default, so an app made for a test spends no CPU on it."""
    if allow_code_agents and not is_loopback(host):
        raise ValueError(f"--allow-code-agents runs code a request names: it is for a server "
                         f"on loopback (127.0.0.1) only, not --host {host}")
    folders = readable_folders(allow_files, host)
    _starlette()
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    sessions = Sessions(limit)
    warming = Warming(warm_games)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        warming.start()                      # a thread: the server answers meanwhile
        yield
        warming.stop()

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body_of(request: Request) -> dict:
        too_large = TooLarge(f"the request is larger than {MAX_BODY // 2**20} MB")
        length = request.headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY:
            raise too_large
        raw = bytearray()
        async for chunk in request.stream():    # stop reading at the limit, whatever it says
            raw += chunk
            if len(raw) > MAX_BODY:
                raise too_large
        if not raw.strip():
            return {}
        # Strict and shallow: no NaN or Infinity (a score of Infinity would not convert),
        # nesting bounded (envs/core/files.py).
        data = parse_json(bytes(raw), "the request")
        if not isinstance(data, dict):
            raise ValueError("the request must be a JSON object")
        try:                                 # every answer may quote a field back
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("the request holds text that is not valid Unicode (a lone "
                             "surrogate such as \\ud800)") from None
        return data

    def handler(kind: str | None, act):
        """A route: find the session (404), run ``act`` under its lock, map errors."""
        async def endpoint(request: Request):
            try:
                data = await body_of(request) if request.method == "POST" else {}
                if kind is None:
                    return JSONResponse(await _in_thread(confined, act, request, data, None))
                item, lock = sessions.get(request.path_params["key"], kind)

                def locked():
                    with lock:
                        return confined(act, request, data, item)
                return JSONResponse(await _in_thread(locked))
            except TooLarge as err:
                return error(413, str(err))
            except NoSession:
                return error(404, f"no such {kind} (it may have been closed): start again")
            except Conflict as err:
                return error(409, str(err))
            except (ValueError, TypeError) as err:
                return error(400, str(err))
            except Exception as err:  # noqa: BLE001 - a bug: say so on the page, keep serving
                return error(500, f"internal error ({type(err).__name__}: {err}); please "
                                  f"report it with the game's record")
        return endpoint

    def confined(act, *args):
        """``act`` with every file read limited to ``folders`` (in the worker thread, where
        agents are made and boards read): a request never names another path."""
        with only_inside(*folders):
            return act(*args)

    def new_game(request, data, _):
        unknown = set(data) - {"game", "seats", "seed", "options"}
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)}: give game, seats, seed, "
                             f"options")
        if not isinstance(data.get("game"), str):
            raise ValueError("name a game, e.g. {\"game\": \"hansa\", \"seats\": [...]}")
        warming.prefer(data["game"])         # not ready yet: it warms next
        seats = data.get("seats")
        for index, spec in enumerate(seats if isinstance(seats, list) else []):
            # Here, before WebGame: making the agent would import the file or start it.
            if isinstance(spec, str) and runs_code(spec) and not allow_code_agents:
                raise ValueError(f"seat {index} ({spec}) runs code: start the server with "
                                 f"--allow-code-agents to seat it")
        game = WebGame(data["game"], seats, data.get("seed"), data.get("options"),
                       allow_code=allow_code_agents)
        return {"id": sessions.add(game), **game.view()}

    def open_replay(request, data, _):
        name = data.get("name") if isinstance(data.get("name"), str) else "the file"
        record = data.get("record", data) if "record" in data else data
        if not isinstance(record, dict):
            raise ValueError(f"{name} is not a replay (not a JSON object)")
        view = ReplayView(record, name)
        return {"id": sessions.add(view), **view.view(0)}

    def with_id(request, view: dict) -> dict:
        return {"id": request.path_params["key"], **view}

    def game_view(request, data, game):
        return with_id(request, game.view())

    def move(request, data, game):
        game.move(data.get("action"), data.get("move"))
        return with_id(request, game.view())

    def step(request, data, game):
        game.step()
        return with_id(request, game.view())

    def undo(request, data, game):
        game.undo()
        return with_id(request, game.view())

    def analysis(request, data, item):
        args = (data.get("simulations", 400), data.get("network") or None)
        return item.analysis(*args) if isinstance(item, WebGame) else \
            item.analysis(data.get("ply", 0), *args)

    def replay_view(request, data, view):
        text = request.query_params.get("ply", "0")
        if not text.lstrip("-").isdigit():
            raise ValueError(f"ply must be a move number, not {text!r}")
        return with_id(request, view.view(int(text)))

    def play_on(request, data, view):
        if view.saved_state is None:
            raise Conflict("a replay is a finished game; open a saved game to play on")
        game = WebGame.from_record(view.data, view.name)
        return {"id": sessions.add(game), **game.view()}

    async def index(request):
        return FileResponse(STATIC / "index.html")

    routes = [
        Route("/", index),
        Route("/api/setup", handler(None, lambda r, d, _: setup_choices())),
        Route("/api/warmup", handler(None, lambda r, d, _: warming.status())),
        Route("/api/games", handler(None, new_game), methods=["POST"]),
        Route("/api/games/{key}", handler("game", game_view)),
        Route("/api/games/{key}/move", handler("game", move), methods=["POST"]),
        Route("/api/games/{key}/step", handler("game", step), methods=["POST"]),
        Route("/api/games/{key}/undo", handler("game", undo), methods=["POST"]),
        Route("/api/games/{key}/hint", handler("game", lambda r, d, g: g.hint()),
              methods=["POST"]),
        Route("/api/games/{key}/analysis", handler("game", analysis), methods=["POST"]),
        Route("/api/games/{key}/record", handler("game", lambda r, d, g: g.record())),
        Route("/api/replays", handler(None, open_replay), methods=["POST"]),
        Route("/api/replays/{key}", handler("replay", replay_view)),
        Route("/api/replays/{key}/analysis", handler("replay", analysis), methods=["POST"]),
        Route("/api/replays/{key}/play", handler("replay", play_on), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(Guard, host=host, port=port)],
                    lifespan=lifespan)
    app.state.sessions = sessions
    app.state.warming = warming
    return app


async def _in_thread(function, *args):
    """Run a blocking call (a bot's search, a re-simulation) off the event loop, so one
    game thinking does not hold up the others."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)


def readable_folders(allow_files, host: str) -> tuple[Path, ...]:
    """The folders a request may make the server read: the shipped bots and fitted values,
    and the folder ``--allow-files`` names (a server on loopback only)."""
    if allow_files is None:
        return SHIPPED_DATA
    if not is_loopback(host):
        raise ValueError(f"--allow-files lets a request name files in a folder: it is for a "
                         f"server on loopback (127.0.0.1) only, not --host {host}")
    folder = Path(allow_files)
    if not folder.is_dir():
        raise ValueError(f"--allow-files {allow_files}: no such folder")
    return (*SHIPPED_DATA, folder)


def add_arguments(parser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only); "
                             "another one opens the games to whoever reaches it, with no "
                             "login.  Requests must name this address (their Host)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--allow-code-agents", action="store_true",
                        help="let the page seat agents that run code: path/to/bot.py:Name, "
                             "module:Name, process:<spec> (loopback only)")
    parser.add_argument("--allow-files", metavar="FOLDER", default=None,
                        help="let the page name checkpoints (az:FILE, ppo:FILE), fitted "
                             "values (leaf=fitted:FILE), boards and maps inside FOLDER "
                             "(loopback only); without it only the shipped ones")
    parser.add_argument("--no-warmup", action="store_true",
                        help="do not compile the games in the background at start (the "
                             "first game of each game then compiles what it needs)")


def check_host(host: str) -> None:
    """``--host``: an IP address or ``localhost``.  A name would be looked up by the
    resolver, and the Host check would then trust whatever the name says."""
    import ipaddress

    if host == "localhost":
        return
    try:
        ipaddress.ip_address(host)
    except ValueError:
        raise ValueError(f"--host {host!r} is not an IP address (e.g. 127.0.0.1, or this "
                         f"machine's address on the network, e.g. 192.168.1.20)") from None


def serve_command(args) -> int:
    check_host(args.host)
    if not 1 <= args.port <= 65535:
        # not 0 (any free port) either: the Host check needs the port the page will use
        raise ValueError(f"--port {args.port} is not a port number (1..65535)")
    from meeplezoo.envs import names

    app = create_app(allow_code_agents=args.allow_code_agents, host=args.host, port=args.port,
                     allow_files=args.allow_files,
                     warm_games=() if args.no_warmup else names())
    import uvicorn

    name = f"[{args.host}]" if ":" in args.host else args.host
    print(f"MeepleZoo on http://{name}:{args.port}  (Ctrl-C stops)", file=sys.stderr)
    if args.host in ("0.0.0.0", "::"):
        print(f"--host {args.host} listens on every address but answers only requests "
              f"addressed to loopback: for other machines give the address they use, e.g. "
              f"--host 192.168.1.20", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
