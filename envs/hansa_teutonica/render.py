"""Text (``ansi``) and picture (``rgb_array``) views of a Hansa Teutonica state.

The picture (960 x 720, drawn with :mod:`..core.draw`) places cities at their real
longitude/latitude (a schematic, not the printed board; where everything lies, and the
browser's click boxes, are in ``layout.py``).  A title names the phase and who
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
from .layout import (  # noqa: F401  (move_targets: the browser's click boxes)
    CITY_YX,
    COELLEN_DX,
    COELLEN_DY,
    HEIGHT,
    LEGEND_H,
    MAP_W,
    OFFICE,
    PANEL_ROW_Y,
    PANEL_W,
    TITLE_H,
    WIDTH,
    city_box,
    city_centre,
    move_targets,
    name_centre,
    panel_height,
    space_centres,
)
from .validate import player_block

SEAT_COLOURS = np.array([[200, 40, 40], [40, 90, 200], [40, 160, 60], [230, 190, 30],
                         [150, 60, 170]], dtype=np.uint8)
OFFICE_COLOURS = np.array([[245, 245, 245], [240, 140, 40], [240, 130, 180], [20, 20, 20]],
                          dtype=np.uint8)
SEAT_LETTERS = "RBGYP"


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


PARCHMENT, INK, ROUTE_RGB = (226, 211, 170), (40, 30, 20), (150, 125, 90)
LABEL_BG, CITY_RGB, SPACE_RGB = (242, 232, 200), (70, 55, 40), (250, 244, 226)
MARKER_RGB, ACTIVE_RGB, WINNER_RGB = (250, 215, 40), (200, 30, 30), (230, 170, 20)
SEAT_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple")
MARKER_TAGS = ("K", "S", "+3", "+4", "U", "R3")
TRACK_LABELS = ("Keys", "Actions", "Privilege", "Books", "Bags")



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


def _routes(img, state, side: int) -> None:
    for r in range(D.ROUTES_ON_SIDE[side]):
        a, b = (city_centre(int(c)) for c in D.ROUTE_CITY[r])
        draw.line(img, a, b, ROUTE_RGB, width=3)
    for r in range(D.ROUTES_ON_SIDE[side]):
        a, b = (city_centre(int(c)) for c in D.ROUTE_CITY[r])
        marker = int(state[D.G_ROUTE_MARKER + r])
        if marker >= 0:                    # a tag beside the route's middle
            dy, dx = b[0] - a[0], b[1] - a[1]
            norm = max(float(np.hypot(dy, dx)), 1.0)
            my, mx = (a[0] + b[0]) / 2 - dx / norm * 16, (a[1] + b[1]) / 2 + dy / norm * 16
            tag = MARKER_TAGS[marker]
            draw.rect(img, my - 8, mx - 10, 17, 21, INK)
            draw.rect(img, my - 7, mx - 9, 15, 19, MARKER_RGB)
            draw.text_centred(img, my, mx + 1, tag, INK)


def _spaces(img, state, side: int) -> None:
    """Drawn last, as pieces lie on a printed board: a space (and its click box) stays
    whole where it meets a tag or a city's name."""
    centres = space_centres(side)
    for s in range(D.SPACES_ON_SIDE[side]):
        _piece(img, *centres[s], int(state[D.G_SPACE_OWNER + s]), int(state[D.G_SPACE_TYPE + s]))


def _city(img, state, side: int, city: int) -> None:
    y, x = city_centre(city)
    n = int(D.CITY_NOFF[side, city])
    top, left, _, w = city_box(side, city)
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
    draw.text_centred(img, *name_centre(side, city), D.CITY_NAMES[city], INK,
                      background=LABEL_BG)
    ability = int(D.CITY_ABILITY[city])
    if ability >= 0:
        draw.text_centred(img, top + OFFICE + 14, x, TRACK_LABELS[ability], (150, 30, 30),
                          background=LABEL_BG)
    if city == D.COELLEN:                                  # the Coellen table
        for j, value in enumerate(D.COELLEN_VALUES):
            cx = x + COELLEN_DX[j]
            colour = tuple(int(v) for v in OFFICE_COLOURS[j])
            draw.square(img, y + COELLEN_DY, cx, 9, INK)
            draw.square(img, y + COELLEN_DY, cx, 8, colour)
            owner = int(state[D.G_COELLEN + j])
            if owner >= 0:
                draw.square(img, y + COELLEN_DY, cx, 5, _seat_rgb(owner))
            else:
                draw.text_centred(img, y + COELLEN_DY, cx + 1, str(int(value)),
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
    x = x0 + PANEL_W - 10 - draw.text_size(score, 2)[1]
    draw.text(img, y + 9, x, score, INK, scale=2)
    # The prestige track as it stands: the page's "if the game ended now" adds the
    # end-game scoring (HT-10), so the label says which one this is.
    draw.text(img, y + 14, x - 4 - draw.text_size("score now")[1], "score now", (110, 95, 70))
    ty = y + PANEL_ROW_Y
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
    _spaces(img, state, side)
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
    h = panel_height(players)
    for seat in range(players):
        highlight = None
        if over and scores[seat] == max(scores):
            highlight = WINNER_RGB
        elif not over and seat == (to_move if to_move >= 0 else int(state[D.G_ACTIVE])):
            highlight = ACTIVE_RGB
        _player_panel(img, state, seat, TITLE_H + seat * h, h, highlight)
    return img

