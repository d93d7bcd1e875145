"""Saint Malo's trust boundary: a loaded state is memory-safe.

Every field has bounds (``data.FIELD_BOUNDS``, checked by core on load and again by
``validate_state``), and ``validate_state`` checks how the fields fit together: seats below
num_players, the architect's cell in the houses phase only, the pending items of a turn by
phase, the tower-character bits (SM-7.3.2), the end of the game (SM-11.1, SM-11.2), and no
decision without a legal action.  The reported repros are here with their values.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.envs import make
from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import StateFormatError, state_from_json, state_to_json
from meeplezoo.envs.saint_malo import SPEC, rules
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo.options import make_config
from meeplezoo.envs.saint_malo.validate import validate_state


def fresh(seed: int = 7, players: int = 2, **options):
    env = make("saint_malo_v0", num_players=players, start_seat=0, **options)
    env.reset(seed=seed)
    return env


def edited(env, *changes) -> str:
    """The env's saved state with ``(field, value)`` or ``(field, element, value)`` changes."""
    data = json.loads(env.state_to_json())
    for change in changes:
        field, value = change[0], change[-1]
        if len(change) == 3:
            data["fields"][field][change[1]] = value
        else:
            data["fields"][field] = value
    return json.dumps(data)


def refused(env, text: str, match: str | None = None) -> None:
    before, mask = env.state.copy(), env.action_mask()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(text)
    assert np.array_equal(env.state, before) and np.array_equal(env.action_mask(), mask)


def test_every_field_has_bounds():
    assert set(D.FIELD_BOUNDS) == set(D.STATE_FIELDS) == set(SPEC.field_bounds)
    assert SPEC.truncated_slot == D.G_TRUNCATED


@pytest.mark.parametrize("value", [2**61, -5, 9, 49, 999, -(2**61)])
@pytest.mark.parametrize("field", ["architect_cell", "pending_code"])
def test_values_that_once_crashed_observe_are_refused(field, value):
    """The repro: reset(seed=7), one of these values, load, observe: a segfault before.
    9 and 49 fit the bounds of pending_code (a cell code) and 9 those of architect_cell, but
    nothing is pending before the scoring (SM-6), so the cross-field check refuses them."""
    env = fresh(7)
    refused(env, edited(env, (field, value)), match=field.split("_")[0])
    for agent in env.possible_agents:
        env.observe(agent)                      # the env is still the one it was


@pytest.mark.parametrize("change, match", [
    (("church_row_values", 0, -1), "church_row_values"),
    (("church_row_values", 0, 5), "church_row_values"),       # SM-11.4: no row scores 0
    (("boxes_per_player", 2**61), "boxes_per_player"),
    (("boxes_per_player", 0), "boxes_per_player"),
    (("end_triggered", 5), "end_triggered"),
    (("end_triggered", 1), "no city is full"),                 # SM-11.1
    (("bonus_due", 1), "bonus_due"),                           # no side completed
    (("bonus_due", 16), "bonus_due"),
    (("placing_bonus", 1), "placing_bonus"),
    (("start_seat", 2), "start_seat"),                         # a 2-player game
    (("active_seat", 4), "active_seat"),
    (("tower_reward_kind", 1, 3), "tower_reward_kind"),
    (("tower_reward_amount", 0, 0), "character reward"),       # N: a character of level 0
    (("tower_reward_amount", 0, 6), "character reward"),
    (("start_crates", 1), "start_crates"),                     # a tower cell
    (("dedupe_rerolls", 2), "dedupe_rerolls"),
    (("max_decisions", 0), "max_decisions"),
    (("ply", 3000), "max_decisions"),                          # at the cap, not over
    (("truncated", 1), "truncated"),
    (("rolls_used", 0), "re-roll decision"),
    (("roll_mask", 3), "roll_mask"),
    (("last_attacks", 1), "last_attacks"),
    (("houses_built", 1), "nothing can be pending"),
    (("placed_this_turn", 1 << 24), "placed_this_turn"),
    (("pending_left", 2), "pending"),
    (("p0_coins", -1), "p0_coins"),
    (("p0_vp", 2**61), "p0_vp"),
    (("p0_cannons_lost", 7), "p0_cannons_lost"),
    (("p0_cannons_lost", 1), "more cannons lost"),             # SM-9.6: no attack yet
    (("p0_board", 24, 16), "p0_board"),
    (("p0_board", 0, 3), "tower"),
    (("p0_sides_done", 1), "done without five walls"),
    (("p3_coins", 1), "not in the game"),
    (("dice", 0, 6), "dice"),
    (("turns", 5), "turns 5 exceed"),                          # a turn takes decisions
    (("p0_vp", 10**6), "too near"),                            # room for the gains to come
    (("p0_coins", 340_000), "too near"),                       # logs + 3 * coins
])
def test_out_of_range_and_inconsistent_values_are_refused(change, match):
    env = fresh(7)
    refused(env, edited(env, change), match=match)


def test_every_field_just_outside_its_bounds_is_refused():
    env = fresh(3, players=5)
    for field, (low, high) in D.FIELD_BOUNDS.items():
        length = D.STATE_FIELDS[field][1]
        for value in (low - 1, high + 1):
            for element in sorted({0, length - 1}):
                change = (field, element, value) if length > 1 else (field, value)
                refused(env, edited(env, change), match=field)


def test_a_bonus_choice_with_no_character_due_is_refused():
    """The bonus mask looks up the lowest due side (SM-7.3.2); none due is no decision."""
    env = fresh(7)
    env.state_from_json(edited(env, ("phase", D.PH_SCORE), ("rolls_used", 3),
                               ("dice", [1, 1, 2, 3, 4])))
    refused(env, edited(env, ("phase", D.PH_BONUS_CHOICE)), match="character due")


def test_a_decision_without_a_legal_action_is_refused():
    """Three crates to draw as one group (SM-7.2) in a city whose only free spaces are d4
    and e4: no first crate can be placed, a dead end."""
    env = fresh(7, start_crates=())
    full = {c: D.CRATE for c in range(D.NUM_CELLS) if not D.IS_TOWER[c] and c not in (24, 25)}
    refused(env, _placing(env, D.CRATE, 3, 0, full), match="no legal action")
    env.state_from_json(_placing(env, D.CRATE, 2, 0, full))
    assert env.legal_actions() == [D.A_PLACE + 24, D.A_PLACE + 25]


def test_every_state_reached_by_play_is_valid_and_round_trips():
    """Random games at every player count, some cut off early by a small cap (mid-turn
    truncations included): every reached state lies in its bounds and loads again."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for game in range(40):
        players = 2 + game % 4
        cap = 3000 if game % 2 else 5 + 7 * game
        config = make_config(max_decisions=cap, dedupe_rerolls=game % 3 != 0,
                             start_crates=((0, 1), (1, 2), (2, 1), (3, 1)))
        rng, policy = new_rng(game), np.random.default_rng(game)
        rules.env_reset(state, players, config, game % players, rng, mask)
        steps = 0
        while state[H_TO_MOVE] != TERMINAL:
            rules.env_step(state, int(policy.choice(np.flatnonzero(mask))), rng, mask)
            steps += 1
            if steps % 11 == 0 or state[H_TO_MOVE] == TERMINAL:
                validate_state(state)
                loaded, loaded_rng = state_from_json(SPEC, state_to_json(SPEC, state, rng))
                assert np.array_equal(loaded, state) and np.array_equal(loaded_rng, rng)
        assert bool(state[D.G_TRUNCATED]) == (steps == cap)



def _placing(env, code: int, left: int, placed: int, cells: dict) -> str:
    data = json.loads(env.state_to_json())
    f = data["fields"]
    for cell, value in cells.items():
        f["p0_board"][cell] = value
    f["p0_sides_broken"] = sum(                              # SM-7.3.4
        1 << side for side in range(4)
        if any(f["p0_board"][int(c)] not in (D.EMPTY, D.WALL) for c in D.SIDE_CELLS[side]))
    f.update(phase=D.PH_PLACE, dice=[2, 2, 3, 3, 3], rolls_used=3, roll_mask=0,
             pending_code=code, pending_left=left, placed_this_turn=placed)
    return json.dumps(data)


def test_items_left_to_place_must_fit_whatever_cells_are_picked():
    """SM-7.3.1 / SM-7.2: a state whose remaining walls or crates cannot all be drawn would
    leave a later decision with no legal action; such states are refused."""
    env = fresh(7, start_crates=())
    outer = [int(c) for c in D.SIDE_CELLS.ravel()]
    walls = {c: D.CRATE for c in outer[2:]}                   # two free outer spaces
    env.state_from_json(_placing(env, D.WALL, 2, 0, walls))
    refused(env, _placing(env, D.WALL, 3, 0, walls), match="free outer")
    # Crates: the group b2 (cell 8) walled in but for c2 (9), then d2 (10) beyond it.
    ring = {c: D.CHURCH_1 for c in (15, 16, 17, 11, 18)}
    ring[8] = D.CRATE
    ring[1], ring[2], ring[3], ring[7] = D.CRATE, D.CRATE, D.CRATE, D.CRATE
    env.state_from_json(_placing(env, D.CRATE, 2, 1 << 8, ring))
    refused(env, _placing(env, D.CRATE, 3, 1 << 8, ring), match="no room")
    ring[10] = D.CRATE
    refused(env, _placing(env, D.CRATE, 1, 1 << 8 | 1 << 10, ring), match="one orthogonal")
