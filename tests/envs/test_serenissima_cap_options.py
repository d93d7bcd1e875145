"""Serenissima's cap, options and move names: every game ends (by the rules, or at the
kernel-enforced decision cap as a truncation), every option is checked with one clear
``ValueError``, and every legal move has a name of its own in every phase."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from envtest import assert_move_names
from serenissima_setup import attack_setup, galley_action, play, roll

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.core.contract import H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima import rules
from meeplezoo.envs.serenissima.notation import action_to_str
from meeplezoo.envs.serenissima.options import make_config

# --- the decision cap --------------------------------------------------------------------


def test_a_game_reaching_the_cap_is_a_truncation():
    env = serenissima_v0.env(num_players=3, max_decisions=100, render_mode="ansi")
    env.reset(seed=4)
    policy = np.random.default_rng(4)
    decisions = 0
    while env.agents and not any(env.terminations.values()) \
            and not any(env.truncations.values()):
        env.step(int(policy.choice(env.legal_actions())))
        decisions += 1
    state = env.unwrapped.state
    assert decisions == 100 == int(state[H_PLY])
    assert int(state[H_TO_MOVE]) == TERMINAL and state[D.G_TRUNCATED] == 1
    assert int(state[D.G_TRACK]) < int(state[D.K_TRACK_LAST])     # the rules had not ended it
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env.infos[a].get("truncated") for a in env.possible_agents)
    assert sum(env.rewards.values()) == pytest.approx(0.0)         # win/loss from the cut
    assert "decision cap" in env.render()
    twin = serenissima_v0.env(num_players=3, max_decisions=100)
    twin.state_from_json(env.state_to_json())                      # its save loads back
    assert np.array_equal(twin.unwrapped.state, state)


def test_the_kernels_enforce_the_cap_for_batched_play_and_rollouts():
    """env_step alone (what the batched env and MCTS rollouts call) stops at the cap."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng, policy = new_rng(9), np.random.default_rng(9)
    for cap in (100, 137):
        rules.env_reset(state, 4, make_config(max_decisions=cap), 0, rng, mask)
        steps = 0
        while state[H_TO_MOVE] != TERMINAL:
            rules.env_step(state, int(policy.choice(np.flatnonzero(mask))), rng, mask)
            steps += 1
        assert steps == cap and state[D.G_TRUNCATED] == 1 and not mask.any()


POLICIES = {
    "first": lambda legal: legal[0],
    "last": lambda legal: legal[-1],
    "pass": lambda legal: D.A_PASS if D.A_PASS in legal else legal[0],
    "pass_else_last": lambda legal: D.A_PASS if D.A_PASS in legal else legal[-1],
}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_degenerate_policies_end_by_the_rules(players, name):
    """Always the first legal action, always the last, always pass where it exists: each
    game ends after the third scoring (SE-11.1), far below the cap (measured: <= 252
    decisions; random <= 480, greedy <= 621; default cap 5,000)."""
    choose = POLICIES[name]
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    for game in range(5):
        rng = new_rng(game)
        rules.env_reset(state, players, make_config(), game % players, rng, mask)
        while state[H_TO_MOVE] != TERMINAL:
            rules.env_step(state, int(choose(np.flatnonzero(mask).tolist())), rng, mask)
        assert state[D.G_TRUNCATED] == 0 and state[D.G_SCORINGS] == 3
        assert state[H_PLY] < D.DEFAULT_MAX_DECISIONS // 10


def test_the_default_cap_is_documented():
    env = importlib.import_module("meeplezoo.envs.serenissima.env")
    options = importlib.import_module("meeplezoo.envs.serenissima.options")
    assert D.DEFAULT_OPTIONS["max_decisions"] == D.DEFAULT_MAX_DECISIONS == 5_000
    for doc in (env.__doc__, options.__doc__):
        assert "max_decisions" in doc and "5,000" in doc and "truncation" in doc


# --- options -----------------------------------------------------------------------------

BAD_OPTIONS = [
    ("goods_supply", 5), ("goods_supply", None), ("goods_supply", "141212"),
    ("goods_supply", (14, 12, 12)), ("goods_supply", (10 ** 30,) * 6),
    ("goods_supply", (-1, 12, 12, 12, 10, 10)), ("goods_supply", (14.0, 12, 12, 12, 10, 10)),
    ("goods_supply", (True, 12, 12, 12, 10, 10)), ("goods_supply", ((1, 2),) * 6),
    ("galley_capacity", 3), ("galley_capacity", 4.0), ("galley_capacity", True),
    ("galley_capacity", 10 ** 30), ("galley_capacity", "5"), ("galley_capacity", None),
    ("close_ports", 1), ("close_ports", None), ("close_ports", "Random"),
    ("max_decisions", 99), ("max_decisions", 10 ** 30), ("max_decisions", 2_000_000),
    ("max_decisions", 500.0), ("max_decisions", True), ("max_decisions", None),
    ("map", 5), ("map", None), ("map", ["placeholder"]), ("map", "nowhere.json"),
    ("colour", "red"),
] + [(flag, bad) for flag in ("block_in_start_zone", "sell_after_breaking_block",
                              "new_galley_acts_this_round", "hidden_money")
     for bad in ("yes", 2, None, 0.5, 1, 0, "False")]


@pytest.mark.parametrize("option, value", BAD_OPTIONS)
def test_every_option_is_checked_with_one_value_error(option, value):
    with pytest.raises(ValueError) as caught:
        serenissima_v0.env(num_players=2, **{option: value})
    assert type(caught.value).__name__ in ("ValueError", "MapError")
    assert option in str(caught.value) or option == "map"


def test_good_options_still_work():
    env = serenissima_v0.env(num_players=2, goods_supply=np.array([3, 3, 3, 3, 3, 3]),
                             galley_capacity=np.int64(4), hidden_money=np.True_,
                             max_decisions=100, close_ports="choose")
    env.reset(seed=0)
    assert env.agents


# --- one name per legal move -------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_has_its_own_name(players):
    """In every phase of random games: names unique (also after normalising case and
    spacing, as parsing does), each name parses back to its action, in any case."""
    phases = set()
    for game, options in enumerate(({}, {"map": "generated:3", "close_ports": "choose"},
                                    {"block_in_start_zone": True, "galley_capacity": 4})):
        env = serenissima_v0.env(num_players=players, **options)
        env.reset(seed=game)
        policy = np.random.default_rng(game)
        while not all(env.terminations.values()):
            assert_move_names(env)
            phases.add(env.phase)
            env.step(int(policy.choice(env.legal_actions())))
    assert len(phases) >= 12


def test_move_names_when_the_active_galley_sank_in_its_battle():
    """A defender takes the goods of the attacker that sank (SE-6.6.6, off-turn): the move
    names no longer look up the sunk galley's zone (which read a wrong slot, and raised
    IndexError with a large spice supply)."""
    state = attack_setup(goods_supply=(14, 12, 12, 12, 10, 60))
    play(state, galley_action(7))                         # attack Red's galley 7 (2)
    roll(state, 0 * 6 + 2)                                # 2 defender skulls: 3 -> 1
    play(state, D.A_CONTINUE)
    roll(state, 0 * 6 + 1)                                # the last one: galley 4 sinks
    assert D.PHASE_NAMES[int(state[3])] == "capture" and state[D.S_G_OWNER + 3] == -1
    names = [action_to_str(state, a) for a in (D.A_PASS, D.A_TAKE + D.WOOD)]
    assert names == ["done", "take wood"]
    for action in range(D.NUM_ACTIONS):                  # any action number has a name
        assert action_to_str(state, action)
