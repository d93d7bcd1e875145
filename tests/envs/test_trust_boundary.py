"""What a careless or hostile user feeds in, for every game.

Saved-state text and fields, actions, calls out of order, constructor options, degenerate
policies and the start seat: each gets a clear error (and leaves the env as it was) or
behaves as PettingZoo's own envs do.  Per-game rule findings live in each game's tests;
the state fuzzer in ``tests/benchmarks/test_fuzz.py``.
"""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest
from envtest import assert_move_names

from meeplezoo.envs import make, names, spec
from meeplezoo.envs.core.state_io import StateFormatError

GAMES = names()


def _mid_game(name, seed=5, moves=30, **options):
    env = make(name, num_players=spec(name).min_players, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if env._game_over:
            break
        env.step(int(rng.choice(env.legal_actions())))
    return env


def _refused_untouched(env, text, match=None):
    before, rng_before, mask_before = env.state.copy(), env.rng.copy(), env.action_mask()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(text)
    np.testing.assert_array_equal(env.state, before)
    np.testing.assert_array_equal(env.rng, rng_before)
    np.testing.assert_array_equal(env.action_mask(), mask_before)


# --- every field has a range, and a value outside it is refused -----------------------------

@pytest.mark.parametrize("name", GAMES)
def test_every_state_field_has_bounds(name):
    game = spec(name)
    assert set(game.field_bounds) == set(game.state_fields)
    for field, (low, high) in game.field_bounds.items():
        assert low <= high, field
        assert -(2**62) < low and high < 2**62, field       # nothing near int64 overflow


@pytest.mark.parametrize("name", GAMES)
def test_a_field_outside_its_bounds_is_refused_and_the_env_untouched(name):
    env = _mid_game(name)
    saved = json.loads(env.state_to_json())
    for field, (low, high) in spec(name).field_bounds.items():
        for value in (low - 1, high + 1, 2**61, -(2**61)):
            data = json.loads(json.dumps(saved))
            if isinstance(data["fields"][field], list):
                data["fields"][field][0] = value
            else:
                data["fields"][field] = value
            _refused_untouched(env, json.dumps(data), match=field)


# --- malformed text is StateFormatError, never a foreign exception -------------------------

def _with(saved: str, **top) -> str:
    data = json.loads(saved)
    data.update(top)
    return json.dumps(data)


@pytest.mark.parametrize("name", GAMES)
def test_malformed_text_is_refused_with_state_format_error(name):
    env = _mid_game(name)
    saved = env.state_to_json()
    first_field = next(iter(spec(name).state_fields))
    texts = [
        b"\xff\xfe\x00garbage",                                 # not UTF-8
        saved.encode("utf-16"),
        "[" * 100_000 + "]" * 100_000,                         # 100k-deep nesting
        '{"a":' * 100_000 + "1" + "}" * 100_000,
        saved.replace(f'"{first_field}":', f'"{first_field}":' + "9" * 100_000 + ",\"x\":", 1),
        _with(saved, format_version=1.0),
        _with(saved, format_version=True),
        _with(saved, format_version="1"),
        _with(saved, rng="12"),
        _with(saved, rng=[1.5, 2]),
        _with(saved, rng=["1"]),
        _with(saved, rng=[0, 0]),
        _with(saved, rng=[-1, 2]),
        _with(saved, rng=[str(2**64), "2"]),
        _with(saved, rng=[True, 2]),
        _with(saved, fields=[]),
        "", "null", "[]", "1e999", 12, None,
    ]
    for text in texts:
        _refused_untouched(env, text)


@pytest.mark.parametrize("name", GAMES)
def test_the_rng_round_trips_as_decimal_strings(name):
    env = _mid_game(name)
    twin = make(name, num_players=env.num_players)
    twin.state_from_json(env.state_to_json().encode())            # UTF-8 bytes are text too
    np.testing.assert_array_equal(twin.rng, env.rng)
    np.testing.assert_array_equal(twin.state, env.state)


# --- only integers are actions --------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_non_integer_actions_are_refused_like_any_other(name):
    env = _mid_game(name, moves=3)
    legal = env.legal_actions()[0]
    before = env.state.copy()
    for action in (float(legal), np.float32(legal), np.float64(legal), True, False,
                   np.bool_(True), np.array(legal), np.array([legal]), math.inf, -math.inf,
                   math.nan, str(legal), None, 2**70, -1, complex(legal)):
        with pytest.raises(ValueError, match="not an integer"):
            env.step(action)
        np.testing.assert_array_equal(env.state, before)
    env.step(np.int16(legal))                                     # numpy integers are fine


# --- calls out of order ---------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_step_last_and_observe_before_reset_say_so(name):
    for env in (make(name), make(name, raw=True)):
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            env.step(0)
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            env.last()
        with pytest.raises(RuntimeError, match=r"reset\(\)"):
            env.observe("player_0")


def _play_to_the_end(env, seed=0):
    rng = np.random.default_rng(seed)
    for _ in env.agent_iter(200_000):
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(env.legal_actions())))


@pytest.mark.parametrize("name", GAMES)
def test_after_every_agent_left_step_none_warns_and_last_keeps_the_end(name):
    env = make(name, num_players=spec(name).min_players)
    env.reset(seed=2)
    _play_to_the_end(env)
    assert env.agents == []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.step(None)                              # as PettingZoo's classic envs: a warning
    assert any("Should reset() first" in str(w.message) for w in caught)
    observation, reward, terminated, truncated, info = env.last()
    assert observation["action_mask"].sum() == 0 and reward == 0.0
    assert terminated != truncated
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)
    env.reset(seed=3)                               # and the env plays on
    assert env.agents == env.possible_agents


# --- constructor options, all checked at once -----------------------------------------------

def _junk_for(default):
    if isinstance(default, bool):
        return ["yes", 2, None, 0.5, "False", [True]]
    if isinstance(default, int):
        return [10**30, -(10**30), 1.5, True, "3", None]
    if isinstance(default, float):
        return [math.nan, math.inf, "x", None]
    return []


@pytest.mark.parametrize("name", GAMES)
def test_every_scalar_option_refuses_junk_with_one_value_error(name):
    players = spec(name).min_players
    checked = 0
    for option, default in spec(name).default_options.items():
        for junk in _junk_for(default):
            with pytest.raises(ValueError, match=option):
                make(name, num_players=players, **{option: junk})
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("name", GAMES)
def test_env_options_refuse_junk(name):
    players = spec(name).min_players
    for scale in (0, 0.0, -1.0, math.nan, math.inf, "50", None):
        with pytest.raises(ValueError, match="margin_scale"):
            make(name, num_players=players, reward_scheme="score_margin", margin_scale=scale)
    for seat in (True, -1, players, 1.0, "0", 10**30):
        with pytest.raises(ValueError, match="start_seat"):
            make(name, num_players=players, start_seat=seat)
    for count in (True, 2.0, "2", 10**30, None):
        with pytest.raises(ValueError, match="players"):
            make(name, num_players=count)


# --- degenerate policies end, by the rules or at the cap ------------------------------------

def _degenerate(kind):
    def choose(env):
        legal = env.legal_actions()
        if kind == "first":
            return legal[0]
        if kind == "last":
            return legal[-1]
        names_ = env.legal_move_names()             # "stop"/"pass" wherever the game has one
        for word in ("pass", "stop", "none", "skip", "no "):
            for action, move in zip(legal, names_, strict=True):
                if word in move.lower():
                    return action
        return legal[0]
    return choose


@pytest.mark.parametrize("kind", ["first", "last", "stop_pass"])
@pytest.mark.parametrize("name", GAMES)
def test_degenerate_policies_end_by_the_rules_or_at_the_cap(name, kind):
    env = make(name, num_players=spec(name).min_players)
    env.reset(seed=1)
    choose, decisions = _degenerate(kind), 0
    while not env._game_over:
        env.step(choose(env))
        decisions += 1
        assert decisions <= 100_000, "a game that does not end"
    ended = [env.terminations[a] or env.truncations[a] for a in env.possible_agents]
    assert all(ended)
    if any(env.truncations.values()):
        assert all(env.infos[a].get("truncated") for a in env.possible_agents)
        assert not any(env.terminations.values())


# --- the start player follows the rulebooks, drawn from the seed ----------------------------

@pytest.mark.parametrize("name", GAMES)
def test_start_seat_is_random_from_the_seed_unless_fixed(name):
    players = min(3, spec(name).max_players)
    env = make(name, num_players=players)
    first = []
    for seed in range(24):
        env.reset(seed=seed)
        first.append(env.agent_selection)
        env.reset(seed=seed)
        assert env.agent_selection == first[-1]               # deterministic with a seed
    assert set(first) == set(env.possible_agents)
    for seat in range(players):
        fixed = make(name, num_players=players, start_seat=seat)
        for seed in range(3):
            fixed.reset(seed=seed)
            assert fixed.agent_selection == f"player_{seat}"


# --- one name per action, the same in every API ---------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_each_legal_action_has_its_own_name_that_parses_back(name):
    env = make(name, num_players=spec(name).min_players)
    rng = np.random.default_rng(4)
    env.reset(seed=4)
    for _ in range(150):
        if env._game_over:
            break
        assert_move_names(env)
        env.step(int(rng.choice(env.legal_actions())))


# --- a state saved at a chance node loads and rolls on --------------------------------------

def _chance_node_state(name, seed=3, steps=300):
    """A state the kernels leave at a chance node (apply_action without rolling), as a
    search writes one; None if the game's validator refuses all such states."""
    from meeplezoo.envs.core.contract import CHANCE, H_TO_MOVE
    from meeplezoo.envs.core.state_io import state_to_json

    game = spec(name)
    env = make(name, num_players=game.min_players)
    env.reset(seed=seed)
    start = np.zeros_like(env.state)            # the set-up, before its chance events
    game.kernels["init_state"](start, game.min_players, env._config, 0)
    if start[H_TO_MOVE] == CHANCE:
        try:
            game.validate_state(start)
            return state_to_json(game, start, env.rng)
        except ValueError:
            pass
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if env._game_over:
            return None
        for action in env.legal_actions():
            probe = env.state.copy()
            game.kernels["apply_action"](probe, action)
            if probe[H_TO_MOVE] == CHANCE:
                try:
                    game.validate_state(probe)
                except ValueError:
                    continue
                return state_to_json(game, probe, env.rng)
        env.step(int(rng.choice(env.legal_actions())))
    return None


@pytest.mark.parametrize("name", GAMES)
def test_a_state_saved_at_a_chance_node_rolls_on_when_loaded(name):
    text = _chance_node_state(name)
    if text is None:
        pytest.skip(f"{name}'s validator accepts no state at a chance node")
    env = make(name, num_players=spec(name).min_players)
    env.state_from_json(text)
    assert env.game_over or env.action_mask().sum() > 0
    twin = make(name, num_players=spec(name).min_players)
    twin.state_from_json(text)
    np.testing.assert_array_equal(twin.state, env.state)        # rolled with the saved rng
