"""Thousands of random Carcassonne games with the rules' invariants checked after EVERY step.

1,000 full games per player count (2-6) with the default rules, plus 200 per option
variant, all stepped in compiled code.  After every decision (and its draws): meeples
conserved per seat and kind; scores never go down; every placed tile matches all its
neighbours and touches an earlier tile; each feature's meeple count and open-port count
(HOT-3) equal a recount from the member nodes; between turns no completed road or city and
no surrounded monastery still holds a meeple; the legal list is never empty before the
end.  At the end: every tile placed or discarded, the pile empty, every meeple home.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.board import occupied_around, tile_at
from meeplezoo.envs.carcassonne.masks import legal_actions, legal_mask
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.carcassonne.policy import MAX_LIST
from meeplezoo.envs.carcassonne.rules import apply_action, init_state, resolve_chance
from meeplezoo.envs.carcassonne.validate import validate_state
from meeplezoo.envs.core.contract import H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng, rand_below

GAMES = 1000


@numba.njit
def check_step(state, prev, players, large_total):
    """0 when every invariant holds, else the number of the first one broken."""
    for seat in range(D.MAX_PLAYERS):
        if state[D.G_SCORE + seat] < prev[D.G_SCORE + seat]:
            return 1
    placed = state[D.G_PLACED]
    on_board = np.zeros((D.MAX_PLAYERS, 2), dtype=np.int64)
    figures = np.zeros(D.NUM_NODES, dtype=np.int64)
    open_ports = np.zeros(D.NUM_NODES, dtype=np.int64)
    for index in range(placed):
        t, r, cell = state[D.T_TYPE + index], state[D.T_ROT + index], state[D.T_CELL + index]
        earlier = index == 0
        for side in range(4):
            other = tile_at(state, cell + D.STEP[side])
            if other < 0:
                continue
            earlier = earlier or other < index
            facing = D.ROT_EDGE[state[D.T_TYPE + other], state[D.T_ROT + other], (side + 2) % 4]
            if facing != D.ROT_EDGE[t, r, side]:
                return 2
        if not earlier or tile_at(state, cell) != index:
            return 3
        for slot in range(D.NUM_SLOTS[t]):
            node = index * D.MAX_SLOTS + slot
            root = state[D.N_ROOT + node]
            code = state[D.N_MEEPLE + node]
            if code:
                on_board[(code - 1) // 2, (code - 1) % 2] += 1
                figures[root] += 1
            for side in range(4):
                if D.PORT_SIDES[t, r, slot] >> side & 1 and tile_at(state, cell + D.STEP[side]) < 0:
                    open_ports[root] += 1
    for seat in range(D.MAX_PLAYERS):
        normal_total = D.NORMAL_MEEPLES if seat < players else 0
        large_seat = large_total if seat < players else 0
        if state[D.G_NORMAL + seat] + on_board[seat, 0] != normal_total:
            return 4
        if state[D.G_LARGE + seat] + on_board[seat, 1] != large_seat:
            return 5
    between_turns = state[H_PHASE] != D.PH_MEEPLE
    for index in range(placed):
        t = state[D.T_TYPE + index]
        for slot in range(D.NUM_SLOTS[t]):
            node = index * D.MAX_SLOTS + slot
            if state[D.N_ROOT + node] != node:
                continue
            if state[D.N_FIGURES + node] != figures[node]:
                return 6
            kind = D.SEG_KIND[t, slot]
            if (kind == D.CITY or kind == D.ROAD) and state[D.N_OPEN + node] != open_ports[node]:
                return 7
            if between_turns and figures[node] > 0:
                if (kind == D.CITY or kind == D.ROAD) and open_ports[node] == 0:
                    return 8
                if kind == D.MONASTERY and occupied_around(state, state[D.T_CELL + index]) == 8:
                    return 9
    return 0


@numba.njit
def play_checked_games(num_games, players, config, rng, state, prev, large_total, total_tiles):
    """Returns (error code, game, step); error 0 means every game kept every invariant."""
    actions = np.empty(MAX_LIST, dtype=np.int64)
    for game in range(num_games):
        init_state(state, players, config, game % players)
        resolve_chance(state, rng)
        step = 0
        while state[H_TO_MOVE] != TERMINAL:
            count = legal_actions(state, actions)
            if count == 0:
                return 10, game, step
            prev[:] = state
            apply_action(state, actions[rand_below(rng, count)])
            resolve_chance(state, rng)
            error = check_step(state, prev, players, large_total)
            if error:
                return error, game, step
            step += 1
            if step > 400:
                return 11, game, step
        if state[D.G_PLACED] + state[D.G_DISCARDED] != total_tiles or state[D.G_PILE_LEFT]:
            return 12, game, step
        for seat in range(players):
            if state[D.G_NORMAL + seat] != D.NORMAL_MEEPLES \
                    or state[D.G_LARGE + seat] != large_total:
                return 13, game, step
    return 0, num_games, 0


def run(players, games, seed, **options):
    config = make_config(**options)
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    prev = np.zeros_like(state)
    expansion = options.get("expansion_inns_cathedrals", True)
    total = 90 if expansion else 72
    error, game, step = play_checked_games(games, players, config, new_rng(seed), state, prev,
                                           int(expansion), total)
    assert error == 0, f"invariant {error} broken in game {game} at step {step}"
    validate_state(state)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_keep_every_invariant(players):
    run(players, GAMES, seed=100 + players)


@pytest.mark.parametrize("options", [
    {"expansion_inns_cathedrals": False},
    {"farmers": False, "auto_pass_meeple": False},
    {"farm_scoring": "c1_v1", "small_city_rule": "c1_early", "ic_tjunction_inn": "east_and_west"},
    {"farm_scoring": "c1_v2", "dedupe_rotations": True},
])
def test_random_games_under_every_option(options):
    run(3, 200, seed=7, **options)


def test_full_validation_and_json_on_every_step_of_some_games():
    from meeplezoo.envs.carcassonne import SPEC, rules
    from meeplezoo.envs.core.state_io import state_from_json, state_to_json

    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for game in range(2):
        state = np.zeros(D.STATE_SIZE, dtype=np.int64)
        rng = new_rng(game)
        policy = np.random.default_rng(game)
        rules.env_reset(state, 2 + game, make_config(), 0, rng, mask)
        while int(state[H_TO_MOVE]) != TERMINAL:
            legal = np.flatnonzero(mask.view(bool))
            assert legal.size > 0
            rules.env_step(state, int(policy.choice(legal)), rng, mask)
            fresh = np.ones_like(mask)                       # the incremental clear is exact
            legal_mask(state, fresh)
            assert np.array_equal(fresh, mask)
            if int(state[H_PLY]) % (1 + 4 * game) == 0:
                validate_state(state)
            loaded, loaded_rng = state_from_json(SPEC, state_to_json(SPEC, state, rng))
            assert np.array_equal(loaded, state) and np.array_equal(loaded_rng, rng)
