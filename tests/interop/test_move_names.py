"""Every game: each legal move has its own name, and the name parses back to the move."""

from __future__ import annotations

import pytest

from meeplezoo.envs import make, names, spec

from .playing import PolicyChooser


@pytest.mark.parametrize("name", names())
def test_move_names_are_distinct_and_parse_back(name):
    game_spec = spec(name)
    for num_players in (game_spec.min_players, game_spec.max_players):
        env = make(name, num_players=num_players)
        env.reset(seed=num_players)
        choose = PolicyChooser(game_spec, num_players)
        steps = 0
        while not env._game_over and steps < 400:
            legal = env.legal_actions()
            moves = env.legal_move_names()
            assert len(set(moves)) == len(moves) == len(legal), moves
            for action in legal[:40]:
                assert env.str_to_action(env.action_to_str(action)) == action
            env.step(choose(env.state, env.action_mask()))
            steps += 1
