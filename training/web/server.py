"""``meeplezoo serve``: the games in a browser (Starlette + uvicorn, the ``web`` extra).

    meeplezoo serve                      # http://127.0.0.1:8000
    meeplezoo serve --port 8080 --host 0.0.0.0    # other machines too: no authentication,
                                                  # and no process: seats (they run code)

The page (``static/``) talks to a small JSON API; every answer is a view of one game or
replay (``sessions.py``).  A bad request gets ``{"error": message}`` with status 400 (bad
input: an illegal move, a corrupt file, an unknown agent or option), 404 (no such game)
or 409 (not allowed now: a bot's turn, the game over), and changes nothing.

| request | does |
|---|---|
| ``GET /api/setup`` | the games, their player counts and rule options, the agents |
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
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .sessions import Conflict, NoSession, ReplayView, Sessions, WebGame, setup_choices

STATIC = Path(__file__).parent / "static"
MAX_BODY = 8 * 1024 * 1024           # a replay of the longest game is well under 1 MB


def _starlette():
    try:
        import starlette  # noqa: F401
    except ImportError:
        raise ValueError("meeplezoo serve needs the web extra: pip install "
                         "'meeplezoo[web]'") from None


def create_app(limit: int = 64, run_code: bool = True):
    """The ASGI app with its own sessions (a test makes one per server).  ``run_code``:
    whether a seat may be a ``process:`` agent, which runs code the request names (on by
    default, for the person at this machine; ``serve`` turns it off on other addresses)."""
    _starlette()
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    sessions = Sessions(limit)

    def error(status: int, message: str) -> JSONResponse:
        return JSONResponse({"error": message}, status_code=status)

    async def body_of(request: Request) -> dict:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise ValueError(f"the request is larger than {MAX_BODY // 2**20} MB")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"not valid JSON: {err}") from None
        if not isinstance(data, dict):
            raise ValueError("the request must be a JSON object")
        return data

    def handler(kind: str | None, act):
        """A route: find the session (404), run ``act`` under its lock, map errors."""
        async def endpoint(request: Request):
            try:
                data = await body_of(request) if request.method == "POST" else {}
                if kind is None:
                    return JSONResponse(await _in_thread(act, request, data, None))
                item, lock = sessions.get(request.path_params["key"], kind)

                def locked():
                    with lock:
                        return act(request, data, item)
                return JSONResponse(await _in_thread(locked))
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

    def new_game(request, data, _):
        unknown = set(data) - {"game", "seats", "seed", "options"}
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)}: give game, seats, seed, "
                             f"options")
        if not isinstance(data.get("game"), str):
            raise ValueError("name a game, e.g. {\"game\": \"hansa\", \"seats\": [...]}")
        seats = data.get("seats")
        if not run_code and isinstance(seats, list) and any(
                isinstance(s, str) and s.partition(":")[0] == "process" for s in seats):
            raise ValueError("process: seats run code and are off on a server open to other "
                             "machines (--host); serve on 127.0.0.1 to use them")
        game = WebGame(data["game"], seats, data.get("seed"), data.get("options"))
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
    app = Starlette(routes=routes)
    app.state.sessions = sessions
    return app


async def _in_thread(function, *args):
    """Run a blocking call (a bot's search, a re-simulation) off the event loop, so one
    game thinking does not hold up the others."""
    from starlette.concurrency import run_in_threadpool

    return await run_in_threadpool(function, *args)


def add_arguments(parser) -> None:
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000)


def serve_command(args) -> int:
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port {args.port} is not a port number (0..65535)")
    app = create_app(run_code=args.host in ("127.0.0.1", "localhost", "::1"))
    import uvicorn

    print(f"MeepleZoo on http://{args.host}:{args.port}  (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
