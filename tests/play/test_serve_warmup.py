"""``meeplezoo serve`` compiles each game's first-game paths in the background
(``play/web/warming.py``): a real server answers its page at once and reports every game
moving to "ready"; a game may be started while it is preparing and moves up the queue; a
failure is reported with its reason; the warm-up reads only shipped files, never holds up
the server's shutdown, and its status endpoint sits behind the same guard as every route.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from meeplezoo.envs import names  # noqa: E402
from meeplezoo.envs.core import files  # noqa: E402
from meeplezoo.play.web.server import create_app  # noqa: E402
from meeplezoo.play.web.warming import STATES, Warming  # noqa: E402

LOCAL = "http://127.0.0.1:8000"
JSON = {"Content-Type": "application/json"}
ORDER = {state: rank for rank, state in enumerate(STATES[:3])}   # failed: its own end


class Gate:
    """Stages that record their calls; a game in ``held`` waits in its stage until
    ``release``."""

    def __init__(self, held=(), fail=None):
        self.calls, self.held, self.fail = [], set(held), fail or {}
        self.released, self.entered = threading.Event(), threading.Event()

    def __call__(self, game):
        def run(stage):
            self.calls.append((game, stage))
            if game in self.held and stage == "env":
                self.entered.set()
                assert self.released.wait(120), "never released"
            if (game, stage) in self.fail:
                raise self.fail[game, stage]
        return [(stage, lambda stage=stage: run(stage)) for stage in ("env", "search")]

    def release(self):
        self.released.set()


def strict(text: str):
    """JSON as the page's ``response.json()`` takes it: no NaN or Infinity."""
    def refuse(constant):
        raise ValueError(f"not strict JSON: {constant}")
    return json.loads(text, parse_constant=refuse)


def finished(warming: Warming) -> dict:
    warming.join(120)
    status = warming.status()
    assert status["done"], status
    return status


def test_games_warm_one_after_another_stage_by_stage():
    gate = Gate()
    warming = Warming(["hansa_v0", "saint_malo_v0"], stages_of=gate)
    assert warming.status()["games"][0]["state"] == "waiting"
    warming.start()
    status = finished(warming)
    assert gate.calls == [("hansa_v0", "env"), ("hansa_v0", "search"),
                          ("saint_malo_v0", "env"), ("saint_malo_v0", "search")]
    for game in status["games"]:
        assert game["state"] == "ready" and game["stage"] is None and game["reason"] is None
        assert set(game["seconds"]) == {"env", "search"}


def test_a_game_asked_for_warms_next_and_the_status_shows_the_stage():
    gate = Gate(held={"hansa_v0"})
    warming = Warming(["hansa_v0", "carcassonne_v0", "saint_malo_v0"], stages_of=gate)
    warming.start()
    assert gate.entered.wait(60)
    now = {g["game"]: (g["state"], g["stage"]) for g in warming.status()["games"]}
    assert now == {"hansa_v0": ("preparing", "env"), "carcassonne_v0": ("waiting", None),
                   "saint_malo_v0": ("waiting", None)}
    warming.prefer("saint_malo")         # a short name, as the page may send
    warming.prefer("no_such_game")       # the request reports it; the queue is untouched
    gate.release()
    finished(warming)
    assert [game for game, stage in gate.calls if stage == "env"] == [
        "hansa_v0", "saint_malo_v0", "carcassonne_v0"]


def test_a_failure_is_reported_and_the_next_game_still_warms():
    gate = Gate(fail={("hansa_v0", "search"): RuntimeError("no kernel\nsecond line"),
                      ("saint_malo_v0", "env"): ImportError("No module named 'torch'")})
    warming = Warming(["hansa_v0", "saint_malo_v0"], stages_of=gate)
    warming.start()
    hansa, saint_malo = finished(warming)["games"]
    assert hansa["state"] == "failed" and hansa["reason"] == "search: RuntimeError: no kernel"
    # An extra that is not installed leaves a stage out; the game is still ready.
    assert saint_malo["state"] == "ready"
    assert saint_malo["skipped"] == ["env (ImportError: No module named 'torch')"]
    assert set(saint_malo["seconds"]) == {"search"}


def test_the_warm_up_reads_only_the_shipped_files(tmp_path):
    outside = tmp_path / "net.pt"
    outside.write_bytes(b"x")

    def reads_outside(game):
        return [("env", lambda: files.check_allowed(outside, "checkpoint"))]
    warming = Warming(["hansa_v0"], stages_of=reads_outside)
    warming.start()
    (game,) = finished(warming)["games"]
    assert game["state"] == "failed" and "may not be named here" in game["reason"]


def test_stop_lets_the_running_stage_finish_and_starts_no_other():
    gate = Gate(held={"hansa_v0"})
    warming = Warming(["hansa_v0", "saint_malo_v0"], stages_of=gate)
    warming.start()
    assert gate.entered.wait(60)
    warming.stop()
    gate.release()
    warming.join(120)
    assert gate.calls == [("hansa_v0", "env")]
    assert warming.status()["games"][1]["state"] == "waiting"


def test_the_status_endpoint_is_strict_json_behind_the_guard():
    gate = Gate(held={"hansa_v0"})
    app = create_app(warm_games=["hansa_v0", "carcassonne_v0", "saint_malo_v0"])
    app.state.warming.stages_of = gate
    with TestClient(app, base_url=LOCAL) as client:       # the lifespan starts it
        assert gate.entered.wait(60)
        answer = client.get("/api/warmup")
        assert answer.status_code == 200
        status = strict(answer.text)
        assert status["enabled"] is True and status["done"] is False
        assert [(g["game"], g["state"]) for g in status["games"]] == [
            ("hansa_v0", "preparing"), ("carcassonne_v0", "waiting"),
            ("saint_malo_v0", "waiting")]
        # It takes no input: a path in the query is not read, the answer is the same.
        assert strict(client.get("/api/warmup?path=/etc/passwd&game=../../x").text) == status
        refused = client.get("/api/warmup", headers={"Host": "attacker.example:8000"})
        assert refused.status_code == 400 and "answers requests to" in refused.json()["error"]
        assert client.post("/api/warmup", headers=JSON, content=b"{}").status_code == 405
        assert client.post("/api/warmup", content=b"x").status_code == 415
        # A game may start while its game is preparing; it still answers.
        started = client.post("/api/games", headers=JSON, json={
            "game": "saint_malo", "seats": ["human", "random"], "seed": 1})
        assert started.status_code == 200, started.text
        gate.release()
        app.state.warming.join(120)
        status = strict(client.get("/api/warmup").text)
    assert status["done"] and {g["state"] for g in status["games"]} == {"ready"}
    # saint_malo was asked for while hansa prepared, so it went before carcassonne.
    assert [game for game, stage in gate.calls if stage == "env"] == [
        "hansa_v0", "saint_malo_v0", "carcassonne_v0"]


def test_an_app_without_warm_up_says_so():
    with TestClient(create_app(), base_url=LOCAL) as client:
        assert client.get("/api/warmup").json() == {"enabled": False, "done": True,
                                                     "games": []}


# --- a real ``meeplezoo serve`` -------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(url: str, timeout: float = 30) -> bytes:
    return urllib.request.urlopen(url, timeout=timeout).read()


def start_server(*flags: str) -> tuple[subprocess.Popen, str, bytes]:
    """A ``meeplezoo serve`` process, its address, and its page the first time it
    answered."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "meeplezoo.play.cli", "serve", "--port",
                               str(port), *flags], stderr=subprocess.PIPE,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url, deadline = f"http://127.0.0.1:{port}", time.time() + 300   # generous: loaded CPUs
    while time.time() < deadline:
        try:
            return server, url, get(f"{url}/", timeout=5)
        except OSError:
            assert server.poll() is None, server.stderr.read().decode()
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not answer its page")


def stop_server(server: subprocess.Popen, seconds: float = 60) -> None:
    server.terminate()
    try:
        server.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
        raise AssertionError(f"the server did not stop within {seconds} s of SIGTERM") from None


@pytest.mark.slow
def test_a_real_server_answers_at_once_and_warms_every_game_to_ready():
    server, url, page = start_server()
    try:
        first = strict(get(f"{url}/api/warmup").decode())
        # The page answered while the warm-up still ran (seven games, four with a network,
        # take seconds even with every kernel in the disk cache).
        assert b"MeepleZoo" in page and first["enabled"] and not first["done"]
        assert [g["game"] for g in first["games"]] == names()
        seen = {game: [] for game in names()}
        deadline, status = time.time() + 1800, first     # generous: a cold cache, 2 cores
        while True:
            for game in status["games"]:
                assert game["state"] in STATES, game
                if not seen[game["game"]] or seen[game["game"]][-1] != game["state"]:
                    seen[game["game"]].append(game["state"])
            if status["done"]:
                break
            assert time.time() < deadline, status
            assert server.poll() is None, server.stderr.read().decode()
            time.sleep(0.5)
            status = strict(get(f"{url}/api/warmup").decode())
        assert {g["game"]: g["state"] for g in status["games"]} == dict.fromkeys(names(),
                                                                                  "ready")
        for game, states in seen.items():           # forward only: never back to waiting
            assert states == sorted(states, key=ORDER.get), (game, states)
        hansa = next(g for g in status["games"] if g["game"] == "hansa_v0")
        assert set(hansa["seconds"]) == {"env", "search", "az:default"}, hansa
        request = urllib.request.Request(f"{url}/api/games", method="POST", headers=JSON,
                                         data=json.dumps({"game": "hansa", "seats": [
                                             "human", "az:default"], "seed": 1}).encode())
        began = time.perf_counter()
        view = json.loads(urllib.request.urlopen(request, timeout=600).read())
        print(f"\nwarm-up {json.dumps(status['games'])}\nfirst hansa game vs az:default "
              f"after it: {time.perf_counter() - began:.2f} s")
        assert view["game"] == "hansa_v0" and view["seats"] == ["human", "az:default"]
    finally:
        stop_server(server)


def test_stopping_a_server_is_not_held_up_by_its_warm_up():
    server, url, _ = start_server()
    try:
        status = strict(get(f"{url}/api/warmup").decode())
        assert not status["done"]                         # stopped in the middle
    finally:
        stop_server(server)
    assert server.returncode is not None
