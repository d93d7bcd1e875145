"""Hansa Teutonica's options are checked at construction: one clear
``ValueError`` each, and a region table or file that cannot be used (HT-11, spec §12.6)
raises ``BoardError`` (a ``ValueError``), never a foreign exception."""

from __future__ import annotations

import json

import pytest

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.envs.hansa_teutonica import BoardError
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.options import load_regions, make_config

YES_NO = ("two_player_regions", "remove3_opponents_only")


def default_table() -> dict:
    return {"borders": [list(r) for r in D.DEFAULT_REGION_ROUTES],
            "adjacent": [list(a) for a in D.DEFAULT_REGION_ADJ]}


@pytest.mark.parametrize("option", YES_NO)
@pytest.mark.parametrize("junk", ["yes", 2, None, 0.5, 1, 0, "False"])
def test_yes_no_options_take_only_true_or_false(option, junk):
    """A-1 / HT-11 switches: truthiness is not a yes ('yes', 2, None, 0.5 were accepted)."""
    with pytest.raises(ValueError, match=option):
        hansa_teutonica_v0.env(num_players=2, **{option: junk})
    hansa_teutonica_v0.env(num_players=2, **{option: True})


def test_a_bad_two_player_regions_value_gets_the_options_own_error():
    """env.py tests the variant's player count first: 'yes' with 3 players must still be
    reported as a bad value of the option, not as the wrong player count."""
    with pytest.raises(ValueError, match="must be True or False"):
        hansa_teutonica_v0.env(num_players=3, two_player_regions="yes")
    with pytest.raises(ValueError, match="2-player variant"):
        hansa_teutonica_v0.env(num_players=3, two_player_regions=True)
    hansa_teutonica_v0.env(num_players=3, two_player_regions=False)


@pytest.mark.parametrize("junk", [10**30, -(10**30), 0, -1, 99, 1.5, 3000.0, True, "3000", None,
                                  D.MAX_DECISIONS_LIMIT + 1])
def test_max_decisions_takes_an_integer_in_range(junk):
    with pytest.raises(ValueError, match="max_decisions"):
        make_config(max_decisions=junk)


@pytest.mark.parametrize("junk", ["Shared", "", None, 1, True])
def test_tie_break_takes_one_of_its_names(junk):
    with pytest.raises(ValueError, match="tie_break"):
        make_config(tie_break=junk)


def test_unknown_options_are_named():
    with pytest.raises(ValueError, match="two_player_region"):
        make_config(two_player_region=True)


# --- region tables: dicts and files -------------------------------------------------------

def bad_tables():
    table = default_table()
    yield "not a dict", [1, 2]
    yield "extra key", {**table, "name": "x"}
    yield "borders not a list", {**table, "borders": 5}
    yield "borders a string", {**table, "borders": "0,1,2"}
    yield "ten regions", {**table, "borders": table["borders"][:10]}
    yield "a region's borders an int", {**table, "borders": [5] + table["borders"][1:]}
    yield "a route id a string", {**table, "borders": [["3"]] + table["borders"][1:]}
    yield "a route id a float", {**table, "borders": [[3.0]] + table["borders"][1:]}
    yield "a route id a bool", {**table, "borders": [[True]] + table["borders"][1:]}
    yield "a route off the 2-3 side", {**table, "borders": [[32]] + table["borders"][1:]}
    yield "a huge route id", {**table, "borders": [[10**30]] + table["borders"][1:]}
    yield "a negative region", {**table, "adjacent": [[-1]] + table["adjacent"][1:]}
    yield "a region next to itself", {**table, "adjacent": [[0, 1]] + table["adjacent"][1:]}
    yield "one-way adjacency", {**table, "adjacent": [[1, 2, 3, 4, 6, 8, 9, 10, 5]]
                                + table["adjacent"][1:]}
    yield "adjacency a dict", {**table, "adjacent": {"0": [1]}}


@pytest.mark.parametrize("name, table", list(bad_tables()), ids=[n for n, _ in bad_tables()])
def test_a_bad_region_table_raises_board_error(name, table, tmp_path):
    with pytest.raises(BoardError):
        load_regions(table)
    path = tmp_path / "regions.json"
    path.write_text(json.dumps(table))
    with pytest.raises(BoardError):
        hansa_teutonica_v0.env(num_players=2, two_player_regions=True, regions=str(path))


@pytest.mark.parametrize("content", [
    b"\xff\xfe{\"borders\": []}",                           # not UTF-8
    b"[" * 100_000 + b"]" * 100_000,                        # 100k-deep nesting
    b'{"borders": [[' + b"9" * 100_000 + b']], "adjacent": []}',   # a 100,000-digit number
    b'{"borders": ',                                        # cut short
    b"",
    b"null",
    b'"regions"',
], ids=["non-utf8", "deep", "long-number", "truncated", "empty", "null", "string"])
def test_a_malformed_region_file_raises_board_error(content, tmp_path):
    path = tmp_path / "regions.json"
    path.write_bytes(content)
    with pytest.raises(BoardError, match="region"):
        load_regions(str(path))
    with pytest.raises(BoardError):
        load_regions(path)                                  # a Path works the same


def test_a_missing_or_unreadable_region_file_raises_board_error(tmp_path):
    for where in (tmp_path / "nothing.json", tmp_path):     # absent; a directory
        with pytest.raises(BoardError, match="no such region file|not a regular file"):
            load_regions(str(where))
    for junk in (5, 1.5, True, [1, 2]):
        with pytest.raises(BoardError):
            load_regions(junk)
    assert issubclass(BoardError, ValueError)
    assert hansa_teutonica_v0.BoardError is BoardError


def test_a_good_region_table_loads_from_a_dict_or_a_file(tmp_path):
    path = tmp_path / "regions.json"
    path.write_text(json.dumps(default_table()))
    assert load_regions(str(path)) == load_regions(default_table()) == load_regions(None)
