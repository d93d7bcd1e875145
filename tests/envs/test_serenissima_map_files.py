"""Malformed map files and map dicts: always a ``MapError`` with a
message, never a foreign exception (``RecursionError``, ``UnicodeDecodeError``, the
``ValueError`` of int parsing, ``TypeError``, ``KeyError``); and names that would give two
legal moves one name are refused."""

from __future__ import annotations

import copy
import json

import pytest

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.serenissima.maps import PLACEHOLDER_MAP, MapError, validate_map
from meeplezoo.envs.serenissima.options import make_config, read_map


def edited(edit) -> dict:
    spec = copy.deepcopy(PLACEHOLDER_MAP)
    edit(spec)
    return spec


def placeholder_text(replace: str, by: str) -> str:
    text = json.dumps(PLACEHOLDER_MAP)
    assert replace in text
    return text.replace(replace, by, 1)


FILES = {
    "not_utf8": b'{"zones": "\xff\xfe\xfa"}',
    "latin1_name": placeholder_text('"Valencia"', '"Val\u00e8ncia"').encode("latin-1"),
    "deep_nesting": b"[" * 100_000 + b"]" * 100_000,
    "deep_in_a_field": placeholder_text('"track": {', '"notes": ' + "[" * 100_000
                                        + "]" * 100_000 + ', "track": {').encode(),
    "huge_number": placeholder_text('"size": 5', '"size": ' + "9" * 100_000).encode(),
    "huge_float": placeholder_text('"size": 5', '"size": 1e999999').encode(),
    "not_json": b"{zones: 1",
    "empty": b"",
    "json_null": b"null",
    "a_list": b"[1, 2, 3]",
    "a_string": b'"placeholder"',
}


@pytest.mark.parametrize("kind", sorted(FILES))
def test_a_malformed_map_file_is_a_map_error(tmp_path, kind):
    path = tmp_path / f"{kind}.json"
    path.write_bytes(FILES[kind])
    with pytest.raises(MapError) as caught:
        make_config(map=str(path))
    assert str(caught.value) and len(str(caught.value)) < 2000
    with pytest.raises(ValueError):                       # what a user of the env sees
        serenissima_v0.env(num_players=2, map=path)


WRONG_TYPES = {
    "adjacent_unhashable": lambda s: s["zones"][0]["adjacent"].append(["Z2"]),
    "adjacent_a_dict": lambda s: s["zones"][0].update(adjacent={"Z2": 1}),
    "adjacent_a_number": lambda s: s["zones"][0]["adjacent"].append(2),
    "port_zone_a_list": lambda s: s["ports"][0].update(zone=["Z1"]),
    "port_zone_a_dict": lambda s: s["ports"][0].update(zone={"Z1": 1}),
    "port_good_a_list": lambda s: s["ports"][0].update(good=["wood"]),
    "zone_name_a_number": lambda s: s["zones"][0].update(name=5),
    "zone_name_blank": lambda s: s["zones"][0].update(name="   "),
    "port_name_a_list": lambda s: s["ports"][0].update(name=["Valencia"]),
    "zone_not_an_object": lambda s: s["zones"].__setitem__(0, ["Z1"]),
    "ports_an_object": lambda s: s.update(ports={"Valencia": 1}),
    "track_a_list": lambda s: s.update(track=[10, 4, 7]),
    "track_values_text": lambda s: s["track"].update(scoring_4p="4, 7, 10"),
    "track_value_float": lambda s: s["track"].update(last=10.0),
    "track_value_bool": lambda s: s["track"].update(start_23p=False),
    "huge_int": lambda s: s["ports"][0].update(size=10 ** 5000),
    "score_text": lambda s: s["ports"][0].update(score="0 3 6 10 15 20"),
    "slot_float": lambda s: s["ports"][0].update(slot_values=[2, 3, 4, 5, 6.5]),
    "xy_bool": lambda s: s["zones"][0].update(xy=[True, 0.5]),
    "xy_nan": lambda s: s["zones"][0].update(xy=[float("nan"), 0.5]),
    "mixed_key_types": lambda s: s.update({1: "a", (2,): "b"}),
    "start_a_number": lambda s: s["ports"][0].update(start=1),
}


@pytest.mark.parametrize("kind", sorted(WRONG_TYPES))
def test_wrong_types_anywhere_are_map_errors(kind):
    with pytest.raises(MapError):
        validate_map(edited(WRONG_TYPES[kind]))


@pytest.mark.parametrize("source", [
    "generated:-1", "generated:1e3", "generated:" + "9" * 100_000, "generated:", "a\0b.json",
    "x" * 5000, "/no/such/dir/map.json", 5, 2.5, None, ["placeholder"], b"placeholder",
])
def test_bad_map_sources_are_map_errors(source):
    with pytest.raises(MapError):
        make_config(map=source)


def test_a_map_file_that_is_a_directory_is_a_map_error(tmp_path):
    with pytest.raises(MapError, match="not a regular file"):
        read_map(str(tmp_path))


@pytest.mark.parametrize("name", ["g3", "G12", " g1 ", "port", "Active"])
def test_a_port_may_not_be_named_like_a_galley_or_a_notation_word(name):
    """'recruit g3' names galley 3 (one name per legal move)."""
    with pytest.raises(MapError, match="reserved by the move notation"):
        validate_map(edited(lambda s: s["ports"][1].update(name=name)))


def test_names_must_differ_ignoring_case_and_spacing():
    """Moves are parsed case- and space-insensitively: 'recruit venice' must name one
    port, 'move z2' one zone."""
    with pytest.raises(MapError, match="duplicate port name"):
        validate_map(edited(lambda s: s["ports"][1].update(name="VALENCIA ")))
    with pytest.raises(MapError, match="duplicate zone name"):
        validate_map(edited(lambda s: (s["zones"][1].update(name="z1"),
                                       [z["adjacent"].__setitem__(z["adjacent"].index("Z2"), "z1")
                                        for z in s["zones"] if "Z2" in z["adjacent"]],
                                       [p.update(zone="z1") for p in s["ports"]
                                        if p["zone"] == "Z2"])))
