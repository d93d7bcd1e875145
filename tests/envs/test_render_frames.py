"""rgb_array frames of every game, and the drawing primitives of ``envs/core/draw.py``."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs import make
from meeplezoo.envs.core import draw

GAMES = ["saint_malo_v0", "hansa_teutonica_v0", "carcassonne_v0", "hansa_v0", "serenissima_v0"]


def _play(env, moves: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if all(env.terminations.values()) or all(env.truncations.values()):
            return
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))


def _pixels(img, rgb) -> int:
    return int((img == np.array(rgb, dtype=np.uint8)).all(axis=2).sum())


@pytest.mark.parametrize("game", GAMES)
def test_frame_shape_content_and_change(game):
    env = make(game, raw=True, num_players=3, render_mode="rgb_array")
    env.reset(seed=1)
    first = env.render()
    assert first.dtype == np.uint8 and first.ndim == 3 and first.shape[2] == 3
    assert first.shape[0] >= 64 and first.shape[1] >= 64
    assert len(np.unique(first.reshape(-1, 3), axis=0)) > 3          # not blank
    before = env.state.copy()
    assert np.array_equal(env.render(), first) and np.array_equal(env.state, before)
    _play(env, 30)
    later = env.render()
    assert later.shape != first.shape or not np.array_equal(later, first)


def test_hansa_teutonica_pieces_in_player_colours():
    from meeplezoo.envs.hansa_teutonica import data as D
    from meeplezoo.envs.hansa_teutonica import render as R

    env = make("hansa_teutonica_v0", raw=True, num_players=3, render_mode="rgb_array")
    env.reset(seed=2)
    _play(env, 0)
    seat = env.agent_name_mapping[env.agent_selection]
    rgb = tuple(int(v) for v in R.SEAT_COLOURS[seat])
    board = (slice(R.TITLE_H, R.HEIGHT - R.LEGEND_H), slice(0, R.MAP_W))
    before = _pixels(env.render()[board], rgb)
    mask = env.action_mask()
    place = [a for a in range(D.A_PLACE, D.A_PAY)       # placements: onto empty spaces
             if mask[a] and env.state[D.G_SPACE_OWNER + (a - D.A_PLACE) // 2] < 0]
    assert place
    env.step(place[0])
    after = _pixels(env.render()[board], rgb)
    assert after >= before + 100                      # a trader square in the seat's colour
    assert "Hansa Teutonica" not in R.title_text(env.state)   # the title is drawn, not text
    assert f"{R.SEAT_NAMES[seat]} to move" in R.title_text(env.state)


def test_hansa_stalls_in_player_colours():
    from meeplezoo.envs.hansa import data as D
    from meeplezoo.envs.hansa import render as R

    env = make("hansa_v0", raw=True, num_players=3, render_mode="rgb_array")
    env.reset(seed=3)
    _play(env, 60, seed=3)
    img = env.render()[:R.MAP_H]
    for seat in range(3):
        stalls = int(env.state[D.PLAYERS_BASE + seat * D.PLAYER_SIZE + D.P_STALLS:][:D.NUM_CITIES]
                     .sum())
        assert (_pixels(img, R.PLAYER_RGB[seat]) > 0) == (stalls > 0)


def test_serenissima_galleys_in_player_colours():
    from meeplezoo.envs.serenissima import data as D
    from meeplezoo.envs.serenissima import render as R

    env = make("serenissima_v0", raw=True, num_players=3, render_mode="rgb_array")
    env.reset(seed=4)
    _play(env, 80, seed=4)
    sea = env.render()[16:R.HEIGHT - 66]
    for seat in range(3):
        afloat = any(env.state[D.S_G_OWNER + g] == seat and env.state[D.S_G_ZONE + g] >= 0
                     for g in range(D.NUM_GALLEYS))
        if afloat:
            assert _pixels(sea, R.SEAT_RGB[seat]) > 0


def test_saint_malo_title_line_follows_the_game():
    from meeplezoo.envs.saint_malo import render as R

    env = make("saint_malo_v0", raw=True, num_players=2, render_mode="rgb_array")
    env.reset(seed=5)
    title = R.strip_title(env.state)
    assert title.startswith("turn 1") and len(title) <= 32
    _play(env, 40, seed=5)
    assert R.strip_title(env.state) != title


# --- draw.py -------------------------------------------------------------------------------

def test_font_covers_printable_ascii_and_draws_its_pixels():
    for code in range(32, 127):
        assert chr(code) in draw.FONT.glyphs
    assert not draw.FONT.glyphs[" "].any() and draw.FONT.glyphs["A"].any()
    assert not np.array_equal(draw.FONT.glyphs["a"], draw.FONT.glyphs["A"])
    img = draw.canvas(20, 60, (255, 255, 255))
    end = draw.text(img, 2, 3, "Ag", (0, 0, 0))
    assert end == 3 + 2 * draw.FONT.advance
    want = int(draw.FONT.glyphs["A"].sum() + draw.FONT.glyphs["g"].sum())
    assert _pixels(img, (0, 0, 0)) == want
    big = draw.canvas(40, 60, (255, 255, 255))
    draw.text(big, 0, 0, "A", (0, 0, 0), scale=2)
    assert _pixels(big, (0, 0, 0)) == 4 * int(draw.FONT.glyphs["A"].sum())
    assert draw.text_size("abc", 2) == (2 * draw.FONT.height, 6 * draw.FONT.advance)
    small = draw.canvas(10, 20, (255, 255, 255))
    draw.text(small, 0, 0, "ok?", (0, 0, 0), font=draw.SMALL)     # lower case -> capitals
    assert _pixels(small, (0, 0, 0)) > 0


def test_shapes_clip_at_the_canvas_edge():
    img = draw.canvas(30, 40, (0, 0, 0))
    draw.text(img, 25, 35, "clipped text", (255, 0, 0), scale=3)
    draw.text(img, -8, -20, "off", (255, 0, 0))
    draw.disc(img, -5, 38, 9, (0, 255, 0))
    draw.ring(img, 29, 0, 6, (0, 255, 0), 2)
    draw.rect(img, -10, -10, 15, 100, (0, 0, 255))
    draw.rect(img, 100, 100, 5, 5, (0, 0, 255))                  # wholly outside
    assert _pixels(img, (0, 0, 255)) == 5 * 40
    draw.outline(img, 20, 30, 30, 30, (9, 9, 9), 2)
    draw.line(img, (-50, -50), (80, 90), (200, 200, 200), width=3)
    draw.arrow_head(img, (0, 0), (29, 39), (1, 2, 3), size=12)
    draw.legend(img, 26, 30, [((1, 1, 1), "a"), ((2, 2, 2), "b")])
    assert img.shape == (30, 40, 3)
    disc = draw.canvas(21, 21, (0, 0, 0))
    draw.disc(disc, 10, 10, 10, (255, 255, 255))
    assert disc[10, 0].all() and not disc[0, 0].any()


def test_pad_even():
    odd = np.ones((5, 7, 3), dtype=np.uint8)
    padded = draw.pad_even(odd)
    assert padded.shape == (6, 8, 3) and (padded[:5, :7] == 1).all() and padded[5].sum() == 0
    even = np.ones((4, 6, 3), dtype=np.uint8)
    assert draw.pad_even(even) is even
