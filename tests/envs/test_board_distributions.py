"""Board distributions (``envs/core/boards.py``): a board drawn per reset from a seed range,
the same board and game from the same seed in the AEC env, ``BatchEnv``, the Gymnasium view
and the OpenSpiel adapter, and one clear error for every bad range."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from meeplezoo.envs import make, spec
from meeplezoo.envs.core.batch import BatchEnv, random_playouts
from meeplezoo.envs.core.boards import (
    SPLITS,
    BoardRangeError,
    SeedRange,
    distribution_of,
    parse_range,
)
from meeplezoo.envs.hansa.board import BoardError, generate_board, load_board

GAMES = [("hansa_v0", "board"), ("serenissima_v0", "map")]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Board banks go to a folder of the test's own, never the user's cache."""
    monkeypatch.setenv("MEEPLEZOO_CACHE", str(tmp_path / "cache"))


def test_parse_range_reads_ranges_and_splits_and_leaves_single_boards_to_the_game():
    assert parse_range("generated:3-7") == SeedRange(3, 7)
    assert parse_range("generated:3-7").size == 5
    assert parse_range("generated:train") == SeedRange(*SPLITS["train"], name="train")
    assert parse_range("generated:test").size == 200
    for single in (None, "generated:12", "board.json", {"cities": []}, "placeholder"):
        assert parse_range(single) is None


@pytest.mark.parametrize("text, words", [
    ("generated:9-3", "reversed"), ("generated:-3", "integer seeds"),
    ("generated:1-x", "integer seeds"), ("generated:1-2-3", "integer seeds"),
    ("generated:" + "9" * 19 + "-" + "9" * 19, "integer seeds")])
def test_bad_ranges_get_one_clear_error(text, words):
    with pytest.raises(BoardRangeError, match=words):
        parse_range(text)
    for game, option in GAMES:                      # and the envs say the same
        with pytest.raises(ValueError, match=words):
            make(game, **{option: text})


def test_unknown_split_and_single_seed_typos_are_refused():
    with pytest.raises(BoardError, match="a split"):
        make("hansa_v0", board="generated:valid")
    with pytest.raises(ValueError, match="a split"):
        make("serenissima_v0", map="generated:valid")


def test_hansa_takes_one_generated_board_by_name():
    env = make("hansa_v0", raw=True, board="generated:7")
    assert env.board.exits == load_board(generate_board(7)).exits
    assert env.boards is None


@pytest.mark.parametrize("game, option", GAMES)
def test_reset_seed_fixes_the_board_and_the_game(game, option):
    env = make(game, raw=True, **{option: "generated:0-49"})
    other = make(game, raw=True, **{option: "generated:0-49"})
    drawn = set()
    for seed in range(12):
        env.reset(seed=seed)
        other.reset(seed=seed)
        assert 0 <= env.board_seed <= 49
        assert env.board_seed == other.board_seed
        np.testing.assert_array_equal(env.state, other.state)
        drawn.add(env.board_seed)
    assert len(drawn) >= 8                          # the draw moves with the seed
    # The board in the state is the drawn seed's, as a fixed generated board would have it.
    env.reset(seed=3)
    fixed = make(game, raw=True, **{option: f"generated:{env.board_seed}"})
    np.testing.assert_array_equal(env._config, fixed._config)


@pytest.mark.parametrize("game, option", GAMES)
def test_two_boards_give_different_observations_at_reset(game, option):
    seen = []
    for board in (1, 2):
        env = make(game, raw=True, start_seat=0, **{option: f"generated:{board}"})
        env.reset(seed=5)
        seen.append(env.observe(env.agent_selection)["observation"])
    assert not np.array_equal(*seen)


@pytest.mark.parametrize("game, option", GAMES)
def test_batch_rows_play_exactly_the_aec_games_of_their_seeds(game, option):
    seeds = [3, 99, 12_345, 7]
    batch = BatchEnv(spec(game), len(seeds), 2, **{option: "generated:0-49"})
    batch.reset(seeds=seeds)
    envs = [make(game, raw=True, **{option: "generated:0-49"}) for _ in seeds]
    for env, seed in zip(envs, seeds, strict=True):
        env.reset(seed=seed)
    for _ in range(400):
        for row, env in enumerate(envs):
            np.testing.assert_array_equal(env.state, batch.states[row])
        actions = batch.random_actions().copy()
        _, done = batch.step(actions)
        if done.any():
            break
        for env, action in zip(envs, actions, strict=True):
            env.step(int(action))


@pytest.mark.parametrize("game, option", GAMES)
def test_batch_draws_a_new_board_for_every_game_and_keeps_every_state_valid(game, option):
    batch = BatchEnv(spec(game), 16, 2, seed=1, **{option: "generated:100-399"})
    batch.reset()
    game_spec, boards = spec(game), distribution_of(spec(game), {option: "generated:100-399"})
    bank = boards.bank()
    started = set()

    def board_row(state):
        rows = np.flatnonzero((bank == state[None, _config_slice(game)]).all(axis=1))
        assert rows.size >= 1, "a state whose board is not one of the range's"
        return int(rows[0])

    for row in range(16):
        started.add(board_row(batch.states[row]))
    for _ in range(3000):
        _, done = batch.step(batch.random_actions())
        for row in np.flatnonzero(done):
            started.add(board_row(batch.states[row]))
        for row in range(0, 16, 5):
            game_spec.validate_state(batch.states[row])
    assert len(started) >= 30


def _config_slice(game: str) -> slice:
    module = __import__(f"meeplezoo.envs.{game.rsplit('_v', 1)[0]}.data", fromlist=["x"])
    base = getattr(module, "CONFIG_BASE", module.HEADER_SIZE)
    return slice(base, base + module.CONFIG_SIZE)


def test_the_bank_is_cached_on_disk_and_a_corrupt_cache_is_rebuilt(tmp_path):
    options = {"board": "generated:0-299"}
    first = distribution_of(spec("hansa_v0"), options).bank(progress=False)
    files = list((tmp_path / "cache" / "boards").glob("*.npy"))
    assert len(files) == 1
    again = distribution_of(spec("hansa_v0"), options).bank(progress=False)
    np.testing.assert_array_equal(first, again)
    files[0].write_bytes(b"not a numpy file")
    rebuilt = distribution_of(spec("hansa_v0"), options).bank(progress=False)
    np.testing.assert_array_equal(first, rebuilt)
    np.save(files[0], np.zeros((300, 42), dtype=np.int64))     # right shape, wrong boards
    np.testing.assert_array_equal(
        first, distribution_of(spec("hansa_v0"), options).bank(progress=False))


def test_other_options_are_checked_with_the_range_and_playouts_want_one_board():
    with pytest.raises(ValueError, match="max_turns"):
        make("hansa_v0", board="generated:0-9", max_turns=0)
    with pytest.raises(ValueError, match="one board"):
        random_playouts(spec("hansa_v0"), 1, board="generated:0-9")


def test_gymnasium_view_trains_on_a_distribution():
    from meeplezoo.envs.interop.gymnasium_view import SingleAgentEnv

    env = SingleAgentEnv("hansa_v0", opponents=["greedy"], board="generated:train")
    first, _ = env.reset(seed=11)
    again, _ = env.reset(seed=11)
    np.testing.assert_array_equal(first, again)
    boards = set()
    for seed in range(6):
        env.reset(seed=seed)
        boards.add(env.env.unwrapped.board_seed)
    assert len(boards) >= 5


@pytest.mark.parametrize("game, option", GAMES)
def test_openspiel_draws_the_board_at_a_chance_node_as_the_aec_env_does(game, option):
    pytest.importorskip("pyspiel")
    from meeplezoo.envs.interop.openspiel_game import load_game

    game_os = load_game(game, players=2, **{option: "generated:test"})
    assert game_os.max_chance_outcomes() >= 200
    env = make(game, raw=True, **{option: "generated:test"})
    for seed in (0, 7, 123):
        env.reset(seed=seed)
        state = game_os.new_initial_state()
        assert state.is_chance_node() and len(state.chance_outcomes()) == 200
        board, start = game_os.initial_chance_actions(seed)
        assert state.action_to_string(-1, board) == f"board {env.board_seed}"
        state.apply_action(board)
        np.testing.assert_array_equal(state.config, env._config)
        state.apply_action(start)
        assert state.clone().config.tolist() == env._config.tolist()


def test_trainer_warns_when_the_training_range_reaches_into_the_test_split():
    pytest.importorskip("torch")
    from types import SimpleNamespace

    from meeplezoo.envs import spec
    from meeplezoo.envs.core.boards import board_options
    from meeplezoo.training.run.checks import check_boards, rule_options

    with pytest.warns(UserWarning, match="overlaps the held-out"):
        check_boards(SimpleNamespace(game="hansa_v0", board="generated:999990-1000010"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_boards(SimpleNamespace(game="hansa_v0", board="generated:train"))
    assert rule_options(SimpleNamespace(game="serenissima_v0", board="generated:train",
                                        max_decisions=0)) == {"map": "generated:train"}
    with pytest.raises(ValueError, match="--board: saint_malo_v0 has no generated boards"):
        board_options(spec("saint_malo_v0"), "generated:train")
