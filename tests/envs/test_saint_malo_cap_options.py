"""Saint Malo: the decision cap, the options' checks, one name per move, and the
two rules cases (``saint_malo_character_reward_amount``, ``saint_malo_outer_start_crate``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from envtest import assert_move_names
from saint_malo_setup import (
    CHARACTER_ACTION,
    draw,
    fill_city,
    legal,
    new_game,
    place,
    play,
    set_dice,
)

from meeplezoo.envs import make
from meeplezoo.envs.core.contract import H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.saint_malo import data as D
from meeplezoo.envs.saint_malo import rules
from meeplezoo.envs.saint_malo.options import make_config

WALL_1 = D.A_WALL
DEFAULT_REWARDS = D.DEFAULT_OPTIONS["tower_rewards"]


# --- the decision cap --------------------------------------------------------------------------

def stop_then_pass(env) -> int:
    """A degenerate policy: never re-roll, never score."""
    return D.A_STOP_ROLLING if env.state[H_PHASE] == D.PH_ROLL_DECISION else D.A_PASS


def test_stop_then_pass_forever_is_truncated_at_the_default_cap():
    env = make("saint_malo_v0", num_players=2)
    env.reset(seed=0)
    while not env._game_over:
        env.step(stop_then_pass(env))
    assert env.state[H_PLY] == D.DEFAULT_OPTIONS["max_decisions"] == 3000
    assert env.state[D.G_TRUNCATED] == 1 and env.state[D.G_END_TRIGGERED] == 0
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env.infos[a]["truncated"] for a in env.possible_agents)
    assert "cut off" in env.spec.render_ansi(env.state)
    loaded = make("saint_malo_v0", num_players=2)
    loaded.state_from_json(env.state_to_json())         # a truncated game loads as truncated
    assert all(loaded.truncations.values())


def test_the_cap_is_in_the_kernel_and_a_natural_end_wins_a_tie():
    """Batched envs and MCTS rollouts call the kernels only, so the kernel ends the game."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng = new_rng(1)
    rules.env_reset(state, 3, make_config(max_decisions=25), 0, rng, mask)
    for _ in range(25):
        assert state[H_TO_MOVE] >= 0
        rules.env_step(state, D.A_STOP_ROLLING if state[H_PHASE] == D.PH_ROLL_DECISION
                       else D.A_PASS, rng, mask)
    assert state[H_TO_MOVE] == TERMINAL and state[D.G_TRUNCATED] == 1 and not mask.any()
    # The last seat fills its city with the decision that reaches the cap (SM-11.2): a
    # natural end, not a truncation.
    state = new_game(2, start_seat=0, max_decisions=10)
    state[D.G_ACTIVE] = 1
    fill_city(state, 1, leave=[(3, 3)])
    set_dice(state, "XSSSS", seat=1)
    state[H_PLY] = 8
    play(state, D.A_CHURCH, place(3, 3))
    assert state[H_PLY] == 10 and state[H_PHASE] == D.PH_GAME_OVER
    assert state[D.G_TRUNCATED] == 0 and state[D.G_END_TRIGGERED] == 1


@pytest.mark.parametrize("bad", [0, -1, 10**30, 1.5, True, "3000", None])
def test_max_decisions_refuses_junk(bad):
    with pytest.raises(ValueError, match="max_decisions"):
        make("saint_malo_v0", max_decisions=bad)


# --- options -----------------------------------------------------------------------------------

@pytest.mark.parametrize("option, value", [
    ("dedupe_rerolls", "yes"), ("dedupe_rerolls", 2), ("dedupe_rerolls", None),
    ("dedupe_rerolls", 0.5), ("dedupe_rerolls", 1),
    ("tower_rewards", (-1, ("coins", 2), ("vp", 3), ("coins", 2))),
    ("tower_rewards", 5), ("tower_rewards", DEFAULT_REWARDS[:3]),
    ("tower_rewards", (("gold", 2), *DEFAULT_REWARDS[1:])),
    ("tower_rewards", (("coins", 10**30), *DEFAULT_REWARDS[1:])),
    ("tower_rewards", (("coins", -1), *DEFAULT_REWARDS[1:])),
    ("tower_rewards", (("character", 0), *DEFAULT_REWARDS[1:])),
    ("tower_rewards", (("character", 6), *DEFAULT_REWARDS[1:])),
    ("tower_rewards", (("vp", 2.5), *DEFAULT_REWARDS[1:])),
    ("start_crates", 5), ("start_crates", ((0, 0),)), ("start_crates", ((7, 1),)),
    ("start_crates", ((1, 10**30),)), ("start_crates", ((1,),)), ("start_crates", "b2"),
    ("church_row_values", (1, 1, 4, 8, 13, 20)), ("church_row_values", (0, 1, 4)),
    ("church_row_values", (0, -1, 4, 8, 13, 20)), ("church_row_values", 5),
    ("church_row_values", (0, 1, 4, 8, 13, 10**30)),
    ("attack_strengths", (1, 3, 6, 8, 10)), ("attack_strengths", (1, 3, 6, 8, 10, 1.5)),
    ("boxes_per_player", 0), ("boxes_per_player", 10**30), ("boxes_per_player", 2.0),
    ("start_coins", -1), ("start_coins", 10**30), ("start_logs", True),
])
def test_bad_options_raise_one_value_error(option, value):
    with pytest.raises(ValueError, match=option):
        make("saint_malo_v0", num_players=2, **{option: value})


def test_good_options_are_accepted():
    make("saint_malo_v0", num_players=3, dedupe_rerolls=np.bool_(False), start_crates=[],
         tower_rewards=[["character", 5], ["coins", 0], ["vp", 1000], ["character", 1]],
         church_row_values=np.array([0, 1, 2, 3, 4, 5]), boxes_per_player=np.int64(100),
         max_decisions=1).reset(seed=0)


# --- one name per legal action ------------------------------------------------------------------

@pytest.mark.parametrize("dedupe", [True, False])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_legal_action_has_its_own_name_that_parses_back(players, dedupe):
    """EC-21: without deduping, re-rolls of equal faces differ by the dice they roll."""
    env = make("saint_malo_v0", num_players=players, dedupe_rerolls=dedupe)
    policy = np.random.default_rng(players)
    for game in range(3):
        env.reset(seed=100 * players + game)
        while not env._game_over:
            assert_move_names(env)
            env.step(int(policy.choice(env.legal_actions())))


def test_reroll_names_without_dedupe_say_which_dice():
    env = make("saint_malo_v0", num_players=2, start_seat=0, dedupe_rerolls=False)
    env.reset(seed=0)
    data = json.loads(env.state_to_json())
    data["fields"].update(dice=[1, 1, 2, 3, 4], rolls_used=1)
    env.state_from_json(json.dumps(data))
    names = env.legal_move_names()
    assert len(names) == 32 and "reroll log (dice 1)" in names and "reroll log (dice 2)" in names
    assert env.str_to_action("Reroll LOG+wall (dice 2,4)") == 0b01010


# --- rules case: saint_malo_character_reward_amount.json (SM-2.7, SM-7.3.2, §16) -------------

CASE_REWARDS = (("character", 1), ("coins", 2), ("vp", 3), ("coins", 2))


def test_character_reward_amount_is_the_highest_level_offered():
    """SM-7.3.2 / SM-2.7: ("character", k) offers the characters of level <= k; the case's
    repro (N reward ("character", 1), the N side completed by "wall 1" on f1) offers
    only the citizen, where the amount used to be ignored (all five of level <= 3)."""
    env = make("saint_malo_v0", num_players=2, start_seat=0, tower_rewards=CASE_REWARDS)
    env.reset(seed=0)
    d = json.loads(env.state_to_json())
    f = d["fields"]
    for c in (1, 2, 3, 4):
        f["p0_board"][c] = 1                                  # N side: walls on b1..e1
    f.update(phase=D.PH_SCORE, to_move=0, active_seat=0, dice=[1, 1, 2, 3, 4], rolls_used=3,
             roll_mask=0)
    env.state_from_json(json.dumps(d))
    env.step(43)
    env.step(65)                                              # wall 1, wall f1
    assert env.legal_move_names() == ["bonus citizen"]
    assert env.legal_actions() == [CHARACTER_ACTION["citizen"]]


@pytest.mark.parametrize("level, offered", [
    (1, ["citizen"]), (2, ["citizen", "soldier", "priest"]),
    (3, ["citizen", "soldier", "priest", "architect", "merchant"]),
    (5, list(D.CHARACTER_NAMES)),
])
def test_each_level_offers_exactly_its_characters(level, offered):
    rewards = (("character", level), *DEFAULT_REWARDS[1:])
    state = new_game(2, tower_rewards=rewards)
    draw(state, 0, {(0, c): "wall" for c in range(1, 5)})
    set_dice(state, "WSLLC", seat=0)
    play(state, WALL_1, place(0, 5))
    assert state[H_PHASE] == D.PH_BONUS_CHOICE
    assert legal(state) == {CHARACTER_ACTION[name] for name in offered}


def test_two_character_sides_at_once_each_offer_their_own_level():
    """SM-7.3.5: one WALL action completing N (level 1) and E (level 5): two characters,
    N's first, each from its own reward."""
    rewards = (("character", 1), ("character", 5), ("vp", 3), ("coins", 2))
    state = new_game(2, tower_rewards=rewards)
    draw(state, 0, {(0, c): "wall" for c in range(1, 5)})
    draw(state, 0, {(r, 6): "wall" for r in range(1, 5)})
    set_dice(state, "WWSLC", seat=0)
    play(state, WALL_1 + 1, place(0, 5), place(5, 6))
    assert state[D.G_BONUS_DUE] == 0b11
    assert legal(state) == {CHARACTER_ACTION["citizen"]}
    play(state, CHARACTER_ACTION["citizen"], place(3, 3))
    assert legal(state) == set(CHARACTER_ACTION.values())
    play(state, CHARACTER_ACTION["noble"], place(3, 4))
    assert state[D.G_ACTIVE] == 1 and state[D.PLAYERS_BASE + D.P_VP] == 1 + 7


# --- rules case: saint_malo_outer_start_crate.json (SM-2.8, SM-7.3.4, A-13) --------------------

def test_a_start_crate_on_an_outer_space_breaks_that_side_and_round_trips():
    """SM-7.3.4: anything but a wall on an outer space breaks its side, the pre-printed
    crates of SM-2.8 included; the env's own saved state loads again."""
    crates = ((0, 1), (1, 2), (2, 1), (3, 1))
    env = make("saint_malo_v0", num_players=2, start_crates=crates)
    env.reset(seed=0)
    for seat in range(2):
        assert env.state[D.PLAYERS_BASE + seat * D.PLAYER_SIZE + D.P_SIDES_BROKEN] == 0b0001
    saved = env.state_to_json()
    env.state_from_json(saved)
    assert env.state_to_json() == saved
    observation = env.observe(env.agent_selection)["observation"]
    at = D.NUM_CELLS * D.OBS_CELL_CHANNELS
    assert observation[at + 12:at + 16].tolist() == [1.0, 0.0, 0.0, 0.0]   # N broken
