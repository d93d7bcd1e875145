"""Pictures of a Serenissima state: ``render_ansi`` (text) and ``render_rgb`` (uint8 image).

Both read the flat state only.  The text view lists the track, the players, every port
(owner, sailors, warehouse, fort, basilica) and every galley (zone, sailors, cargo).  The
image (drawn with :mod:`..core.draw`, fixed size 640 x 480) shows the sea as a graph
(zones at the map's ``xy`` positions, adjacency as lines), ports as squares in their
owner's colour with their sailors, galleys as small boats with their number and sailors;
a title says when the map is the placeholder reconstruction, and a bottom panel gives each
player's ducats, sailors in supply and ports, the Doge track, the round, the phase and
who is to move.
"""

from __future__ import annotations

import numpy as np

from ..core import draw
from ..core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_TO_MOVE, TERMINAL
from . import data as D
from .maps import names_of
from .notation import galley_name

SEAT_RGB = ((200, 40, 40), (40, 90, 210), (230, 170, 20), (40, 150, 60))
SEAT_NAMES = ("red", "blue", "yellow", "green")
GOOD_RGB = ((140, 90, 40), (150, 150, 150), (235, 235, 225), (130, 20, 70), (240, 200, 40),
            (120, 50, 160))
WIDTH, HEIGHT = 640, 480


def _title(state) -> str:
    _, _, _, title = names_of(state)
    kind = int(state[D.K_MAP_KIND])
    if kind == 0:
        return "PLACEHOLDER MAP (reconstruction, not the printed board)"
    return f"{'generated' if kind == 2 else 'user'} map: {title}"


def _owner(code: int) -> str:
    if code == D.NEUTRAL:
        return "neutral"
    if code == D.CLOSED:
        return "CLOSED"
    return SEAT_NAMES[code]


def _goods(counts) -> str:
    parts = [f"{int(c)}{D.GOOD_NAMES[t][:2]}" for t, c in enumerate(counts) if c]
    return " ".join(parts) or "-"


def render_ansi(state) -> str:
    state = np.ascontiguousarray(state, dtype=np.int64)
    zones, ports, _, _ = names_of(state)
    n = int(state[H_NUM_PLAYERS])
    phase = D.PHASE_NAMES[int(state[H_PHASE])]
    to_move = int(state[H_TO_MOVE])
    who = {CHANCE: "chance", TERMINAL: "game over"}.get(to_move, f"player_{to_move}")
    pile = state[D.G_PILE:D.G_PILE + 4]
    last = int(state[D.G_LAST_CARD])
    lines = [f"Serenissima -- {_title(state)}",
             f"round {int(state[D.G_ROUND])}  track {int(state[D.G_TRACK])}/"
             f"{int(state[D.K_TRACK_LAST])}  scorings {int(state[D.G_SCORINGS])}  Doge pile "
             f"wine {pile[0]} 1h {pile[1]} 2h {pile[2]} 2h+shuffle {pile[3]}  last card "
             f"{D.CARD_NAMES[last] if last >= 0 else '-'}",
             f"phase {phase}, to move: {who}"]
    g = int(state[D.A_GAL])
    if g >= 0:
        v0 = int(state[D.A_V0])
        lines.append(f"active galley {galley_name(g)} ({SEAT_NAMES[int(state[D.A_OWNER])]}), "
                     f"moved {int(state[D.A_MOVED])}, combat value "
                     f"{'-' if v0 == D.NO_V0 else v0}")
    for seat in range(n):
        owned = [ports[p] for p in range(int(state[D.K_NUM_PORTS]))
                 if state[D.S_P_OWNER + p] == seat]
        lines.append(f"player_{seat} ({SEAT_NAMES[seat]}): {int(state[D.S_DUCATS + seat])} "
                     f"ducats, {int(state[D.S_SUPPLY + seat])} sailors in supply, ports "
                     f"{', '.join(owned) or '-'}")
    lines.append("ports:")
    for p in range(int(state[D.K_NUM_PORTS])):
        wh = int(state[D.S_P_WH + p])
        stored = ",".join(D.GOOD_NAMES[t] for t in range(D.NUM_GOODS) if wh >> t & 1) or "-"
        extras = ("F" if state[D.S_P_FORT + p] else "") + ("B" if state[D.S_P_BAS + p] else "")
        lines.append(
            f"  {ports[p]:<15} {zones[int(state[D.K_PORT_ZONE + p])]:<4} "
            f"{D.GOOD_NAMES[int(state[D.K_PORT_GOOD + p])]:<6} size {int(state[D.K_PORT_SIZE + p])}"
            f"{'*' if state[D.K_PORT_START + p] else ' '} {_owner(int(state[D.S_P_OWNER + p])):<8}"
            f" sailors {int(state[D.S_P_SAIL + p])}  warehouse {stored} {extras}")
    lines.append("galleys:")
    for h in range(D.NUM_GALLEYS):
        owner = int(state[D.S_G_OWNER + h])
        if owner < 0:
            continue
        zone = int(state[D.S_G_ZONE + h])
        cargo = state[D.S_G_GOODS + D.NUM_GOODS * h:D.S_G_GOODS + D.NUM_GOODS * (h + 1)]
        lines.append(f"  {galley_name(h):<4} {SEAT_NAMES[owner]:<6} in "
                     f"{zones[zone] if zone >= 0 else '(being placed)':<5} sailors "
                     f"{int(state[D.S_G_SAIL + h])} goods {_goods(cargo)}")
    if to_move == TERMINAL:
        scores = [int(state[D.S_DUCATS + s]) for s in range(n)]
        cut = "  (cut at the decision cap: a truncation)" if state[D.G_TRUNCATED] else ""
        lines.append("final ducats: " + ", ".join(f"player_{s} {v}" for s, v in
                                                   enumerate(scores)) + cut)
    lines.append("legend: * start port, F fort, B basilica; goods wo st ma wi go sp")
    return "\n".join(lines) + "\n"


# --- the image ----------------------------------------------------------------------------

def _text(img, y, x, text, rgb, scale=1):
    """Capitals and digits in the 3x5 font (numbers on galleys and ports)."""
    return draw.text(img, y, x, text, rgb, scale, font=draw.SMALL)


def zone_centres(state) -> np.ndarray:
    _, _, xy, _ = names_of(state)
    top, left, height, width = 40, 30, HEIGHT - 110, WIDTH - 60
    return np.stack([top + xy[:, 1] * height, left + xy[:, 0] * width], axis=1).astype(int)


def galley_spots(state) -> dict[int, tuple[int, int]]:
    """Top-left (y, x) of each galley drawn on the map: two to a row round its zone."""
    centres, spots = zone_centres(state), {}
    slots = np.zeros(len(centres), dtype=int)
    for g in range(D.NUM_GALLEYS):
        owner, zone = int(state[D.S_G_OWNER + g]), int(state[D.S_G_ZONE + g])
        if owner < 0 or zone < 0:
            continue
        cy, cx = centres[zone]
        spots[g] = (int(cy - 6 + 9 * (slots[zone] // 2)), int(cx - 28 + 30 * (slots[zone] % 2)))
        slots[zone] += 1
    return spots


def render_rgb(state) -> np.ndarray:
    state = np.ascontiguousarray(state, dtype=np.int64)
    img = np.empty((HEIGHT, WIDTH, 3), dtype=np.uint8)
    img[:] = (70, 120, 170)                               # the sea
    centres = zone_centres(state)
    nz = int(state[D.K_NUM_ZONES])
    for z in range(nz):
        for y in range(z + 1, nz):
            if int(state[D.K_ADJ + z]) >> y & 1:
                draw.line(img, centres[z], centres[y], (150, 185, 215))
    for z in range(nz):
        draw.disc(img, *centres[z], 13, (95, 145, 195))
    _, port_names, _, _ = names_of(state)
    for p in range(int(state[D.K_NUM_PORTS])):
        cy, cx = centres[int(state[D.K_PORT_ZONE + p])]
        draw.text_centred(img, cy + 18, cx, str(port_names[p])[:12].upper(), (235, 240, 250),
                          font=draw.SMALL)
        owner = int(state[D.S_P_OWNER + p])
        rgb = SEAT_RGB[owner] if owner >= 0 else ((40, 40, 40) if owner == D.CLOSED
                                                  else (225, 215, 190))
        draw.rect(img, cy - 24, cx - 9, 12, 18, rgb)
        draw.rect(img, cy - 27, cx - 9, 3, 18, GOOD_RGB[int(state[D.K_PORT_GOOD + p])])
        if state[D.S_P_SAIL + p]:
            _text(img, cy - 21, cx - 1, str(int(state[D.S_P_SAIL + p])), (255, 255, 255))
        wh = int(state[D.S_P_WH + p])
        for i, t in enumerate(t for t in range(D.NUM_GOODS) if wh >> t & 1):
            draw.rect(img, cy - 12, cx - 9 + 4 * i, 3, 3, GOOD_RGB[t])
        if state[D.S_P_FORT + p]:
            draw.rect(img, cy - 24, cx + 10, 5, 3, (20, 20, 20))
        if state[D.S_P_BAS + p]:
            draw.rect(img, cy - 18, cx + 10, 5, 3, (255, 255, 255))
    for g, (y, x) in galley_spots(state).items():
        owner = int(state[D.S_G_OWNER + g])
        draw.rect(img, y, x, 8, 28, SEAT_RGB[owner])
        if g == int(state[D.A_GAL]):
            draw.rect(img, y + 8, x, 1, 28, (255, 255, 255))
        _text(img, y + 2, x + 1, str(g + 1), (255, 255, 255))
        _text(img, y + 2, x + 12, str(int(state[D.S_G_SAIL + g])), (0, 0, 0))
        cargo = [t for t in range(D.NUM_GOODS)
                 for _ in range(int(state[D.S_G_GOODS + D.NUM_GOODS * g + t]))]
        for i, t in enumerate(cargo):
            draw.rect(img, y + 1 + 2 * i, x + 20, 2, 6, GOOD_RGB[t])
    draw.rect(img, 0, 0, 16, WIDTH, (20, 30, 50))
    x = draw.text(img, 3, 6, "Serenissima", (255, 230, 120))
    draw.text(img, 3, x + 12, _title(state), (230, 230, 230))
    draw.rect(img, HEIGHT - 66, 0, 66, WIDTH, (235, 230, 215))
    n = int(state[H_NUM_PLAYERS])
    nports = int(state[D.K_NUM_PORTS])
    to_move = int(state[H_TO_MOVE])
    for seat in range(n):
        x = 8 + seat * 158
        ports = int((state[D.S_P_OWNER:D.S_P_OWNER + nports] == seat).sum())
        if seat == to_move:
            draw.rect(img, HEIGHT - 64, x - 4, 14, 152, (255, 250, 235))
        draw.rect(img, HEIGHT - 62, x, 10, 10, SEAT_RGB[seat])
        draw.text(img, HEIGHT - 63, x + 14, f"{int(state[D.S_DUCATS + seat])}d "
                  f"{int(state[D.S_SUPPLY + seat])}s {ports}p", (0, 0, 0))
        if seat == to_move:
            draw.text(img, HEIGHT - 63, x + 110, "<-", (200, 30, 30))
    last = int(state[D.K_TRACK_LAST])
    step = max(4, min(20, (WIDTH - 24) // (last + 1)))    # a long track still fits
    for s in range(last + 1):
        x = 8 + s * step
        spaces = int(state[D.K_SCORING_4P] if n == 4 else state[D.K_SCORING_23P])
        rgb = (230, 190, 60) if spaces >> s & 1 else (190, 190, 190)
        width = step - 4 if step > 8 else step - 1
        draw.rect(img, HEIGHT - 44, x, 12, width, rgb)
        if s == int(state[D.G_TRACK]):
            mark = min(6, width)
            draw.rect(img, HEIGHT - 41, x + (width - mark) // 2, 6, mark, (255, 255, 255))
    phase = D.PHASE_NAMES[int(state[H_PHASE])].replace("_", " ")
    who = {CHANCE: "chance", TERMINAL: "game over"}.get(to_move, f"{SEAT_NAMES[to_move]} to move"
                                                         if 0 <= to_move < n else "")
    draw.text(img, HEIGHT - 27, 8, f"round {int(state[D.G_ROUND])}  {phase}: {who}", (0, 0, 0))
    # Ducats are the score (SE-11.1), now and at the end: the label says so.
    draw.text(img, HEIGHT - 14, 8, "d ducats = score now  s sailors in supply  p ports  "
              "track: gold = scoring", (90, 80, 70))
    return img


# --- click boxes (the browser's board) ------------------------------------------------------

def _inside(box) -> tuple[int, int, int, int] | None:
    """A box cut to the picture (a galley row may run past its edge), or None if nothing
    of it is left."""
    y, x, h, w = (int(v) for v in box)
    y0, x0, y1, x1 = max(y, 0), max(x, 0), min(y + h, HEIGHT), min(x + w, WIDTH)
    return (y0, x0, y1 - y0, x1 - x0) if y1 > y0 and x1 > x0 else None


def move_targets(state) -> dict[int, tuple[int, int, int, int]]:
    """Where moves go in ``render_rgb``, as (top, left, height, width): sailing -> the
    sea zone (stopping -> the zone the galley is in); a port chosen, closed, recruited
    into, fortified, a galley placed there, loading, selling, claiming or attacking it,
    landing sailors and sailors between port and galley -> the port's square; sailors and
    goods to or from another galley, attacking it or recruiting onto it -> that galley;
    acting with the galley whose turn it is, and jettisoning its goods -> the galley.
    Investing, blocking, ending a step and galleys not yet on the map have no place."""
    state = np.ascontiguousarray(state, dtype=np.int64)
    phase, centres = int(state[H_PHASE]), zone_centres(state)
    galleys = {g: (y, x, 8, 28) for g, (y, x) in galley_spots(state).items()}
    ports: dict[int, tuple] = {}
    for p in range(int(state[D.K_NUM_PORTS])):
        cy, cx = centres[int(state[D.K_PORT_ZONE + p])]
        ports[p] = (cy - 27, cx - 9, 15, 18)                    # the square and its good
    targets: dict[int, tuple] = {}
    for z in range(int(state[D.K_NUM_ZONES])):
        cy, cx = centres[z]
        targets[D.A_MOVE + z] = (cy - 13, cx - 13, 27, 27)
    for p, box in ports.items():
        for first in (D.A_PORT, D.A_RECRUIT_PORT, D.A_FORT, D.A_BASILICA):
            targets[first + p] = box
    for g, box in galleys.items():
        for first in (D.A_SAILOR_FROM, D.A_SAILOR_TO, D.A_RECRUIT_GALLEY):
            targets[first + g] = box
        for t in range(D.NUM_GOODS):
            targets[D.A_GOOD_FROM + D.NUM_GOODS * g + t] = box
            targets[D.A_GOOD_TO + D.NUM_GOODS * g + t] = box
        if phase == D.PH_STEP3:                                 # attack g; else buy/pick
            targets[D.A_GALLEY + g] = box
    active = int(state[D.A_GAL])
    if active in galleys:
        zone = int(state[D.S_G_ZONE + active])
        targets[D.A_ACTION] = galleys[active]
        for t in range(D.NUM_GOODS):
            targets[D.A_JETTISON + t] = galleys[active]
        if phase == D.PH_MOVE:
            targets[D.A_PASS] = targets[D.A_MOVE + zone]
        here = int(state[D.K_ZONE_PORT + zone])
        if here in ports:
            for a in (D.A_PORT_TO_ACTIVE, D.A_ACTIVE_TO_PORT, D.A_LOAD, D.A_CLAIM,
                      D.A_ATTACK_PORT, *range(D.A_SELL, D.A_SELL + D.NUM_GOODS)):
                targets[a] = ports[here]
    captor = int(state[D.A_CAPTOR])
    if phase == D.PH_CAPTURE and captor in galleys:
        for t in range(D.NUM_GOODS):
            targets[D.A_TAKE + t] = galleys[captor]
    landing = int(state[D.A_LAND_PORT])
    if phase == D.PH_LAND and landing in ports:
        for k in range(D.A_GALLEY - D.A_LAND):
            targets[D.A_LAND + k] = ports[landing]
    return {a: box for a, box in ((a, _inside(b)) for a, b in targets.items()) if box}
