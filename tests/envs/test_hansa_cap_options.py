"""Hansa's turn cap, option checks and move names.

HS-10.3: nothing in the rules forces progress (a game where no one buys never draws from
the stacks), so ``max_turns`` (500 by default) ends such a game as a truncation.
Measured (200 games per count): uniform random play ends by the rules in at most 116 turns
(423 decisions), the greedy agent in at most 40; degenerate policies reach the cap.
"""

from __future__ import annotations

import numpy as np
import pytest
from envtest import assert_move_names

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.hansa import data as D
from meeplezoo.envs.hansa import rules
from meeplezoo.envs.hansa.board import BoardError
from meeplezoo.envs.hansa.options import make_config


def play(env, choose, seed=0) -> int:
    env.reset(seed=seed)
    decisions = 0
    while not env.unwrapped._game_over:
        env.step(choose(env.legal_actions()))
        decisions += 1
    return decisions


def passing(legal):
    """Never buy, never refill by choice: end the action phase at once (HS-8.8)."""
    for action in (D.A_END, D.A_SKIP_REFILL):
        if action in legal:
            return action
    return legal[0]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("policy", [lambda legal: legal[0], lambda legal: legal[-1], passing],
                         ids=["first", "last", "pass"])
def test_degenerate_policies_end_at_the_turn_cap(policy, players):
    """HS-10.3: these policies never empty a warehouse or never reach stack 5, so only
    the cap ends them: a truncation after exactly max_turns turns, in a bounded number
    of decisions (each move costs a thaler, each action a token)."""
    env = hansa_v0.env(num_players=players)
    decisions = play(env, policy)
    assert int(env.state[D.G_TURNS]) == 500 and int(env.state[D.G_TRUNCATED]) == 1
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(info["truncated"] for info in env.infos.values())
    assert decisions < 5 * 500


def test_random_games_end_by_the_rules_well_below_the_cap():
    env = hansa_v0.env(num_players=4)
    rng = np.random.default_rng(0)
    for seed in range(20):
        play(env, lambda legal: int(rng.choice(legal)), seed=seed)
        assert all(env.terminations.values()) and int(env.state[D.G_TURNS]) < 200


def test_the_cap_is_kept_by_the_kernels_alone():
    """Batched envs and MCTS rollouts step the kernels directly: they stop at the cap."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng = new_rng(3)
    rules.env_reset(state, 3, make_config(max_turns=7), 0, rng, mask)
    while state[H_TO_MOVE] != TERMINAL:
        rules.env_step(state, int(np.flatnonzero(mask)[-1]), rng, mask)
    assert int(state[D.G_TURNS]) == 7 and int(state[D.G_TRUNCATED]) == 1


@pytest.mark.parametrize("name", ["place_exact", "sell_whole_colour"])
@pytest.mark.parametrize("value", ["yes", 2, None, 0.5, 1, 0, np.array([True])])
def test_yes_no_options_take_only_booleans(name, value):
    with pytest.raises(ValueError, match=name):
        hansa_v0.env(**{name: value})


@pytest.mark.parametrize("name", ["init_order", "stack_sizes"])
@pytest.mark.parametrize("value", [0, None, "nope", ["reverse_rounds"], np.array(["x"])])
def test_choice_options_take_only_their_names(name, value):
    with pytest.raises(ValueError, match=name):
        hansa_v0.env(**{name: value})


@pytest.mark.parametrize("value", [10**30, 0, -3, D.MAX_TURNS_LIMIT + 1, 50.0, True, "50",
                                   None])
def test_max_turns_takes_an_integer_up_to_the_limit(value):
    with pytest.raises(ValueError, match="max_turns"):
        hansa_v0.env(max_turns=value)


@pytest.mark.parametrize("value", [5, 2.5, True, ["TON"], b"board.json"])
def test_board_option_of_the_wrong_type_is_a_board_error(value):
    with pytest.raises(BoardError, match="board= takes"):
        hansa_v0.env(board=value)


def test_every_option_is_checked_and_good_values_pass():
    assert set(D.DEFAULT_OPTIONS) == {"board", "init_order", "place_exact",
                                      "sell_whole_colour", "stack_sizes", "max_turns"}
    with pytest.raises(ValueError, match="unknown"):
        hansa_v0.env(max_turn=5)
    env = hansa_v0.env(max_turns=np.int64(40), place_exact=np.bool_(True),
                       sell_whole_colour=True, init_order="reverse_pairs",
                       stack_sizes="larger_last")
    assert int(env.unwrapped._config[D.C_MAX_TURNS - D.HEADER_SIZE]) == 40


@pytest.mark.parametrize("options", [{}, {"sell_whole_colour": True, "place_exact": True}],
                         ids=["default", "variants"])
def test_move_names_are_unique_and_parse_back_in_every_phase(options):
    """One name per legal action, identical in ``legal_move_names`` and
    ``action_to_str``, parsed back exactly and case-insensitively, over random games
    (every decision phase: init_place, refill, actions, selling, tax)."""
    env = hansa_v0.env(num_players=3, **options)
    phases = set()
    for seed in range(4):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.unwrapped._game_over:
            assert_move_names(env)
            phases.add(env.phase)
            env.step(int(rng.choice(env.legal_actions())))
    assert phases == {"init_place", "refill", "actions", "selling", "tax"}
