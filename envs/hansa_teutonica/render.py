"""Text (``ansi``) and picture (``rgb_array``) views of a Hansa Teutonica state.

The picture (960 x 720, drawn with :mod:`..core.draw`) places cities at their real
longitude/latitude (a schematic, not the printed board).  A title names the phase and who
is to move.  Each city is a dark box under its name, with its printed offices left to right
in the office colour (a trader office square, a merchant office round, a coin office
marked), each filled with its Kontor owner's colour once taken, and extra Kontors in a row
above; ability cities name their track.  A route is a line of trading-post spaces: a
trader is a square and a merchant a disc in its owner's colour, and a bonus marker lies on
the route as a yellow tag.  A side panel per player shows colour, prestige points, the five
tracks, stock and supply, unused bonus markers and Kontors held.
"""

from __future__ import annotations

import numpy as np

from ..core import draw
from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from . import data as D
from .validate import player_block

SEAT_COLOURS = np.array([[200, 40, 40], [40, 90, 200], [40, 160, 60], [230, 190, 30],
                         [150, 60, 170]], dtype=np.uint8)
OFFICE_COLOURS = np.array([[245, 245, 245], [240, 140, 40], [240, 130, 180], [20, 20, 20]],
                          dtype=np.uint8)
SEAT_LETTERS = "RBGYP"
# (longitude, latitude) of each city, for the schematic map.
CITY_LONLAT = np.array([
    (6.57, 53.22), (7.20, 53.37), (5.90, 52.55), (8.05, 52.28), (5.90, 51.98), (6.76, 51.43),
    (7.47, 51.51), (7.63, 51.96), (6.96, 50.94), (9.14, 51.49), (8.75, 51.72), (8.92, 52.29),
    (8.80, 53.08), (9.48, 53.60), (9.73, 52.37), (9.95, 52.15), (9.93, 51.54), (11.15, 51.79),
    (10.43, 51.90), (10.52, 52.27), (10.41, 53.25), (9.99, 53.55), (10.69, 53.87),
    (11.86, 53.07), (11.86, 52.60), (11.63, 52.13), (11.97, 51.48),
])
WIDTH, HEIGHT, MARGIN = 960, 720, 60


def _owner(value: int) -> str:
    return "_" if value < 0 else SEAT_LETTERS[value]


def render_ansi(state: np.ndarray) -> str:
    players = int(state[H_NUM_PLAYERS])
    side = int(state[D.G_SIDE])
    supply = int(state[D.G_SUPPLY:D.G_SUPPLY + 6].sum()) - int(state[D.G_PLATE])
    lines = [
        f"Hansa Teutonica, {players} players, side {'2-3' if side == 0 else '4-5'}; "
        f"phase {D.PHASE_NAMES[int(state[H_PHASE])]}, to move {int(state[H_TO_MOVE])}, "
        f"active {SEAT_LETTERS[int(state[D.G_ACTIVE])]}, actions left "
        f"{int(state[D.G_ACTIONS_LEFT])}, decision {int(state[H_PLY])}",
        f"completed cities {int(state[D.G_COMPLETED])}/10, east-west {int(state[D.G_EW_COUNT])}"
        f", marker supply {supply}, plate {int(state[D.G_PLATE])}"
        + (", TRUNCATED" if state[D.G_TRUNCATED] else ""),
    ]
    for seat in range(players):
        p = player_block(state, seat)
        tracks = " ".join(f"{name}={int(D.TRACK_VALUES[t, p[D.P_TRACK + t]])}"
                          for t, name in enumerate(D.TRACK_NAMES))
        unused = ",".join(f"{D.MARKER_NAMES[k]}x{int(p[D.P_UNUSED + k])}"
                          for k in range(6) if p[D.P_UNUSED + k])
        lines.append(
            f"{SEAT_LETTERS[seat]}: {int(p[D.P_SCORE])} PP | {tracks} | personal "
            f"{int(p[D.P_PERSONAL])}T {int(p[D.P_PERSONAL + 1])}M, general "
            f"{int(p[D.P_GENERAL])}T {int(p[D.P_GENERAL + 1])}M | markers [{unused}] "
            f"used {int(p[D.P_USED])}"
        )
    lines.append("cities:")
    for city in range(D.NUM_CITIES):
        offices = []
        for i in range(int(D.CITY_NOFF[side, city])):
            owner = int(state[D.G_OFFICE_OWNER + city * D.MAX_OFFICES + i])
            shape = "TM"[int(D.OFF_SHAPE[side, city, i])]
            colour = D.COLOURS[int(D.OFF_COLOUR[side, city, i])]
            coin = "*" if D.OFF_COIN[side, city, i] else ""
            offices.append(f"{shape}-{colour}{coin}:{_owner(owner)}")
        n = int(state[D.G_EXTRA_N + city])
        extras = [_owner(int(state[D.G_EXTRA_OWNER + city * D.MAX_EXTRA + i]))
                  for i in range(n - 1, -1, -1)]
        extra = f"[x {' '.join(extras)}] " if extras else ""
        lines.append(f"  {D.CITY_NAMES[city]:<12} {extra}{' '.join(offices)}")
    coellen = " ".join(f"{v}:{_owner(int(state[D.G_COELLEN + j]))}"
                       for j, v in enumerate(D.COELLEN_VALUES))
    lines.append(f"coellen table: {coellen}")
    lines.append("routes:")
    for r in range(D.ROUTES_ON_SIDE[side]):
        start, length = int(D.ROUTE_START[r]), int(D.ROUTE_LEN[r])
        pieces = []
        for s in range(start, start + length):
            owner = int(state[D.G_SPACE_OWNER + s])
            kind = "tm"[int(state[D.G_SPACE_TYPE + s])] if owner >= 0 else ""
            pieces.append(f"{_owner(owner)}{kind}")
        marker = int(state[D.G_ROUTE_MARKER + r])
        tag = f" <{D.MARKER_NAMES[marker]}>" if marker >= 0 else ""
        a, b = D.ROUTE_CITY[r]
        lines.append(f"  {r:>2} {D.CITY_NAMES[a]}-{D.CITY_NAMES[b]}: {' '.join(pieces)}{tag}")
    return "\n".join(lines)


TITLE_H, LEGEND_H, PANEL_W = 30, 24, 250
MAP_W = WIDTH - PANEL_W
PARCHMENT, INK, ROUTE_RGB = (226, 211, 170), (40, 30, 20), (150, 125, 90)
LABEL_BG, CITY_RGB, SPACE_RGB = (242, 232, 200), (70, 55, 40), (250, 244, 226)
MARKER_RGB, ACTIVE_RGB, WINNER_RGB = (250, 215, 40), (200, 30, 30), (230, 170, 20)
SEAT_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple")
MARKER_TAGS = ("K", "S", "+3", "+4", "U", "R3")
TRACK_LABELS = ("Keys", "Actions", "Privilege", "Books", "Bags")
OFFICE = 16                                        # office cell size in a city box


# (y, x) pixel centre of each city: the longitude/latitude above, relaxed (a few spring
# iterations, baked in here) until every route has room for its spaces between the boxes.
CITY_YX = np.array([
    (211, 90), (165, 214), (329, 56), (387, 211), (441, 55), (550, 117),
    (540, 219), (447, 226), (636, 160), (569, 359), (461, 329), (346, 331),
    (234, 333), (174, 370), (324, 477), (383, 443), (551, 497), (469, 602),
    (492, 449), (393, 527), (206, 503), (80, 440), (80, 577), (196, 641),
    (306, 655), (411, 613), (596, 655),
])


def _xy(city: int) -> tuple[int, int]:
    """(y, x) of a city's centre on the map part of the picture."""
    return int(CITY_YX[city, 0]), int(CITY_YX[city, 1])


def _seat_rgb(seat: int) -> tuple[int, int, int]:
    return tuple(int(v) for v in SEAT_COLOURS[seat])


def _piece(img, y, x, owner: int, kind: int) -> None:
    """A trading-post space: empty, a trader (square) or a merchant (disc)."""
    draw.square(img, y, x, 7, INK)
    draw.square(img, y, x, 6, SPACE_RGB)
    if owner < 0:
        return
    if kind == D.MERCHANT:
        draw.disc(img, y, x, 7, INK)
        draw.disc(img, y, x, 6, _seat_rgb(owner))
    else:
        draw.square(img, y, x, 6, _seat_rgb(owner))


def _box_exit(side: int, city: int, uy: float, ux: float) -> float:
    """How far a route leaving the city's centre along (uy, ux) runs under its box."""
    half_w = (int(D.CITY_NOFF[side, city]) * (OFFICE + 2) + 4) / 2 + 6
    half_h = (OFFICE + 6) / 2 + 6
    return min(half_w / max(abs(ux), 1e-6), half_h / max(abs(uy), 1e-6))


def _routes(img, state, side: int) -> None:
    for r in range(D.ROUTES_ON_SIDE[side]):
        a, b = (_xy(int(c)) for c in D.ROUTE_CITY[r])
        draw.line(img, a, b, ROUTE_RGB, width=3)
    for r in range(D.ROUTES_ON_SIDE[side]):
        ca, cb = (int(c) for c in D.ROUTE_CITY[r])
        a, b = _xy(ca), _xy(cb)
        length, start = int(D.ROUTE_LEN[r]), int(D.ROUTE_START[r])
        dist = max(float(np.hypot(b[0] - a[0], b[1] - a[1])), 1.0)
        uy, ux = (b[0] - a[0]) / dist, (b[1] - a[1]) / dist
        lo, hi = _box_exit(side, ca, uy, ux), dist - _box_exit(side, cb, uy, ux)
        for k in range(length):        # spaces spread between the two city boxes
            t = lo + (k + 0.5) * (hi - lo) / length
            s = start + k
            _piece(img, a[0] + t * uy, a[1] + t * ux,
                   int(state[D.G_SPACE_OWNER + s]), int(state[D.G_SPACE_TYPE + s]))
        marker = int(state[D.G_ROUTE_MARKER + r])
        if marker >= 0:                    # a tag beside the route's middle
            dy, dx = b[0] - a[0], b[1] - a[1]
            norm = max(float(np.hypot(dy, dx)), 1.0)
            my, mx = (a[0] + b[0]) / 2 - dx / norm * 16, (a[1] + b[1]) / 2 + dy / norm * 16
            tag = MARKER_TAGS[marker]
            draw.rect(img, my - 8, mx - 10, 17, 21, INK)
            draw.rect(img, my - 7, mx - 9, 15, 19, MARKER_RGB)
            draw.text_centred(img, my, mx + 1, tag, INK)


def _city(img, state, side: int, city: int) -> None:
    y, x = _xy(city)
    n = int(D.CITY_NOFF[side, city])
    w = n * (OFFICE + 2) + 4
    left, top = x - w // 2, y - (OFFICE + 6) // 2
    draw.rect(img, top, left, OFFICE + 6, w, CITY_RGB)
    for i in range(n):
        oy, ox = y, left + 3 + i * (OFFICE + 2) + OFFICE // 2
        colour = tuple(int(v) for v in OFFICE_COLOURS[int(D.OFF_COLOUR[side, city, i])])
        owner = int(state[D.G_OFFICE_OWNER + city * D.MAX_OFFICES + i])
        merchant = D.OFF_SHAPE[side, city, i] == D.MERCHANT
        if merchant:
            draw.disc(img, oy, ox, OFFICE // 2, colour)
        else:
            draw.square(img, oy, ox, OFFICE // 2, colour)
        if owner >= 0:
            fill = _seat_rgb(owner)
            if int(state[D.G_OFFICE_TYPE + city * D.MAX_OFFICES + i]) == D.MERCHANT:
                draw.disc(img, oy, ox, OFFICE // 2 - 3, fill)
            else:
                draw.square(img, oy, ox, OFFICE // 2 - 3, fill)
        elif D.OFF_COIN[side, city, i]:
            draw.ring(img, oy, ox, 4, (200, 150, 20), 2)
    for i in range(int(state[D.G_EXTRA_N + city])):        # extra Kontors to the right
        owner = int(state[D.G_EXTRA_OWNER + city * D.MAX_EXTRA + i])
        ex = left + w + 6 + 11 * i
        draw.square(img, y, ex, 5, INK)
        draw.square(img, y, ex, 4, _seat_rgb(owner) if owner >= 0 else SPACE_RGB)
    draw.text_centred(img, top - 8, x, D.CITY_NAMES[city], INK, background=LABEL_BG)
    ability = int(D.CITY_ABILITY[city])
    if ability >= 0:
        draw.text_centred(img, top + OFFICE + 14, x, TRACK_LABELS[ability], (150, 30, 30),
                          background=LABEL_BG)
    if city == D.COELLEN:                                  # the Coellen table
        for j, value in enumerate(D.COELLEN_VALUES):
            cx = x - 33 + 22 * j
            colour = tuple(int(v) for v in OFFICE_COLOURS[j])
            draw.square(img, y + 28, cx, 9, INK)
            draw.square(img, y + 28, cx, 8, colour)
            owner = int(state[D.G_COELLEN + j])
            if owner >= 0:
                draw.square(img, y + 28, cx, 5, _seat_rgb(owner))
            else:
                draw.text_centred(img, y + 28, cx + 1, str(int(value)),
                                  (255, 255, 255) if j == 3 else INK)


def _track_value(track: int, level: int) -> str:
    value = int(D.TRACK_VALUES[track, level])
    if track == D.PRIVILEGIUM:
        return D.COLOURS[value]
    return "all" if value >= D.UNLIMITED else str(value)


def _player_panel(img, state, seat: int, y: int, h: int, highlight) -> None:
    x0 = MAP_W
    p = player_block(state, seat)
    colour = _seat_rgb(seat)
    draw.rect(img, y, x0, h, PANEL_W, (246, 240, 222))
    draw.rect(img, y, x0, 5, PANEL_W, colour)
    if highlight is not None:
        draw.outline(img, y, x0, h, PANEL_W, highlight, 3)
    draw.rect(img, y + 10, x0 + 10, 16, 16, INK)
    draw.rect(img, y + 11, x0 + 11, 14, 14, colour)
    draw.text(img, y + 9, x0 + 32, SEAT_NAMES[seat], INK, scale=2)
    score = f"{int(p[D.P_SCORE])} PP"
    draw.text(img, y + 9, x0 + PANEL_W - 10 - draw.text_size(score, 2)[1], score, INK, scale=2)
    ty = y + 33
    for t, label in enumerate(TRACK_LABELS):
        level = int(p[D.P_TRACK + t])
        draw.text(img, ty, x0 + 10, label, INK)
        draw.text(img, ty, x0 + 72, _track_value(t, level), (150, 30, 30))
        for k in range(int(D.TRACK_MAX[t]) + 1):
            px = x0 + 100 + 12 * k
            draw.rect(img, ty + 1, px, 9, 9, INK)
            if k > level:
                draw.rect(img, ty + 2, px + 1, 7, 7, SPACE_RGB)
        ty += 12
    kontors = int((state[D.G_OFFICE_OWNER:D.G_OFFICE_OWNER + D.NUM_CITIES * D.MAX_OFFICES]
                   == seat).sum())
    kontors += int((state[D.G_EXTRA_OWNER:D.G_EXTRA_OWNER + D.NUM_CITIES * D.MAX_EXTRA]
                    == seat).sum())
    draw.text(img, ty + 3, x0 + 10, f"stock {int(p[D.P_PERSONAL])}T {int(p[D.P_PERSONAL + 1])}M"
              f"  supply {int(p[D.P_GENERAL])}T {int(p[D.P_GENERAL + 1])}M", INK)
    markers = " ".join(MARKER_TAGS[k] + (f"x{int(p[D.P_UNUSED + k])}"
                                         if p[D.P_UNUSED + k] > 1 else "")
                       for k in range(D.NUM_MARKER_KINDS) if p[D.P_UNUSED + k]) or "-"
    draw.text(img, ty + 15, x0 + 10, f"Kontors {kontors}  bonus {markers}", INK)


def title_text(state) -> str:
    players = int(state[H_NUM_PLAYERS])
    to_move = int(state[H_TO_MOVE])
    phase = D.PHASE_NAMES[int(state[H_PHASE])].replace("_", " ")
    who = {CHANCE: "chance", TERMINAL: "game over"}.get(
        to_move, f"{SEAT_NAMES[to_move] if 0 <= to_move < players else to_move} to move")
    if to_move >= 0 and int(state[H_PHASE]) == D.PH_MAIN:
        left = int(state[D.G_ACTIONS_LEFT])
        who += f", {left} action{'s' if left != 1 else ''} left"
    status = who if to_move == TERMINAL else f"{phase}: {who}"
    return (f"{players} players  turn {int(state[D.G_TURNS]) + 1}  {status}  "
            f"cities {int(state[D.G_COMPLETED])}/10")


def render_rgb(state: np.ndarray) -> np.ndarray:
    state = np.ascontiguousarray(state, dtype=np.int64)
    img = draw.canvas(HEIGHT, WIDTH, PARCHMENT)
    side = int(state[D.G_SIDE])
    players = int(state[H_NUM_PLAYERS])
    draw.rect(img, 0, 0, TITLE_H, WIDTH, (45, 35, 28))
    x = draw.text(img, 4, 10, "Hansa Teutonica", (250, 225, 150), scale=2)
    draw.text(img, 10, x + 16, title_text(state) + ("  (cut off)" if state[D.G_TRUNCATED]
                                                    else ""), (240, 235, 220))
    _routes(img, state, side)
    for city in range(D.NUM_CITIES):
        _city(img, state, side, city)
    ly = HEIGHT - LEGEND_H
    draw.rect(img, ly, 0, LEGEND_H, MAP_W, (236, 226, 196))
    _piece(img, ly + 12, 14, 0, D.TRADER)
    x = draw.text(img, ly + 7, 26, "trader", INK)
    _piece(img, ly + 12, x + 14, 0, D.MERCHANT)
    x = draw.text(img, ly + 7, x + 26, "merchant", INK) + 10
    x = draw.legend(img, ly + 8, x, [(tuple(int(v) for v in OFFICE_COLOURS[j]), name) for j, name
                                     in enumerate(D.COLOURS)], gap=6)
    draw.text(img, ly + 7, x + 4, "bonus: K Kontor S swap +3/+4 actions U upgrade R3 remove",
              INK)
    to_move = int(state[H_TO_MOVE])
    over = int(state[H_PHASE]) == D.PH_GAME_OVER
    scores = [int(player_block(state, s)[D.P_SCORE]) for s in range(players)]
    h = (HEIGHT - TITLE_H) // max(players, 1)
    h = min(h, 150)
    for seat in range(players):
        highlight = None
        if over and scores[seat] == max(scores):
            highlight = WINNER_RGB
        elif not over and seat == (to_move if to_move >= 0 else int(state[D.G_ACTIVE])):
            highlight = ACTIVE_RGB
        _player_panel(img, state, seat, TITLE_H + seat * h, h, highlight)
    return img
