"""What a move costs in the browser's server, per game.

    python -m meeplezoo.benchmarks.speed.web_latency [--moves 200]

Two people play random legal moves through the server's API (Starlette's test client: the
whole request, routing, JSON and the view, without a socket), and the same moves are played
on the Python API in the same process as the peer: ``env.step`` plus the legal moves named
in notation, the rule work any front end needs.  Reported per game: the median request, the
part of it spent drawing (``render_rgb`` and the PNG), and the request's cost as a ratio of
the peer's.  Results go to ``results/web_latency.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from meeplezoo.benchmarks.common import RESULTS_DIR
from meeplezoo.envs import make, names


def measure(game: str, moves: int, seed: int = 0) -> dict:
    from starlette.testclient import TestClient

    from meeplezoo.play.web.board import board_view
    from meeplezoo.play.web.server import create_app

    rng = random.Random(seed)
    # The Host a default app answers (guard.py): 127.0.0.1:8000, not "testserver".
    with TestClient(create_app(), base_url="http://127.0.0.1:8000") as client:
        view = client.post("/api/games", json={"game": game, "seats": ["human", "human"],
                                               "seed": seed}).json()
        played, request_s = [], []
        while not view["over"] and len(played) < moves:
            action = rng.choice(view["moves"])["action"]
            started = time.perf_counter()
            view = client.post(f"/api/games/{view['id']}/move", json={"action": action}).json()
            request_s.append(time.perf_counter() - started)
            played.append(action)
    env = make(game, raw=True, num_players=2)
    env.reset(seed=seed)
    step_s, draw_s = [], []
    for action in played:
        started = time.perf_counter()
        env.step(action)
        env.legal_move_names()
        step_s.append(time.perf_counter() - started)
        started = time.perf_counter()
        board_view(env.spec, env.state, [int(a) for a in env.legal_actions()])
        draw_s.append(time.perf_counter() - started)
    request, step, draw = (statistics.median(v) for v in (request_s, step_s, draw_s))
    return {"game": game, "moves": len(played), "request_ms": round(1000 * request, 2),
            "drawing_ms": round(1000 * draw, 2), "api_step_ms": round(1000 * step, 3),
            "request_over_api": round(request / step, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--out", default=str(RESULTS_DIR / "web_latency.json"))
    args = parser.parse_args(argv)
    rows = []
    for game in names():
        measure(game, 5)                                      # compile and warm up first
        rows.append(row := measure(game, args.moves))
        print(f"{game:<20} request {row['request_ms']:7.2f} ms (drawing {row['drawing_ms']:6.2f}"
              f" ms)  API step {row['api_step_ms']:7.3f} ms  ratio {row['request_over_api']}x",
              flush=True)
    Path(args.out).write_text(json.dumps({"moves": args.moves, "rows": rows}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
