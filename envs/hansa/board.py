"""Hansa boards as data: load, validate, generate (HS-2, A-1).

Parts of the printed board are not known from any public source (the spec says which:
board numbers 2-8, warehouse counts, several one-way routes), so a board is a JSON document
and the engine is honest about it.  ``DEFAULT_BOARD`` is the spec's *reconstruction*: the
routes K1-K8 from the rules' examples, the completion REV->RIG, RIG->DAN, DAN->KAL and the
placeholder ([P]) numbers and warehouse counts of HS-2.1.  It is not the printed board.  A
user with the printed board writes it down in the same format and passes ``board=path``.

Format (a JSON object)::

    {"name": "My printed board",                 # optional, shown by render
     "cities": [{"code": "TON", "number": 1, "warehouses": 1}, ...],   # all nine cities
     "routes": [["CPH", "DAN"], ["CPH", "LUB"], ...]}                # one-way arcs

Cities are the nine of the game (codes or names of ``data.CITY_CODES`` / ``CITY_NAMES``).
``load_board`` raises ``BoardError`` naming the problem: an unknown or duplicated city, a
missing city, a bad board number or warehouse count, a bad, unknown-city, self or repeated
route, a city with no exit or more than three, a city the ship cannot reach from
Copenhagen, or one it cannot leave to get back there.

``python -m meeplezoo.envs.hansa`` prints the reconstruction as a template to correct,
``--check PATH`` validates a board file, ``--generate SEED`` prints a generated board.
"""

from __future__ import annotations

import json
import reprlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.files import FileRefused, read_json
from . import data as D

DEFAULT_BOARD = {
    "name": "spec reconstruction (placeholder data, not the printed board)",
    "cities": [
        {"code": code, "number": number, "warehouses": spaces}
        for code, number, spaces in zip(D.CITY_CODES, range(1, 10),
                                        (1, 1, 2, 2, 2, 1, 2, 1, 2), strict=True)
    ],
    "routes": [
        ["CPH", "DAN"], ["CPH", "LUB"], ["CPH", "TON"], ["AAL", "CPH"], ["KAL", "CPH"],
        ["LUB", "AAL"], ["TON", "STO"], ["STO", "REV"],                      # K1-K8
        ["REV", "RIG"], ["RIG", "DAN"], ["DAN", "KAL"],                      # [P] completion
    ],
}
TOP_KEYS = {"name", "description", "cities", "routes"}
MAX_BOARD_BYTES = 1_000_000           # a board is about 1 kB; anything this big is not one
CITY_KEYS = {"code", "name", "number", "warehouses"}


class BoardError(ValueError):
    """A board document that is not a valid Hansa board (the message says why)."""


@dataclass(frozen=True)
class Board:
    """A validated board: ``exits[c]`` lists the cities reached from city ``c``."""

    name: str
    numbers: tuple[int, ...]
    spaces: tuple[int, ...]
    exits: tuple[tuple[int, ...], ...]
    is_default: bool = False

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "cities": [{"code": D.CITY_CODES[c], "number": self.numbers[c],
                        "warehouses": self.spaces[c]} for c in range(D.NUM_CITIES)],
            "routes": [[D.CITY_CODES[a], D.CITY_CODES[b]]
                       for a in range(D.NUM_CITIES) for b in self.exits[a]],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def fill_order(self) -> list[int]:
        """Cities in ascending board number (HS-3.2, HS-7.3)."""
        return sorted(range(D.NUM_CITIES), key=lambda c: self.numbers[c])


def _fail(message: str):
    raise BoardError(message)


_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60


def _show(value) -> str:
    """A short repr for messages, safe for anything a user passes (a 100,000-digit int, a
    list nested 100,000 deep)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    try:
        return _REPR.repr(value)
    except (ValueError, RecursionError):
        return f"a {type(value).__name__}"


def _city_index(key, where: str) -> int:
    if isinstance(key, str):
        for index in range(D.NUM_CITIES):
            if key.upper() == D.CITY_CODES[index] or key.lower() == D.CITY_NAMES[index].lower():
                return index
    _fail(f"unknown city {_show(key)} in {where}; a Hansa board has the cities "
          f"{', '.join(D.CITY_CODES)}")


def parse_board(doc: dict) -> Board:
    """Validate a board document (see the module docstring) into a ``Board``."""
    if not isinstance(doc, dict):
        _fail(f"a board must be a JSON object, got {type(doc).__name__}")
    unknown = sorted(map(_show, set(doc) - TOP_KEYS))
    if unknown:
        _fail(f"unknown board key(s) {unknown}; known: {sorted(TOP_KEYS)}")
    for key in ("cities", "routes"):
        if not isinstance(doc.get(key), list):
            _fail(f"the board needs a {key!r} list")
    name = doc.get("name", "custom board")
    if not isinstance(name, str):
        _fail("the board 'name' must be a string")
    numbers = [0] * D.NUM_CITIES
    spaces = [0] * D.NUM_CITIES
    seen: set[int] = set()
    for entry in doc["cities"]:
        if not isinstance(entry, dict):
            _fail(f"each city must be an object, got {_show(entry)}")
        extra = sorted(map(_show, set(entry) - CITY_KEYS))
        if extra:
            _fail(f"unknown city key(s) {extra} in {_show(entry)}; known: {sorted(CITY_KEYS)}")
        if "code" not in entry and "name" not in entry:
            _fail(f"city {_show(entry)} needs a 'code' (or 'name')")
        city = _city_index(entry.get("code", entry.get("name")), "cities")
        if city in seen:
            _fail(f"city {D.CITY_CODES[city]} is listed twice")
        seen.add(city)
        for key in ("number", "warehouses"):
            value = entry.get(key)
            if not isinstance(value, int) or isinstance(value, bool):
                _fail(f"city {D.CITY_CODES[city]}: {key!r} must be an integer, "
                      f"got {_show(value)}")
        if not 1 <= entry["warehouses"] <= D.MAX_SPACES:
            _fail(f"wrong warehouse count for city {D.CITY_CODES[city]}: "
                  f"{_show(entry['warehouses'])} (each city has 1 or 2, HS-2.3)")
        if not 1 <= entry["number"] <= D.NUM_CITIES:
            _fail(f"city {D.CITY_CODES[city]}: board number {_show(entry['number'])} "
                  "is not 1..9")
        numbers[city], spaces[city] = entry["number"], entry["warehouses"]
    if len(seen) != D.NUM_CITIES:
        missing = [D.CITY_CODES[c] for c in range(D.NUM_CITIES) if c not in seen]
        _fail(f"wrong city count: the board lists {len(seen)} of the 9 cities; "
              f"missing: {', '.join(missing)}")
    if sorted(numbers) != list(range(1, D.NUM_CITIES + 1)):
        repeated = sorted({n for n in numbers if numbers.count(n) > 1})
        _fail(f"board numbers must be 1..9, each once (HS-2.2); repeated: {repeated}")
    exits: list[list[int]] = [[] for _ in range(D.NUM_CITIES)]
    for route in doc["routes"]:
        if not isinstance(route, list | tuple) or len(route) != 2:
            _fail(f"a route must be a pair [from, to], got {_show(route)}")
        a, b = (_city_index(end, f"route {_show(route)}") for end in route)
        if a == b:
            _fail(f"route {_show(route)} goes from a city to itself")
        if b in exits[a]:
            _fail(f"route {D.CITY_CODES[a]}->{D.CITY_CODES[b]} is listed twice")
        exits[a].append(b)
    for city in range(D.NUM_CITIES):
        if not exits[city]:
            _fail(f"city {D.CITY_CODES[city]} has no exit: the ship could never leave it")
        if len(exits[city]) > D.MAX_EXITS:
            _fail(f"wrong route count: city {D.CITY_CODES[city]} has {len(exits[city])} exits "
                  f"(at most {D.MAX_EXITS}, HS-2.4 N4)")
    _check_connected(exits)
    return Board(name=name, numbers=tuple(numbers), spaces=tuple(spaces),
                 exits=tuple(tuple(sorted(e)) for e in exits))


def _reached(exits, start: int) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in exits[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _check_connected(exits) -> None:
    """HS-2.5 [R]: the shared ship must be able to reach every city from every city."""
    forward = _reached(exits, D.START_CITY)
    for city in range(D.NUM_CITIES):
        if city not in forward:
            _fail(f"unreachable city {D.CITY_CODES[city]}: no route path leads there from "
                  f"{D.CITY_CODES[D.START_CITY]}")
    reverse = [[a for a in range(D.NUM_CITIES) if b in exits[a]] for b in range(D.NUM_CITIES)]
    backward = _reached(reverse, D.START_CITY)
    for city in range(D.NUM_CITIES):
        if city not in backward:
            _fail(f"dead-end city {D.CITY_CODES[city]}: the ship could never get back from it "
                  f"to {D.CITY_CODES[D.START_CITY]}")


def load_board(board=None) -> Board:
    """``None`` (the reconstruction), a ``Board``, a dict, ``"generated:<seed>"`` (a random
    valid board, :func:`generate_board`) or a path to a JSON file."""
    if isinstance(board, str) and board.startswith("generated:"):
        return parse_board(generate_board(_generated_seed(board)))
    if board is None:
        parsed = parse_board(DEFAULT_BOARD)
        return Board(parsed.name, parsed.numbers, parsed.spaces, parsed.exits, is_default=True)
    if isinstance(board, Board):
        return _checked(board)
    if isinstance(board, str | Path):
        return parse_board(read_board_file(Path(board)))
    if isinstance(board, dict):
        return parse_board(board)
    _fail(f"board= takes None, a dict, a Board or a path to a JSON file, got {_show(board)}")


def _generated_seed(text: str) -> int:
    digits = text.split(":", 1)[1]
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 18):
        _fail(f"board {_show(text)}: after 'generated:' write a seed (an integer 0..10**18), "
              "a range '<a>-<b>' or a split ('train', 'test')")
    return int(digits)


def _checked(board: Board) -> Board:
    """A ``Board`` built by hand is validated like a document (its fields could be
    anything); it keeps ``is_default`` only when it is the reconstruction."""
    try:
        doc = board.to_dict()
    except (TypeError, IndexError, ValueError, KeyError):
        _fail(f"not a valid Board: {_show(board)}")
    parsed = parse_board(doc)
    default = parse_board(DEFAULT_BOARD)
    same = (parsed.numbers, parsed.spaces, parsed.exits) == \
        (default.numbers, default.spaces, default.exits)
    return Board(parsed.name, parsed.numbers, parsed.spaces, parsed.exits,
                 is_default=bool(board.is_default) and same)


def read_board_file(path: Path):
    """The JSON document in a board file; any unreadable, non-regular, non-UTF-8,
    oversized, malformed or too deeply nested file is a ``BoardError`` (one line, never a
    foreign exception; ``envs/core/files.py``)."""
    try:
        return read_json(path, "board", limit=MAX_BOARD_BYTES)
    except FileRefused as err:
        _fail(f"board file: {err}")


def generate_board(seed: int, extra_routes: tuple[int, int] = (3, 9)) -> dict:
    """A random valid board of the printed board's shape, as a board document.

    Nine cities with the numbers 1..9 in random places, five cities with two warehouse
    spaces (14 in all, HS-2.3), a random route cycle through every city (so the ship can
    always go everywhere) plus ``extra_routes`` more one-way routes, never two ways between
    the same pair (N3) and at most three exits per city (N4).
    """
    rng = np.random.default_rng(seed)
    numbers = rng.permutation(D.NUM_CITIES) + 1
    spaces = np.ones(D.NUM_CITIES, dtype=int)
    spaces[rng.choice(D.NUM_CITIES, 5, replace=False)] = 2
    cycle = rng.permutation(D.NUM_CITIES)
    arcs = {(int(cycle[i]), int(cycle[(i + 1) % D.NUM_CITIES])) for i in range(D.NUM_CITIES)}
    wanted = int(rng.integers(extra_routes[0], extra_routes[1] + 1))
    candidates = [(a, b) for a in range(D.NUM_CITIES) for b in range(D.NUM_CITIES) if a != b]
    for index in rng.permutation(len(candidates)):
        if wanted == 0:
            break
        a, b = candidates[index]
        out_degree = sum(1 for x, _ in arcs if x == a)
        if (a, b) in arcs or (b, a) in arcs or out_degree >= D.MAX_EXITS:
            continue
        arcs.add((a, b))
        wanted -= 1
    return {
        "name": f"generated board (seed {seed})",
        "cities": [{"code": D.CITY_CODES[c], "number": int(numbers[c]),
                    "warehouses": int(spaces[c])} for c in range(D.NUM_CITIES)],
        "routes": [[D.CITY_CODES[a], D.CITY_CODES[b]] for a, b in sorted(arcs)],
    }


def board_config(board: Board) -> np.ndarray:
    """The board block of the config: kind, exit bitmasks, numbers, spaces, fill order."""
    block = np.zeros(1 + 4 * D.NUM_CITIES, dtype=np.int64)
    block[0] = D.BOARD_DEFAULT if board.is_default else D.BOARD_CUSTOM
    for city in range(D.NUM_CITIES):
        block[1 + city] = sum(1 << b for b in board.exits[city])
        block[1 + D.NUM_CITIES + city] = board.numbers[city]
        block[1 + 2 * D.NUM_CITIES + city] = board.spaces[city]
    block[1 + 3 * D.NUM_CITIES:] = board.fill_order()
    return block


def board_from_state(state: np.ndarray) -> Board:
    """The board a state is played on (read back from its config block)."""
    exits = tuple(tuple(b for b in range(D.NUM_CITIES) if state[D.C_EXITS + a] >> b & 1)
                  for a in range(D.NUM_CITIES))
    default = int(state[D.C_BOARD_KIND]) == D.BOARD_DEFAULT
    return Board(name=DEFAULT_BOARD["name"] if default else "custom board",
                 numbers=tuple(int(v) for v in state[D.C_NUMBER:D.C_NUMBER + D.NUM_CITIES]),
                 spaces=tuple(int(v) for v in state[D.C_SPACES:D.C_SPACES + D.NUM_CITIES]),
                 exits=exits, is_default=default)

