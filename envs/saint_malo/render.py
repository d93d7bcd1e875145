"""Pictures of a Saint Malo state: ``render_ansi`` (text) and ``render_rgb`` (uint8 image).

Both read the flat state only (layout in ``data.py``) and never change it.  The text view
prints every city as a 7x7 grid named like the move notation (columns a..g, rows 1..7
counted downward); the image is drawn with numpy alone and its size depends only on the
number of players.  Scores use the kernels of ``city.py`` so they always match the rules.
"""

from __future__ import annotations

import numpy as np

from ..core import draw
from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from .city import defence, empty_bb, end_score, popcount
from .data import (
    A_CHARACTER,
    A_CHURCH,
    A_CRATE,
    A_LOG,
    A_PASS,
    A_PLACE,
    A_STOP_ROLLING,
    A_WALL,
    C_BOXES_PER_PLAYER,
    C_STRENGTH,
    CHURCH_1,
    CITIZEN,
    CRATE,
    CRATE_FACE,
    CROSS,
    FACE_NAMES,
    G_ACTIVE,
    G_ARCHITECT_CELL,
    G_ATTACKS_DONE,
    G_DICE,
    G_END_TRIGGERED,
    G_HOUSES_BUILT,
    G_PENDING_CODE,
    G_PENDING_LEFT,
    G_PIRATE_BOXES,
    G_PLACING_BONUS,
    G_ROLL_MASK,
    G_ROLLS_USED,
    G_START_SEAT,
    G_TRUNCATED,
    G_TURNS,
    HEAD,
    HOUSE,
    IS_TOWER,
    LOG,
    MAX_ROLLS,
    NUM_ATTACKS,
    NUM_DICE,
    P_BOARD,
    P_CANNONS_LOST,
    P_COINS,
    P_LOGS,
    P_SIDES_BROKEN,
    P_SIDES_DONE,
    P_VP,
    PH_GAME_OVER,
    PH_HOUSES,
    PH_PLACE,
    PH_ROLL,
    PH_ROLL_DECISION,
    PH_SCORE,
    PHASE_NAMES,
    PLAYER_SIZE,
    PLAYERS_BASE,
    SIDE,
    SIDE_CELLS,
    SIDE_NAMES,
    TOWER,
    WALL,
    WALL_FACE,
)
from .notation import cell_name, code_name

SYMBOLS = {TOWER: "+", 0: ".", WALL: "#", CRATE: "x", HOUSE: "h",
           **{CHURCH_1 + s: str(s + 1) for s in range(5)},
           **{CITIZEN + i: "CSPAMJN"[i] for i in range(7)}}
LEGEND = ("legend: + tower  . empty  # wall  x crate  h house  1-5 church (size)  "
          "C citizen S soldier P priest A architect M merchant J juggler N noble;  "
          "sides N E S W: + done, - broken, . open")
PANEL_WIDTH = 26            # characters per city in the text view
PANELS_PER_ROW = 3


def _base(seat: int) -> int:
    return PLAYERS_BASE + seat * PLAYER_SIZE


def _prepare(state) -> np.ndarray:
    return np.ascontiguousarray(state, dtype=np.int64)


def pirate_progress(state):
    """(row 1..6 being filled, boxes crossed in it, row length); row 7 once all attacks are done."""
    row_length = max(int(state[C_BOXES_PER_PLAYER] * state[H_NUM_PLAYERS]), 1)
    done = int(state[G_ATTACKS_DONE])
    return done + 1, int(state[G_PIRATE_BOXES]) - done * row_length, row_length


def final_table(state):
    """Per seat: (score if the game ended now, empty spaces), and the winning seats (SM-11.5)."""
    state = _prepare(state)
    table = [(int(end_score(state, _base(s))), popcount(int(empty_bb(state, _base(s)))))
             for s in range(int(state[H_NUM_PLAYERS]))]
    best = max(table)
    return table, [s for s, entry in enumerate(table) if entry == best]


def _sides(state, base) -> str:
    done, broken = int(state[base + P_SIDES_DONE]), int(state[base + P_SIDES_BROKEN])
    return " ".join(name + ("+" if done >> i & 1 else "-" if broken >> i & 1 else ".")
                    for i, name in enumerate(SIDE_NAMES))


def city_lines(state, seat: int, winners=()) -> list[str]:
    """The text panel of one city: a label, the grid and its numbers, each PANEL_WIDTH wide."""
    state = _prepare(state)
    base = _base(seat)
    label = f"Player {seat}"
    if state[G_START_SEAT] == seat:
        label += " [start]"
    if state[H_PHASE] == PH_GAME_OVER:
        label += " WINNER" if seat in winners else ""
    elif state[G_ACTIVE] == seat:
        label += " <== turn"
    lines = [label, "   " + " ".join("abcdefg")]
    for r in range(SIDE):
        row = state[base + P_BOARD + r * SIDE: base + P_BOARD + (r + 1) * SIDE]
        lines.append(f"{r + 1:>2} " + " ".join(SYMBOLS.get(int(v), "?") for v in row))
    lines.append(f"coins {state[base + P_COINS]}  logs {state[base + P_LOGS]}  "
                 f"VP {state[base + P_VP]}")
    lines.append(f"score {end_score(state, base)}  cannons lost {state[base + P_CANNONS_LOST]}")
    lines.append(f"defence {defence(state, base)}  {_sides(state, base)}")
    return [line.ljust(PANEL_WIDTH) for line in lines]


def render_ansi(state) -> str:
    state = _prepare(state)
    n = int(state[H_NUM_PLAYERS])
    phase = int(state[H_PHASE])
    to_move = int(state[H_TO_MOVE])
    over = "nobody (cut off at max_decisions)" if state[G_TRUNCATED] else "nobody (game over)"
    who = {CHANCE: "chance (dice)", TERMINAL: over}.get(to_move, f"P{to_move}")
    out = [f"Saint Malo  {n} players  turn {state[G_TURNS] + 1}  phase {PHASE_NAMES[phase]}  "
           f"to move: {who}  active: P{state[G_ACTIVE]}"]
    pending = int(state[G_ROLL_MASK]) if phase == PH_ROLL else 0
    dice = " ".join("?" if pending >> i & 1 else FACE_NAMES[int(state[G_DICE + i])]
                    for i in range(NUM_DICE))
    line = f"dice: {dice}  (rolls used {state[G_ROLLS_USED]}/{MAX_ROLLS})"
    if phase == PH_PLACE:
        bonus = " (tower bonus)" if state[G_PLACING_BONUS] else ""
        line += f"  placing: {code_name(int(state[G_PENDING_CODE]))}" \
                f" x{state[G_PENDING_LEFT]}{bonus}"
    elif phase == PH_HOUSES and state[G_ARCHITECT_CELL] >= 0:
        line += f"  houses built {state[G_HOUSES_BUILT]}/3 by the architect at " \
                f"{cell_name(int(state[G_ARCHITECT_CELL]))}"
    out.append(line)
    row, crossed, length = pirate_progress(state)
    if row > NUM_ATTACKS:
        pirates = f"pirates: all {NUM_ATTACKS} attacks done"
    else:
        pirates = (f"pirates: row {row}/{NUM_ATTACKS} [{'x' * crossed}{'.' * (length - crossed)}]"
                   f" next attack strength {state[C_STRENGTH + row - 1]}")
    out.append(f"{pirates}  end triggered: {'yes' if state[G_END_TRIGGERED] else 'no'}")
    table, winners = final_table(state)
    if phase != PH_GAME_OVER:
        winners = []
    for first in range(0, n, PANELS_PER_ROW):
        seats = range(first, min(n, first + PANELS_PER_ROW))
        panels = [city_lines(state, s, winners) for s in seats]
        out.append("")
        out.extend("   ".join(parts).rstrip() for parts in zip(*panels, strict=True))
    if phase == PH_GAME_OVER:
        out.append("")
        out.append("GAME OVER  final scores: " + ", ".join(
            f"P{s} {score} (empty {empty})" for s, (score, empty) in enumerate(table)))
        names = ", ".join(f"P{s}" for s in winners)
        out.append(f"winner: {names}" if len(winners) == 1 else f"shared win: {names}")
    out.append(LEGEND)
    return "\n".join(out) + "\n"


# --- the image ------------------------------------------------------------------------------

CELL, MARGIN, LABEL_H, STATS_H = 24, 8, 16, 36
GRID = SIDE * CELL
PANEL_W = GRID + 2 * MARGIN
PANEL_H = MARGIN + LABEL_H + GRID + STATS_H + MARGIN
STRIP_H, STRIP_W, TRACK_X, TRACK_W = 80, 430, 226, 180
BACKGROUND = (232, 224, 204)
INNER, OUTER, TOWER_RGB, LINE = (240, 235, 220), (178, 168, 150), (88, 76, 72), (120, 110, 100)
ACTIVE_RGB, WINNER_RGB, IDLE_RGB = (30, 110, 230), (230, 180, 20), (150, 140, 125)
DONE_RGB, BROKEN_RGB = (40, 170, 60), (210, 50, 50)
FACE_RGB = ((20, 20, 20), (125, 78, 38), (240, 140, 30), (150, 150, 150), (135, 60, 175),
            (60, 165, 70))
ITEM_RGB = {WALL: (112, 112, 118), CRATE: (238, 140, 40), HOUSE: (150, 92, 50)}
CHURCH_RGB = [(205 - 30 * s, 175 - 37 * s, 230 - 26 * s) for s in range(5)]  # light to deep
CHARACTER_RGB = [(40 + 12 * i, 150 - 8 * i, 60 + 6 * i) for i in range(7)]
ICONS = ((P_COINS, (235, 200, 40)), (P_LOGS, (125, 78, 38)))


def _text(img, y, x, text, rgb, scale=2):
    """Capitals and digits in the 3x5 font (cell letters, track numbers)."""
    return draw.text(img, y, x, text, rgb, scale, font=draw.SMALL)


def _tile(code: int, outer: bool) -> np.ndarray:
    """The CELL x CELL picture of one cell; row/column 0 are the grid line."""
    tile = np.empty((CELL, CELL, 3), dtype=np.uint8)
    tile[:] = TOWER_RGB if code == TOWER else OUTER if outer else INNER
    yy, xx = np.mgrid[0:CELL, 0:CELL]
    if code == TOWER:
        tile[3:8, 3:CELL - 2][(xx[3:8, 3:CELL - 2] // 4) % 2 == 0] = (150, 140, 130)
    elif code == WALL:
        tile[:] = ITEM_RGB[WALL]
        tile[(yy % 8 == 0) | ((xx + 6 * (yy // 8)) % 12 == 0)] = (80, 80, 86)   # bricks
    elif code == CRATE:
        tile[4:-3, 4:-3] = ITEM_RGB[CRATE]
        diag = ((yy == xx) | (yy + xx == CELL)) & (yy >= 5) & (yy < CELL - 4)
        tile[diag & (xx >= 5) & (xx < CELL - 4)] = (150, 80, 20)
    elif code == HOUSE:
        tile[11:-3, 5:-4] = ITEM_RGB[HOUSE]
        roof = (yy >= 3) & (yy < 11) & (np.abs(xx - CELL // 2) <= yy - 3)
        tile[roof] = (110, 50, 35)
    elif CHURCH_1 <= code < CITIZEN:
        tile[3:-2, 3:-2] = CHURCH_RGB[code - CHURCH_1]
        _text(tile, 7, 9, str(code - CHURCH_1 + 1), (0, 0, 0) if code < CHURCH_1 + 2 else
              (255, 255, 255))
    elif code >= CITIZEN:
        tile[(yy - 12) ** 2 + (xx - 12) ** 2 <= 90] = CHARACTER_RGB[code - CITIZEN]
        _text(tile, 7, 9, "CSPAMJN"[code - CITIZEN], (255, 255, 255))
    tile[0, :] = LINE
    tile[:, 0] = LINE
    return tile


_OUTER_CELL = np.zeros(SIDE * SIDE, dtype=bool)
_OUTER_CELL[SIDE_CELLS.ravel()] = True
TILES = {(code, outer): _tile(code, outer) for code in range(TOWER, CITIZEN + 7)
         for outer in (False, True)}


def image_size(num_players: int) -> tuple[int, int]:
    """(height, width) of ``render_rgb`` for that many players."""
    cols = 2 if num_players in (2, 4) else 3
    rows = -(-num_players // cols)
    return STRIP_H + rows * PANEL_H, max(cols * PANEL_W, STRIP_W)


def panel_origin(num_players: int, seat: int) -> tuple[int, int]:
    """Top-left pixel (y, x) of a seat's panel in ``render_rgb``."""
    cols = 2 if num_players in (2, 4) else 3
    return STRIP_H + (seat // cols) * PANEL_H, (seat % cols) * PANEL_W


def cell_origin(num_players: int, seat: int, cell: int) -> tuple[int, int]:
    """Top-left pixel (y, x) of a city cell (the grid line is its first row/column)."""
    y, x = panel_origin(num_players, seat)
    r, c = divmod(cell, SIDE)
    return y + MARGIN + LABEL_H + r * CELL, x + MARGIN + c * CELL


def dice_box(first: int, count: int) -> tuple[int, int, int, int]:
    """(top, left, height, width) of dice ``first .. first + count - 1`` in the strip."""
    return (10, 10 + 40 * first, 34, 40 * (count - 1) + 34)


# A scoring choice's dice (SM-7): logs, crates, walls, churches (crosses), characters (heads)
SCORE_FACES = ((A_LOG, LOG), (A_CRATE, CRATE_FACE), (A_WALL, WALL_FACE), (A_CHURCH, CROSS),
               (A_CHARACTER, HEAD))


def move_targets(state) -> dict[int, tuple[int, int, int, int]]:
    """Each move with a place in ``render_rgb`` -> its box: a placing move (SM-6/SM-9) on
    its cell of the active player's city; stopping or re-rolling (SM-5) on the dice, where
    the page's chooser names the dice each re-roll throws again; a scoring choice (SM-7) on
    the dice showing its face (its sizes share them).  Passing, and a scoring choice whose
    face no die shows, have no place."""
    state = _prepare(state)
    phase = int(state[H_PHASE])
    if phase == PH_ROLL_DECISION:
        return {action: dice_box(0, NUM_DICE) for action in range(A_STOP_ROLLING, A_PASS)}
    if phase == PH_SCORE:
        dice = [int(state[G_DICE + i]) for i in range(NUM_DICE)]      # kept sorted
        boxes = {}
        for (first_action, face), end in zip(SCORE_FACES, (*[a for a, _ in SCORE_FACES[1:]],
                                                           A_PLACE), strict=True):
            if face in dice:
                box = dice_box(dice.index(face), dice.count(face))
                boxes.update({action: box for action in range(first_action, end)})
        return boxes
    if phase not in (PH_PLACE, PH_HOUSES):
        return {}
    n, seat = int(state[H_NUM_PLAYERS]), int(state[G_ACTIVE])
    return {A_PLACE + cell: (*cell_origin(n, seat, cell), CELL, CELL)
            for cell in range(SIDE * SIDE)}


def strip_title(state) -> str:
    """One line under the dice: turn, phase and who is to move (at most 32 characters)."""
    to_move = int(state[H_TO_MOVE])
    over = "cut off" if state[G_TRUNCATED] else "game over"
    who = {CHANCE: "dice", TERMINAL: over}.get(to_move, f"P{to_move}")
    phase = PHASE_NAMES[int(state[H_PHASE])].replace("_", " ")
    return f"turn {int(state[G_TURNS]) + 1}  {who}: {phase}"[:32]


def _strip(img, state):
    phase = int(state[H_PHASE])
    pending = int(state[G_ROLL_MASK]) if phase == PH_ROLL else 0
    for i in range(NUM_DICE):
        x = 10 + 40 * i
        img[10:44, x:x + 34] = (60, 50, 45)
        img[12:42, x + 2:x + 32] = (250, 250, 250) if pending >> i & 1 \
            else FACE_RGB[int(state[G_DICE + i])]
    for k in range(MAX_ROLLS):                                     # rolls used
        img[52:60, 10 + 14 * k:20 + 14 * k] = (60, 50, 45) if k < state[G_ROLLS_USED] \
            else (200, 190, 170)
    if state[G_END_TRIGGERED]:
        img[52:60, 60:200] = BROKEN_RGB
    draw.text(img, 64, 10, strip_title(state), (40, 30, 30))
    row, crossed, length = pirate_progress(state)
    box = TRACK_W // length
    for r in range(NUM_ATTACKS):
        y = 8 + 11 * r
        _text(img, y, TRACK_X - 18, str(int(state[C_STRENGTH + r]))[-2:], (40, 30, 30), 1)
        filled = length if r + 1 < row else crossed if r + 1 == row else 0
        for b in range(length):
            x = TRACK_X + b * box
            img[y:y + 8, x:x + box - 1] = (170, 30, 30) if b < filled else (250, 245, 235)
        if r + 1 == row:
            img[y - 1:y + 9, TRACK_X - 4:TRACK_X - 2] = ACTIVE_RGB


def render_rgb(state) -> np.ndarray:
    state = _prepare(state)
    n = int(state[H_NUM_PLAYERS])
    img = np.empty((*image_size(n), 3), dtype=np.uint8)
    img[:] = BACKGROUND
    _strip(img, state)
    over = state[H_PHASE] == PH_GAME_OVER
    winners = final_table(state)[1] if over else []
    for seat in range(n):
        base = _base(seat)
        y0, x0 = panel_origin(n, seat)
        panel = img[y0:y0 + PANEL_H, x0:x0 + PANEL_W]
        edge = WINNER_RGB if seat in winners else ACTIVE_RGB if (
            not over and state[G_ACTIVE] == seat) else IDLE_RGB
        panel[:4], panel[-4:], panel[:, :4], panel[:, -4:] = edge, edge, edge, edge
        x = draw.text(panel, MARGIN - 1, MARGIN + 2, f"Player {seat}", (40, 30, 30)) + 2
        if state[G_START_SEAT] == seat:                            # start-player mark
            panel[MARGIN:MARGIN + 10, x + 2:x + 12] = (40, 30, 30)
        gy, gx = MARGIN + LABEL_H, MARGIN
        board = state[base + P_BOARD: base + P_BOARD + SIDE * SIDE]
        for cell in range(SIDE * SIDE):
            r, c = divmod(cell, SIDE)
            code = TOWER if IS_TOWER[cell] else int(board[cell])
            tile = TILES.get((code, bool(_OUTER_CELL[cell])))
            if tile is not None:
                panel[gy + r * CELL:gy + (r + 1) * CELL, gx + c * CELL:gx + (c + 1) * CELL] = tile
        panel[gy + GRID, gx:gx + GRID + 1] = LINE
        panel[gy:gy + GRID + 1, gx + GRID] = LINE
        done, broken = int(state[base + P_SIDES_DONE]), int(state[base + P_SIDES_BROKEN])
        for side in range(4):                                      # side status bars
            rgb = DONE_RGB if done >> side & 1 else BROKEN_RGB if broken >> side & 1 else None
            if rgb is None:
                continue
            lo, hi = CELL, 6 * CELL
            ys, xs = {0: (slice(gy - 3, gy), slice(gx + lo, gx + hi)),
                      1: (slice(gy + lo, gy + hi), slice(gx + GRID + 1, gx + GRID + 4)),
                      2: (slice(gy + GRID + 1, gy + GRID + 4), slice(gx + lo, gx + hi)),
                      3: (slice(gy + lo, gy + hi), slice(gx - 3, gx))}[side]
            panel[ys, xs] = rgb
        sy = gy + GRID + 6
        # Two scores, each named: the VP track as it stands, and SM-11.3's final scoring
        # applied now (the page's "if the game ended now").
        stats = [(state[base + slot], rgb) for slot, rgb in ICONS]
        stats2 = [(state[base + P_CANNONS_LOST], (20, 20, 20)),
                  (defence(state, base), (120, 140, 170))]
        for line, (label, value, items) in enumerate((
                ("score now", state[base + P_VP], stats),
                ("if ended", end_score(state, base), stats2))):
            x = draw.text(panel, sy + 16 * line, MARGIN + 2, f"{label} {int(value)}",
                          (40, 30, 30)) + 10
            for amount, rgb in items:
                y = sy + 16 * line
                panel[y:y + 10, x:x + 10] = (40, 30, 30)
                panel[y + 1:y + 9, x + 1:x + 9] = rgb
                x = draw.text(panel, y, x + 14, str(int(amount))[-4:], (40, 30, 30)) + 8
    return img
