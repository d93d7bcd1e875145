"""The browser's server without a browser: for every game a person plays random
to the end through the API and the result is the env's; bots, undo, hint, analysis;
replays and saved games stepped through; every bad request is refused with a clear
message and changes nothing; two games at once do not mix."""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from meeplezoo.agents.registry import make_agent  # noqa: E402
from meeplezoo.envs import (
    make,  # noqa: E402
    resolve_game,  # noqa: E402
)
from meeplezoo.play import replay as replays  # noqa: E402
from meeplezoo.play.web.server import create_app  # noqa: E402

# Hansa Teutonica between random movers runs to its decision cap (3,000): a lower cap, a
# rule option like any other, ends the game sooner.
GAMES = {"hansa": {}, "saint_malo": {}, "carcassonne": {}, "serenissima": {},
         "hansa_teutonica": {"max_decisions": 300}}


@pytest.fixture()
def client():
    # As the page sends them: to the Host a default server answers, every POST as JSON
    # (guard.py refuses anything else; test_security.py tests that).
    with TestClient(create_app(), base_url="http://127.0.0.1:8000",
                    headers={"Content-Type": "application/json"}) as test_client:
        yield test_client


def new_game(client, game="hansa", seats=("human", "random"), seed=1, **extra):
    response = client.post("/api/games", json={"game": game, "seats": list(seats),
                                               "seed": seed, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def play_out(client, view, rng, moves=None):
    """A person's random legal moves and the bots' steps until the end."""
    while not view["over"]:
        key = view["id"]
        if view["human_to_move"]:
            choice = rng.choice(view["moves"])
            moves is not None and moves.append(choice["action"])
            view = client.post(f"/api/games/{key}/move", json={"action": choice["action"]})
        else:
            view = client.post(f"/api/games/{key}/step")
        assert view.status_code == 200, view.text
        view = view.json()
    return view


def env_after(game, seed, actions, options=None, players=2):
    env = make(resolve_game(game), raw=True, num_players=players, **(options or {}))
    env.reset(seed=seed)
    for action in actions:
        env.step(action)
    return env


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_person_plays_random_to_the_end_and_the_result_is_the_envs(client, game):
    view = new_game(client, game, options=GAMES[game])
    assert view["board"]["png"] and view["board"]["width"] > 100
    final = play_out(client, view, random.Random(0))
    actions = [entry["action"] for entry in final["log"]]
    env = env_after(game, 1, actions, GAMES[game])
    assert env.game_over and final["scores"] == [int(s) for s in env.scores()]
    assert final["rewards"] == [float(env.rewards[a]) for a in env.possible_agents]
    assert final["result"].startswith(("winner: ", "shared win: ")) and final["moves"] == []
    record = client.get(f"/api/games/{final['id']}/record").json()
    checked = replays.check_replay(record)
    replays.check_result(checked, replays.simulate(checked)[0])   # a valid replay file


def test_every_move_with_a_place_on_the_board_is_clickable_there(client):
    from meeplezoo.envs.carcassonne import data as carcassonne
    from meeplezoo.envs.saint_malo import data as saint_malo

    # Saint Malo: its cells, and the dice to stop or re-roll; never a pass; a scoring
    # choice only where a die shows its face (None: either)
    on_board = {"carcassonne": lambda a: a < carcassonne.A_NO_MEEPLE,   # tiles and meeples
                "saint_malo": lambda a: True if a < saint_malo.A_PASS or a >= saint_malo.A_PLACE
                else False if a == saint_malo.A_PASS else None}
    for game, placed in on_board.items():
        view = new_game(client, game, seats=["human", "human"], seed=3)
        rng, clickable = random.Random(1), 0
        for _ in range(60):
            if view["over"]:
                break
            boxes, height = view["board"]["targets"], view["board"]["height"]
            for move in view["moves"]:
                if placed(move["action"]) is not None:
                    assert (move["target"] is not None) == placed(move["action"]), (game, move)
                if move["target"] is not None:
                    y, x, h, w = boxes[move["target"]]
                    assert 0 <= y < y + h <= height and 0 <= x < x + w <= view["board"]["width"]
                    clickable += 1
            move = rng.choice(view["moves"])["action"]
            view = client.post(f"/api/games/{view['id']}/move", json={"action": move}).json()
        assert clickable > 20, game
    start = new_game(client, "hansa", seats=["human", "human"])     # first stalls: a city
    assert start["board"]["targets"] and all(m["target"] is not None for m in start["moves"])


def test_bad_requests_are_refused_and_change_nothing(client):
    view = new_game(client, seats=["human", "human"])
    key, before = view["id"], view
    illegal = next(a for a in range(400) if a not in {m["action"] for m in view["moves"]})
    for body, status, words in (
            ({"action": illegal}, 400, "not a legal move"),
            ({"action": "3"}, 400, "an action id"),
            ({"move": "fly to the moon"}, 400, "not a legal move here"),
            ({"move": "999"}, 400, "there is no move 999")):
        response = client.post(f"/api/games/{key}/move", json=body)
        assert response.status_code == status and words in response.json()["error"], body
    assert client.get(f"/api/games/{key}").json() == before
    response = client.post(f"/api/games/{key}/move", content=b"{not json")
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]
    assert client.post(f"/api/games/{key}/step").status_code == 409       # a person's turn
    assert client.post(f"/api/games/{key}/undo").status_code == 409       # nothing yet
    assert client.get("/api/games/nope").status_code == 404
    for body, words in (({"game": "chess", "seats": ["human", "random"]}, "unknown game"),
                        ({"game": "hansa", "seats": ["human"]}, "is for 2-4 players"),
                        ({"game": "hansa", "seats": ["human", "wizard:9"]}, "unknown seat"),
                        ({"game": "hansa", "seats": ["human", "random"], "options":
                          {"no_such_rule": 1}}, "unknown Hansa option"),
                        ({"game": "hansa", "seats": ["human", "random"], "seed": -1}, "seed"),
                        ({"game": "hansa", "seats": "human"}, "seats"),
                        ({"game": "hansa", "players": 2}, "unknown field")):
        response = client.post("/api/games", json=body)
        assert response.status_code == 400 and words in response.json()["error"], body
    assert len(client.app.state.sessions) == 1                 # no half-made game kept


def test_undo_hint_and_analysis(client):
    view = new_game(client, seats=["human", "random"], seed=4)
    while not view["human_to_move"]:
        view = client.post(f"/api/games/{view['id']}/step").json()
    start_ply, key = view["ply"], view["id"]
    hint = client.post(f"/api/games/{key}/hint").json()
    assert hint["action"] in {m["action"] for m in view["moves"]}
    view = client.post(f"/api/games/{key}/move", json={"move": hint["move"]}).json()
    while not view["human_to_move"]:
        view = client.post(f"/api/games/{key}/step").json()
    assert view["ply"] > start_ply and view["can_undo"]
    view = client.post(f"/api/games/{key}/undo").json()
    assert view["ply"] == start_ply and len(view["log"]) == start_ply
    result = client.post(f"/api/games/{key}/analysis",
                         json={"simulations": 64, "network": "az:default"}).json()
    assert sum(m["visits"] for m in result["moves"]) >= 63
    assert {m["action"] for m in result["moves"]} == {m["action"] for m in view["moves"]}
    policy = result["network"]["policy"]
    assert abs(sum(p["prior"] for p in policy) - 1) < 0.01 and len(result["network"]["value"]) == 2
    for body, words in (({"simulations": 0}, "simulations"),
                        ({"network": "ppo:nothing.pt"}, "trained bot spec"),
                        ({"network": "az:missing.pt"}, "may not be named here")):
        response = client.post(f"/api/games/{key}/analysis", json=body)
        assert response.status_code == 400 and words in response.json()["error"], body


def test_two_games_at_once_do_not_mix(client):
    one = new_game(client, "hansa", seats=["human", "human"], seed=5)
    two = new_game(client, "saint_malo", seats=["human", "human"], seed=5)
    for _ in range(6):
        one = client.post(f"/api/games/{one['id']}/move",
                          json={"action": one["moves"][0]["action"]}).json()
    two = client.post(f"/api/games/{two['id']}/move",
                      json={"action": two["moves"][-1]["action"]}).json()
    assert (one["game"], one["ply"], two["game"], two["ply"]) == ("hansa_v0", 6, "saint_malo_v0", 1)
    env = env_after("hansa", 5, [e["action"] for e in one["log"]])
    assert client.get(f"/api/games/{one['id']}").json()["scores"] == [int(s) for s in env.scores()]
    response = client.get(f"/api/replays/{one['id']}")
    assert response.status_code == 404                         # a game is not a replay


def test_a_replay_steps_through_with_the_searchs_evaluations(client):
    agents = [make_agent("mcts:16", "hansa_v0", seed=0), make_agent("random", "hansa_v0")]
    record = replays.record_game("hansa", agents, seed=2)
    assert len(record["evaluations"]) == len(record["actions"])
    view = client.post("/api/replays", json={"name": "g.json", "record": record}).json()
    key, plies = view["id"], len(record["actions"])
    assert view["ply"] == 0 and view["plies"] == plies and not view["over"]
    for ply in (1, plies // 2, plies):
        at = client.get(f"/api/replays/{key}?ply={ply}").json()
        expected = env_after("hansa", 2, record["actions"][:ply])
        assert at["ply"] == ply and at["scores"] == [int(s) for s in expected.scores()]
    assert at["over"] and at["scores"] == record["scores"] and "result" in at
    searched = [p for p, e in enumerate(record["evaluations"]) if e]
    shown = client.get(f"/api/replays/{key}?ply={searched[0]}").json()["next_evaluation"]
    assert shown == record["evaluations"][searched[0]] and shown["moves"]
    result = client.post(f"/api/replays/{key}/analysis", json={"ply": 3, "simulations": 16})
    assert result.status_code == 200 and result.json()["moves"]
    for ply in (-1, plies + 1, "x"):
        response = client.get(f"/api/replays/{key}?ply={ply}")
        assert response.status_code == 400 and "position" in response.json()["error"] or \
            "move number" in response.json()["error"]
    assert client.post(f"/api/replays/{key}/play").status_code == 409       # finished


def test_corrupt_and_foreign_files_are_refused(client):
    agents = [make_agent("random", "hansa_v0"), make_agent("random", "hansa_v0")]
    record = replays.record_game("hansa", agents, seed=3)
    cases = [({"format": "something-else"}, "is not a meeplezoo replay"),
             ({**record, "actions": "many"}, "'actions' must be a list"),
             ({**record, "scores": [0, 0]}, "re-simulating gives final scores"),
             ({**record, "actions": record["actions"][:5]}, "is not over"),
             ({**record, "actions": [10**6, *record["actions"][1:]]}, "is illegal"),
             ({**record, "evaluations": [1, 2]}, "'evaluations' must hold"),
             ({**record, "game": "chess"}, "unknown game")]
    for bad, words in cases:
        response = client.post("/api/replays", json={"name": "bad.json", "record": bad})
        assert response.status_code == 400, response.text
        assert words in response.json()["error"], (words, response.text)
    response = client.post("/api/replays", content=b"\x89PNG not json")
    assert response.status_code == 400 and "not valid JSON" in response.json()["error"]
    assert len(client.app.state.sessions) == 0


def test_a_saved_game_opens_and_plays_on(client):
    view = new_game(client, seats=["human", "random"], seed=6)
    view = play_out_some(client, view, 9)
    saved = client.get(f"/api/games/{view['id']}/record").json()
    assert saved["format"] == "meeplezoo-saved-game" and len(saved["actions"]) == view["ply"]
    opened = client.post("/api/replays", json={"record": saved}).json()
    assert opened["playable"] and opened["plies"] == view["ply"]
    again = client.post(f"/api/replays/{opened['id']}/play").json()
    assert again["ply"] == view["ply"] and again["scores"] == view["scores"]
    assert again["moves"] == view["moves"]
    tampered = json.loads(json.dumps(saved))
    tampered["state"]["rng"] = ["1", "2"]                  # not where its moves lead
    response = client.post("/api/replays", json={"record": tampered})
    assert response.status_code == 400 and "does not match" in response.json()["error"]
    cut = {**saved, "actions": saved["actions"][:-1]}
    assert client.post("/api/replays", json={"record": cut}).status_code == 400
    foreign = {**saved, "seats": ["human", "process:somewhere/bot.py:Bot"]}
    opened = client.post("/api/replays", json={"record": foreign}).json()   # only shown
    response = client.post(f"/api/replays/{opened['id']}/play")
    assert response.status_code == 400 and "would run code" in response.json()["error"]


def play_out_some(client, view, plies):
    rng = random.Random(2)
    while view["ply"] < plies or not view["human_to_move"]:
        key = view["id"]
        view = client.post(f"/api/games/{key}/move",
                           json={"action": rng.choice(view["moves"])["action"]}).json() \
            if view["human_to_move"] else client.post(f"/api/games/{key}/step").json()
    return view
