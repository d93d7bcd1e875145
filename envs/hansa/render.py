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

from ..core import draw
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
    lines.append(f"stacks left {' '.join(map(str, stacks_left(state)))}  undrawn "
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

MAP_W, MAP_H, PANEL_H, RADIUS = 640, 420, 60, 26
ROW_X = 160                  # where a panel's hand and sold rows begin
SEA, LAND_LINE, CITY_RGB, SHIP_RGB = (120, 165, 210), (40, 60, 90), (236, 226, 200), (200, 30, 30)
COLOUR_RGB = ((230, 140, 30), (130, 80, 40), (60, 160, 70), (150, 60, 170), (220, 200, 40),
              (40, 120, 200))
PLAYER_RGB = ((140, 140, 140), (240, 220, 40), (150, 70, 190), (220, 60, 60))


def _city_xy(city: int) -> tuple[int, int]:
    x, y = D.CITY_XY[city]
    return int(40 + x * (MAP_W - 80)), int(40 + y * (MAP_H - 80))


def _arrow(img, a, b):
    """A one-way route from city a to city b, both (y, x), between the city discs."""
    (ay, ax), (by, bx) = a, b
    length = max(float(np.hypot(by - ay, bx - ax)), 1.0)
    uy, ux = (by - ay) / length, (bx - ax) / length
    start = (ay + uy * RADIUS, ax + ux * RADIUS)
    tip = (by - uy * (RADIUS + 1), bx - ux * (RADIUS + 1))
    draw.line(img, start, tip, LAND_LINE, width=2)
    draw.arrow_head(img, start, tip, LAND_LINE, size=11, width=2)


def _status(state) -> str:
    to_move = int(state[H_TO_MOVE])
    who = {CHANCE: "chance", TERMINAL: "game over"}.get(to_move, f"P{to_move} to move")
    return (f"turn {int(state[D.G_TURNS]) + 1}  {D.PHASE_NAMES[int(state[H_PHASE])]}: {who}"
            + ("  END TRIGGERED" if state[D.G_END_TRIGGERED] else ""))


def image_size(num_players: int) -> tuple[int, int]:
    return MAP_H + num_players * PANEL_H, MAP_W


def hand_slots(state, seat: int, block: int = D.P_HAND) -> list[tuple[int, int, int]]:
    """(token type, y, x) of each token drawn in a seat's hand (or sold) row, in order;
    a row too long for the picture stops at its edge."""
    base, y0 = _base(seat), MAP_H + seat * PANEL_H
    y = y0 + (10 if block == D.P_HAND else 34)
    x, slots = ROW_X + 6 * 4 + 8, []
    for t in range(D.NUM_TYPES):
        for _ in range(int(state[base + block + t])):
            if x + 16 > MAP_W:
                return slots
            slots.append((t, y, x))
            x += 17
    return slots


def stacks_box() -> tuple[int, int, int, int]:
    """(top, left, height, width) of the goods stacks drawn in the map's corner."""
    width = 6 * 6 + 8 + D.NUM_STACKS * 24
    return MAP_H - 32, MAP_W - 8 - width, 26, width


def stacks_left(state) -> list[int]:
    """Tokens left in each face-down stack (HS-3.3), drawn from the first on."""
    draws, previous, left = int(state[D.G_DRAWS]), 0, []
    for end in (int(v) for v in state[D.G_STACK_END:D.G_STACK_END + D.NUM_STACKS]):
        left.append(end - max(previous, min(end, draws)))
        previous = end
    return left


def _stacks(img, state) -> None:
    top, left, height, width = stacks_box()
    draw.rect(img, top, left, height, width, (40, 60, 90))
    x = draw.text(img, top + 8, left + 4, "stacks", (250, 250, 240)) + 4
    for k, count in enumerate(stacks_left(state)):
        rgb = (200, 190, 170) if count else (90, 100, 120)
        draw.rect(img, top + 3, x + 24 * k, height - 6, 20, rgb)
        draw.text_centred(img, top + height // 2, x + 24 * k + 10, str(count), (20, 30, 50))


def render_rgb(state) -> np.ndarray:
    state = _prepare(state)
    n = int(state[H_NUM_PLAYERS])
    img = np.empty((*image_size(n), 3), dtype=np.uint8)
    img[:MAP_H] = SEA
    img[MAP_H:] = (235, 230, 215)
    _stacks(img, state)        # first: a custom board's city may lie over the corner
    for a in range(D.NUM_CITIES):
        for b in range(D.NUM_CITIES):
            if state[D.C_EXITS + a] >> b & 1:
                _arrow(img, _city_xy(a)[::-1], _city_xy(b)[::-1])
    for city in range(D.NUM_CITIES):
        cx, cy = _city_xy(city)
        if city == int(state[D.G_SHIP]):
            draw.disc(img, cy, cx, RADIUS + 5, SHIP_RGB)
        draw.disc(img, cy, cx, RADIUS, CITY_RGB)
        draw.text_centred(img, cy - RADIUS + 9, cx, str(int(state[D.C_NUMBER + city])), (0, 0, 0))
        draw.text_centred(img, cy + RADIUS + 12, cx, D.CITY_CODES[city], (20, 30, 50),
                          background=CITY_RGB)
        for j in range(int(state[D.C_SPACES + city])):     # warehouse spaces
            x0 = cx - 18 + 20 * j
            t = int(state[D.G_WAREHOUSE + D.MAX_SPACES * city + j])
            img[cy - 6:cy + 8, x0:x0 + 16] = COLOUR_RGB[t // 3] if t >= 0 else (255, 255, 255)
            if t >= 0:
                draw.text(img, cy - 4, x0 + 5, str(t % 3 + 1), (0, 0, 0), font=draw.SMALL,
                          scale=2)
        for seat in range(n):                  # stalls: one box each, a row per player
            count = int(state[_base(seat) + D.P_STALLS + city])
            y0 = cy + 8 + 6 * seat
            for k in range(min(count, 7)):
                draw.rect(img, y0, cx - 21 + 6 * k, 6, 6, (40, 40, 40))
                draw.rect(img, y0 + 1, cx - 20 + 6 * k, 4, 4, PLAYER_RGB[seat])
    draw.text(img, 5, 6, board_title(state), (250, 250, 240), background=(40, 60, 90), pad=3)
    draw.text(img, 21, 6, _status(state), (250, 230, 140), background=(40, 60, 90), pad=3)
    for seat in range(n):
        base, y0 = _base(seat), MAP_H + seat * PANEL_H
        img[y0:y0 + 4, :] = PLAYER_RGB[seat]
        if seat == int(state[D.G_ACTIVE]) and int(state[H_TO_MOVE]) != TERMINAL:
            img[y0 + 4:y0 + PANEL_H, :6] = SHIP_RGB
        draw.text(img, y0 + 10, 14, f"P{seat}", (30, 30, 30), scale=2)
        draw.text(img, y0 + 10, 52, f"{int(state[base + D.P_MONEY])} thalers", (150, 110, 0))
        # Hansa scores only at the end (HS-11): this is that scoring applied now.
        draw.text(img, y0 + 24, 52, f"if ended now {player_score(state, seat)}", (30, 30, 30))
        draw.text(img, y0 + 38, 52, f"stalls {int(state[base + D.P_STALL_SUPPLY])}",
                  (30, 30, 30))
        for block, y, label in ((D.P_HAND, y0 + 10, "hand"), (D.P_SOLD, y0 + 34, "sold")):
            draw.text(img, y + 3, ROW_X, label, (30, 30, 30))
            for t, ty, tx in hand_slots(state, seat, block):
                img[ty:ty + 16, tx:tx + 14] = COLOUR_RGB[t // 3]
                draw.text(img, ty + 3, tx + 4, str(t % 3 + 1), (0, 0, 0), font=draw.SMALL,
                          scale=2)
    return img


# --- click boxes (the browser's board) ------------------------------------------------------

def _span(slots) -> tuple[int, int, int, int]:
    """The box round some tokens of one row."""
    y, xs = slots[0][1], [x for _, _, x in slots]
    return y, min(xs), 16, max(xs) + 14 - min(xs)


def move_targets(state) -> dict[int, tuple[int, int, int, int]]:
    """Where moves go in ``render_rgb``, as (top, left, height, width): the first stalls
    and sailing -> the city's disc; buying -> the warehouse space; placing stalls -> the
    stall rows of the ship's city (every colour and count shares it); marking a good to
    sell -> its tokens in the mover's hand, selling -> the sold row; a discard -> the
    hand's tokens of that colour; a refill -> the goods stacks.  Ending the turn and
    skipping a refill have no place."""
    state = _prepare(state)
    seat, n, phase = int(state[H_TO_MOVE]), int(state[H_NUM_PLAYERS]), int(state[H_PHASE])
    if not 0 <= seat < n:
        return {}
    targets: dict[int, tuple[int, int, int, int]] = {}
    for city in range(D.NUM_CITIES):
        cx, cy = _city_xy(city)
        disc = (cy - RADIUS, cx - RADIUS, 2 * RADIUS + 1, 2 * RADIUS + 1)
        targets[D.A_INIT_PLACE + city] = targets[D.A_MOVE + city] = disc
    cx, cy = _city_xy(int(state[D.G_SHIP]))
    for j in range(D.MAX_SPACES):
        targets[D.A_BUY + j] = (cy - 6, cx - 18 + 20 * j, 14, 16)
    for a in range(D.A_PLACE, D.A_SELL_MARK):
        targets[a] = (cy + 8, cx - 21, 6 * n, 42)
    hand = hand_slots(state, seat)
    for t in range(D.NUM_TYPES):
        of_type = [slot for slot in hand if slot[0] == t]
        if of_type:
            targets[D.A_SELL_MARK + t] = _span(of_type)
    for colour in range(len(COLOUR_RGB)):
        of_colour = [slot for slot in hand if slot[0] // 3 == colour]
        if of_colour:
            targets[D.A_TAX + colour] = _span(of_colour)
    targets[D.A_SELL_COMMIT] = (MAP_H + seat * PANEL_H + 34, ROW_X, 16, MAP_W - 4 - ROW_X)
    if phase == D.PH_REFILL:
        targets[D.A_REFILL] = stacks_box()
    return targets
