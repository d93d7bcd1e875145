"""The greedy agent and the rollout policy: legal moves, and clearly better than random."""

from __future__ import annotations

import numpy as np
import pytest

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.agents.carcassonne_greedy import CarcassonneGreedyAgent
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.carcassonne.policy import random_playouts, rollout_policy
from meeplezoo.envs.core.rng import new_rng

NO_WEIGHTS = np.zeros(0)       # the leaf hook's weights: none for a hand-written leaf


def play(agents, seed):
    env = carcassonne_v0.env(num_players=len(agents))
    env.reset(seed=seed)
    while not all(env.terminations.values()):
        seat = env.agent_name_mapping[env.agent_selection]
        action = agents[seat].act(env)
        assert env.action_mask()[action]
        env.step(action)
    return env.scores()


def test_greedy_beats_random_clearly():
    wins, margin = 0, 0
    games = 30
    for game in range(games):
        greedy, rand = CarcassonneGreedyAgent(seed=game), RandomAgent(seed=game)
        seats = [greedy, rand] if game % 2 == 0 else [rand, greedy]
        scores = play(seats, seed=500 + game)
        mine, theirs = (scores[0], scores[1]) if game % 2 == 0 else (scores[1], scores[0])
        wins += mine > theirs
        margin += mine - theirs
    assert wins >= games - 2 and margin / games > 20


def test_rollout_policy_plays_legal_moves_and_places_meeples():
    env = carcassonne_v0.env(num_players=3)
    env.reset(seed=3)
    rng = new_rng(0)
    meeples = 0
    while not all(env.terminations.values()):
        mask = env.action_mask()
        action = int(rollout_policy(env.state, mask.copy(), rng))
        assert mask[action]
        meeples += D.A_MEEPLE <= action < D.A_NO_MEEPLE
        env.step(action)
    assert meeples >= 5


@pytest.mark.parametrize("layout", ["frontier", "grid"])
def test_compiled_random_playouts_finish_games(layout):
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    decisions = random_playouts(20, 4, make_config(placement_layout=layout), new_rng(1), state)
    assert 20 * 89 <= decisions <= 20 * 2 * 89 and int(state[D.G_PILE_LEFT]) == 0


def test_greedy_plays_the_same_moves_in_both_layouts():
    names = {}
    for layout in ("frontier", "grid"):
        env = carcassonne_v0.env(num_players=2, placement_layout=layout)
        env.reset(seed=21)
        bot, moves = CarcassonneGreedyAgent(seed=3), []
        for _ in range(40):
            action = bot.act(env)
            moves.append(env.action_to_str(action))
            env.step(action)
        names[layout] = moves
    assert names["frontier"] == names["grid"]


def test_heuristic_leaf_value_is_zero_sum_and_exact_at_the_end():
    from meeplezoo.envs.carcassonne.policy import heuristic_value

    env = carcassonne_v0.env(num_players=3)
    env.reset(seed=4)
    out = np.zeros(3)
    rng = np.random.default_rng(0)
    while not all(env.terminations.values()):
        heuristic_value(env.state, NO_WEIGHTS, out)
        assert abs(out.sum()) < 1e-9 and (np.abs(out) <= 1).all()
        env.step(int(rng.choice(env.legal_actions())))
    heuristic_value(env.state, NO_WEIGHTS, out)
    assert out.tolist() == [env.rewards[a] for a in env.possible_agents]


def test_expected_points_are_final_points_once_the_pile_is_empty():
    """The leaf's completion chances fall to zero with the pile: then it is CA-12 exactly,
    and before that it never expects less than the as-if-ended count."""
    from meeplezoo.envs.carcassonne import data as D
    from meeplezoo.envs.carcassonne.features import final_points
    from meeplezoo.envs.carcassonne.policy import expected_points

    env = carcassonne_v0.env(num_players=4)
    rng = np.random.default_rng(5)
    expected = np.zeros(D.MAX_PLAYERS)
    final = np.zeros(D.MAX_PLAYERS, dtype=np.int64)
    for game in range(3):
        env.reset(seed=game)
        while not all(env.terminations.values()):
            state = env.unwrapped.state
            expected_points(state, expected)
            final_points(state, final)
            assert (expected >= final - 1e-9).all()
            emptied = state.copy()
            emptied[D.G_PILE_LEFT] = 0
            expected_points(emptied, expected)
            assert np.allclose(expected, final)
            env.step(int(rng.choice(env.legal_actions())))
