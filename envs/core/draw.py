"""Numpy drawing primitives shared by every game's ``rgb_array`` view.

An image is a ``(height, width, 3)`` uint8 array; points are ``(y, x)`` like numpy
indexing; colours are RGB triples.  Every primitive clips at the canvas edge, so a shape
partly (or wholly) off the picture draws what is visible and never raises.

Two bitmap fonts: :data:`FONT` (6x10 cells, printable ASCII 32..126, upper and lower
case) is the X11-derived bitmap font that Pillow ships as ``load_default_imagefont()``
(PIL licence), rasterised once into the table below so that drawing needs numpy only;
:data:`SMALL` (3x5, digits, capitals and a little punctuation) is for labels inside
pieces too small for the regular font.  ``scale`` enlarges either by whole pixels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Colour = tuple[int, int, int]

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# Ten rows of six bits per glyph, one base-64 digit a row, characters 32..126 in order.
_FONT_ROWS = (
    "AAAAAAAAAAAAYYYYAYAAAAUUUAAAAAAUU+UU+UUAIey8eG28IAA4q8IeqOAAAAcwY+s+AAAMIQAAAAAAAEIYYYYIEA"
    "AQIMMMMIQAAI8YkAAAAAAAII+IIAAAAAAAAAAMIQAAAA+AAAAAAAAAAAAYAAACCEEIIQQAAc22222cAAAM8MMMM/AA"
    "Ac2GMY2+AAAc2GcG2cAAAGOW2/GGAAA+w82Gm8AAAc2w822cAAA+2GMMYYAAAc22c22cAAAc22eG2cAAAAAAYAAYAA"
    "AAAAYAAYQgAAMYwYMAAAAAA8A8AAAAAAYMGMYAAAAAcmMYAYAAAcymqqnwcAAA8cU+23AAAA828228AAAAe2ww2cAA"
    "AA822228AAAA+w8w2+AAAA+w8ww4AAAAc2w+2eAAAA32+223AAAA8YYYY8AAAAeMMss4AAAA204827AAAA4www2+AA"
    "AAi22+qqAAAA36622yAAAAc2222cAAAA8228w4AAAAc2222cGAAA822827AAAAey8Om8AAAA+aYYY8AAAA32222cAA"
    "AA32UccIAAAArqq+cUAAAAzeMMezAAAAzzeMMeAAAA+2MY2+AAAcYYYYYYcAAggQQIIEEAAcMMMMMMcAAIc2AAAAAA"
    "AAAAAAAAA/AYIEAAAAAAAAAc2e2/AAAww82228AAAAAc2w2cAAAOGe222fAAAAAc2+weAAAOY+YYY+AAAAAb222eG8"
    "Aww82222AAAMA8MMM/AAAMA8MMMMM4Aww28483AAA8MMMMM/AAAAA8+qqqAAAAAs2222AAAAAc222cAAAAA82228w4"
    "AAAb222eGPAAA3dYY8AAAAAe4eH+AAAYY+YYbOAAAAA2222fAAAAA22ccIAAAAArq+eUAAAAA7eMe3AAAAA322UcYw"
    "AAA+sY2+AAAGMMYMMMGAAAIIIIIIIAAwYYMYYYwAAAAasAAAAA"
)


class Font:
    """A monospaced bitmap font: ``glyphs`` maps a character to a bool array."""

    def __init__(self, glyphs: dict[str, np.ndarray], advance: int, fallback: str = " "):
        self.glyphs, self.advance, self.fallback = glyphs, advance, fallback
        self.height, self.width = next(iter(glyphs.values())).shape
        self._scaled: dict[tuple[str, int], np.ndarray] = {}

    def glyph(self, ch: str, scale: int = 1) -> np.ndarray:
        key = (ch, scale)
        if key not in self._scaled:
            bits = self.glyphs.get(ch)
            if bits is None:
                bits = self.glyphs.get(ch.upper(), self.glyphs[self.fallback])
            self._scaled[key] = np.kron(bits, np.ones((scale, scale), dtype=bool)) \
                if scale > 1 else bits
        return self._scaled[key]


def _regular() -> Font:
    text = "".join(_FONT_ROWS)
    glyphs = {}
    for i in range(95):
        rows = [_B64.index(c) for c in text[10 * i:10 * i + 10]]
        glyphs[chr(32 + i)] = np.array([[r >> (5 - b) & 1 for b in range(6)] for r in rows],
                                       dtype=bool)
    return Font(glyphs, advance=6, fallback="?")


_SMALL_ROWS = (
    "A010101111101101", "B110101110101110", "C011100100100011", "D110101101101110",
    "E111100110100111", "F111100110100100", "G011100101101011", "H101101111101101",
    "I111010010010111", "J001001001101010", "K101101110101101", "L100100100100111",
    "M101111111101101", "N110101101101101", "O010101101101010", "P110101110100100",
    "Q010101101110011", "R110101110101101", "S011100010001110", "T111010010010010",
    "U101101101101111", "V101101101101010", "W101101111111101", "X101101010101101",
    "Y101101010010010", "Z111001010100111", "0111101101101111", "1010110010010111",
    "2111001111100111", "3111001111001111", "4101101111001001", "5111100111001111",
    "6111100111101111", "7111001010010010", "8111101111101111", "9111101111001111",
    "-000000111000000", ":000010000010000", "/001001010100100", "(010100100100010",
    ")010001001001010", ".000000000000010", ",000000000010100", "+000010111010000",
    " 000000000000000", "?111001011000010",
)
FONT = _regular()
SMALL = Font({row[0]: np.array([int(b) for b in row[1:]], dtype=bool).reshape(5, 3)
              for row in _SMALL_ROWS}, advance=4, fallback="?")


def canvas(height: int, width: int, rgb: Colour) -> np.ndarray:
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = rgb
    return img


def _window(img, y0, x0, y1, x1):
    """The clipped index box [y0, y1) x [x0, x1), or None when nothing is visible."""
    h, w = img.shape[:2]
    y0, x0, y1, x1 = max(int(y0), 0), max(int(x0), 0), min(int(y1), h), min(int(x1), w)
    return (y0, x0, y1, x1) if y0 < y1 and x0 < x1 else None


def rect(img, y, x, h, w, rgb: Colour) -> None:
    """A filled rectangle with its top-left corner at (y, x)."""
    box = _window(img, y, x, y + h, x + w)
    if box:
        img[box[0]:box[2], box[1]:box[3]] = rgb


def outline(img, y, x, h, w, rgb: Colour, thickness: int = 1) -> None:
    """The border of a rectangle, ``thickness`` pixels inward."""
    t = thickness
    rect(img, y, x, t, w, rgb)
    rect(img, y + h - t, x, t, w, rgb)
    rect(img, y, x, h, t, rgb)
    rect(img, y, x + w - t, h, t, rgb)


def square(img, cy, cx, half, rgb: Colour) -> None:
    """A filled square of side ``2 * half + 1`` centred on (cy, cx)."""
    rect(img, cy - half, cx - half, 2 * half + 1, 2 * half + 1, rgb)


def disc(img, cy, cx, r, rgb: Colour) -> None:
    """A filled disc of radius ``r`` (pixels whose centre is within r)."""
    box = _window(img, cy - r, cx - r, cy + r + 1, cx + r + 1)
    if box:
        yy, xx = np.ogrid[box[0]:box[2], box[1]:box[3]]
        img[box[0]:box[2], box[1]:box[3]][(yy - cy) ** 2 + (xx - cx) ** 2 <= r * r] = rgb


def ring(img, cy, cx, r, rgb: Colour, thickness: int = 1) -> None:
    """A circle outline of outer radius ``r``."""
    box = _window(img, cy - r, cx - r, cy + r + 1, cx + r + 1)
    if box:
        yy, xx = np.ogrid[box[0]:box[2], box[1]:box[3]]
        d2 = (yy - cy) ** 2 + (xx - cx) ** 2
        inner = max(r - thickness, 0)
        img[box[0]:box[2], box[1]:box[3]][(d2 <= r * r) & (d2 > inner * inner)] = rgb


def line(img, p, q, rgb: Colour, width: int = 1) -> None:
    """A straight line from p to q (both (y, x)), ``width`` pixels thick, not anti-aliased."""
    steps = int(max(abs(q[0] - p[0]), abs(q[1] - p[1]))) + 1
    ys = np.linspace(p[0], q[0], steps).round().astype(int)
    xs = np.linspace(p[1], q[1], steps).round().astype(int)
    lo = -((width - 1) // 2)
    for dy in range(lo, lo + width):
        for dx in range(lo, lo + width):
            yy, xx = ys + dy, xs + dx
            ok = (yy >= 0) & (yy < img.shape[0]) & (xx >= 0) & (xx < img.shape[1])
            img[yy[ok], xx[ok]] = rgb


def arrow_head(img, p, q, rgb: Colour, size: int = 9, width: int = 1) -> None:
    """Two strokes at q pointing away from p (an arrow's head)."""
    dy, dx = q[0] - p[0], q[1] - p[1]
    length = max(float(np.hypot(dy, dx)), 1.0)
    uy, ux = dy / length, dx / length
    for sy, sx in ((uy + ux * 0.6, ux - uy * 0.6), (uy - ux * 0.6, ux + uy * 0.6)):
        line(img, q, (q[0] - sy * size, q[1] - sx * size), rgb, width)


def text_size(text: str, scale: int = 1, font: Font = FONT) -> tuple[int, int]:
    """(height, width) in pixels of ``text`` on one line."""
    return font.height * scale, len(text) * font.advance * scale


def text(img, y, x, s: str, rgb: Colour, scale: int = 1, font: Font = FONT,
         background: Colour | None = None, pad: int = 1) -> int:
    """Write ``s`` with its top-left at (y, x); returns the x just after the last glyph.

    ``background`` first fills the text's box (grown by ``pad``), for labels over a map.
    """
    y, x = int(y), int(x)
    if background is not None:
        h, w = text_size(s, scale, font)
        rect(img, y - pad, x - pad, h + 2 * pad, w + 2 * pad, background)
    for ch in s:
        glyph = font.glyph(ch, scale)
        gh, gw = glyph.shape
        box = _window(img, y, x, y + gh, x + gw)
        if box:
            part = glyph[box[0] - y:box[2] - y, box[1] - x:box[3] - x]
            img[box[0]:box[2], box[1]:box[3]][part] = rgb
        x += font.advance * scale
    return x


def text_centred(img, cy, cx, s: str, rgb: Colour, scale: int = 1, font: Font = FONT,
                 background: Colour | None = None) -> int:
    h, w = text_size(s, scale, font)
    return text(img, cy - h // 2, cx - w // 2, s, rgb, scale, font, background)


def legend(img, y, x, items: Sequence[tuple[Colour, str]], rgb: Colour = (30, 30, 30),
           gap: int = 14, font: Font = FONT) -> int:
    """A row of colour swatches with labels; returns the x after the last label."""
    size = font.height - 2
    for colour, label in items:
        rect(img, y, x, size, size, (30, 30, 30))
        rect(img, y + 1, x + 1, size - 2, size - 2, colour)
        x = text(img, y - 1, x + size + 4, label, rgb, font=font) + gap
    return x


def pad_even(img: np.ndarray, rgb: Colour = (0, 0, 0)) -> np.ndarray:
    """The image grown by one row/column where a side is odd (video codecs want even sizes)."""
    h, w = img.shape[:2]
    if h % 2 == 0 and w % 2 == 0:
        return img
    out = canvas(h + h % 2, w + w % 2, rgb)
    out[:h, :w] = img
    return out
