"""Saint Malo text and image rendering, on hand-built states (no rules kernels needed)."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.contract import (
    CHANCE,
    H_GAME_ID,
    H_NUM_PLAYERS,
    H_PHASE,
    H_TO_MOVE,
    HEADER_SIZE,
    TERMINAL,
)
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo import render as R
from meeplezoo.envs.saint_malo.notation import parse_cell


def make_config() -> np.ndarray:
    o = D.DEFAULT_OPTIONS
    cfg = np.zeros(D.CONFIG_SIZE, dtype=np.int64)

    def put(slot, values):
        values = np.atleast_1d(values)
        cfg[slot - HEADER_SIZE: slot - HEADER_SIZE + len(values)] = values

    put(D.C_TOWER_KIND, [D.REWARD_KIND_CODES[kind] for kind, _ in o["tower_rewards"]])
    put(D.C_TOWER_AMOUNT, [amount for _, amount in o["tower_rewards"]])
    put(D.C_CHURCH_T, o["church_row_values"])
    put(D.C_STRENGTH, o["attack_strengths"])
    put(D.C_BOXES_PER_PLAYER, o["boxes_per_player"])
    put(D.C_START_CRATES, sum(1 << (7 * r + c) for r, c in o["start_crates"]))
    put(D.C_START_COINS, o["start_coins"])
    put(D.C_START_LOGS, o["start_logs"])
    put(D.C_DEDUPE, int(o["dedupe_rerolls"]))
    put(D.C_MAX_DECISIONS, o["max_decisions"])
    return cfg


def base(seat: int) -> int:
    return D.PLAYERS_BASE + seat * D.PLAYER_SIZE


def make_state(n: int = 3, active: int = 0, start: int = 0, phase: int = D.PH_SCORE):
    s = np.zeros(D.STATE_SIZE, dtype=np.int64)
    s[H_GAME_ID], s[H_NUM_PLAYERS], s[H_PHASE] = D.GAME_ID, n, phase
    s[H_TO_MOVE] = active
    s[HEADER_SIZE:HEADER_SIZE + D.CONFIG_SIZE] = make_config()
    s[D.G_START_SEAT], s[D.G_ACTIVE], s[D.G_ARCHITECT_CELL] = start, active, -1
    s[D.G_DICE:D.G_DICE + 5] = [D.SWORD, D.LOG, D.LOG, D.WALL_FACE, D.HEAD]
    s[D.G_ROLLS_USED] = 2
    for seat in range(n):
        b = base(seat)
        for tower in D.TOWER_CELLS:
            s[b + D.P_BOARD + tower] = D.TOWER
        for r, c in D.DEFAULT_OPTIONS["start_crates"]:
            s[b + D.P_BOARD + 7 * r + c] = D.CRATE
        s[b + D.P_COINS], s[b + D.P_LOGS] = 3, 2
    return s


def put(s, seat: int, name: str, code: int):
    s[base(seat) + D.P_BOARD + parse_cell(name)] = code


def grid(text: str, seat: int) -> list[list[str]]:
    """The 7 rows of symbols of one seat's city, cut out of the text view."""
    lines = text.splitlines()
    label = f"Player {seat}"
    top = next(i for i, line in enumerate(lines) if label + " " in line + " ")
    col = lines[top].index(label)
    assert lines[top + 1][col:col + R.PANEL_WIDTH].split() == list("abcdefg")
    rows = []
    for r in range(7):
        cells = lines[top + 2 + r][col:col + R.PANEL_WIDTH].split()
        assert cells[0] == str(r + 1)
        rows.append(cells[1:])
    return rows


def panel_text(text: str, seat: int) -> str:
    lines = text.splitlines()
    label = f"Player {seat}"
    top = next(i for i, line in enumerate(lines) if label + " " in line + " ")
    col = lines[top].index(label)
    return "\n".join(line[col:col + R.PANEL_WIDTH] for line in lines[top:top + 12])


def symbol(text: str, seat: int, name: str) -> str:
    cell = parse_cell(name)
    return grid(text, seat)[cell // 7][cell % 7]


# --- text ---------------------------------------------------------------------------------------

def test_ansi_start_city_shows_towers_crates_and_empty():
    text = R.render_ansi(make_state(3))
    for seat in range(3):
        rows = grid(text, seat)
        assert rows[0] == list("+.....+") and rows[6] == list("+.....+")
        assert rows[1] == list(".xx....") and rows[2][:3] == list(".x.")
        assert rows[3][:3] == list(".x.")
    assert text.isascii()
    assert R.LEGEND in text


def test_ansi_items_at_their_cells():
    s = make_state(3)
    put(s, 1, "b1", D.WALL)
    put(s, 1, "g4", D.WALL)
    put(s, 1, "d4", D.HOUSE)
    put(s, 1, "c3", D.CHURCH_1 + 2)
    for i, name in enumerate(["e2", "f2", "d5", "e5", "f5", "c6", "d7"]):
        put(s, 1, name, D.CITIZEN + i)
    text = R.render_ansi(s)
    expected = {"b1": "#", "g4": "#", "d4": "h", "c3": "3", "e2": "C", "f2": "S", "d5": "P",
                "e5": "A", "f5": "M", "c6": "J", "d7": "N", "a1": "+", "g7": "+", "b2": "x",
                "d3": "."}
    for name, sym in expected.items():
        assert symbol(text, 1, name) == sym, name
    assert grid(text, 1)[2] == list(".x3....")            # row 3, column c holds the church
    assert symbol(text, 0, "d4") == "." and symbol(text, 2, "c3") == "."


def test_ansi_numbers_score_defence_and_sides():
    s = make_state(2)
    b = base(1)
    s[b + D.P_COINS], s[b + D.P_LOGS], s[b + D.P_VP] = 7, 4, 12
    s[b + D.P_CANNONS_LOST], s[b + D.P_SOLDIERS] = 1, 1
    s[b + D.P_SIDES_DONE], s[b + D.P_SIDES_BROKEN] = 0b0001, 0b0010
    put(s, 1, "d4", D.CHURCH_1)                          # a row of length 1: +1
    panel = panel_text(R.render_ansi(s), 1)
    assert "coins 7  logs 4  VP 12" in panel
    assert "score 15" in panel                           # 12 + 7//2 + 4 + 1 - 5
    assert "cannons lost 1" in panel
    assert "defence 3" in panel                          # 1 soldier + 2 for the N side
    assert "N+ E- S. W." in panel
    assert "coins 3  logs 2  VP 0" in panel_text(R.render_ansi(s), 0)


def test_ansi_header_dice_pirates_and_marks():
    s = make_state(3, active=2, start=1)
    s[D.G_ATTACKS_DONE], s[D.G_PIRATE_BOXES] = 2, 2 * 6 + 5
    s[D.G_END_TRIGGERED] = 1
    text = R.render_ansi(s)
    assert "dice: SWORD LOG LOG WALL HEAD  (rolls used 2/3)" in text
    assert "pirates: row 3/6 [xxxxx.] next attack strength 6" in text
    assert "end triggered: yes" in text
    assert "phase score" in text and "to move: P2" in text
    labels = [line for line in text.splitlines() if line.startswith("Player 0")][0]
    assert "Player 1 [start]" in labels and "Player 2 <== turn" in labels
    assert "Player 0 [start]" not in labels and "Player 0 <==" not in labels


def test_ansi_pirates_empty_track_and_all_attacks_done():
    s = make_state(2)
    assert "pirates: row 1/6 [....] next attack strength 1" in R.render_ansi(s)
    s[D.G_ATTACKS_DONE], s[D.G_PIRATE_BOXES] = 6, 24
    assert "pirates: all 6 attacks done" in R.render_ansi(s)


def test_ansi_pending_roll_and_placing():
    s = make_state(2, phase=D.PH_ROLL)
    s[H_TO_MOVE], s[D.G_ROLL_MASK] = CHANCE, 0b10110
    text = R.render_ansi(s)
    assert "dice: SWORD ? ? WALL ?" in text and "to move: chance" in text
    s[H_PHASE], s[H_TO_MOVE] = D.PH_PLACE, 0
    s[D.G_PENDING_CODE], s[D.G_PENDING_LEFT] = D.CRATE, 2
    assert "placing: crate x2" in R.render_ansi(s)


def test_ansi_game_over_single_winner():
    s = make_state(3, active=2, phase=D.PH_GAME_OVER)
    s[H_TO_MOVE] = TERMINAL
    for seat, vp in enumerate([10, 14, 9]):
        s[base(seat) + D.P_VP] = vp
    text = R.render_ansi(s)
    # score = VP + 3 // 2 + 2 logs = VP + 3
    assert "GAME OVER  final scores: P0 13 (empty 41), P1 17 (empty 41), P2 12 (empty 41)" in text
    assert "winner: P1" in text and "Player 1 WINNER" in text
    assert "<== turn" not in text


def test_ansi_game_over_tie_break_and_shared_win():
    s = make_state(3, phase=D.PH_GAME_OVER)
    s[H_TO_MOVE] = TERMINAL
    for seat in range(3):
        s[base(seat) + D.P_VP] = 10
    put(s, 0, "d4", D.HOUSE)                             # P0 has one empty space fewer
    text = R.render_ansi(s)
    assert "shared win: P1, P2" in text
    put(s, 1, "d4", D.HOUSE)
    assert "winner: P2" in R.render_ansi(s)
    table, winners = R.final_table(s)
    assert winners == [2] and table[2] == (13, 41)


def test_ansi_five_players_and_state_untouched():
    s = make_state(5, active=4)
    before = s.copy()
    text = R.render_ansi(s)
    assert np.array_equal(s, before)
    for seat in range(5):
        assert grid(text, seat)[1][1] == "x"
    assert "Player 5" not in text


# --- image --------------------------------------------------------------------------------------

def centre(img, n, seat, name):
    y, x = R.cell_origin(n, seat, parse_cell(name))
    return tuple(int(v) for v in img[y + 4, x + 4])      # inside the item, off any glyph


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_rgb_shape_dtype_and_determinism(n):
    s = make_state(n)
    img = R.render_rgb(s)
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[:2] == R.image_size(n)
    put(s, 0, "d4", D.HOUSE)
    s[D.G_PIRATE_BOXES] = 3
    again = R.render_rgb(s)
    assert again.shape == img.shape
    assert np.array_equal(again, R.render_rgb(s))
    y, x = R.panel_origin(n, n - 1)
    assert y + R.PANEL_H <= img.shape[0] and x + R.PANEL_W <= img.shape[1]


def test_rgb_sizes_grow_with_players():
    sizes = [R.image_size(n) for n in range(2, 6)]
    assert sizes[0][0] < sizes[2][0] and sizes[1][1] > sizes[0][1]
    assert sizes[3] == (R.STRIP_H + 2 * R.PANEL_H, 3 * R.PANEL_W)


def test_rgb_wall_changes_cell_colour():
    s = make_state(3)
    empty = centre(R.render_rgb(s), 3, 1, "d1")
    put(s, 1, "d1", D.WALL)
    img = R.render_rgb(s)
    assert centre(img, 3, 1, "d1") != empty
    assert centre(img, 3, 1, "d1") == R.ITEM_RGB[D.WALL]
    assert centre(img, 3, 0, "d1") == empty              # other cities untouched


def test_rgb_outer_darker_than_inner_and_towers_distinct():
    img = R.render_rgb(make_state(2))
    outer, inner, tower = (np.array(centre(img, 2, 0, c)) for c in ("d1", "d4", "a1"))
    assert outer.sum() < inner.sum()
    assert len({tuple(outer), tuple(inner), tuple(tower)}) == 3


def test_rgb_every_cell_code_has_its_own_tile():
    for outer in (False, True):
        tiles = [R.TILES[(code, outer)] for code in range(D.TOWER, D.NOBLE + 1)]
        for i in range(len(tiles)):
            for j in range(i + 1, len(tiles)):
                assert not np.array_equal(tiles[i], tiles[j]), (i - 1, j - 1)


def test_rgb_active_border_and_winner_border():
    s = make_state(4, active=2)
    img = R.render_rgb(s)
    for seat in range(4):
        y, x = R.panel_origin(4, seat)
        want = R.ACTIVE_RGB if seat == 2 else R.IDLE_RGB
        assert tuple(img[y + 1, x + 1]) == want
        assert tuple(img[y + R.PANEL_H - 2, x + R.PANEL_W // 2]) == want
    s[H_PHASE], s[H_TO_MOVE] = D.PH_GAME_OVER, TERMINAL
    s[base(3) + D.P_VP] = 5
    img = R.render_rgb(s)
    y, x = R.panel_origin(4, 3)
    assert tuple(img[y + 1, x + 1]) == R.WINNER_RGB
    y, x = R.panel_origin(4, 2)
    assert tuple(img[y + 1, x + 1]) == R.IDLE_RGB


def test_rgb_dice_colours():
    s = make_state(2)
    img = R.render_rgb(s)
    for i, face in enumerate([D.SWORD, D.LOG, D.LOG, D.WALL_FACE, D.HEAD]):
        assert tuple(img[25, 10 + 40 * i + 15]) == R.FACE_RGB[face]
    s[H_PHASE], s[D.G_ROLL_MASK] = D.PH_ROLL, 0b00001
    assert tuple(R.render_rgb(s)[25, 25]) == (250, 250, 250)   # awaiting its roll


def test_rgb_pirate_track_fills():
    s = make_state(2)
    blank = R.render_rgb(s)
    s[D.G_PIRATE_BOXES] = 1
    img = R.render_rgb(s)
    changed = np.argwhere((img != blank).any(axis=2))
    assert len(changed) and changed[:, 0].max() < R.STRIP_H   # only the strip changes


def test_matches_rules_init_state_when_available():
    try:
        from meeplezoo.envs.saint_malo.rules import init_state
    except Exception:                                    # rules.py is optional here
        pytest.skip("rules kernels not importable")
    s = np.zeros(D.STATE_SIZE, dtype=np.int64)
    init_state(s, 3, make_config(), 1)
    text = R.render_ansi(s)
    assert grid(text, 2)[1] == list(".xx....") and "Player 1 [start]" in text
    assert R.render_rgb(s).shape[:2] == R.image_size(3)
