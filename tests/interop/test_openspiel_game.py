"""The OpenSpiel adapter: the same games through both APIs, and OpenSpiel's bots on ours."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeplezoo.envs import make, names, spec  # noqa: E402
from meeplezoo.envs.core.contract import CHANCE, H_TO_MOVE  # noqa: E402
from meeplezoo.envs.interop.openspiel_game import load_game, register  # noqa: E402

from .playing import SHORT_GAME_OPTIONS, PolicyChooser  # noqa: E402

GAMES = names()


def _chance_path(game_spec, array: np.ndarray, target: np.ndarray, depth: int = 4):
    """Chance actions (outcome indices) that take ``array`` to ``target``; None if none do."""
    codes = np.zeros(game_spec.max_chance_outcomes, dtype=np.int64)
    probs = np.zeros(game_spec.max_chance_outcomes, dtype=np.float64)
    count = game_spec.kernels["chance_outcomes"](array, codes, probs)
    for index in range(count):
        trial = array.copy()
        game_spec.kernels["apply_chance"](trial, codes[index])
        if trial[H_TO_MOVE] == CHANCE:
            rest = _chance_path(game_spec, trial, target, depth - 1) if depth > 1 else None
            if rest is not None:
                return [index, *rest]
        elif np.array_equal(trial, target):
            return [index]
    return None


def _replay_random_game(name: str, num_players: int, seed: int):
    """Moves in the AEC env, mirrored in pyspiel; compare everything on the way."""
    env = make(name, num_players=num_players)
    env.reset(seed=seed)
    game = load_game(name, players=num_players)
    state = game.new_initial_state()
    choose = PolicyChooser(spec(name), seed)
    steps = 0
    while True:
        if state.is_chance_node():
            path = _chance_path(state.game_spec, state.array, env.state)
            assert path is not None, "the AEC env's chance outcome is not in the enumeration"
            for action in path:
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
                assert all(p > 0 for _, p in outcomes)
                state.apply_action(action)
        assert np.array_equal(state.array, env.state)
        if env._game_over:
            break
        seat = env.agent_name_mapping[env.agent_selection]
        assert state.current_player() == seat
        legal = env.legal_actions()
        assert state.legal_actions() == legal
        assert state.legal_actions(1 - seat if num_players == 2 else (seat + 1) % num_players) == []
        observation = env.observe(env.agent_selection)["observation"]
        np.testing.assert_array_equal(np.asarray(state.observation_tensor(seat)), observation)
        action = choose(env.state, env.action_mask())
        assert state.action_to_string(seat, action) == env.action_to_str(action)
        env.step(action)
        state.apply_action(action)
        steps += 1
    assert state.is_terminal()
    expected = [env.rewards[agent] for agent in env.possible_agents]
    assert state.returns() == pytest.approx(expected)
    assert sum(state.returns()) == pytest.approx(0.0)
    return steps


@pytest.mark.parametrize("name", GAMES)
def test_random_games_agree_with_the_aec_env(name):
    game_spec = spec(name)
    for index, num_players in enumerate(range(game_spec.min_players, game_spec.max_players + 1)):
        assert _replay_random_game(name, num_players, seed=index) > 0


@pytest.mark.parametrize("name", GAMES)
def test_pyspiel_registry_and_parameters(name):
    short_name = register(name)
    game_spec = spec(name)
    game = pyspiel.load_game(short_name, {"players": game_spec.max_players})
    assert game.num_players() == game_spec.max_players
    assert game.num_distinct_actions() == game_spec.num_actions
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    with pytest.raises(ValueError, match="players"):
        load_game(name, players=game_spec.max_players + 1)
    with pytest.raises(ValueError, match="unknown game"):
        register("no_such_game_v0")


@pytest.mark.parametrize("name", GAMES)
def test_pyspiel_api_consistency(name):
    """OpenSpiel's own randomised API check (legal actions, chance, clone, returns)."""
    game = load_game(name, **SHORT_GAME_OPTIONS.get(name, {}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_mcts_bot_plays_legal_moves(name):
    from open_spiel.python.algorithms import mcts

    game = load_game(name)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    # OpenSpiel's C++ MCTSBot releases the GIL inside ``step`` and crashes on any Python
    # game (its own python_tic_tac_toe included), so the Python MCTSBot is the one to run.
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    python_bot = mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=np.random.RandomState(0))
    assert python_bot.step(state) in state.legal_actions()
