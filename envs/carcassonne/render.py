"""Rendering: ``ansi`` (a compact tile map) and ``rgb_array`` (tiles drawn from their edge
and segment data, meeples in player colours, score bars).  Plain numpy, no pygame.

ANSI: each tile is 3 rows x 5 characters around its name, edges as ``#`` (city),
``=``/``|`` (road) or ``.`` (field), a meeple as its seat digit in the top-left corner and
its role (k knight, h highwayman, m monk, f farmer; capital for the large meeple) in the
top-right corner.  Rows run north (y small) to south.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE
from . import data as D
from .board import tile_at

SEAT_COLOURS = (("yellow", (240, 200, 20)), ("red", (210, 40, 40)), ("green", (40, 160, 60)),
                ("blue", (40, 90, 210)), ("black", (20, 20, 20)), ("pink", (240, 120, 190)))
ROLE = {D.MONASTERY: "m", D.CITY: "k", D.ROAD: "h", D.FIELD: "f"}
TILE_PX = 24


def score_track(score: int) -> tuple[int, list[int]]:
    """CA-13.1/13.2 (EX-26): the track position and the points tiles (laps of 50) shown."""
    laps = score // 50
    return score % 50, [100] * (laps // 2) + [50] * (laps % 2)


def _bounds(state: np.ndarray) -> tuple[int, int, int, int]:
    cells = state[D.T_CELL:D.T_CELL + int(state[D.G_PLACED])]
    xs = cells % D.BOARD_WIDTH - D.CENTER
    ys = cells // D.BOARD_WIDTH - D.CENTER
    return int(xs.min()) - 1, int(xs.max()) + 1, int(ys.min()) - 1, int(ys.max()) + 1


def _meeples(state: np.ndarray, index: int) -> list[tuple[int, int, int]]:
    """(seat, large, slot) of the meeples on placed tile ``index``."""
    found = []
    for slot in range(D.NUM_SLOTS[state[D.T_TYPE + index]]):
        code = int(state[D.N_MEEPLE + index * D.MAX_SLOTS + slot])
        if code:
            found.append(((code - 1) // 2, (code - 1) % 2, slot))
    return found


def _status(state: np.ndarray) -> list[str]:
    players = int(state[H_NUM_PLAYERS])
    hand = int(state[D.G_HAND])
    lines = [f"phase {D.PHASE_NAMES[int(state[H_PHASE])]}, seat {int(state[D.G_ACTIVE])} to play, "
             f"tile in hand {D.TILE_NAMES[hand] if hand >= 0 else '-'}, "
             f"pile {int(state[D.G_PILE_LEFT])}, discarded {int(state[D.G_DISCARDED])}"]
    for seat in range(players):
        track, tiles = score_track(int(state[D.G_SCORE + seat]))
        lines.append(f"seat {seat} ({SEAT_COLOURS[seat][0]}): score {int(state[D.G_SCORE + seat])}"
                     f" (track {track}, tiles {tiles}), meeples {int(state[D.G_NORMAL + seat])}"
                     f" + large {int(state[D.G_LARGE + seat])}")
    return lines


def render_ansi(state: np.ndarray) -> str:
    x0, x1, y0, y1 = _bounds(state)
    rows = []
    for y in range(y0, y1 + 1):
        block = [[], [], []]
        for x in range(x0, x1 + 1):
            index = tile_at(state, D.cell_of(x, y))
            if index < 0:
                for line in block:
                    line.append("     ")
                continue
            t, r = int(state[D.T_TYPE + index]), int(state[D.T_ROT + index])
            edge = ["#=."[2 - D.ROT_EDGE[t, r, side]] for side in range(4)]
            north, south = edge[0].replace("=", "|"), edge[2].replace("=", "|")
            corner_l = corner_r = "+"
            found = _meeples(state, index)
            if found:
                seat, large, slot = found[0]
                corner_l = str(seat)
                role = ROLE[int(D.SEG_KIND[t, slot])]
                corner_r = role.upper() if large else role
            block[0].append(f"{corner_l} {north} {corner_r}")
            block[1].append(f"{edge[3]}{D.TILE_NAMES[t]:^3}{edge[1]}")
            block[2].append(f"+ {south} +")
        rows.extend("".join(line).rstrip() for line in block)
    return "\n".join(_status(state) + [f"x {x0}..{x1}, y {y0}..{y1}"] + rows)


FIELD_RGB, CITY_RGB, ROAD_RGB = (110, 170, 70), (190, 140, 80), (235, 235, 225)
MONASTERY_RGB, SHIELD_RGB, INN_RGB = (130, 50, 140), (230, 230, 240), (120, 60, 20)
EMPTY_RGB = (40, 40, 40)
# Where a segment is drawn / a meeple stands: side midpoints and half-edge points.
SIDE_POINT = ((0.5, 0.1), (0.9, 0.5), (0.5, 0.9), (0.1, 0.5))
HALF_POINT = ((0.3, 0.1), (0.7, 0.1), (0.9, 0.3), (0.9, 0.7), (0.7, 0.9), (0.3, 0.9),
              (0.1, 0.7), (0.1, 0.3))


def _draw_tile(img, top, left, state, index):
    p = TILE_PX
    t, r = int(state[D.T_TYPE + index]), int(state[D.T_ROT + index])
    tile = img[top:top + p, left:left + p]
    tile[:] = FIELD_RGB
    yy, xx = np.mgrid[0:p, 0:p] / (p - 1)
    # Each city side is a triangle towards the centre; a multi-side city also fills the middle.
    regions = (yy <= np.minimum(xx, 1 - xx), xx >= np.maximum(yy, 1 - yy),
               yy >= np.maximum(xx, 1 - xx), xx <= np.minimum(yy, 1 - yy))
    for slot in range(D.NUM_SLOTS[t]):
        kind = D.SEG_KIND[t, slot]
        sides = [d for d in range(4) if D.SIDE_SLOT[t, r, d] == slot]
        if kind == D.CITY:
            for d in sides:
                tile[regions[d]] = CITY_RGB
            if len(sides) > 1:
                tile[p // 4:3 * p // 4, p // 4:3 * p // 4] = CITY_RGB
            if D.SEG_SHIELD[t, slot] or D.SEG_CATHEDRAL[t, slot]:
                tile[p // 2 - 2:p // 2 + 2, p // 2 - 2:p // 2 + 2] = SHIELD_RGB
        elif kind == D.ROAD:
            for d in sides:
                if d in (0, 2):
                    rows = slice(0, p // 2 + 1) if d == 0 else slice(p // 2, p)
                    tile[rows, p // 2 - 1:p // 2 + 1] = ROAD_RGB
                else:
                    cols = slice(p // 2, p) if d == 1 else slice(0, p // 2 + 1)
                    tile[p // 2 - 1:p // 2 + 1, cols] = ROAD_RGB
            if D.SEG_INN[t, slot]:
                px, py = SIDE_POINT[sides[0]]
                tile[int(py * p) - 2:int(py * p) + 1, int(px * p) - 2:int(px * p) + 1] = INN_RGB
        elif kind == D.MONASTERY:
            tile[p // 2 - 4:p // 2 + 4, p // 2 - 3:p // 2 + 3] = MONASTERY_RGB
    for seat, large, slot in _meeples(state, index):
        kind = D.SEG_KIND[t, slot]
        sides = [d for d in range(4) if D.SIDE_SLOT[t, r, d] == slot]
        halves = [h for h in range(8) if D.HALF_SLOT[t, r, h] == slot]
        px, py = (SIDE_POINT[sides[0]] if sides else HALF_POINT[halves[0]] if halves
                  else (0.5, 0.5))
        if kind == D.MONASTERY:
            px, py = 0.78, 0.78                           # beside the church, not on it
        if kind == D.ROAD and sides:
            px, py = (px + 0.5) / 2, (py + 0.5) / 2
        size = 4 if large else 3
        cy, cx = int(py * (p - 1)), int(px * (p - 1))
        tile[max(cy - size - 1, 0):cy + size + 1, max(cx - size - 1, 0):cx + size + 1] = 0
        tile[max(cy - size, 0):cy + size, max(cx - size, 0):cx + size] = SEAT_COLOURS[seat][1]
    tile[0, :] = tile[:, 0] = (60, 60, 60)


def render_rgb(state: np.ndarray) -> np.ndarray:
    x0, x1, y0, y1 = _bounds(state)
    players = int(state[H_NUM_PLAYERS])
    bar = 10
    width = (x1 - x0 + 1) * TILE_PX
    img = np.empty(((y1 - y0 + 1) * TILE_PX + bar * players, max(width, 120), 3), dtype=np.uint8)
    img[:] = EMPTY_RGB
    for index in range(int(state[D.G_PLACED])):
        x, y = D.xy_of(int(state[D.T_CELL + index]))
        _draw_tile(img, (y - y0) * TILE_PX, (x - x0) * TILE_PX, state, index)
    top = (y1 - y0 + 1) * TILE_PX
    best = max(1, int(state[D.G_SCORE:D.G_SCORE + players].max()))
    for seat in range(players):                       # one score bar per seat
        length = int((img.shape[1] - 2) * int(state[D.G_SCORE + seat]) / best)
        img[top + bar * seat + 2:top + bar * (seat + 1) - 1, 1:1 + length] = SEAT_COLOURS[seat][1]
    return img
