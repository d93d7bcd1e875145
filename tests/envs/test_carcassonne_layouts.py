"""The two placement layouts: the frontier layout (default, 737 actions) and the spec's
DEC-2 grid (131,061) give exactly the same legal (cell, rotation) sets and the same games.

Thousands of positions from random games are played in lockstep in both layouts (same
seed, same random index into the ascending legal list); at each decision the legal sets,
as (x, y, r) or meeple choices, must be equal, the masks must equal the lists, the
observations must be identical, and the states must differ only in the layout option.
"""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.envs.carcassonne import GRID_SPEC, SPEC, spec_for
from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.masks import legal_actions, legal_mask
from meeplezoo.envs.carcassonne.observe import observe, slot_positions, split_observation
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.carcassonne.policy import MAX_LIST
from meeplezoo.envs.carcassonne.rules import apply_action, init_state, resolve_chance
from meeplezoo.envs.core.contract import H_PHASE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng, rand_below
from meeplezoo.envs.core.state_io import StateFormatError, state_from_json, state_to_json


def decoded(state, actions):
    """Layout-free names of legal actions: (x, y, r) placements or meeple offsets."""
    base = D.meeple_base(state)
    return [D.placement_of(state, a) if a < base else ("meeple", a - base) for a in actions]


def lockstep(players, games, seed, **options):
    states = {}
    masks = {}
    for layout in ("frontier", "grid"):
        states[layout] = np.zeros(D.STATE_SIZE, dtype=np.int64)
        masks[layout] = np.zeros(D.num_actions_of(D.PLACEMENT_LAYOUTS.index(layout)), np.int8)
    rngs = {layout: new_rng(seed) for layout in states}
    pick = new_rng(seed + 1)
    lists = {layout: np.empty(MAX_LIST, dtype=np.int64) for layout in states}
    obs = {layout: np.zeros(D.OBS_SIZE, dtype=np.float32) for layout in states}
    positions = 0
    for game in range(games):
        for layout, state in states.items():
            init_state(state, players, make_config(placement_layout=layout, **options),
                       game % players)
            resolve_chance(state, rngs[layout])
        while int(states["frontier"][H_TO_MOVE]) != TERMINAL:
            named = {}
            for layout, state in states.items():
                count = legal_actions(state, lists[layout])
                listed = lists[layout][:count].tolist()
                assert listed == sorted(listed) and count > 0
                if positions % 7 == 0:
                    legal_mask(state, masks[layout])
                    assert np.flatnonzero(masks[layout]).tolist() == listed
                    observe(state, int(state[H_TO_MOVE]), obs[layout])
                named[layout] = decoded(state, listed)
            assert named["frontier"] == named["grid"]
            if positions % 7 == 0:
                assert np.array_equal(obs["frontier"], obs["grid"])
            index = rand_below(pick, len(named["grid"]))
            for layout, state in states.items():
                apply_action(state, int(lists[layout][index]))
                resolve_chance(state, rngs[layout])
            differ = np.flatnonzero(states["frontier"] != states["grid"])
            assert differ.tolist() == [D.C_LAYOUT]
            positions += 1
    return positions


@pytest.mark.parametrize("players, options", [
    (2, {}), (4, {}), (6, {}), (3, {"expansion_inns_cathedrals": False, "farmers": False}),
    (3, {"dedupe_rotations": True, "auto_pass_meeple": False}),
])
def test_frontier_and_grid_layouts_play_the_same_games(players, options):
    assert lockstep(players, 25, seed=40 + players, **options) > 25 * 80   # ~14,000 in all


def test_a_frontier_action_names_its_cell_in_the_observation():
    env = carcassonne_v0.env(num_players=2)
    env.reset(seed=11)
    rng = np.random.default_rng(0)
    checked = 0
    while not all(env.terminations.values()):
        if env.phase == "place_tile":
            obs = env.observe(env.agent_selection)["observation"]
            planes, vector = split_observation(obs)
            assert vector.shape == (D.OBS_VECTOR_SIZE,)
            slots = slot_positions(obs)
            x0, y0 = round(obs[D.V_ORIGIN] * D.MAX_TILES), round(obs[D.V_ORIGIN + 1] * D.MAX_TILES)
            frontier = int(env.state[D.G_FRONTIER])
            assert slots[:frontier, 0].all() and not slots[frontier:].any()
            for action in env.legal_actions():
                x, y, r = D.placement_of(env.state, action)
                present, col, row = slots[action // 4]
                assert present == 1 and (col, row) == (x - x0, y - y0)
                if 0 <= col < D.OBS_WINDOW and 0 <= row < D.OBS_WINDOW:
                    assert planes[D.PL_LEGAL + r, int(row), int(col)] == 1
                    checked += 1
            assert planes[D.PL_LEGAL:D.PL_LEGAL + 4].sum() <= len(env.legal_actions())
        env.step(int(rng.choice(env.legal_actions())))
    assert checked > 1000


def test_layout_option_picks_the_spec_and_is_validated():
    frontier = carcassonne_v0.env(num_players=2)
    grid = carcassonne_v0.env(num_players=2, placement_layout="grid")
    assert frontier.action_space("player_0").n == D.NUM_ACTIONS == 737
    assert grid.action_space("player_0").n == D.GRID_NUM_ACTIONS == 131_061
    assert grid.unwrapped.spec is GRID_SPEC and spec_for("frontier") is SPEC
    assert grid.observation_space("player_0")["observation"].shape == (D.OBS_SIZE,)
    with pytest.raises(ValueError, match="placement_layout must be one of"):
        carcassonne_v0.env(num_players=2, placement_layout="hex")
    with pytest.raises(ValueError, match="spec_for"):
        SPEC.make_config(placement_layout="grid")          # e.g. BatchEnv(SPEC, ...)
    assert GRID_SPEC.make_config()[D.C_LAYOUT - D.HEADER_SIZE] == D.LAYOUT_GRID
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    init_state(state, 2, make_config(placement_layout="grid"), 0)
    resolve_chance(state, new_rng(0))
    with pytest.raises(ValueError, match="too small"):
        legal_mask(state, np.zeros(D.NUM_ACTIONS, dtype=np.int8))


@pytest.mark.parametrize("layout", ["frontier", "grid"])
def test_json_round_trip_and_layouts_do_not_mix(layout):
    env = carcassonne_v0.env(num_players=3, placement_layout=layout)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    for _ in range(70):
        env.step(int(rng.choice(env.legal_actions())))
    text = env.state_to_json()
    twin = carcassonne_v0.env(num_players=3, placement_layout=layout)
    twin.reset(seed=0)
    twin.state_from_json(text)
    assert np.array_equal(twin.state, env.state)
    assert twin.legal_actions() == env.legal_actions() and twin.phase == env.phase
    other = carcassonne_v0.env(num_players=3,
                               placement_layout="grid" if layout == "frontier" else "frontier")
    other.reset(seed=0)
    with pytest.raises(StateFormatError, match="placement_layout"):
        other.state_from_json(text)
    spec = env.unwrapped.spec
    broken = env.state.copy()
    broken[D.F_CELL], broken[D.F_CELL + 1] = broken[D.F_CELL + 1], broken[D.F_CELL]
    with pytest.raises(StateFormatError, match="frontier"):
        state_from_json(spec, state_to_json(spec, broken))


def test_move_names_parse_back_in_both_layouts():
    for layout in ("frontier", "grid"):
        env = carcassonne_v0.env(num_players=2, placement_layout=layout)
        env.reset(seed=5)
        for _ in range(30):
            for action in env.legal_actions():
                assert env.str_to_action(env.action_to_str(action)) == action
            env.step(env.legal_actions()[-1])
        assert int(env.state[H_PHASE]) in (D.PH_PLACE, D.PH_MEEPLE)
