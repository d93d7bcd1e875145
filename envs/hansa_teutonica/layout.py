"""Where things are in Hansa Teutonica's picture (``render.py`` draws there) and the click
boxes of the browser's board, ``move_targets``: every (top, left, height, width) in the
pixels of ``render_rgb``.  Geometry only: no drawing, no state changed."""

from __future__ import annotations

import functools

import numpy as np

from ..core import draw
from ..core.contract import H_NUM_PLAYERS, H_PHASE, H_TO_MOVE
from . import data as D

WIDTH, HEIGHT = 960, 720
TITLE_H, LEGEND_H, PANEL_W = 30, 24, 250
MAP_W = WIDTH - PANEL_W
OFFICE = 16                                        # office cell size in a city box
PANEL_ROW_Y = 33                                   # first track line below a panel's top
COELLEN_DY, COELLEN_DX = 28, (-33, -11, 11, 33)    # the Coellen table under its city

# (longitude, latitude) of each city, for the schematic map.
CITY_LONLAT = np.array([
    (6.57, 53.22), (7.20, 53.37), (5.90, 52.55), (8.05, 52.28), (5.90, 51.98), (6.76, 51.43),
    (7.47, 51.51), (7.63, 51.96), (6.96, 50.94), (9.14, 51.49), (8.75, 51.72), (8.92, 52.29),
    (8.80, 53.08), (9.48, 53.60), (9.73, 52.37), (9.95, 52.15), (9.93, 51.54), (11.15, 51.79),
    (10.43, 51.90), (10.52, 52.27), (10.41, 53.25), (9.99, 53.55), (10.69, 53.87),
    (11.86, 53.07), (11.86, 52.60), (11.63, 52.13), (11.97, 51.48),
])
# (y, x) pixel centre of each city: the longitude/latitude above, relaxed (a few spring
# iterations, baked in here) until every route has room for its spaces between the boxes,
# then Stade, Hildesheim, Magdeburg and Dortmund nudged so that no two spaces overlap and
# no route runs under a city (a click box per space: tests/play/test_board_targets.py).
CITY_YX = np.array([
    (211, 90), (165, 214), (329, 56), (387, 211), (441, 55), (550, 117),
    (544, 219), (447, 226), (636, 160), (569, 359), (461, 329), (346, 331),
    (234, 333), (150, 326), (324, 477), (403, 443), (551, 497), (469, 602),
    (492, 449), (393, 527), (206, 503), (80, 440), (80, 577), (196, 641),
    (306, 655), (403, 605), (596, 655),
])


def city_centre(city: int) -> tuple[int, int]:
    """(y, x) of a city's centre on the map part of the picture."""
    return int(CITY_YX[city, 0]), int(CITY_YX[city, 1])


def _box_exit(side: int, city: int, uy: float, ux: float) -> float:
    """How far a route leaving the city's centre along (uy, ux) runs under its box."""
    half_w = (int(D.CITY_NOFF[side, city]) * (OFFICE + 2) + 4) / 2 + 6
    half_h = (OFFICE + 6) / 2 + 6
    return min(half_w / max(abs(ux), 1e-6), half_h / max(abs(uy), 1e-6))


def space_centres(side: int) -> np.ndarray:
    """(y, x) centre of every trading-post space on the map: a route's spaces spread
    evenly between the two city boxes (drawing and click boxes share it)."""
    centres = np.zeros((D.NUM_SPACES, 2))
    for r in range(D.ROUTES_ON_SIDE[side]):
        ca, cb = (int(c) for c in D.ROUTE_CITY[r])
        a, b = city_centre(ca), city_centre(cb)
        length, start = int(D.ROUTE_LEN[r]), int(D.ROUTE_START[r])
        dist = max(float(np.hypot(b[0] - a[0], b[1] - a[1])), 1.0)
        uy, ux = (b[0] - a[0]) / dist, (b[1] - a[1]) / dist
        lo, hi = _box_exit(side, ca, uy, ux), dist - _box_exit(side, cb, uy, ux)
        for k in range(length):
            t = lo + (k + 0.5) * (hi - lo) / length
            centres[start + k] = a[0] + t * uy, a[1] + t * ux
    return centres


def city_box(side: int, city: int) -> tuple[int, int, int, int]:
    """(top, left, height, width) of a city's dark box with its printed offices."""
    y, x = city_centre(city)
    w = int(D.CITY_NOFF[side, city]) * (OFFICE + 2) + 4
    return y - (OFFICE + 6) // 2, x - w // 2, OFFICE + 6, w


@functools.cache
def names_below(side: int) -> frozenset[int]:
    """Cities whose name goes under their box, not over it: where a space would cover
    the name above and nothing (a track's name, the Coellen table) is drawn below."""
    centres = space_centres(side)[:D.SPACES_ON_SIDE[side]]
    below = set()
    for city in range(D.NUM_CITIES):
        if D.CITY_ABILITY[city] >= 0 or city == D.COELLEN:
            continue
        top, _, h, _ = city_box(side, city)
        size = draw.text_size(D.CITY_NAMES[city])
        x = city_centre(city)[1]
        if (_covered(centres, (top - 8, x), size)
                and not _covered(centres, (top + h + 7, x), size)):
            below.add(city)
    return frozenset(below)


def _covered(centres: np.ndarray, at: tuple[int, int], size: tuple[int, int]) -> bool:
    """Whether a space (15 px square) touches a label of ``size`` centred at ``at``."""
    return bool(((np.abs(centres[:, 0] - at[0]) < size[0] / 2 + 8)
                 & (np.abs(centres[:, 1] - at[1]) < size[1] / 2 + 8)).any())


def name_centre(side: int, city: int) -> tuple[int, int]:
    """(y, x) centre of a city's name label."""
    top, _, h, _ = city_box(side, city)
    return (top + h + 7 if city in names_below(side) else top - 8), city_centre(city)[1]


def panel_height(players: int) -> int:
    """Height of each player's panel (stacked under the title on the right)."""
    return min((HEIGHT - TITLE_H) // max(players, 1), 150)


def panel_row(players: int, seat: int, row: int) -> tuple[int, int, int, int]:
    """(top, left, height, width) of a line of a seat's panel: rows 0-4 the five tracks,
    5 the stock and supply, 6 the Kontors and unused bonus markers."""
    top = TITLE_H + seat * panel_height(players) + PANEL_ROW_Y + 12 * row + 3 * (row >= 5)
    return top - 1, MAP_W + 6, 12, PANEL_W - 12


# --- click boxes (the browser's board) ------------------------------------------------------

def _space_box(centres: np.ndarray, space: int) -> tuple[int, int, int, int]:
    y, x = centres[space]
    return int(y) - 7, int(x) - 7, 15, 15                 # the drawn space (_piece)


def move_targets(state: np.ndarray) -> dict[int, tuple[int, int, int, int]]:
    """Where moves go in ``render_rgb``, as (top, left, height, width): a trader or
    merchant placed, displaced, moved or picked up -> its trading-post space (the two
    piece types share it); establishing a route or laying a bonus marker on it -> the
    route's middle space (the route is then all the player's, or all empty, so no other
    move there); a reward or a swap -> the city box (a Coellen reward: its table square).
    On the mover's panel: income -> the stock and supply line, a Move -> the Books
    (Liber) track that sets its size, an upgrade marker -> the track it raises, the other
    bonus markers -> the line listing them.  End turn, done and payments have no place."""
    state = np.ascontiguousarray(state, dtype=np.int64)
    side, phase = int(state[D.G_SIDE]), int(state[H_PHASE])
    centres = space_centres(side)
    spaces, routes = D.SPACES_ON_SIDE[side], D.ROUTES_ON_SIDE[side]
    targets: dict[int, tuple[int, int, int, int]] = {}
    if phase in (D.PH_MAIN, D.PH_COMPENSATE, D.PH_MOVE_DROP):
        for s in range(spaces):
            targets[D.A_PLACE + 2 * s] = targets[D.A_PLACE + 2 * s + 1] = _space_box(centres, s)
    if phase in (D.PH_COMPENSATE, D.PH_MOVE_PICK, D.PH_REMOVE3):
        for s in range(spaces):
            targets[D.A_PICK + s] = _space_box(centres, s)
    if phase in (D.PH_MAIN, D.PH_MARKER_PLACE):
        for r in range(routes):
            middle = _space_box(centres, int(D.ROUTE_START[r] + D.ROUTE_LEN[r] // 2))
            targets[D.A_ESTABLISH + r] = targets[D.A_MARKER + r] = middle
        for city in range(D.NUM_CITIES):
            for i in range(int(D.CITY_NOFF[side, city]) - 1):
                targets[D.A_SWAP + 3 * city + i] = city_box(side, city)
    seat, players = int(state[H_TO_MOVE]), int(state[H_NUM_PLAYERS])
    if phase == D.PH_MAIN and 0 <= seat < players:
        for m in range(D.A_INCOME, D.A_PLACE):
            targets[m] = panel_row(players, seat, 5)
        targets[D.A_MOVE_BEGIN] = panel_row(players, seat, D.LIBER)
        for track in range(D.NUM_TRACKS):
            targets[D.A_UPGRADE + track] = panel_row(players, seat, track)
        for m in (D.A_PLUS3, D.A_PLUS4, D.A_REMOVE3):
            targets[m] = panel_row(players, seat, 6)
    route = int(state[D.G_EST_ROUTE])
    if phase == D.PH_REWARD and route >= 0:
        a, b = (int(c) for c in D.ROUTE_CITY[route])
        for k, city in ((D.R_KONTOR, a), (D.R_KONTOR + 1, b), (D.R_EXTRA, a),
                        (D.R_EXTRA + 1, a), (D.R_EXTRA + 2, b), (D.R_EXTRA + 3, b),
                        (D.R_UPGRADE, a), (D.R_UPGRADE + 1, b)):
            targets[D.A_REWARD + k] = city_box(side, city)
        y, x = city_centre(D.COELLEN)
        for j in range(len(D.COELLEN_VALUES)):
            targets[D.A_REWARD + D.R_COELLEN + j] = (y + COELLEN_DY - 9,
                                                     x + COELLEN_DX[j] - 9, 19, 19)
    return targets
