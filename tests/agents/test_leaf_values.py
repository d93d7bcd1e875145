"""The shared squashing of heuristic leaf values (``core.rewards.squashed_margins``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from meeplezoo.envs.core.rewards import squashed_margins


def test_each_seat_gets_tanh_of_its_margin_over_the_best_rival_centred():
    out = np.zeros(3)
    squashed_margins(np.array([10.0, 4.0, 7.0]), 3, 5.0, out)
    raw = [math.tanh(3 / 5), math.tanh(-6 / 5), math.tanh(-3 / 5)]
    mean = sum(raw) / 3
    assert out.tolist() == pytest.approx([r - mean for r in raw], abs=1e-12)
    assert out.sum() == pytest.approx(0.0, abs=1e-12)


def test_equal_totals_are_worth_nothing_and_only_the_seats_in_play_are_written():
    out = np.full(4, 9.0)
    squashed_margins(np.array([3.0, 3.0, 0.0, 0.0]), 2, 12.0, out)
    assert out.tolist() == [0.0, 0.0, 9.0, 9.0]


@pytest.mark.parametrize("game, players", [("hansa_teutonica_v0", 3), ("carcassonne_v0", 2)])
def test_game_leaf_values_are_zero_sum_and_bounded(game, players):
    from meeplezoo.agents.mcts_spec import leaf_value
    from meeplezoo.envs import make

    leaf, _ = leaf_value(game, "heuristic")
    env = make(game, num_players=players)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    out = np.zeros(players)
    for _ in range(40):
        if env._game_over:
            break
        leaf(env.state.copy(), np.zeros(0), out)
        assert out.sum() == pytest.approx(0.0, abs=1e-9) and np.abs(out).max() <= 2.0
        env.step(int(rng.choice(env.legal_actions())))
