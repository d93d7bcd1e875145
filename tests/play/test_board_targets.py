"""Click boxes of Hansa Teutonica, Hansa and Serenissima: on positions from
random games every box lies inside the picture, stands for legal moves only, sits where the
picture draws its place (checked against the render's own layout and pixels), and no box
hides another's centre; most legal moves and nearly every decision get one."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs import make
from meeplezoo.play.web.board import board_view

# game -> (options, players to try, min share of legal moves boxed, of decisions with a box)
# Measured on these games: Hansa Teutonica 0.97 / 0.97 (only end turn, done and payments
# have no place), Hansa 0.74 / 0.99 (end and skip refill), Serenissima 0.69 / 0.96 (end
# of a step, invest, buying or picking a galley not yet on the map).
GAMES = {"hansa_teutonica": ({"max_decisions": 300}, (2, 3, 5), 0.9, 0.9),
         "hansa": ({}, (2, 3, 4), 0.65, 0.9),
         "serenissima": ({}, (2, 3, 4), 0.6, 0.9)}
PIXEL_EVERY = 11         # render (and check pixels of) one position in so many
BACKGROUND = {"hansa_teutonica": (226, 211, 170), "hansa": (120, 165, 210),
              "serenissima": (70, 120, 170)}


def positions(game: str, seeds: int = 2):
    """(env, legal moves, whether to check pixels) along random games of every count."""
    options, counts, _, _ = GAMES[game]
    for players in counts:
        for seed in range(seeds):
            env = make(f"{game}_v0", raw=True, num_players=players, **options)
            env.reset(seed=seed)
            rng, ply = np.random.default_rng(seed), 0
            while not env.game_over:
                legal = [int(a) for a in env.legal_actions()]
                yield env, legal, ply % PIXEL_EVERY == 0
                env.step(int(rng.choice(legal)))
                ply += 1


def centre(box) -> tuple[int, int]:
    y, x, h, w = box
    return y + h // 2, x + w // 2


def contains(box, y, x) -> bool:
    top, left, h, w = box
    return top <= y < top + h and left <= x < left + w


def hidden_centres(boxes: np.ndarray) -> int:
    """How many boxes have their centre inside another box (a click there hits both)."""
    cy, cx = boxes[:, 0] + boxes[:, 2] // 2, boxes[:, 1] + boxes[:, 3] // 2
    inside = ((boxes[None, :, 0] <= cy[:, None]) & (cy[:, None] < boxes[None, :, 0]
                                                     + boxes[None, :, 2])
              & (boxes[None, :, 1] <= cx[:, None]) & (cx[:, None] < boxes[None, :, 1]
                                                      + boxes[None, :, 3]))
    np.fill_diagonal(inside, False)
    return int(inside.any(axis=1).sum())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_boxes_are_legal_moves_inside_the_picture_and_mostly_there(game):
    _, _, move_share, decision_share = GAMES[game]
    legal_total = boxed = decisions = with_box = 0
    for env, legal, pixels in positions(game):
        placed = env.spec.move_targets(env.state)
        got = {a: tuple(placed[a]) for a in legal if a in placed}
        boxes = sorted(set(got.values()))
        assert all(h > 0 and w > 0 for _, _, h, w in boxes)
        if boxes:
            assert hidden_centres(np.array(boxes)) == 0, env.phase
        if pixels:
            picture, target_of = board_view(env.spec, env.state, legal)
            assert target_of.keys() == got.keys()           # legal moves only, all of them
            assert sorted(map(tuple, picture["targets"])) == boxes       # one box per place
            assert {tuple(picture["targets"][i]) for i in target_of.values()} == set(boxes)
            image = env.spec.render_rgb(env.state)
            height, width = image.shape[:2]
            for y, x, h, w in boxes:
                assert 0 <= y and 0 <= x and y + h <= height and x + w <= width
                assert tuple(image[centre((y, x, h, w))]) != BACKGROUND[game]
        legal_total += len(legal)
        boxed += len(got)
        decisions += 1
        with_box += bool(got)
    print(f"{game}: {boxed / legal_total:.2f} of legal moves boxed, "
          f"{with_box / decisions:.2f} of {decisions} decisions with a box")
    assert boxed / legal_total >= move_share and with_box / decisions >= decision_share


def test_hansa_teutonica_boxes_sit_on_the_spaces_and_cities_drawn():
    from meeplezoo.envs.hansa_teutonica import data as D
    from meeplezoo.envs.hansa_teutonica import render as R

    pieces = {R.SPACE_RGB, R.INK} | {tuple(int(v) for v in rgb) for rgb in R.SEAT_COLOURS}
    spaces_seen = cities_seen = 0
    for env, legal, pixels in positions("hansa_teutonica", 1):
        state, targets = env.state, env.spec.move_targets(env.state)
        centres = R.space_centres(int(state[D.G_SIDE]))
        image = env.spec.render_rgb(state) if pixels else None
        for a in legal:
            if D.A_PLACE <= a < D.A_PAY or D.A_PICK <= a < D.A_DONE:
                space = (a - D.A_PLACE) // 2 if a < D.A_PAY else a - D.A_PICK
                assert contains(targets[a], *centres[space].astype(int))
                assert image is None or tuple(image[centre(targets[a])]) in pieces
                spaces_seen += 1
            elif D.A_REWARD + D.R_KONTOR <= a < D.A_REWARD + D.R_COELLEN:
                route = int(state[D.G_EST_ROUTE])
                assert any(contains(targets[a], *R.CITY_YX[c]) for c in D.ROUTE_CITY[route])
                cities_seen += 1
    assert spaces_seen > 1000 and cities_seen > 0
    # Two placements of one space (trader, merchant) share its box: the page's chooser.
    env = make("hansa_teutonica_v0", raw=True, num_players=3)
    env.reset(seed=0)
    _, target_of = board_view(env.spec, env.state, [int(a) for a in env.legal_actions()])
    assert target_of[D.A_PLACE] == target_of[D.A_PLACE + 1]


def test_hansa_teutonica_spaces_never_overlap_each_other_or_a_city():
    from meeplezoo.envs.hansa_teutonica import data as D
    from meeplezoo.envs.hansa_teutonica import render as R

    for side in range(D.NUM_SIDES):
        centres = R.space_centres(side)[:D.SPACES_ON_SIDE[side]]
        gaps = np.abs(centres[:, None] - centres[None]).max(axis=2)
        np.fill_diagonal(gaps, 99)
        assert gaps.min() >= 15                            # a space is 15 px square
        for city in range(D.NUM_CITIES):
            top, left, h, w = R.city_box(side, city)
            inside = ((centres[:, 0] > top - 8) & (centres[:, 0] < top + h + 8)
                      & (centres[:, 1] > left - 8) & (centres[:, 1] < left + w + 8))
            assert not inside.any(), (side, D.CITY_NAMES[city])


def test_hansa_boxes_sit_on_cities_warehouses_and_hand_tokens():
    from meeplezoo.envs.hansa import data as D
    from meeplezoo.envs.hansa import render as R

    seen = {"city": 0, "buy": 0, "mark": 0, "refill": 0}
    for env, legal, pixels in positions("hansa", 1):
        if not pixels:
            continue
        state, targets = env.state, env.spec.move_targets(env.state)
        image = env.spec.render_rgb(state)
        for a in legal:
            box = targets.get(a)
            if a < D.A_REFILL:                             # start in / sail to a city
                assert centre(box) == R._city_xy(a % D.A_MOVE)[::-1]
                seen["city"] += 1
            elif D.A_BUY <= a < D.A_PLACE:
                token = int(state[D.G_WAREHOUSE + D.MAX_SPACES * int(state[D.G_SHIP])
                                  + a - D.A_BUY])
                assert tuple(image[box[0] + 1, box[1] + 1]) == R.COLOUR_RGB[token // 3]
                seen["buy"] += 1
            elif D.A_SELL_MARK <= a < D.A_SELL_COMMIT and box is not None:
                colour = (a - D.A_SELL_MARK) // 3
                assert tuple(image[box[0] + 1, box[1] + 1]) == R.COLOUR_RGB[colour]
                seen["mark"] += 1
            elif a == D.A_REFILL:
                assert box == R.stacks_box() and tuple(image[box[0] + 1, box[1] + 1]) == (
                    40, 60, 90)
                seen["refill"] += 1
    assert min(seen.values()) > 0, seen


def test_serenissima_boxes_sit_on_zones_ports_and_galleys():
    from meeplezoo.envs.serenissima import data as D
    from meeplezoo.envs.serenissima import render as R

    seen = {"zone": 0, "port": 0, "galley": 0}
    for env, legal, pixels in positions("serenissima", 1):
        if not pixels:
            continue
        state, targets = env.state, env.spec.move_targets(env.state)
        image, centres = env.spec.render_rgb(state), R.zone_centres(state)
        for a in legal:
            box = targets.get(a)
            if D.A_MOVE <= a < D.A_PORT:
                assert centre(box) == tuple(centres[a - D.A_MOVE])
                seen["zone"] += 1
            elif D.A_PORT <= a < D.A_RECRUIT_GALLEY or D.A_FORT <= a < D.NUM_ACTIONS:
                p = (a - D.A_PORT) % D.MAX_PORTS
                cy, cx = centres[int(state[D.K_PORT_ZONE + p])]
                owner = int(state[D.S_P_OWNER + p])
                square = R.SEAT_RGB[owner] if owner >= 0 else (
                    (40, 40, 40) if owner == D.CLOSED else (225, 215, 190))
                assert contains(box, cy - 22, cx - 8) and tuple(image[cy - 22, cx - 8]) == square
                seen["port"] += 1
            elif D.A_SAILOR_FROM <= a < D.A_MOVE or D.A_RECRUIT_GALLEY <= a < D.A_FORT:
                if a >= D.A_RECRUIT_GALLEY:
                    g = a - D.A_RECRUIT_GALLEY
                elif a < D.A_GOOD_FROM:                    # a sailor from or to galley g
                    g = (a - D.A_SAILOR_FROM) % D.NUM_GALLEYS
                else:                                      # a good from or to galley g
                    g = (a - D.A_GOOD_FROM) % (D.NUM_GALLEYS * D.NUM_GOODS) // D.NUM_GOODS
                owner = int(state[D.S_G_OWNER + g])
                assert tuple(image[box[0], box[1]]) == R.SEAT_RGB[owner]   # the galley drawn
                seen["galley"] += 1
    assert min(seen.values()) > 0, seen
