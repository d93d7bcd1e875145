"""The server's trust boundary: a page on another site cannot drive it through
the person's browser (Host, Origin and Content-Type checks, ``guard.py``); a request runs
code only on a loopback server started with ``--allow-code-agents``, and is refused before
anything is imported or started; hostile bodies, files and specs are 400s that change
nothing; an open replay costs little memory and shows exactly the positions a fresh walk
does."""

from __future__ import annotations

import io
import json
import os
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from meeplezoo.agents.registry import make_agent  # noqa: E402
from meeplezoo.envs import make  # noqa: E402
from meeplezoo.play import replay as replays  # noqa: E402
from meeplezoo.play.cli import main  # noqa: E402
from meeplezoo.play.web import sessions as web_sessions  # noqa: E402
from meeplezoo.play.web.board import board_view  # noqa: E402
from meeplezoo.play.web.server import (
    MAX_BODY,  # noqa: E402
    create_app,  # noqa: E402
)

LOCAL = "http://127.0.0.1:8000"                   # where a default app is bound
JSON = {"Content-Type": "application/json"}
EXAMPLE = Path(__file__).parents[2] / "agents" / "examples" / "my_agent.py"


@pytest.fixture()
def client():
    with TestClient(create_app(), base_url=LOCAL) as test_client:
        yield test_client


@pytest.fixture()
def code_client():
    with TestClient(create_app(allow_code_agents=True), base_url=LOCAL) as test_client:
        yield test_client


@pytest.fixture()
def evil(tmp_path):
    """A bot file whose import writes a marker: (its path, the marker's path)."""
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.py"
    path.write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n"
                    f"class Bot:\n    pass\n")
    return path, marker


def children() -> set[int]:
    """This process's child processes (Linux /proc: ``process:`` seats start one)."""
    me, found = str(os.getpid()), set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue                                  # a process that just ended
        if fields[1] == me:
            found.add(int(stat.parent.name))
    return found


def attack(seat: str) -> dict:
    return {"game": "saint_malo", "seats": ["human", seat], "seed": 1}


# --- a cross-site request ----------------------------------------------------------------

@pytest.mark.parametrize("allow", [False, True])
def test_a_cross_site_request_is_refused_and_runs_nothing(evil, allow):
    """curl -X POST .../api/games -H 'Host: attacker.example' -H 'Origin: http://attacker
    .example' -H 'Content-Type: text/plain;charset=UTF-8' --data '{... process:evil.py:Bot}'
    and its parts one at a time; on a server with --allow-code-agents too."""
    path, marker = evil
    before = children()
    body = json.dumps(attack(f"process:{path}:Bot"))
    with TestClient(create_app(allow_code_agents=allow), base_url=LOCAL) as client:
        for headers, status in (
                ({"Host": "attacker.example", "Origin": "http://attacker.example",
                  "Content-Type": "text/plain;charset=UTF-8"}, 400),       # the attack
                ({"Host": "attacker.example", **JSON}, 400),               # foreign Host only
                ({"Origin": "http://attacker.example", **JSON}, 403),      # foreign Origin
                ({"Origin": "null", **JSON}, 403),                         # a sandboxed page
                ({"Origin": LOCAL, "Content-Type": "text/plain;charset=UTF-8"}, 415),
                ({"Origin": LOCAL}, 415)):                                 # no type at all
            response = client.post("/api/games", content=body, headers=headers)
            assert response.status_code == status, (headers, response.text)
            assert response.json()["error"], headers
            assert "access-control-allow-origin" not in response.headers
        assert len(client.app.state.sessions) == 0
    assert not marker.exists() and children() <= before


@pytest.mark.parametrize("seat", ["process:{path}:Bot", "{path}:Bot",
                                  "meeplezoo.agents.examples.my_agent:first_legal"])
def test_a_good_request_for_a_code_agent_needs_the_flag(client, evil, seat):
    path, marker = evil
    before = children()
    seat = seat.format(path=path)
    response = client.post("/api/games", json=attack(seat), headers={"Origin": LOCAL})
    assert response.status_code == 400, response.text
    assert response.json()["error"] == (f"seat 1 ({seat}) runs code: start the server with "
                                        f"--allow-code-agents to seat it")
    assert not marker.exists() and children() <= before
    assert len(client.app.state.sessions) == 0


def test_with_the_flag_a_bot_file_seat_plays(code_client):
    for name in ("first_legal", "MostMovesAgent", "make_agent"):
        view = code_client.post("/api/games", json={
            "game": "hansa", "seats": ["human", f"{EXAMPLE}:{name}"], "seed": 2}).json()
        while not view["over"] and not view["human_to_move"]:
            response = code_client.post(f"/api/games/{view['id']}/step", headers=JSON)
            assert response.status_code == 200, response.text
            view = response.json()
        first = code_client.post(f"/api/games/{view['id']}/move",
                                 json={"action": view["moves"][0]["action"]})
        assert first.status_code == 200 and first.json()["ply"] > view["ply"]


def test_code_agents_are_for_loopback_only(capsys):
    for host in ("0.0.0.0", "192.168.1.20", "example.org", "::"):
        with pytest.raises(ValueError, match="loopback"):
            create_app(allow_code_agents=True, host=host)
    assert main(["serve", "--host", "0.0.0.0", "--allow-code-agents"]) == 2
    error = capsys.readouterr().err
    assert "--allow-code-agents" in error and len(error.strip().splitlines()) == 1
    for host in ("127.0.0.1", "localhost", "::1"):
        create_app(allow_code_agents=True, host=host)


def test_a_file_opened_in_the_page_never_seats_code(code_client, evil):
    path, marker = evil
    view = code_client.post("/api/games", json={"game": "hansa", "seats": ["human", "human"],
                                                "seed": 3}).json()
    for _ in range(4):
        view = code_client.post(f"/api/games/{view['id']}/move",
                                json={"action": view["moves"][0]["action"]}).json()
    saved = code_client.get(f"/api/games/{view['id']}/record").json()
    saved["seats"] = ["human", f"{path}:Bot"]
    opened = code_client.post("/api/replays", json={"record": saved})
    assert opened.status_code == 200, opened.text                 # shown, the seat a name
    response = code_client.post(f"/api/replays/{opened.json()['id']}/play", headers=JSON)
    assert response.status_code == 400 and "would run code" in response.json()["error"]
    assert not marker.exists()


# --- Host, Origin, Content-Type on every route ------------------------------------------------

def test_every_state_changing_route_refuses_another_site(client):
    game = client.post("/api/games", json={"game": "hansa", "seats": ["human", "human"],
                                           "seed": 1}).json()
    agents = [make_agent("random", "hansa_v0"), make_agent("random", "hansa_v0")]
    replay = client.post("/api/replays", json=replays.record_game("hansa", agents, seed=4))
    keys = {"/api/games/": game["id"], "/api/replays/": replay.json()["id"]}
    before = client.get(f"/api/games/{game['id']}").json()
    posts = [r.path for r in client.app.routes if "POST" in (getattr(r, "methods", None) or ())]
    assert len(posts) == 9
    for template in posts:
        path = template.replace("{key}", keys["/api/games/" if template.startswith(
            "/api/games/") else "/api/replays/"])
        body = {"action": game["moves"][0]["action"], "ply": 1}
        for headers, status in (({"Origin": "http://attacker.example"}, 403),
                                ({"Origin": "null"}, 403),
                                ({"Host": "attacker.example"}, 400),
                                ({"Host": "attacker.example:8000"}, 400),
                                ({"Host": "127.0.0.1:8001"}, 400),
                                ({"Origin": "http://127.0.0.1:8001"}, 403),
                                ({"Origin": "https://127.0.0.1:8000"}, 403)):
            response = client.post(path, json=body, headers=headers)
            assert response.status_code == status, (path, headers, response.text)
        assert client.options(path, headers={"Origin": "http://attacker.example"}) \
            .status_code == 403
    assert client.get(f"/api/games/{game['id']}").json() == before
    assert len(client.app.state.sessions) == 2
    for path in ("/", "/api/setup", f"/api/games/{game['id']}", "/static/app.js"):
        assert client.get(path, headers={"Host": "attacker.example"}).status_code == 400


def test_the_bound_addresses_are_accepted():
    with TestClient(create_app(), base_url=LOCAL) as client:
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000"):
            assert client.get("/api/setup", headers={"Host": host}).status_code == 200, host
            response = client.post("/api/games", headers={"Host": host, "Origin": f"http://{host}"},
                                   json={"game": "hansa", "seats": ["human", "human"]})
            assert response.status_code == 200, (host, response.text)
        for host in ("127.0.0.1", "testserver", "localhost.attacker.example:8000", ""):
            assert client.get("/api/setup", headers={"Host": host}).status_code == 400, host
    with TestClient(create_app(port=80), base_url="http://localhost") as client:
        assert client.get("/api/setup").status_code == 200            # Host: localhost
    with TestClient(create_app(host="192.168.1.20", port=8080),
                    base_url="http://192.168.1.20:8080") as client:
        assert client.get("/api/setup").status_code == 200
        assert client.get("/api/setup", headers={"Host": "127.0.0.1:8080"}).status_code == 400


# --- bodies, specs and files that used to be 500s ---------------------------------------------

def test_hostile_bodies_are_refused(client):
    for raw in (b"[" * 100_000, b'{"a":' * 100_000):
        response = client.post("/api/games", content=raw, headers=JSON)
        assert response.status_code == 400 and "nested too deeply" in response.json()["error"]
    big = b'{"pad": "' + b"x" * MAX_BODY + b'"}'
    response = client.post("/api/replays", content=big, headers=JSON)
    assert response.status_code == 413
    assert len(client.app.state.sessions) == 0


def test_hostile_specs_are_400s_that_change_nothing(client):
    game = client.post("/api/games", json={"game": "hansa", "seats": ["human", "random"],
                                           "seed": 1}).json()
    for seat in ("ppo:/etc/passwd", "az:/etc/passwd", "mcts:200,nodes=999999999999"):
        response = client.post("/api/games", json={"game": "hansa", "seats": ["human", seat]})
        assert response.status_code == 400, (seat, response.text)
    response = client.post(f"/api/games/{game['id']}/analysis",
                           json={"simulations": 8, "network": "az:/etc/passwd"})
    assert response.status_code == 400, response.text
    assert len(client.app.state.sessions) == 1


def test_a_replay_with_edited_rewards_is_refused(client):
    agents = [make_agent("random", "hansa_v0"), make_agent("random", "hansa_v0")]
    record = replays.record_game("hansa", agents, seed=5)
    response = client.post("/api/replays", json={**record, "rewards": [-7, -7]})
    assert response.status_code == 400, response.text
    assert len(client.app.state.sessions) == 0
    assert client.post("/api/replays", json=record).status_code == 200


# --- a replay's positions on demand -----------------------------------------------------------

def test_a_replays_positions_are_those_of_a_fresh_walk():
    agents = [make_agent("random", "hansa_v0"), make_agent("random", "hansa_v0")]
    record = replays.record_game("hansa", agents, seed=6)
    plies, every = len(record["actions"]), web_sessions.SNAPSHOT_EVERY
    assert plies > 2 * every
    view = web_sessions.ReplayView(record, "r.json")
    assert len(view.snapshots) == plies // every + 1                # not one per ply
    walk = make("hansa_v0", raw=True, num_players=2)
    walk.reset(seed=6)
    fresh = [walk.clone()]
    for action in record["actions"]:
        walk.step(action)
        fresh.append(walk.clone())
    rng = random.Random(0)
    order = [0, 1, every - 1, every, every + 1, 2 * every, plies, plies - 1, 3, 2, 1, 0,
             *range(every - 3, every + 4), *rng.sample(range(plies + 1), 40), plies]
    for ply in order:
        shown, env = view.view(ply), fresh[ply]
        assert shown["board"] == board_view(env.spec, env.state, [])[0], ply
        assert shown["scores"] == [int(s) for s in env.scores()], ply
        assert (shown["phase"], shown["ply"]) == (env.phase, ply)
        at = view._env_at(ply)
        assert (at.state == env.state).all() and (at.rng == env.rng).all(), ply
        if not env.game_over and ply % 17 == 0:
            view.analysis(ply, simulations=4)                       # searches a copy
    assert (view._env_at(0).state == fresh[0].state).all()


def test_build_agents_seats_code_only_when_asked_and_the_terminal_asks(evil):
    from meeplezoo.play.terminal import TerminalGame, build_agents

    path, marker = evil
    for spec in (f"process:{path}:Bot", f"{path}:Bot", "meeplezoo.agents.examples.my_agent:x"):
        with pytest.raises(ValueError, match="runs code"):
            build_agents("hansa_v0", ["random", spec], seed=1)
    assert not marker.exists()
    agents = build_agents("hansa_v0", ["human", f"{EXAMPLE}:first_legal"], 1, allow_code=True)
    assert agents[0] is None and agents[1].name == f"{EXAMPLE}:first_legal"
    table = TerminalGame("hansa", ["human", f"{EXAMPLE}:MostMovesAgent"], seed=1,
                         input_fn=lambda prompt: "quit", out=io.StringIO())
    assert table.agents[1] is not None                      # meeplezoo play: the user's own
