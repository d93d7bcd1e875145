"""Hansa boards as data: the reconstruction's known facts, one test per validation error,
loading from a path or a dict, the board travelling in the state, the seeded generator."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa.board import (
    DEFAULT_BOARD,
    Board,
    BoardError,
    board_from_state,
    generate_board,
    load_board,
    parse_board,
)

CODES = {code: i for i, code in enumerate(D.CITY_CODES)}


def arcs(board: Board) -> set[tuple[str, str]]:
    return {(D.CITY_CODES[a], D.CITY_CODES[b]) for a in range(9) for b in board.exits[a]}


def strongly_connected(board: Board) -> bool:
    for start in range(9):
        seen, todo = {start}, [start]
        while todo:
            for b in board.exits[todo.pop()]:
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        if len(seen) != 9:
            return False
    return True


def test_default_board_is_the_spec_reconstruction():
    board = load_board()
    assert board.is_default and "reconstruction" in board.name
    known = {("CPH", "DAN"), ("CPH", "LUB"), ("CPH", "TON"), ("AAL", "CPH"), ("KAL", "CPH"),
             ("LUB", "AAL"), ("TON", "STO"), ("STO", "REV")}                      # K1-K8
    assert known <= arcs(board)
    assert {b for a, b in arcs(board) if a == "CPH"} == {"DAN", "LUB", "TON"}     # N1
    assert len(board.exits[CODES["KAL"]]) == 1                                    # N2
    assert not any((b, a) in arcs(board) for a, b in arcs(board))                 # N3
    assert all(1 <= len(e) <= 3 for e in board.exits) and strongly_connected(board)
    assert board.numbers[CODES["TON"]] == 1 and board.numbers[CODES["RIG"]] == 9  # [S:Ex1]
    assert sum(board.spaces) == 14 and set(board.spaces) == {1, 2}


def test_docs_and_render_title_say_reconstruction():
    env_module = importlib.import_module("meeplezoo.envs.hansa.env")
    assert "reconstruction" in env_module.__doc__.lower()
    env = hansa_v0.env(num_players=2, render_mode="ansi")
    env.reset(seed=0)
    assert "reconstruction" in env.render().splitlines()[0]


def edited(edit) -> dict:
    doc = json.loads(json.dumps(DEFAULT_BOARD))
    edit(doc)
    return doc


def _city(doc, code):
    return next(c for c in doc["cities"] if c["code"] == code)


BAD_BOARDS = {
    "unknown city in cities": (lambda d: _city(d, "TON").update(code="OSL"), "unknown city"),
    "unknown city in a route": (lambda d: d["routes"].append(["CPH", "BERGEN"]), "unknown city"),
    "duplicated city": (lambda d: d["cities"].append(dict(d["cities"][0])), "listed twice"),
    "missing city (wrong count)": (lambda d: d["cities"].pop(), "wrong city count"),
    "warehouses 3 (wrong count)": (lambda d: _city(d, "DAN").update(warehouses=3),
                                   "wrong warehouse count"),
    "warehouses 0": (lambda d: _city(d, "DAN").update(warehouses=0), "wrong warehouse count"),
    "number out of range": (lambda d: _city(d, "DAN").update(number=10), "not 1..9"),
    "number repeated": (lambda d: _city(d, "DAN").update(number=1), "each once"),
    "number not an integer": (lambda d: _city(d, "DAN").update(number="5"), "integer"),
    "no exit": (lambda d: d.update(routes=[r for r in d["routes"] if r[0] != "RIG"]),
                "no exit"),
    "too many exits (wrong count)": (
        lambda d: d["routes"].extend([["KAL", "TON"], ["KAL", "AAL"], ["KAL", "RIG"]]),
        "wrong route count"),
    "unreachable city": (lambda d: d.update(routes=[r for r in d["routes"] if r[1] != "KAL"]
                                            + [["DAN", "CPH"]]), "unreachable city"),
    "dead end": (lambda d: d.update(routes=[r for r in d["routes"] if r != ["KAL", "CPH"]]
                                    + [["KAL", "DAN"]]), "dead-end city"),
    "route to itself": (lambda d: d["routes"].append(["DAN", "DAN"]), "to itself"),
    "route twice": (lambda d: d["routes"].append(["CPH", "DAN"]), "listed twice"),
    "route not a pair": (lambda d: d["routes"].append(["CPH"]), "pair"),
    "unknown board key": (lambda d: d.update(arrows=[]), "unknown board key"),
    "unknown city key": (lambda d: _city(d, "DAN").update(colour="red"), "unknown city key"),
    "no cities list": (lambda d: d.pop("cities"), "'cities' list"),
}


@pytest.mark.parametrize("kind", sorted(BAD_BOARDS))
def test_board_validation_error(kind):
    edit, match = BAD_BOARDS[kind]
    with pytest.raises(BoardError, match=match):
        parse_board(edited(edit))


def test_board_errors_reach_the_env_constructor():
    with pytest.raises(ValueError, match="unreachable city"):
        hansa_v0.env(board=edited(BAD_BOARDS["unreachable city"][0]))


def test_board_load_errors(tmp_path):
    with pytest.raises(BoardError, match="no such board file"):
        load_board(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BoardError, match="not valid JSON"):
        load_board(bad)
    with pytest.raises(BoardError, match="JSON object"):
        parse_board([1, 2])
    with pytest.raises(BoardError, match="board= takes"):
        load_board(42)


def test_board_from_path_and_dict_and_names(tmp_path):
    doc = generate_board(5)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(doc))
    from_path, from_dict = load_board(str(path)), load_board(doc)
    assert from_path == from_dict and not from_path.is_default
    assert load_board(from_dict.to_dict()) == from_dict
    renamed = edited(lambda d: [c.update(code=D.CITY_NAMES[i]) for i, c in
                                enumerate(d["cities"])])
    assert parse_board(renamed).numbers == load_board().numbers   # names work as codes


def test_board_travels_in_the_state_and_changes_the_rules():
    doc = generate_board(11)
    env = hansa_v0.env(num_players=3, board=doc)
    env.reset(seed=1)
    assert board_from_state(env.state).exits == load_board(doc).exits
    assert board_from_state(env.state).numbers == load_board(doc).numbers
    plain = hansa_v0.env(num_players=3)
    plain.reset(seed=1)
    assert not np.array_equal(env.state[D.C_EXITS:D.C_FILL + 9],
                              plain.state[D.C_EXITS:D.C_FILL + 9])
    titled = hansa_v0.env(num_players=3, board=doc, render_mode="ansi")
    titled.reset(seed=1)
    assert "generated board (seed 11)" in titled.render().splitlines()[0]


def test_generated_boards_are_valid_and_of_the_same_shape():
    for seed in range(300):
        doc = generate_board(seed)
        board = parse_board(doc)
        assert sum(board.spaces) == 14 and sorted(board.numbers) == list(range(1, 10))
        assert all(1 <= len(e) <= 3 for e in board.exits) and strongly_connected(board)
        assert not any((b, a) in arcs(board) for a, b in arcs(board))
        assert generate_board(seed) == doc                          # seeded
    assert generate_board(1) != generate_board(2)


def test_board_command_line(tmp_path, capsys):
    from meeplezoo.envs.hansa.__main__ import main

    assert main([]) == 0
    template = capsys.readouterr().out
    assert json.loads(template)["name"] == DEFAULT_BOARD["name"]
    path = tmp_path / "board.json"
    path.write_text(template)
    assert main(["--check", str(path)]) == 0
    path.write_text(json.dumps(edited(BAD_BOARDS["no exit"][0])))
    assert main(["--check", str(path)]) == 1
    assert "no exit" in capsys.readouterr().out
    assert main(["--generate", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == parse_board(generate_board(3)).to_dict()
