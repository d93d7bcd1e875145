"""Maps as data: the placeholder's facts, every validation error kind (one test each),
``map=`` as a path or a dict, and the seeded generator (always valid, games finish)."""

from __future__ import annotations

import copy
import importlib
import json

import numpy as np
import pytest

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima.invariants import ERRORS, checked_random_games
from meeplezoo.envs.serenissima.mapgen import generate_map
from meeplezoo.envs.serenissima.maps import PLACEHOLDER_MAP, MapError, validate_map
from meeplezoo.envs.serenissima.options import make_config


def broken(edit) -> dict:
    spec = copy.deepcopy(PLACEHOLDER_MAP)
    edit(spec)
    return spec


def test_placeholder_keeps_every_known_fact():
    """§3.2: 19 ports on 20 zones, 5 start ports, Valencia wood/5 next to Algiers,
    Tripoli within 3 of Valencia through Algiers' zone, Antioch gold/3."""
    parsed = validate_map(PLACEHOLDER_MAP)
    names = parsed["port_names"]
    assert len(parsed["zone_names"]) == 20 and len(names) == 19
    starts = {names[p] for p in range(19) if parsed["start"][p]}
    assert starts == {"Valencia", "Genoa", "Venice", "Constantinople", "Alexandria"}
    valencia, algiers, tripoli, antioch = (names.index(n) for n in
                                           ("Valencia", "Algiers", "Tripoli", "Antioch"))
    assert (parsed["good"][valencia], parsed["size"][valencia]) == (D.WOOD, 5)
    assert (parsed["good"][antioch], parsed["size"][antioch]) == (D.GOLD, 3)
    assert parsed["good"][algiers] != D.WOOD
    adj = parsed["adj"]
    zone = parsed["zone"]
    assert adj[zone[valencia], zone[algiers]]
    assert any(adj[zone[algiers], m] and adj[m, zone[tripoli]] for m in range(20))
    assert PLACEHOLDER_MAP["map_id"] == "placeholder_v0"
    assert "PLACEHOLDER" in PLACEHOLDER_MAP["name"]


def test_the_env_says_the_default_map_is_a_reconstruction():
    env = serenissima_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "PLACEHOLDER MAP (reconstruction" in env.render()
    doc = importlib.import_module("meeplezoo.envs.serenissima.env").__doc__
    assert "reconstruction, not the printed board" in doc


ERROR_CASES = {
    "not_an_object": (lambda s: s.clear() or s.update({"zones": 3, "ports": [], "track": {}}),
                      "list of 2..24 zones"),
    "unknown_key": (lambda s: s.update(colour="red"), "unknown key"),
    "missing_key": (lambda s: s.pop("track"), "missing key"),
    "too_many_zones": (lambda s: s["zones"].extend(
        {"name": f"X{i}", "adjacent": []} for i in range(5)), "2..24 zones"),
    "duplicate_zone": (lambda s: s["zones"][1].update(name="Z1"), "duplicate zone name"),
    "unknown_neighbour": (lambda s: s["zones"][0]["adjacent"].append("Z99"),
                          "unknown zone 'Z99'"),
    "self_loop": (lambda s: s["zones"][0]["adjacent"].append("Z1"), "adjacent to itself"),
    "asymmetric": (lambda s: s["zones"][0]["adjacent"].append("Z20"), "not symmetric"),
    "disconnected": (lambda s: (s["zones"][11].update(adjacent=[]),
                                s["zones"][10]["adjacent"].remove("Z12")), "not connected"),
    "bad_xy": (lambda s: s["zones"][0].update(xy=[2, 0]), "xy must be"),
    "port_on_unknown_zone": (lambda s: s["ports"][0].update(zone="Z77"), "unknown zone"),
    "two_ports_in_a_zone": (lambda s: s["ports"][1].update(zone="Z1"), "has two ports"),
    "duplicate_port": (lambda s: s["ports"][1].update(name="Valencia"), "duplicate port"),
    "unknown_good": (lambda s: s["ports"][0].update(good="silk"), "unknown good 'silk'"),
    "size_out_of_range": (lambda s: s["ports"][0].update(size=6), "size = 6 is outside"),
    "slot_count": (lambda s: s["ports"][0].update(slot_values=[2, 3]), "needs 5 values"),
    "slot_value_range": (lambda s: s["ports"][0].update(slot_values=[1, 3, 4, 5, 6]),
                         "slot value = 1 is outside 2..6"),
    "slots_not_ascending": (lambda s: s["ports"][0].update(slot_values=[6, 5, 4, 3, 2]),
                            "must be ascending"),
    "score_length": (lambda s: s["ports"][0].update(score=[0, 1]), "score needs 6 values"),
    "score_shape": (lambda s: s["ports"][0].update(score=[1, 3, 6, 10, 15, 20]),
                    "must start at 0"),
    "start_flag_type": (lambda s: s["ports"][0].update(start="yes"), "true or false"),
    "too_few_start_ports": (lambda s: [s["ports"][i].update(start=False) for i in (0, 3)],
                            "at least 4 start ports"),
    "track_keys": (lambda s: s["track"].pop("start_23p"), "track is missing"),
    "track_last_not_scoring": (lambda s: s["track"].update(scoring_4p=[4, 7]),
                               "must contain the last space 10"),
    "track_space_range": (lambda s: s["track"].update(scoring_23p=[4, 11, 10]),
                          "outside 1..10"),
    "integer_type": (lambda s: s["ports"][0].update(size=5.0), "must be an integer"),
}


@pytest.mark.parametrize("kind", sorted(ERROR_CASES))
def test_validation_error(kind):
    edit, message = ERROR_CASES[kind]
    with pytest.raises(MapError, match=message.replace("(", r"\(").replace(")", r"\)")):
        validate_map(broken(edit))


def test_map_errors_reach_the_env_as_value_errors():
    with pytest.raises(ValueError, match="unknown good"):
        serenissima_v0.env(map=broken(lambda s: s["ports"][0].update(good="silk")))
    with pytest.raises(ValueError, match="no such map file"):
        serenissima_v0.env(map="/no/such/map.json")
    with pytest.raises(ValueError, match="integer"):
        serenissima_v0.env(map="generated:abc")


def test_map_from_a_path_and_from_a_dict(tmp_path):
    spec = broken(lambda s: (s["ports"][0].update(name="Valenza"),
                             s.update(map_id="my_board", name="my board")))
    path = tmp_path / "board.json"
    path.write_text(json.dumps(spec))
    (tmp_path / "bad.json").write_text("{not json")
    for source in (str(path), path, spec):
        env = serenissima_v0.env(num_players=3, map=source, render_mode="ansi")
        env.reset(seed=1)
        text = env.render()
        assert "user map: my board" in text and "Valenza" in text
    with pytest.raises(MapError, match="not valid JSON"):
        make_config(map=str(tmp_path / "bad.json"))


def test_small_custom_map_plays():
    """A 4-zone, 4-port board: the tables travel as arrays in the state (a short track,
    still with three scoring spaces each, SE-11.1)."""
    zones = [{"name": f"A{i}", "adjacent": [f"A{(i + 1) % 4}", f"A{(i + 3) % 4}"]}
             for i in range(4)]
    ports = [{"name": f"P{i}", "zone": f"A{i}", "good": D.GOOD_NAMES[i], "size": 3,
              "start": True, "slot_values": [2, 4, 6], "score": [0, 2, 5, 9]}
             for i in range(4)]
    spec = {"zones": zones, "ports": ports,
            "track": {"last": 4, "scoring_4p": [2, 3, 4], "start_23p": 1,
                      "scoring_23p": [2, 3, 4]}}
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    stats = np.zeros(5, dtype=np.int64)
    for players in (2, 3, 4):
        result = checked_random_games(50, players, make_config(map=spec), new_rng(players),
                                      state, mask, stats)
        assert result == 0, ERRORS[-result // 100000]


def test_generator_is_seeded_and_always_valid():
    assert generate_map(5) == generate_map(5) and generate_map(5) != generate_map(6)
    for seed in range(200):
        spec = generate_map(seed)
        parsed = validate_map(spec)
        assert len(parsed["zone_names"]) == 20 and len(parsed["port_names"]) == 19
        assert sum(parsed["start"]) == 5
        for good in D.CLOSE_GOODS:                          # closable for 2/3 players
            assert sum(1 for p in range(19) if parsed["good"][p] == good
                       and not parsed["start"][p]) >= 1


def test_games_on_generated_maps_finish_with_every_invariant():
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    stats = np.zeros(5, dtype=np.int64)
    for seed in range(30):
        config = make_config(map=f"generated:{seed}")
        for players in (2, 3, 4):
            result = checked_random_games(10, players, config, new_rng(seed * 7 + players),
                                          state, mask, stats)
            assert result == 0, (seed, players, ERRORS[-result // 100000])
    assert stats[0] > 30 * 3 * 10 * 50
