"""The greedy Hansa Teutonica agent plays legal moves and beats uniform random play."""

from __future__ import annotations

import numpy as np

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.agents.hansa_teutonica_greedy import HansaTeutonicaGreedyAgent

NO_WEIGHTS = np.zeros(0)       # the leaf hook's weights: none for a hand-written leaf


def play(env, agents, seed, rng):
    env.reset(seed=seed)
    for agent in env.agent_iter(20_000):
        _, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        seat = env.agent_name_mapping[agent]
        bot = agents[seat]
        action = bot.act(env) if bot is not None else int(rng.choice(env.legal_actions()))
        env.step(action)
    return env.scores()


def test_greedy_beats_random_clearly():
    env = hansa_teutonica_v0.env(num_players=2, max_decisions=3_000)
    rng = np.random.default_rng(0)
    wins = 0
    games = 20
    for game in range(games):
        greedy_seat = game % 2
        agents = [None, None]
        agents[greedy_seat] = HansaTeutonicaGreedyAgent(seed=game)
        scores = play(env, agents, seed=game, rng=rng)
        wins += scores[greedy_seat] > scores[1 - greedy_seat]
    assert wins >= 18


def test_greedy_games_end_by_the_rules_for_every_player_count():
    for players in (3, 4, 5):
        env = hansa_teutonica_v0.env(num_players=players)
        agents = [HansaTeutonicaGreedyAgent(seed=s) for s in range(players)]
        play(env, agents, seed=players, rng=np.random.default_rng(0))
        assert all(env.terminations.values()) and env.state[env.spec.state_fields[
            "truncated"][0]] == 0


def test_leaf_value_is_zero_sum_and_bounded():
    from meeplezoo.agents.hansa_teutonica_greedy.value import heuristic_value

    env = hansa_teutonica_v0.env(num_players=4)
    agents = [HansaTeutonicaGreedyAgent(seed=s) for s in range(4)]
    env.reset(seed=9)
    out = np.zeros(4)
    for _ in range(150):
        if all(env.terminations.values()):
            break
        before = env.state.copy()
        heuristic_value(env.state, NO_WEIGHTS, out)
        assert np.array_equal(env.state, before)            # evaluates a copy
        assert abs(out.sum()) < 1e-9 and (np.abs(out) <= 1.0).all()
        env.step(agents[env.agent_name_mapping[env.agent_selection]].act(env))
