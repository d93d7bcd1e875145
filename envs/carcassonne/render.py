"""Rendering: ``ansi`` (a compact tile map) and ``rgb_array`` (tiles drawn from their edge
and segment data, meeples in player colours, a side panel with scores, supplies and the
tile in hand).  Plain numpy (``core.draw``), no pygame.

ANSI: each tile is 3 rows x 5 characters around its name, edges as ``#`` (city),
``=``/``|`` (road) or ``.`` (field), a meeple as its seat digit in the top-left corner and
its role (k knight, h highwayman, m monk, f farmer; capital for the large meeple) in the
top-right corner.  Rows run north (y small) to south.
"""

from __future__ import annotations

import functools

import numpy as np

from ..core import draw
from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_PLY
from . import data as D
from .board import legal_placements, tile_at

SEAT_COLOURS = (("yellow", (240, 200, 20)), ("red", (210, 40, 40)), ("green", (40, 160, 60)),
                ("blue", (40, 90, 210)), ("black", (20, 20, 20)), ("pink", (240, 120, 190)))
ROLE = {D.MONASTERY: "m", D.CITY: "k", D.ROAD: "h", D.FIELD: "f"}


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
             f"pile {int(state[D.G_PILE_LEFT])}, discarded {int(state[D.G_DISCARDED])}"
             + (f", cut off at max_decisions={int(state[D.C_MAX_DECISIONS])}"
                if state[D.G_TRUNCATED] else "")]
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


# --- rgb_array ------------------------------------------------------------------------------

FIELD_RGB, CITY_RGB, ROAD_RGB = (104, 160, 64), (196, 150, 86), (236, 226, 200)
CITY_WALL_RGB, ROAD_EDGE_RGB = (120, 84, 44), (150, 130, 100)
MONASTERY_RGB, ROOF_RGB, SHIELD_RGB = (150, 60, 40), (90, 40, 30), (40, 70, 170)
INN_RGB, CATHEDRAL_RGB, VILLAGE_RGB = (170, 50, 40), (235, 235, 245), (110, 90, 70)
EMPTY_RGB, GRID_RGB, FIT_RGB, LAST_RGB = (34, 38, 44), (52, 58, 66), (70, 110, 80), (255, 230, 60)
PANEL_RGB, TEXT_RGB, DIM_RGB = (24, 26, 30), (235, 235, 235), (150, 150, 150)
TILE_PX = 48                 # tile size on small boards; large boards shrink it to fit
PANEL_W = 220
# Where a meeple stands, by half-edge (fields), in tile units (x, y).
HALF_POINT = ((0.3, 0.12), (0.7, 0.12), (0.88, 0.3), (0.88, 0.7), (0.7, 0.88), (0.3, 0.88),
              (0.12, 0.7), (0.12, 0.3))
SIDE_MID = ((0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5))


def _city_region(sides: list[int], u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The pixels of a city segment touching board ``sides`` (u = x, v = y in 0..1)."""
    dist = (v, 1 - u, 1 - v, u)                              # distance to side N, E, S, W
    if len(sides) == 4:
        return np.ones_like(u, dtype=bool)
    if len(sides) == 3:
        missing = ({0, 1, 2, 3} - set(sides)).pop()
        return dist[missing] > 0.32
    if len(sides) == 2 and (sides[0] - sides[1]) % 2 == 0:  # a band between opposite sides
        a, b = (sides[0] + 1) % 4, (sides[0] + 3) % 4
        return (dist[a] > 0.24) & (dist[b] > 0.24)
    if len(sides) == 2:                                      # a diagonal city
        return dist[sides[0]] + dist[sides[1]] < 0.78
    d = sides[0]
    along = u if d in (0, 2) else v
    return dist[d] < 0.2 + 0.1 * (1 - (2 * along - 1) ** 2)  # a cap with a bulge


def _road(img, p, sides: list[int], px: int) -> None:
    """A road from each side midpoint to the centre (and on to the other side)."""
    width = max(px // 8, 2)
    c = (px / 2, px / 2)
    for edge_rgb, w in ((ROAD_EDGE_RGB, width + 2), (ROAD_RGB, width)):
        for d in sides:
            mx, my = SIDE_MID[d]
            draw.line(img, (my * (px - 1), mx * (px - 1)), c, edge_rgb, w)


def _segment_point(t: int, r: int, slot: int, regions: dict) -> tuple[float, float]:
    """(x, y) in tile units where a meeple on ``slot`` stands."""
    kind = D.SEG_KIND[t, slot]
    if kind == D.MONASTERY:
        return 0.5, 0.62
    if kind == D.CITY:
        ys, xs = np.nonzero(regions[slot])
        n = regions[slot].shape[0] - 1
        return (float(xs.mean()) / n, float(ys.mean()) / n) if len(xs) else (0.5, 0.5)
    if kind == D.ROAD:
        d = [side for side in range(4) if D.SIDE_SLOT[t, r, side] == slot][0]
        mx, my = SIDE_MID[d]
        return (mx + 0.5) / 2, (my + 0.5) / 2
    halves = [h for h in range(8) if D.HALF_SLOT[t, r, h] == slot]
    if not halves:
        return 0.5, 0.5                                       # IH's inner field
    return HALF_POINT[halves[0]]


@functools.lru_cache(maxsize=1024)
def _tile_image(t: int, r: int, px: int, ic_both: bool) -> tuple[np.ndarray, tuple]:
    """The picture of tile type ``t`` with rotation ``r`` (and each slot's meeple point)."""
    img = draw.canvas(px, px, FIELD_RGB)
    v, u = np.mgrid[0:px, 0:px] / (px - 1)
    regions = {}
    for slot in range(D.NUM_SLOTS[t]):
        if D.SEG_KIND[t, slot] == D.ROAD:
            _road(img, None, [d for d in range(4) if D.SIDE_SLOT[t, r, d] == slot], px)
    ends = sum(1 for slot in range(D.NUM_SLOTS[t]) if D.SEG_KIND[t, slot] == D.ROAD
               and bin(int(D.PORT_SIDES[t, r, slot])).count("1") == 1)
    if ends >= 2 and not D.HAS_MONASTERY[t] and not (D.SEG_KIND[t] == D.CITY).any() or ends >= 3:
        draw.square(img, px // 2, px // 2, max(px // 8, 2), VILLAGE_RGB)   # a junction
    for slot in range(D.NUM_SLOTS[t]):
        if D.SEG_KIND[t, slot] != D.CITY:
            continue
        region = _city_region([d for d in range(4) if D.SIDE_SLOT[t, r, d] == slot], u, v)
        regions[slot] = region
        wall = region & ~(np.roll(region, 1, 0) & np.roll(region, -1, 0)
                          & np.roll(region, 1, 1) & np.roll(region, -1, 1))
        img[region] = CITY_RGB
        edge = (u > 0.02) & (u < 0.98) & (v > 0.02) & (v < 0.98)
        img[wall & edge] = CITY_WALL_RGB
    for slot in range(D.NUM_SLOTS[t]):
        x, y = _segment_point(t, r, slot, regions)
        cy, cx = int(y * (px - 1)), int(x * (px - 1))
        if D.SEG_SHIELD[t, slot]:
            s = max(px // 12, 2)
            draw.rect(img, cy - s - 1, cx + s, 2 * s + 2, 2 * s, (240, 240, 240))
            draw.rect(img, cy - s, cx + s + 1, 2 * s, 2 * s - 2, SHIELD_RGB)
        if D.SEG_CATHEDRAL[t, slot]:
            s = max(px // 10, 2)
            draw.rect(img, px // 2 - s, px // 2 - s // 3, 2 * s, max(s // 2, 1), CATHEDRAL_RGB)
            draw.rect(img, px // 2 - s // 2, px // 2 - s, max(s // 2, 1), 2 * s, CATHEDRAL_RGB)
        if D.SEG_INN[t, slot] or (ic_both and t == D.IC_TYPE and slot == 2):
            s = max(px // 12, 2)
            draw.rect(img, cy - s - 2, cx - 3 * s, 2 * s, 2 * s, INN_RGB)
            draw.rect(img, cy - 2 * s - 2, cx - 3 * s - 1, s, 2 * s + 2, ROOF_RGB)
    if D.HAS_MONASTERY[t]:
        s = max(px // 7, 3)
        draw.rect(img, px // 2 - s, px // 2 - s, 2 * s, 2 * s, MONASTERY_RGB)
        draw.rect(img, px // 2 - s - s // 2, px // 2 - s - 1, s // 2 + 1, 2 * s + 2, ROOF_RGB)
    points = tuple(_segment_point(t, r, slot, regions) for slot in range(D.NUM_SLOTS[t]))
    img.setflags(write=False)
    return img, points


def _meeple(img, cy: int, cx: int, seat: int, large: int, size: int) -> None:
    radius = max(size // (5 if large else 7), 3)
    draw.disc(img, cy, cx, radius + 1, (15, 15, 15))
    draw.disc(img, cy, cx, radius, SEAT_COLOURS[seat][1])
    if large:
        draw.disc(img, cy, cx, max(radius // 3, 1), (15, 15, 15))


def _draw_tile(img, top: int, left: int, state: np.ndarray, index: int, px: int) -> None:
    t, r = int(state[D.T_TYPE + index]), int(state[D.T_ROT + index])
    picture, points = _tile_image(t, r, px, bool(state[D.C_IC_INN]))
    img[top:top + px, left:left + px] = picture
    for seat, large, slot in _meeples(state, index):
        x, y = points[slot]
        _meeple(img, top + int(y * (px - 1)), left + int(x * (px - 1)), seat, large, px)


def _panel(img, state: np.ndarray, left: int) -> None:
    players = int(state[H_NUM_PLAYERS])
    phase = D.PHASE_NAMES[int(state[H_PHASE])]
    draw.rect(img, 0, left, img.shape[0], PANEL_W, PANEL_RGB)
    x = left + 10
    draw.text(img, 8, x, "Carcassonne", TEXT_RGB, scale=2)
    draw.text(img, 32, x, f"turn {int(state[H_PLY])}, {phase.replace('_', ' ')}", DIM_RGB)
    draw.text(img, 46, x, f"pile {int(state[D.G_PILE_LEFT])}  discarded "
              f"{int(state[D.G_DISCARDED])}", DIM_RGB)
    # Points scored so far (CA-13): the page's "if the game ended now" adds the end-game
    # scoring of what is unfinished (CA-12), so the column says which one it is.
    draw.text(img, 56, left + PANEL_W - 10 - draw.text_size("score now")[1], "score now",
              DIM_RGB)
    y = 68
    active = int(state[D.G_ACTIVE])
    over = int(state[H_PHASE]) == D.PH_GAME_OVER
    for seat in range(players):
        name, rgb = SEAT_COLOURS[seat]
        if seat == active and not over:
            draw.rect(img, y - 3, left + 4, 38, PANEL_W - 8, (50, 54, 62))
        draw.rect(img, y, x, 14, 14, (10, 10, 10))
        draw.rect(img, y + 1, x + 1, 12, 12, rgb)
        draw.text(img, y + 2, x + 20, f"P{seat} {name}", TEXT_RGB)
        draw.text(img, y + 2, left + PANEL_W - 46, f"{int(state[D.G_SCORE + seat]):>4}", TEXT_RGB)
        cx = x + 26
        for _ in range(int(state[D.G_NORMAL + seat])):
            draw.disc(img, y + 24, cx, 4, (10, 10, 10))
            draw.disc(img, y + 24, cx, 3, rgb)
            cx += 10
        if state[D.G_LARGE + seat]:
            draw.disc(img, y + 24, cx + 2, 6, (10, 10, 10))
            draw.disc(img, y + 24, cx + 2, 5, rgb)
        y += 42
    hand = int(state[D.G_HAND])
    if hand >= 0:
        draw.text(img, y + 6, x, f"tile in hand: {D.TILE_NAMES[hand]}", TEXT_RGB)
        picture, _ = _tile_image(hand, 0, 64, bool(state[D.C_IC_INN]))
        if y + 24 + 64 <= img.shape[0]:
            img[y + 24:y + 88, x:x + 64] = picture
    elif over:
        draw.text(img, y + 6, x, "game over", LAST_RGB)


def board_layout(state: np.ndarray) -> tuple[int, int, int, int, int]:
    """(x0, y0, px, cols, rows): the board cell drawn top-left, the tile size in pixels
    and the board's size in tiles (the placed tiles' box grown by one on every side)."""
    x0, x1, y0, y1 = _bounds(state)
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    return x0, y0, int(max(12, min(TILE_PX, 1200 // cols, 900 // rows))), cols, rows


def move_targets(state: np.ndarray) -> dict[int, tuple[int, int, int, int]]:
    """Where moves go in ``render_rgb``: a placement (CA-3) -> its board cell (the four
    rotations share it), a meeple (CA-4) -> a box round its spot on the tile just placed."""
    state = np.ascontiguousarray(state, dtype=np.int64)
    x0, y0, px, _, _ = board_layout(state)
    phase, targets = int(state[H_PHASE]), {}
    if phase == D.PH_PLACE:
        for j in range(int(state[D.G_FRONTIER])):          # either action layout
            x, y = D.xy_of(int(state[D.F_CELL + j]))
            for rotation in range(4):
                targets[D.placement_action(state, x, y, rotation)] = (
                    (y - y0) * px, (x - x0) * px, px, px)
    elif phase == D.PH_MEEPLE and int(state[D.G_PLACED]):
        index = int(state[D.G_PLACED]) - 1
        x, y = D.xy_of(int(state[D.T_CELL + index]))
        t, r = int(state[D.T_TYPE + index]), int(state[D.T_ROT + index])
        points = _tile_image(t, r, px, bool(state[D.C_IC_INN]))[1]
        half = max(px // 10, 3)             # small: two spots on one tile may be close
        layout = D.layout_of(state)
        for slot, (u, v) in enumerate(points):
            cy, cx = (y - y0) * px + int(v * (px - 1)), (x - x0) * px + int(u * (px - 1))
            for large in (False, True):
                targets[D.meeple_action(slot, large, layout)] = (cy - half, cx - half,
                                                                 2 * half, 2 * half)
    return targets


def render_rgb(state: np.ndarray) -> np.ndarray:
    """The board (tiles drawn from their segments, meeples in seat colours, where the tile
    in hand fits, the last tile outlined) and a side panel (title, scores, supplies, the
    tile in hand).  Tiles are 48 px, smaller on boards too big for ~1200 x 900 pixels."""
    x0, y0, px, cols, rows = board_layout(state)
    height = max(rows * px, 68 + 42 * int(state[H_NUM_PLAYERS]) + 100)
    img = draw.canvas(height, cols * px + PANEL_W, EMPTY_RGB)
    for row in range(rows + 1):
        draw.rect(img, row * px, 0, 1, cols * px, GRID_RGB)
    for col in range(cols + 1):
        draw.rect(img, 0, col * px, rows * px, 1, GRID_RGB)
    if int(state[H_PHASE]) == D.PH_PLACE:                  # where the tile in hand fits
        actions = np.zeros(4 * D.FRONTIER_SLOTS, dtype=np.int64)
        for a in actions[:legal_placements(state, int(state[D.G_HAND]), actions)]:
            x, y, _ = D.placement_of(state, int(a))
            draw.rect(img, (y - y0) * px + 2, (x - x0) * px + 2, px - 3, px - 3, FIT_RGB)
    for index in range(int(state[D.G_PLACED])):
        x, y = D.xy_of(int(state[D.T_CELL + index]))
        _draw_tile(img, (y - y0) * px, (x - x0) * px, state, index, px)
    placed = int(state[D.G_PLACED])
    if placed > 1 and int(state[H_PHASE]) != D.PH_GAME_OVER:
        x, y = D.xy_of(int(state[D.T_CELL + placed - 1]))
        draw.outline(img, (y - y0) * px, (x - x0) * px, px, px, LAST_RGB, 2)
    _panel(img, state, cols * px)
    return draw.pad_even(img, EMPTY_RGB)
