"""Carcassonne's trust boundary: a loaded state is memory-safe.

Every field has bounds (``data.FIELD_BOUNDS``) that core checks on load, and
``validate_state`` checks how the fields fit together: the union-find and member lists are
rebuilt from the placements (so every root and list pointer lies inside the arrays and a
feature walk ends), and the turn counters, the cap and the decision points must fit.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from carcassonne_setup import draw, new_game, play

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.env import SPEC
from meeplezoo.envs.carcassonne.validate import validate_state
from meeplezoo.envs.core.contract import H_PHASE, H_PLY, H_TO_MOVE
from meeplezoo.envs.core.state_io import StateFormatError, state_from_json, state_to_json


def midgame(seed: int = 4, steps: int = 40, **options):
    env = carcassonne_v0.env(num_players=3, start_seat=0, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        env.step(int(rng.choice(env.legal_actions())))
    return env


def edited(env, **fields) -> str:
    """The env's saved state with some fields replaced (``name=value`` or
    ``name=(element, value)``)."""
    data = json.loads(env.state_to_json())
    for name, value in fields.items():
        if isinstance(value, tuple):
            data["fields"][name][value[0]] = value[1]
        else:
            data["fields"][name] = value
    return json.dumps(data)


def refused(env, text: str, match: str) -> None:
    before = env.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(text)
    assert np.array_equal(env.state, before)         # the env is untouched


def test_every_field_has_bounds_and_every_reached_state_lies_inside_them():
    assert set(D.FIELD_BOUNDS) == set(D.STATE_FIELDS) == set(SPEC.field_bounds)
    for layout in ("frontier", "grid"):
        for seed in range(3):
            env = carcassonne_v0.env(num_players=6, placement_layout=layout)
            env.reset(seed=seed)
            rng = np.random.default_rng(seed)
            while not env.unwrapped._game_over:
                for name, (offset, length) in D.STATE_FIELDS.items():
                    low, high = D.FIELD_BOUNDS[name]
                    values = env.state[offset:offset + length]
                    assert low <= values.min() and values.max() <= high, name
                env.step(int(rng.choice(env.legal_actions())))
            validate_state(env.state)
            state, _ = state_from_json(env.unwrapped.spec, env.state_to_json())
            assert np.array_equal(state, env.state)


@pytest.mark.parametrize("value", [2**61, -5, D.MAX_SCORE + 1])
def test_scores_out_of_range_are_refused(value):
    """The reported case: scores=2**61 was accepted (and overflows the reward sums)."""
    env = midgame()
    refused(env, edited(env, scores=(0, value)), "scores")
    assert env.unwrapped.state[D.G_SCORE] < D.MAX_SCORE


@pytest.mark.parametrize("field, value", [
    ("node_root", (8, 2**61)), ("node_next", (0, -1)), ("tile_cell", (1, D.NUM_CELLS)),
    ("frontier_size", 999), ("hand", 41), ("active_seat", 9), ("phase", 4),
    ("to_move", 6), ("placed", 91), ("max_decisions", 0), ("truncated", 2), ("ply", 179),
    ("normal_meeples", (0, 8)), ("grid", (0, -1)), ("frontier_keys", (0, 256)),
])
def test_fields_outside_their_bounds_are_refused(field, value):
    env = midgame()
    refused(env, edited(env, **{field: value}), field)


def test_a_union_find_pointing_into_another_feature_is_refused():
    """An in-range root or member-list pointer that the board does not imply (a walk
    through it could loop forever or score the wrong feature) is refused."""
    env = midgame()
    roots = env.state[D.N_ROOT:D.N_ROOT + D.NUM_NODES]
    sizes = env.state[D.N_SIZE:D.N_SIZE + D.NUM_NODES]
    big = int(np.flatnonzero(sizes > 1)[0])                  # the root of a joined feature
    other = int(np.flatnonzero((roots != big) & (sizes == 1))[0])
    refused(env, edited(env, node_root=(big, other)), "node_root")
    refused(env, edited(env, node_next=(big, big)), "node_next")        # a cut cycle
    refused(env, edited(env, node_next=(big, other)), "node_next")      # into another one
    refused(env, edited(env, node_size=(big, 1)), "node_size")


def test_counters_must_fit_the_placements_and_the_cap():
    env = midgame()
    placed = int(env.state[D.G_PLACED])
    refused(env, edited(env, ply=2 * placed), "ply")
    refused(env, edited(env, ply=placed - 2), "ply")
    refused(env, edited(env, truncated=1), "cap")                 # cut off, yet still live
    ply = int(env.state[H_PLY])
    refused(env, edited(env, max_decisions=ply), "cap")          # a live game at its cap
    refused(env, edited(env, discarded=int(env.state[D.G_DISCARDED]) + 1), "add up")
    refused(env, edited(env, pile=(D.START_TYPE, 9)), "pile")


def test_a_draw_from_an_empty_pile_is_refused():
    """CA-6.6: a draw due with no tile left would sample from nothing."""
    s = new_game()
    assert int(s[H_PHASE]) == D.PH_DRAW
    s[D.G_DISCARDED] += s[D.G_PILE_LEFT]
    s[D.G_PILE:D.G_PILE + D.NUM_TYPES] = 0
    s[D.G_PILE_LEFT] = 0
    with pytest.raises(StateFormatError, match="pile is empty"):
        state_from_json(SPEC, state_to_json(SPEC, s))


def test_a_tile_in_hand_that_fits_nowhere_is_refused():
    """CA-6.4: such a tile leaves the game at its draw, so no decision point holds one
    (its mask would be empty)."""
    s = new_game()
    play(s, "E", 0, -1, 2)                       # spec example 14: C fits nowhere now
    draw(s, "B")
    state_from_json(SPEC, state_to_json(SPEC, s))
    s[D.G_HAND] = D.TYPE_OF["C"]
    s[D.G_PILE + D.TYPE_OF["C"]] -= 1
    s[D.G_PILE + D.TYPE_OF["B"]] += 1
    with pytest.raises(StateFormatError, match="fits nowhere"):
        state_from_json(SPEC, state_to_json(SPEC, s))


def test_a_finished_game_needs_an_empty_pile_unless_cut_off():
    env = midgame(max_decisions=30, steps=0)
    while not env.unwrapped._game_over:
        env.step(env.legal_actions()[0])
    assert int(env.state[D.G_TRUNCATED]) == 1 and int(env.state[D.G_PILE_LEFT]) > 0
    twin = midgame()
    twin.state_from_json(env.state_to_json())        # a cut-off game loads as one
    assert all(twin.truncations.values()) and not any(twin.terminations.values())
    refused(twin, edited(env, truncated=0), "finished game")
    refused(twin, edited(env, ply=29), "max_decisions")


def test_a_meeple_must_sit_on_a_placed_slot_of_a_seat_in_the_game():
    env = midgame()
    placed = int(env.state[D.G_PLACED])
    free = placed * D.MAX_SLOTS                              # a node of no tile yet
    refused(env, edited(env, node_meeple=(free, 1)), "meeple")
    refused(env, edited(env, node_meeple=(0, 1 + 2 * 4)), "meeple")   # seat 4 of 3
    assert int(env.state[H_TO_MOVE]) >= 0


def test_a_meeple_left_on_a_scored_feature_between_turns_is_refused():
    """CA-9.6: a completed city's meeples go home when its turn is scored, so between
    turns no completed feature holds one."""
    s = new_game()
    play(s, "E", 0, -1, 2)                       # closes the start tile's city (2 tiles)
    city = next(node for node in range(D.MAX_SLOTS, 2 * D.MAX_SLOTS)
                if D.SEG_KIND[D.TYPE_OF["E"], node % D.MAX_SLOTS] == D.CITY)
    root = int(s[D.N_ROOT + city])
    assert int(s[D.N_OPEN + root]) == 0 and int(s[D.N_SIZE + root]) == 2
    s[D.N_MEEPLE + city] = 1                     # seat 0's normal meeple
    s[D.N_FIGURES + root] = 1
    s[D.G_NORMAL] -= 1
    with pytest.raises(StateFormatError, match="CA-9.6"):
        state_from_json(SPEC, state_to_json(SPEC, s))
