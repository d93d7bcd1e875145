"""Pictures of a Hansa state: ``render_ansi`` (text) and ``render_rgb`` (uint8 image).

Both read the flat state only and never change it.  The title says which board is in
play; the default board is the spec's *reconstruction* (placeholder numbers, warehouse
counts and three guessed routes), never presented as the printed board.  The image shows
the Baltic as a graph: cities at their real places, one-way routes as arrows, warehouse
tokens (colour and barrels), each player's stalls as bars, the ship as a ring, and a panel
per player with thalers, goods in hand and sold goods.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from . import data as D
from .board import DEFAULT_BOARD
from .masks import plurality
from .notation import token_name
from .rules import player_score

RECONSTRUCTION_TITLE = f"Hansa - board: {DEFAULT_BOARD['name']}"


def _prepare(state) -> np.ndarray:
    return np.ascontiguousarray(state, dtype=np.int64)


def _base(seat: int) -> int:
    return D.PLAYERS_BASE + seat * D.PLAYER_SIZE


def board_title(state) -> str:
    if int(state[D.C_BOARD_KIND]) == D.BOARD_DEFAULT:
        return RECONSTRUCTION_TITLE
    return "Hansa - board: custom board (loaded from data)"


def _tokens(counts) -> str:
    return " ".join(token_name(t) + (f"x{int(c)}" if c > 1 else "")
                    for t, c in enumerate(counts) if c > 0) or "-"


def render_ansi(state, title: str | None = None) -> str:
    state = _prepare(state)
    n = int(state[H_NUM_PLAYERS])
    to_move = int(state[H_TO_MOVE])
    who = {CHANCE: "chance (a draw)", TERMINAL: "nobody (game over)"}.get(to_move, f"P{to_move}")
    ship = int(state[D.G_SHIP])
    lines = [title or board_title(state),
             f"turn {int(state[D.G_TURNS]) + 1}  phase {D.PHASE_NAMES[int(state[H_PHASE])]}"
             f"  to move: {who}  ship at {D.CITY_CODES[ship]}"
             + ("  (action used)" if state[D.G_ACTED] else "")
             + ("  END TRIGGERED" if state[D.G_END_TRIGGERED] else "")
             + ("  (truncated at the turn cap)" if state[D.G_TRUNCATED] else "")]
    ends = [int(v) for v in state[D.G_STACK_END:D.G_STACK_END + D.NUM_STACKS]]
    draws, previous, left = int(state[D.G_DRAWS]), 0, []
    for end in ends:
        left.append(end - max(previous, min(end, draws)))
        previous = end
    lines.append(f"stacks left {' '.join(map(str, left))}  undrawn "
                 f"{_tokens(state[D.G_SUPPLY:D.G_SUPPLY + D.NUM_TYPES])}")
    players = "/".join(f"P{s}" for s in range(n))
    lines.append(f"no  city  routes to      warehouse  stalls {players}")
    for city in [int(c) for c in state[D.C_FILL:D.C_FILL + D.NUM_CITIES]]:
        exits = [D.CITY_CODES[b] for b in range(D.NUM_CITIES) if state[D.C_EXITS + city] >> b & 1]
        spaces = []
        for j in range(int(state[D.C_SPACES + city])):
            t = int(state[D.G_WAREHOUSE + D.MAX_SPACES * city + j])
            spaces.append(token_name(t) if t >= 0 else "..")
        stalls = "/".join(str(int(state[_base(s) + D.P_STALLS + city])) for s in range(n))
        holder = plurality(state, city)
        lines.append(f"{int(state[D.C_NUMBER + city]):>2}  {D.CITY_CODES[city]}"
                     f"{'*' if city == ship else ' '} {','.join(exits):<14} "
                     f"{' '.join(spaces):<10} {stalls}"
                     + (f"  (P{holder} leads)" if holder >= 0 else ""))
    lines.append(f"pending sale: {_tokens(state[D.G_PENDING:D.G_PENDING + D.NUM_TYPES])}"
                 if state[H_PHASE] == D.PH_SELL else "")
    for seat in range(n):
        base = _base(seat)
        mark = " <== turn" if seat == int(state[D.G_ACTIVE]) and to_move != TERMINAL else ""
        start = " [start]" if seat == int(state[D.G_START_SEAT]) else ""
        lines.append(f"P{seat}{start}{mark}: thalers {int(state[base + D.P_MONEY])}  stalls in "
                     f"supply {int(state[base + D.P_STALL_SUPPLY])}  score "
                     f"{player_score(state, seat)}")
        lines.append(f"    hand {_tokens(state[base + D.P_HAND:base + D.P_HAND + 18])}  "
                     f"sold {_tokens(state[base + D.P_SOLD:base + D.P_SOLD + 18])}")
    return "\n".join(line for line in lines if line != "")


# --- the image ------------------------------------------------------------------------------

_DIGITS = {"0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
           "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
           "6": "111100111101111", "7": "111001010010010", "8": "111101111101111",
           "9": "111101111001111"}
FONT = {ch: np.array([int(b) for b in bits], dtype=bool).reshape(5, 3)
        for ch, bits in _DIGITS.items()}
MAP_W, MAP_H, PANEL_H, RADIUS = 640, 420, 60, 26
SEA, LAND_LINE, CITY_RGB, SHIP_RGB = (120, 165, 210), (40, 60, 90), (236, 226, 200), (200, 30, 30)
COLOUR_RGB = ((230, 140, 30), (130, 80, 40), (60, 160, 70), (150, 60, 170), (220, 200, 40),
              (40, 120, 200))
PLAYER_RGB = ((140, 140, 140), (240, 220, 40), (150, 70, 190), (220, 60, 60))


def _text(img, y, x, text, rgb, scale=2):
    for ch in text:
        if ch in FONT:
            glyph = np.kron(FONT[ch], np.ones((scale, scale), dtype=bool))
            img[y:y + 5 * scale, x:x + 3 * scale][glyph] = rgb
        x += 4 * scale
    return x


def _city_xy(city: int) -> tuple[int, int]:
    x, y = D.CITY_XY[city]
    return int(40 + x * (MAP_W - 80)), int(40 + y * (MAP_H - 80))


def _disc(img, cy, cx, r, rgb):
    yy, xx = np.ogrid[:img.shape[0], :img.shape[1]]
    img[(yy - cy) ** 2 + (xx - cx) ** 2 <= r * r] = rgb


def _arrow(img, a, b):
    (ay, ax), (by, bx) = a, b
    length = max(np.hypot(by - ay, bx - ax), 1.0)
    uy, ux = (by - ay) / length, (bx - ax) / length
    for s in np.arange(RADIUS, length - RADIUS, 0.5):
        img[int(ay + uy * s), int(ax + ux * s)] = LAND_LINE
    tip_y, tip_x = by - uy * RADIUS, bx - ux * RADIUS
    for s in np.arange(0, 10, 0.5):                       # arrow head: two short strokes
        for sy, sx in ((uy + ux, ux - uy), (uy - ux, ux + uy)):
            img[int(tip_y - sy * s * 0.7), int(tip_x - sx * s * 0.7)] = LAND_LINE


def image_size(num_players: int) -> tuple[int, int]:
    return MAP_H + num_players * PANEL_H, MAP_W


def render_rgb(state) -> np.ndarray:
    state = _prepare(state)
    n = int(state[H_NUM_PLAYERS])
    img = np.empty((*image_size(n), 3), dtype=np.uint8)
    img[:MAP_H] = SEA
    img[MAP_H:] = (235, 230, 215)
    for a in range(D.NUM_CITIES):
        for b in range(D.NUM_CITIES):
            if state[D.C_EXITS + a] >> b & 1:
                _arrow(img, _city_xy(a)[::-1], _city_xy(b)[::-1])
    for city in range(D.NUM_CITIES):
        cx, cy = _city_xy(city)
        if city == int(state[D.G_SHIP]):
            _disc(img, cy, cx, RADIUS + 5, SHIP_RGB)
        _disc(img, cy, cx, RADIUS, CITY_RGB)
        _text(img, cy - RADIUS + 3, cx - 3, str(int(state[D.C_NUMBER + city])), (0, 0, 0))
        for j in range(int(state[D.C_SPACES + city])):     # warehouse spaces
            x0 = cx - 18 + 20 * j
            t = int(state[D.G_WAREHOUSE + D.MAX_SPACES * city + j])
            img[cy - 6:cy + 8, x0:x0 + 16] = COLOUR_RGB[t // 3] if t >= 0 else (255, 255, 255)
            if t >= 0:
                _text(img, cy - 4, x0 + 5, str(t % 3 + 1), (0, 0, 0))
        for seat in range(n):                  # stalls: one box each, a row per player
            count = int(state[_base(seat) + D.P_STALLS + city])
            y0 = cy + 9 + 4 * seat
            for k in range(min(count, 10)):
                img[y0:y0 + 4, cx - 20 + 4 * k:cx - 16 + 4 * k] = (40, 40, 40)
                img[y0 + 1:y0 + 3, cx - 19 + 4 * k:cx - 17 + 4 * k] = PLAYER_RGB[seat]
    for seat in range(n):
        base, y0 = _base(seat), MAP_H + seat * PANEL_H
        img[y0:y0 + 4, :] = PLAYER_RGB[seat]
        if seat == int(state[D.G_ACTIVE]) and int(state[H_TO_MOVE]) != TERMINAL:
            img[y0 + 4:y0 + PANEL_H, :6] = SHIP_RGB
        x = _text(img, y0 + 10, 12, str(int(state[base + D.P_MONEY])), (180, 140, 0), scale=3)
        x = _text(img, y0 + 10, x + 20, str(player_score(state, seat)), (30, 30, 30), scale=3)
        x += 20
        for block, y in ((D.P_HAND, y0 + 10), (D.P_SOLD, y0 + 34)):
            xx = x
            for t in range(D.NUM_TYPES):
                for _ in range(int(state[base + block + t])):
                    if xx + 16 > MAP_W:
                        break
                    img[y:y + 16, xx:xx + 14] = COLOUR_RGB[t // 3]
                    _text(img, y + 3, xx + 4, str(t % 3 + 1), (0, 0, 0))
                    xx += 17
    return img
