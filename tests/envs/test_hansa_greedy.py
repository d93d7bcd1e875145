"""The greedy Hansa agent: legal moves only, and clearly stronger than random."""

from __future__ import annotations

import meeplezoo.envs.hansa_v0 as hansa_v0
from meeplezoo.agents.hansa_greedy import HansaGreedyAgent
from meeplezoo.agents.random_agent import RandomAgent


def play(agents, seed: int, num_players: int) -> dict[str, float]:
    env = hansa_v0.env(num_players=num_players)
    env.reset(seed=seed)
    while not all(env.terminations.values()) and not all(env.truncations.values()):
        seat = env.agent_name_mapping[env.agent_selection]
        action = agents[seat].act(env)
        assert env.action_mask()[action]
        env.step(action)
    return dict(env.rewards)


def test_greedy_beats_random_in_two_player_games():
    wins = 0
    games = 16
    for game in range(games):
        greedy_seat = game % 2
        agents = [RandomAgent(seed=game), RandomAgent(seed=game)]
        agents[greedy_seat] = HansaGreedyAgent(seed=game)
        rewards = play(agents, seed=game, num_players=2)
        wins += rewards[f"player_{greedy_seat}"] > 0
    assert wins >= 13, f"greedy won only {wins} of {games}"


def test_greedy_wins_most_four_player_games():
    wins = 0
    for game in range(6):
        agents = [HansaGreedyAgent(seed=game)] + [RandomAgent(seed=game + s) for s in range(3)]
        wins += play(agents, seed=100 + game, num_players=4)["player_0"] > 0
    assert wins >= 4


def test_greedy_rejects_another_game():
    env = hansa_v0.env(num_players=2)
    env.reset(seed=0)
    env.state[0] = 1                                   # Saint Malo's game id
    try:
        HansaGreedyAgent().act(env)
    except ValueError as err:
        assert "hansa" in str(err)
    else:
        raise AssertionError("expected a ValueError")
