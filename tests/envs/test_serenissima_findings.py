"""Rules findings, each with its exact expected outcome.

* SE-6.4.3 / A-08: no movement block in a galley's start zone, even when it comes back
  there after leaving it; ``block_in_start_zone=True`` only adds sale and claim blocks
  (case ``serenissima_start_zone_reentry``, inlined below).
* SE-11.1: the game ends after the third scoring, so a map's track must have exactly three
  scoring spaces (for 4 players and for 2/3 players): other maps get a ``MapError``, and a
  saved state whose config holds another count is refused.
"""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest
from serenissima_setup import BLUE, RED, activate, empty_game, galley, move, phase, play, sell

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.state_io import StateFormatError
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima.maps import PLACEHOLDER_MAP, MapError, validate_map

# --- SE-6.4.3 / A-08: the start zone ------------------------------------------------------


@pytest.mark.parametrize("flag", [False, True])
def test_se_6_4_3_no_movement_block_on_coming_back_to_the_start_zone(flag):
    """Blue's galley 4 (3 sailors) starts in Valencia's zone Z1 beside Red's 5-sailor
    galley 7, sails to Z2 and back: no block is offered on re-entering Z1, with the A-08
    option on or off; Blue is still moving (2 of 3 spaces used)."""
    state = empty_game(4, block_in_start_zone=flag)
    galley(state, 4, BLUE, "Z1", 3, goods=["gold"])
    galley(state, 7, RED, "Z1", 5)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, move("Z2"), move("Z1"))
    assert phase(state) == "move" and state[H_TO_MOVE] == BLUE
    assert state[D.A_MOVED] == 2 and state[D.S_G_ZONE + 3] == state[D.A_START_ZONE]


def test_a_08_the_option_still_adds_a_sale_block_in_the_start_zone():
    """A-08 with the flag on: back in the start zone, a sale there can be blocked (Red
    5 > 3 is asked); with the flag off it cannot (SE-6.4.3 literal reading)."""
    for flag, asked in ((True, True), (False, False)):
        state = empty_game(4, block_in_start_zone=flag)
        galley(state, 4, BLUE, "Z1", 3, goods=["gold"])
        galley(state, 7, RED, "Z1", 5)
        activate(state, 4)
        play(state, D.A_ACTION, D.A_PASS, move("Z2"), move("Z1"), D.A_PASS, sell("gold"))
        if asked:
            assert phase(state) == "block" and state[H_TO_MOVE] == RED
        else:
            assert state[D.S_DUCATS + BLUE] == 5 + 2        # sold on Valencia's 2 slot


# The shared case serenissima_start_zone_reentry.json (SE-6.4.3, A-08): 3 players on
# generated map 100013 with block_in_start_zone, reset seed 100013, random start seat.
REENTRY_MOVES = (
    300, 45, 289, 41, 290, 42, 43, 37, 36, 2, 38, 300, 335, 333, 342, 2, 39, 289, 313, 334,
    336, 1, 8, 66, 2, 2, 1, 7, 6, 7, 58, 7, 6, 8, 6, 222, 0, 0, 2, 35, 290, 314, 314, 332, 2,
    1, 0, 260, 2, 1, 0, 272, 278, 0, 274, 273, 1, 8, 52, 14, 71, 52, 52, 7, 52, 0, 279, 0, 10,
    30, 1, 0, 263, 0, 0, 1, 8, 222, 132, 0, 263, 273, 279, 273, 21, 2, 0, 2, 2, 340, 340, 1, 7,
    8, 7, 75, 60, 0, 272, 273, 0, 279, 17, 2, 319, 336, 319, 1, 264, 263, 0, 10, 30, 1, 263, 0,
    0, 1, 0, 0, 2, 342, 1, 264, 1, 8, 0, 0, 0, 2, 37, 289, 334, 336, 338, 334, 334, 1, 7, 0,
    260, 263)


def test_case_start_zone_reentry_is_not_a_movement_block():
    """The case's last move takes galley 7 back into its start zone (index 3) after one
    step away; the env used to ask player_2 to block.  Expected: no block question, the
    galley's owner (player_1) goes on moving."""
    env = serenissima_v0.env(num_players=3, start_seat="random", map="generated:100013",
                             block_in_start_zone=True)
    env.reset(seed=100013)
    for action in REENTRY_MOVES:
        env.step(action)
    state = env.unwrapped.state
    assert int(state[D.A_GAL]) == 6 and int(state[D.A_START_ZONE]) == 3
    assert int(state[D.S_G_ZONE + 6]) == 3 and int(state[D.A_MOVED]) == 2
    assert env.phase == "move" and env.agent_selection == "player_1"
    assert int(state[D.A_OCC]) == D.OCC_NONE


# --- SE-11.1: exactly three scorings -----------------------------------------------------

def with_track(**track) -> dict:
    spec = copy.deepcopy(PLACEHOLDER_MAP)
    spec["track"].update(track)
    return spec


@pytest.mark.parametrize("track", [
    {"scoring_4p": [10]}, {"scoring_4p": [7, 10]}, {"scoring_4p": [2, 4, 7, 10]},
    {"scoring_23p": [10]}, {"scoring_23p": [3, 5, 7, 10]}, {"scoring_4p": [4, 4, 10]},
    {"last": 2, "scoring_4p": [1, 2], "scoring_23p": [1, 2]},
])
def test_se_11_1_a_track_needs_exactly_three_scoring_spaces(track):
    with pytest.raises(MapError, match="exactly three|outside"):
        validate_map(with_track(**track))
    with pytest.raises(ValueError):
        serenissima_v0.env(num_players=3, map=with_track(**track))


def test_se_11_1_other_tracks_with_three_spaces_play_exactly_three_scorings():
    spec = with_track(last=7, scoring_4p=[2, 5, 7], start_23p=1, scoring_23p=[3, 6, 7])
    for players in (2, 3, 4):
        env = serenissima_v0.env(num_players=players, map=spec)
        env.reset(seed=players)
        policy = np.random.default_rng(players)
        while not all(env.terminations.values()):
            env.step(int(policy.choice(env.legal_actions())))
        state = env.unwrapped.state
        assert int(state[D.G_SCORINGS]) == 3 and int(state[D.G_TRACK]) == 7
        assert int(state[H_TO_MOVE]) == TERMINAL and not state[D.G_TRUNCATED]


@pytest.mark.parametrize("bits", [(10,), (4, 10), (2, 4, 7, 10), (4, 7, 9)])
def test_se_11_1_a_saved_state_with_another_scoring_count_is_refused(bits):
    env = serenissima_v0.env(num_players=4)
    env.reset(seed=1)
    data = json.loads(env.state_to_json())
    data["fields"]["config"][D.C_SCORING_4P] = sum(1 << b for b in bits)
    with pytest.raises(StateFormatError, match="three scoring spaces"):
        env.state_from_json(json.dumps(data))
