"""A request names no file on the server: seats, analysis networks, saved games and rule
options that name a path (``az:FILE``, ``ppo:FILE``, ``leaf=fitted:FILE``, ``board=``,
``map=``) are refused before the filesystem is asked, with the same 400 whether the path
exists or not, and nothing is opened; ``--allow-files FOLDER`` (loopback only) lets a
request name the files inside that one folder."""

from __future__ import annotations

import functools
import json
import os
import shutil

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from deadline import finishes  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from meeplezoo.agents.fitted_values import shipped_path  # noqa: E402
from meeplezoo.play.web.server import create_app  # noqa: E402

LOCAL = "http://127.0.0.1:8000"
JSON = {"Content-Type": "application/json"}


@pytest.fixture()
def client():
    with TestClient(create_app(), base_url=LOCAL) as test_client:
        yield test_client


@pytest.fixture()
def hostile(tmp_path):
    """Paths a request might name: a FIFO with no writer, a device, a secret file (one
    that exists, like /etc/shadow) and a missing one."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    secret = tmp_path / "shadow"
    secret.write_text('{"rules": "TOPSECRET-API-KEY-123", "format": "x"}')
    return {"fifo": str(fifo), "zero": "/dev/zero", "secret": str(secret),
            "missing": str(tmp_path / "missing.json")}


# Each way a request could name a file: (game, the request's seats and options).
def fitted_seat(path):
    return "carcassonne", ["human", f"mcts:50,leaf=fitted:{path}"], {}


def az_seat(path):
    return "hansa", ["human", f"az:{path}"], {}


def ppo_seat(path):
    return "hansa", ["human", f"ppo:{path}"], {}


def hansa_board(path):
    return "hansa", ["human", "random"], {"board": path}


def serenissima_map(path):
    return "serenissima", ["human", "random"], {"map": path}


WAYS = [fitted_seat, az_seat, ppo_seat, hansa_board, serenissima_map]


def post_game(client, way, path):
    game, seats, options = way(path)
    body = {"game": game, "seats": seats, "seed": 1, **({"options": options} if options
                                                         else {})}
    return finishes(lambda: client.post("/api/games", json=body), 120)


@pytest.mark.parametrize("way", WAYS, ids=lambda w: w.__name__)
def test_a_path_in_a_request_is_refused_alike_whether_it_exists_or_not(client, hostile, way):
    messages = {}
    for name, path in hostile.items():
        response = post_game(client, way, path)
        assert response.status_code == 400, (name, response.text)
        message = response.json()["error"]
        assert "TOPSECRET" not in message and "may not be named here" in message, message
        messages[name] = message.replace(path, "PATH")
    assert len(set(messages.values())) == 1, messages
    assert finishes(lambda: client.get("/")).status_code == 200


def test_forty_fifo_seats_do_not_freeze_the_server(client, hostile):
    for _ in range(40):
        assert post_game(client, fitted_seat, hostile["fifo"]).status_code == 400
    assert finishes(lambda: client.get("/")).status_code == 200
    assert finishes(lambda: client.get("/api/setup")).status_code == 200


def test_a_network_for_analysis_names_no_file_either(client, hostile):
    view = client.post("/api/games", json={"game": "hansa", "seats": ["human", "human"],
                                           "seed": 2}).json()
    for path in hostile.values():
        response = finishes(lambda path=path: client.post(
            f"/api/games/{view['id']}/analysis",
            json={"simulations": 8, "network": f"az:{path}"}))
        assert response.status_code == 400 and "may not be named here" in \
            response.json()["error"]


def test_a_saved_game_whose_seat_names_a_fifo_opens_but_does_not_play_on(client, hostile):
    view = client.post("/api/games", json={"game": "hansa", "seats": ["human", "human"],
                                           "seed": 3}).json()
    view = client.post(f"/api/games/{view['id']}/move",
                       json={"action": view["moves"][0]["action"]}).json()
    saved = client.get(f"/api/games/{view['id']}/record").json()
    saved["seats"] = ["human", f"az:{hostile['fifo']}"]
    opened = client.post("/api/replays", json={"record": saved})
    assert opened.status_code == 200, opened.text                  # shown: the seat a name
    response = finishes(lambda: client.post(f"/api/replays/{opened.json()['id']}/play",
                                            headers=JSON))
    assert response.status_code == 400 and "may not be named here" in response.json()["error"]


def test_the_shipped_files_still_play(client):
    for seats in (["human", "mcts:20,leaf=fitted"], ["human", "az:default"]):
        game = "carcassonne" if "fitted" in seats[1] else "hansa"
        response = client.post("/api/games", json={"game": game, "seats": seats, "seed": 1})
        assert response.status_code == 200, response.text
    response = client.post("/api/games", json={"game": "hansa", "seats": ["human", "random"],
                                               "seed": 1, "options": {"board": "generated:7"}})
    assert response.status_code == 200, response.text


def test_allow_files_opens_one_folder_and_nothing_beside_it(tmp_path, hostile):
    folder = tmp_path / "mine"
    folder.mkdir()
    fit = folder / "fit.json"
    shutil.copyfile(shipped_path("carcassonne_v0"), fit)
    (folder / "escape.json").symlink_to(hostile["secret"])
    with TestClient(create_app(allow_files=folder), base_url=LOCAL) as client:
        response = post_game(client, fitted_seat, fit)
        assert response.status_code == 200, response.text
        for path in [*hostile.values(), folder / "escape.json"]:
            response = post_game(client, fitted_seat, path)
            assert response.status_code == 400 and "may not be named here" in \
                response.json()["error"]
        # Inside the folder the owner's own files get the file's own errors.
        (folder / "broken.json").write_text("{")
        response = post_game(client, fitted_seat, folder / "broken.json")
        assert response.status_code == 400 and "not valid JSON" in response.json()["error"]


def test_allow_files_is_for_loopback_and_an_existing_folder(tmp_path):
    with pytest.raises(ValueError, match="loopback"):
        create_app(allow_files=tmp_path, host="192.168.1.20")
    with pytest.raises(ValueError, match="no such folder"):
        create_app(allow_files=tmp_path / "nothing")


@pytest.mark.parametrize("body, words", [
    ('{"game": "hansa", "seats": ["human", "random"], "seed": Infinity}', "Infinity"),
    ('{"name": "x", "record": {"scores": [NaN, 0]}}', "NaN"),
    ('{"name": "\\ud800", "record": {}}', "not valid Unicode"),
    ("[" * 100_000 + "]" * 100_000, "nested"),
    (json.dumps({"a": functools.reduce(lambda inner, _: [inner], range(70), 1)}),
     "nested more than")])
def test_bodies_that_would_break_the_answer_are_refused(client, body, words):
    path = "/api/replays" if "record" in body else "/api/games"
    response = client.post(path, content=body, headers=JSON)
    assert response.status_code == 400 and words in response.json()["error"], response.text


def test_a_replay_with_an_infinite_score_is_refused_by_the_cli(tmp_path, capsys):
    from meeplezoo.play.cli import main

    path = tmp_path / "replay.json"
    path.write_text('{"format": "meeplezoo-replay", "version": 1, "game": "hansa_v0", '
                    '"num_players": 2, "options": {}, "seats": ["a", "b"], "seed": 1, '
                    '"actions": [], "scores": [Infinity, 0], "rewards": [1, -1]}')
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Infinity" in err[0], err


def test_a_real_server_answers_the_hostile_requests_quickly_and_keeps_its_memory(tmp_path):
    """``meeplezoo serve`` in its own process: the four requests that read /dev/zero, froze
    a worker on a FIFO and read /etc/shadow (as a fitted file and as a board) each get a
    4xx, the server's memory stays put and ``GET /`` still answers."""
    import http.client
    import socket
    import subprocess
    import sys
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    server = subprocess.Popen([sys.executable, "-m", "meeplezoo.play.cli", "serve",
                               "--port", str(port)], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def request(method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            connection.request(method, path, body=json.dumps(body) if body else None,
                               headers=JSON if body else {})
            answer = connection.getresponse()
            return answer.status, answer.read()
        finally:
            connection.close()

    def rss_mb() -> float:
        for line in open(f"/proc/{server.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise AssertionError("no VmRSS")

    try:
        deadline = time.monotonic() + 120
        while True:                            # up when it answers, however long that takes
            try:
                if request("GET", "/")[0] == 200:
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        before = rss_mb()
        attacks = [("carcassonne", "mcts:50,leaf=fitted:/dev/zero", {}),
                   ("carcassonne", f"mcts:50,leaf=fitted:{fifo}", {}),
                   ("carcassonne", "mcts:50,leaf=fitted:/etc/shadow", {}),
                   ("hansa", "random", {"board": "/etc/shadow"})]
        timings = []
        for game, seat, options in attacks:
            body = {"game": game, "seats": ["human", seat], "seed": 1, "options": options}
            started = time.perf_counter()
            status, answer = request("POST", "/api/games", body)
            timings.append(time.perf_counter() - started)
            assert 400 <= status < 500 and b"may not be named here" in answer, answer
        assert rss_mb() - before < 100
        assert request("GET", "/")[0] == 200
        print(f"hostile requests answered in {', '.join(f'{t:.3f}' for t in timings)} s; "
              f"server RSS {before:.0f} -> {rss_mb():.0f} MB")
    finally:
        server.terminate()
        server.wait(timeout=60)
