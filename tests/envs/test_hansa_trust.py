"""Hansa's trust boundary: loaded states and board files.

Every field has bounds (``data.FIELD_BOUNDS``) that core checks on load; ``validate_state``
ties the fields together (the board tables, the stacks, income per turn, the placement
order of HS-4.4, what each phase needs) so no kernel can index outside the loaded board's
tables or meet a decision point without a legal action.  Malformed board files are a
``BoardError``, never a foreign exception.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.agents.hansa_greedy import HansaGreedyAgent
from meeplezoo.envs.core.contract import H_PHASE
from meeplezoo.envs.core.state_io import StateFormatError, state_from_json
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa.__main__ import main as board_cli
from meeplezoo.envs.hansa.board import Board, BoardError, generate_board, load_board


def in_bounds(state) -> None:
    for name, (offset, length) in D.STATE_FIELDS.items():
        low, high = D.FIELD_BOUNDS[name]
        values = state[offset:offset + length]
        assert low <= values.min() and values.max() <= high, (name, values.tolist())


def states_by_phase(players=3, games=6, **options) -> dict[int, list[str]]:
    """Saved states of random games (with start_seat 0), grouped by phase."""
    found: dict[int, list[str]] = {}
    env = hansa_v0.env(num_players=players, start_seat=0, **options)
    for seed in range(games):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.unwrapped._game_over:
            found.setdefault(int(env.state[H_PHASE]), []).append(env.state_to_json())
            env.step(int(rng.choice(env.legal_actions())))
        found.setdefault(int(env.state[H_PHASE]), []).append(env.state_to_json())
    return found


PHASES = states_by_phase()


def edited(saved: str, **fields) -> str:
    data = json.loads(saved)
    for name, value in fields.items():
        if isinstance(value, tuple):
            data["fields"][name][value[0]] = value[1]
        else:
            data["fields"][name] = value
    return json.dumps(data)


def field(saved: str, name: str):
    return json.loads(saved)["fields"][name]


def refused(saved: str, match: str, **fields) -> None:
    with pytest.raises(StateFormatError, match=match):
        state_from_json(hansa_v0.raw_env.spec, edited(saved, **fields))


def test_every_field_has_bounds_and_every_reached_state_lies_inside_them():
    assert set(D.FIELD_BOUNDS) == set(D.STATE_FIELDS)
    for players in (2, 4):
        for seed in range(4):
            board = generate_board(seed) if seed % 2 else None
            env = hansa_v0.env(num_players=players, board=board)
            bots = [HansaGreedyAgent(seed=s) for s in range(players)]
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while not env.unwrapped._game_over:
                in_bounds(env.state)
                seat = env.agent_name_mapping[env.agent_selection]
                greedy = seed < 2
                env.step(bots[seat].act(env) if greedy else int(rng.choice(env.legal_actions())))
            in_bounds(env.state)
            assert np.array_equal(state_from_json(env.unwrapped.spec, env.state_to_json())[0],
                                  env.state)


@pytest.mark.parametrize("name, value", [
    ("p0_money", 2**61), ("p1_money", -5), ("bank_paid", 2**61), ("ply", -1),
    ("board_exits", (0, 512)), ("board_numbers", (3, 0)), ("board_spaces", (2, 3)),
    ("board_fill_order", (0, 9)), ("ship", 9), ("warehouses", (0, 18)),
    ("p0_init_used", 1 << 9), ("p2_stalls", (4, 16)), ("max_turns", 10**6), ("phase", 8),
    ("draws", 999), ("stack_ends", (4, 2**62 - 1)), ("p0_hand", (0, 6)),
])
def test_fields_outside_their_bounds_are_refused(name, value):
    refused(PHASES[D.PH_ACTIONS][5], name, **{name: value})


def test_board_tables_must_form_a_valid_board():
    """HS-2: the board in the state is checked like a board file: in-range but wrong
    exits, numbers or spaces are refused, so routes and fills index the real board."""
    saved = PHASES[D.PH_ACTIONS][5]
    refused(saved, "no exit", board_exits=(D.TON, 0))
    refused(saved, "board numbers", board_numbers=(D.TON, 9))
    refused(saved, "fill_order", board_fill_order=(0, 1))


def test_counters_must_follow_the_course_of_the_game():
    saved = PHASES[D.PH_ACTIONS][5]
    paid, taken = field(saved, "bank_paid"), field(saved, "bank_taken")
    # Income and the ledger moved together keep the thalers conserved: still refused.
    refused(saved, "bank_paid", bank_paid=paid + 3, bank_taken=taken + 3)
    ends = field(saved, "stack_ends")
    refused(saved, "stack_ends", stack_ends=[ends[0] - 1, *ends[1:]])
    refused(saved, "max_turns", max_turns=field(saved, "turns"))      # a live game at its cap
    refused(saved, "ply", ply=0)


def test_initial_placements_follow_the_placement_order():
    """HS-4.4: a seat holding another seat's placement (or the wrong seat to place) is
    refused."""
    saved = next(s for s in PHASES[D.PH_INIT_PLACE] if field(s, "init_step") == 1)
    refused(saved, "HS-4.4", active_seat=2, to_move=2)
    used = field(saved, "p0_init_used")
    stalls = field(saved, "p0_stalls")
    refused(saved, "HS-4.4", p0_init_used=0, p1_init_used=used, p0_stalls=[0] * 9,
            p0_stall_supply=15, p1_stalls=stalls, p1_stall_supply=13)


def test_a_phase_needs_what_its_decisions_use():
    """A sale without a stall in the ship's city would take a stall that is not there
    (HS-8.7a); a tax phase needs more than 3 goods (HS-9.2); a finished game ended by the
    rules or at the cap (HS-10.2, HS-10.3)."""
    sale = PHASES[D.PH_SELL][0]
    ship = field(sale, "ship")
    seat = field(sale, "active_seat")
    stalls = field(sale, f"p{seat}_stalls")
    away = next(c for c in range(D.NUM_CITIES) if c != ship)
    moved = stalls.copy()
    moved[away] += moved[ship]
    moved[ship] = 0
    refused(sale, "HS-8.7a", **{f"p{seat}_stalls": moved})
    refused(sale, "HS-8.7a", acted=1)
    refill = PHASES[D.PH_REFILL][0]
    seat = field(refill, "active_seat")
    paid = field(refill, f"p{seat}_money")
    refused(refill, "HS-7", **{f"p{seat}_money": 0, "bank_taken": field(refill, "bank_taken")
                                + paid})      # no thaler to pay the refill with (HS-7.2)
    over = PHASES[D.PH_GAME_OVER][0]
    assert field(over, "truncated") == 0 and field(over, "active_seat") == 2
    refused(over, "HS-10.2", active_seat=1)         # not the seat before the start seat
    refused(over, "truncated", truncated=1)
    refused(PHASES[D.PH_ACTIONS][3], "not over", truncated=1)


def test_a_truncated_game_loads_as_a_truncation():
    env = hansa_v0.env(num_players=2, max_turns=4)
    env.reset(seed=2)
    while not env.unwrapped._game_over:
        env.step(env.legal_actions()[-1])
    twin = hansa_v0.env(num_players=2)
    twin.reset(seed=0)
    twin.state_from_json(env.state_to_json())
    assert all(twin.truncations.values()) and not any(twin.terminations.values())
    saved = env.state_to_json()
    refused(saved, "max_turns", turns=3, bank_paid=field(saved, "bank_paid") - 3,
            bank_taken=field(saved, "bank_taken") - 3)


# --- board files ------------------------------------------------------------------------

BAD_FILES = {
    "non-UTF-8 bytes": b'{"name": "\xff\xfe", "cities": [], "routes": []}',
    "100k-deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "100,000-digit number": b'{"cities": [{"code": "TON", "number": ' + b"9" * 100_000
                            + b', "warehouses": 1}], "routes": []}',
    "not JSON": b"{cities",
    "a list": b"[1, 2, 3]",
    "cities a string": b'{"cities": "TON AAL", "routes": []}',
    "number a list": b'{"cities": [{"code": "TON", "number": [1], "warehouses": 1}], '
                     b'"routes": []}',
    "city a number": b'{"cities": [7], "routes": []}',
    "code a dict": b'{"cities": [{"code": {"a": 1}, "number": 1, "warehouses": 1}], '
                   b'"routes": []}',
    "route a dict": b'{"cities": [], "routes": [{"from": "TON"}]}',
    "name a number": b'{"name": 5, "cities": [], "routes": []}',
    "empty file": b"",
    "NaN number": b'{"cities": [{"code": "TON", "number": NaN, "warehouses": 1}], '
                  b'"routes": []}',
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_malformed_board_files_get_a_board_error(kind, tmp_path, capsys):
    path = tmp_path / "board.json"
    path.write_bytes(BAD_FILES[kind])
    with pytest.raises(BoardError):
        load_board(path)
    with pytest.raises(BoardError):
        hansa_v0.env(board=str(path))
    assert board_cli(["--check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("invalid board:") and len(out.splitlines()) == 1


def test_unreadable_board_paths_get_a_board_error(tmp_path):
    for path in (tmp_path, tmp_path / "missing.json", "bad\0name.json", "x" * 5000):
        with pytest.raises(BoardError):
            load_board(path)


def test_boards_given_as_objects_are_checked_as_documents():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    doc = json.loads(json.dumps(load_board().to_dict()))
    for broken in ({**doc, "cities": [deep]}, {**doc, "routes": [[deep, "TON"]]},
                   {**doc, "cities": [{"code": "TON", "number": 10**100_000,
                                       "warehouses": 1}]},
                   {**doc, 7: "x", (1, 2): "y"}):
        with pytest.raises(BoardError):
            load_board(broken)
    default = load_board()
    for bad in (Board("x", (0,) * 9, default.spaces, default.exits),
                Board("x", default.numbers, default.spaces, ((99,),) * 9),
                Board("x", default.numbers, default.spaces, 5)):
        with pytest.raises(BoardError):
            load_board(bad)
        with pytest.raises(BoardError):
            hansa_v0.env(board=bad)
    assert load_board(default).is_default
    assert not load_board(Board("x", default.numbers, default.spaces,
                                load_board(generate_board(1)).exits, True)).is_default
