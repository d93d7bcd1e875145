"""The OpenSpiel adapter: the same games through both APIs, and OpenSpiel's bots on ours."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from meeplezoo.envs import make, names, spec  # noqa: E402
from meeplezoo.envs.core.rng import new_rng  # noqa: E402
from meeplezoo.envs.interop.openspiel_game import load_game, register  # noqa: E402

from .playing import SHORT_GAME_OPTIONS, PolicyChooser  # noqa: E402

GAMES = names()


def _resolve_like_the_env(state, kernel_rng: np.ndarray) -> None:
    """Play pyspiel's chance nodes with the draws the AEC env makes from the same generator.

    The env resolves chance with ``sample_chance`` on its seeded generator; each draw must
    be one of the outcomes the adapter enumerates, with positive probability.
    """
    game_spec = state.game_spec
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        assert all(p > 0 for _, p in outcomes)
        codes = np.zeros(game_spec.max_chance_outcomes, dtype=np.int64)
        probs = np.zeros(game_spec.max_chance_outcomes, dtype=np.float64)
        count = game_spec.kernels["chance_outcomes"](state.array, codes, probs)
        code = game_spec.kernels["sample_chance"](state.array.copy(), kernel_rng)
        matches = np.flatnonzero(codes[:count] == code)
        assert matches.size == 1, f"drawn outcome {code} is not in the enumeration"
        state.apply_action(int(matches[0]))


def _replay_random_game(name: str, num_players: int, seed: int):
    """Moves in the AEC env, mirrored in pyspiel; compare everything on the way."""
    env = make(name, num_players=num_players)
    env.reset(seed=seed)
    game = load_game(name, players=num_players)
    state = game.new_initial_state()
    kernel_rng = new_rng(seed)                  # a twin of the env's chance generator
    # The root is the start-seat chance node: resolve it as the env drew its start seat.
    assert state.is_chance_node() and state.chance_outcomes() == [
        (seat, pytest.approx(1 / num_players)) for seat in range(num_players)]
    state.apply_action(int(kernel_rng[0] % np.uint64(num_players)))
    choose = PolicyChooser(spec(name), seed)
    steps = 0
    while True:
        _resolve_like_the_env(state, kernel_rng)
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
    with pytest.raises(ValueError, match="start_seat"):
        load_game(name, players=2, start_seat=2)


@pytest.mark.parametrize("name", GAMES)
def test_start_seat_parameter_fixes_the_first_player(name):
    """The default draws the start player at a chance node (the rulebooks); a fixed
    ``start_seat`` starts the game's own first node with that seat."""
    players = spec(name).min_players
    for seat in range(players):
        game = pyspiel.load_game(register(name), {"players": players, "start_seat": seat})
        fixed = game.new_initial_state()
        drawn = load_game(name, players=players).new_initial_state()
        drawn.apply_action(seat)
        np.testing.assert_array_equal(fixed.array, drawn.array)
        assert str(fixed) == str(drawn)


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
