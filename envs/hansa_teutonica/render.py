"""Text (``ansi``) and picture (``rgb_array``) views of a Hansa Teutonica state.

The picture places cities at their real longitude/latitude (a schematic, not the printed
board): routes are lines with one square per space in the owner's colour (a merchant
drawn with a dark centre), cities show their printed offices left to right (outlined in
the office colour, filled with the Kontor owner's colour) and extra Kontors above them;
bonus markers sit as small yellow squares on their route.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE
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


def _xy(city: int) -> tuple[int, int]:
    lon, lat = CITY_LONLAT[city]
    lon0, lon1 = CITY_LONLAT[:, 0].min(), CITY_LONLAT[:, 0].max()
    lat0, lat1 = CITY_LONLAT[:, 1].min(), CITY_LONLAT[:, 1].max()
    x = MARGIN + (lon - lon0) / (lon1 - lon0) * (WIDTH - 2 * MARGIN)
    y = MARGIN + (lat1 - lat) / (lat1 - lat0) * (HEIGHT - 2 * MARGIN)
    return int(x), int(y)


def _box(img, x, y, half, colour):
    img[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1] = colour


def _line(img, a, b, colour):
    steps = int(max(abs(b[0] - a[0]), abs(b[1] - a[1]))) + 1
    xs = np.linspace(a[0], b[0], steps).astype(int)
    ys = np.linspace(a[1], b[1], steps).astype(int)
    img[ys, xs] = colour


def render_rgb(state: np.ndarray) -> np.ndarray:
    img = np.full((HEIGHT, WIDTH, 3), (222, 205, 160), dtype=np.uint8)      # parchment
    side = int(state[D.G_SIDE])
    for r in range(D.ROUTES_ON_SIDE[side]):
        a, b = (_xy(int(c)) for c in D.ROUTE_CITY[r])
        _line(img, a, b, (120, 100, 70))
        length = int(D.ROUTE_LEN[r])
        for k in range(length):
            f = (k + 1) / (length + 1)
            x, y = int(a[0] + f * (b[0] - a[0])), int(a[1] + f * (b[1] - a[1]))
            s = int(D.ROUTE_START[r]) + k
            owner = int(state[D.G_SPACE_OWNER + s])
            _box(img, x, y, 6, (90, 70, 50))
            _box(img, x, y, 5, SEAT_COLOURS[owner] if owner >= 0 else (250, 240, 215))
            if owner >= 0 and state[D.G_SPACE_TYPE + s] == D.MERCHANT:
                _box(img, x, y, 2, (30, 30, 30))
        if state[D.G_ROUTE_MARKER + r] >= 0:
            mx, my = (a[0] + b[0]) // 2, (a[1] + b[1]) // 2 - 12
            _box(img, mx, my, 5, (250, 220, 0))
    for city in range(D.NUM_CITIES):
        x, y = _xy(city)
        n = int(D.CITY_NOFF[side, city])
        left = x - n * 9
        _box(img, x, y, 4 + 9 * n, (70, 55, 40))
        for i in range(n):
            ox = left + 9 + 18 * i
            _box(img, ox, y, 8, OFFICE_COLOURS[int(D.OFF_COLOUR[side, city, i])])
            owner = int(state[D.G_OFFICE_OWNER + city * D.MAX_OFFICES + i])
            if owner >= 0:
                _box(img, ox, y, 5, SEAT_COLOURS[owner])
            elif D.OFF_SHAPE[side, city, i] == D.MERCHANT:
                _box(img, ox, y, 2, (120, 120, 120))
        for i in range(int(state[D.G_EXTRA_N + city])):
            owner = int(state[D.G_EXTRA_OWNER + city * D.MAX_EXTRA + i])
            _box(img, left + 9 + 14 * i, y - 20, 5, SEAT_COLOURS[owner])
    for j in range(4):                                          # Coellen table
        owner = int(state[D.G_COELLEN + j])
        x, y = _xy(D.COELLEN)
        _box(img, x - 27 + 18 * j, y + 22, 7, OFFICE_COLOURS[j])
        if owner >= 0:
            _box(img, x - 27 + 18 * j, y + 22, 4, SEAT_COLOURS[owner])
    for seat in range(int(state[H_NUM_PLAYERS])):               # score bars
        score = int(player_block(state, seat)[D.P_SCORE])
        _box(img, 10, 10 + 8 * seat, 3, SEAT_COLOURS[seat])
        img[8 + 8 * seat:13 + 8 * seat, 16:16 + min(score, 40) * 10] = SEAT_COLOURS[seat]
    return img
