"""Every registered game through the PettingZoo API and the shared env contract.

One test per generic check, parametrized over ``names()`` and the player counts of each
game's spec: PettingZoo's api/seed/render/performance tests, the registry, seeding, illegal
moves, bad construction, JSON round trips and corrupt JSON, cloning, notation.  Per-game
budgets (cycles, player counts, steps) and per-game cases (option errors, corrupt fields)
live in ``GAMES``; rule-specific checks stay in each game's own ``test_<game>_env.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest
from envtest import corrupt, play_random
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

from meeplezoo.envs import make, names, spec
from meeplezoo.envs.carcassonne import data as carcassonne_data
from meeplezoo.envs.core.state_io import StateFormatError


def _bump(name, index, delta):
    def edit(d):
        d["fields"][name][index] += delta
    return edit


def _bump_scalar(name, delta):
    def edit(d):
        d["fields"][name] += delta
    return edit


def _set(name, index, value):
    def edit(d):
        d["fields"][name][index] = value
    return edit


def _only_game(game):
    def edit(d):
        d.clear()
        d["game"] = game
    return edit


@dataclass
class Game:
    title: str                              # in "unknown <title> option"
    cycles: int = 300                       # api_test / seed_test cycles
    api: tuple | None = None                # player counts; None: all of the spec's
    seed: tuple | None = None
    render: tuple | None = None
    perf: tuple | None = None
    variants: tuple = ()                    # extra (id, num_players, options) configs
    max_steps: int = 10_000                 # play_random budget for whole random games
    seed_changes_play: bool = True          # another seed, another random game
    bad_action: str = "stop"                # a move name that is not a number
    extra_bad_actions: tuple = ()
    bad_options: tuple = ()                 # (kwargs, match) on top of the generic ones
    corrupt_warmup: int = 0                 # random moves before saving the corrupt-JSON base
    corrupt_edits: tuple = ()               # (id, edit, match) on top of the generic ones
    round_trip: tuple = (3, 150, 99, 5, 200)    # seed, warm-up, twin seed, rng seed, steps
    clone: tuple = (2, 4, 0)                    # players, seed, warm-up moves
    notation: tuple = (3, 11, 300, None)        # players, seed, steps, sampled per step
    other: str = "hansa_v0"                     # another game's name for the "game" field


GAMES = {
    "saint_malo_v0": Game(
        title="Saint Malo",
        bad_options=(
            ({"start_crates": [(0, 0)]}, "not a space"),
            ({"attack_strengths": (1, 2, 3)}, "attack_strengths"),
            ({"tower_rewards": (("gold", 2),) * 4}, "tower reward"),
        ),
        corrupt_edits=(
            ("missing", lambda d: d["fields"].pop("dice"), "missing"),
            ("dice-count", lambda d: d["fields"].update(dice=[0, 1]), "dice"),
            ("dice-order", lambda d: d["fields"].update(dice=[5, 4, 3, 2, 1]), "ascending"),
            ("coins", lambda d: d["fields"].update(p0_coins=-1), "negative|p0_coins.*outside"),
            ("board", lambda d: d["fields"].update(p0_board=[0] * 49), "tower"),
            ("to_move", lambda d: d["fields"].update(to_move=1, phase=0), "to_move"),
            ("pirates", lambda d: d["fields"].update(pirate_boxes=5), "attacks_done"),
            ("num_players", lambda d: d["fields"].update(num_players=7), "num_players"),
            ("integers", lambda d: d["fields"].update(p0_coins="3"), "integers"),
        ),
    ),
    "hansa_teutonica_v0": Game(
        title="Hansa Teutonica",
        variants=(("2p-regions", 2, {"two_player_regions": True}),),
        max_steps=3_000,
        # Only the tavern markers are random; see test_tavern_markers_are_a_chance_event.
        seed_changes_play=False,
        bad_action="end",
        bad_options=(
            ({"tie_break": "coin"}, "tie_break"),
            ({"max_decisions": 5}, "max_decisions"),
            ({"num_players": 3, "two_player_regions": True}, "2-player variant"),
            ({"regions": {"borders": []}}, "keys"),
            ({"regions": {"borders": [[0]] * 11, "adjacent": [[1]] + [[]] * 10}}, "symmetric"),
            ({"regions": {"borders": [[40]] * 11, "adjacent": [[]] * 11}}, "not routes"),
            ({"regions": "/nonexistent/regions.json"}, "no such region file"),
        ),
        corrupt_warmup=0,
        corrupt_edits=(
            ("trader", _bump("player_0", 5, 1), "27"),     # a trader from nowhere (HT-4.5)
            ("marker", _bump("marker_supply", 0, 1), "16"),
            ("only-game", _only_game("saint_malo_v0"), None),
        ),
        round_trip=(11, 400, 0, 1, 200),
        clone=(3, 5, 50),
        notation=(5, 4, 300, 8),
    ),
    "carcassonne_v0": Game(
        title="Carcassonne",
        cycles=200,                      # big masks: fewer cycles and player counts
        seed=(2, 6), render=(2, 4), perf=(2, 5),
        extra_bad_actions=(carcassonne_data.A_NO_MEEPLE,),
        bad_options=(
            ({"num_players": 6, "expansion_inns_cathedrals": False}, "Inns & Cathedrals"),
            ({"farm_scoring": "v4"}, "farm_scoring"),
            ({"small_city_rule": "c9"}, "small_city_rule"),
            ({"ic_tjunction_inn": "west"}, "ic_tjunction_inn"),
            ({"unplaceable": "reshuffle"}, "unplaceable"),
            ({"farmers": "yes"}, "farmers"),
        ),
        corrupt_warmup=30,
        corrupt_edits=(
            ("missing", lambda d: d["fields"].pop("grid"), "missing"),
            ("num_players", lambda d: d["fields"].update(num_players=7), "num_players"),
            ("to_move", lambda d: d["fields"].update(to_move=1, phase=0), "to_move"),
            ("meeples", _bump("normal_meeples", 0, 1), "conserved"),
            ("pile", _bump("pile", 0, 1), "pile"),
            ("rotation", _bump("tile_rotation", 3, 1), "match|rotation|feature"),
            ("node_open", _bump("node_open", 0, 1), "feature table"),
            ("scores", _bump("scores", 0, -100), "scores"),
            ("grid", _bump("grid", 0, 1), "grid"),
            ("farm_scoring", lambda d: d["fields"].update(farm_scoring=5), "farm_scoring"),
        ),
        round_trip=(3, 90, 99, 5, 10_000),          # to the end of the game
        notation=(3, 11, 60, None),
    ),
    "hansa_v0": Game(
        title="Hansa",
        max_steps=20_000,
        bad_action="sail",
        bad_options=(
            ({"init_order": "snake"}, "init_order"),
            ({"stack_sizes": "equal"}, "stack_sizes"),
            ({"place_exact": "yes"}, "place_exact"),
            ({"max_turns": 0}, "max_turns"),
            ({"board": {"cities": []}}, "routes"),
        ),
        corrupt_warmup=60,
        corrupt_edits=(
            ("missing", lambda d: d["fields"].pop("supply"), "missing"),
            ("money", _bump_scalar("p0_money", 1), "thalers are not conserved"),
            ("token", _bump("supply", 0, 1), "tokens are not conserved"),
            ("stall", _bump_scalar("p1_stall_supply", -1), "do not make 15"),
            ("route", _set("board_exits", 5, 0), "no exit"),
            ("ship", lambda d: d["fields"].update(ship=9), "ship"),
            ("to_move", lambda d: d["fields"].update(to_move=-1), "to_move"),
            ("num_players", lambda d: d["fields"].update(num_players=7), "num_players"),
            ("integers", lambda d: d["fields"].update(p0_money="3"), "integers"),
        ),
        round_trip=(3, 150, 99, 5, 300),
        notation=(3, 11, 400, None),
        other="saint_malo_v0",
    ),
    "serenissima_v0": Game(
        title="Serenissima",
        max_steps=20_000,
        bad_action="claim",
        bad_options=(
            ({"galley_capacity": 6}, "galley_capacity"),
            ({"close_ports": "vote"}, "close_ports"),
            ({"block_in_start_zone": "yes"}, "True or False"),
            ({"goods_supply": (1, 2, 3)}, "goods_supply"),
            ({"map": 42}, "map must be"),
        ),
        corrupt_warmup=60,
        corrupt_edits=(
            ("missing", lambda d: d["fields"].pop("ducats"), "missing"),
            ("ducats", lambda d: d["fields"].update(ducats=[-1, 5, 0, 0]),
             "negative ducats|ledger|ducats.*outside the range"),
            ("galley", lambda d: d["fields"].update(galley_sailors=[9] + [0] * 14), "galley"),
            ("goods", lambda d: d["fields"].update(goods_supply=[0] * 6), "goods not conserved"),
            ("sailors", lambda d: d["fields"].update(sailor_supply=[1, 1, 0, 0]),
             "sailors not conserved"),
            ("num_players", lambda d: d["fields"].update(header=[5, 7, 0, 0, 0]),
             "num_players"),
            ("game_id", lambda d: d["fields"].update(header=[1, 2, 0, 0, 0]), "game id"),
            ("doge", lambda d: d["fields"].update(doge_pile=[0, 0, 0, 0]), "Doge pile"),
        ),
        round_trip=(3, 150, 99, 5, 400),
        notation=(3, 11, 400, None),
    ),
}
# v0's game with another observation (tests/envs/test_carcassonne_v1.py checks that part):
# every generic check again, at fewer player counts.
GAMES["carcassonne_v1"] = replace(GAMES["carcassonne_v0"], api=(3,), seed=(2,), render=(2,),
                                  perf=(2,))
# v0's game with two legal-move readings fixed (tests/envs/test_serenissima_v1.py checks
# them): every generic check again, at fewer player counts.
GAMES["serenissima_v1"] = replace(GAMES["serenissima_v0"], api=(2, 4), seed=(3,), render=(2,),
                                  perf=(2,))
assert sorted(GAMES) == names(), "every registered game needs a row in GAMES"


def _counts(name, which):
    chosen = getattr(GAMES[name], which)
    if chosen is not None:
        return chosen
    return tuple(range(spec(name).min_players, spec(name).max_players + 1))


def _configs(which):
    cases = []
    for name in names():
        for n in _counts(name, which):
            cases.append(pytest.param(name, n, {}, id=f"{name}-{n}p"))
        for ident, n, options in GAMES[name].variants:
            cases.append(pytest.param(name, n, options, id=f"{name}-{ident}"))
    return cases


@pytest.mark.parametrize("name, num_players, options", _configs("api"))
def test_pettingzoo_api(name, num_players, options):
    api_test(make(name, num_players=num_players, **options), num_cycles=GAMES[name].cycles)


@pytest.mark.parametrize("name, num_players, options", _configs("seed"))
def test_pettingzoo_seed(name, num_players, options):
    seed_test(lambda: make(name, num_players=num_players, **options),
              num_cycles=GAMES[name].cycles)


@pytest.mark.parametrize("name, num_players, options", _configs("render"))
def test_pettingzoo_render(name, num_players, options):
    render_test(lambda render_mode=None: make(name, num_players=num_players,
                                              render_mode=render_mode, **options))


@pytest.mark.parametrize("name, num_players, options", _configs("perf"))
def test_pettingzoo_performance_benchmark(name, num_players, options):
    performance_benchmark(make(name, num_players=num_players, **options))


@pytest.mark.parametrize("name", names())
def test_registry(name):
    env = make(name, num_players=3)
    assert env.metadata["name"] == name and env.num_players == 3


def test_registry_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown environment"):
        make("saint_malo_v9")


@pytest.mark.parametrize("name", names())
def test_same_seed_same_game_and_different_seed_different_game(name):
    env = make(name, num_players=3)
    budget = GAMES[name].max_steps
    first = play_random(env, seed=7, max_steps=budget)
    scores, state = env.scores().tolist(), env.state.copy()
    again = play_random(env, seed=7, max_steps=budget)
    assert first == again and env.scores().tolist() == scores
    assert np.array_equal(env.state, state)
    if GAMES[name].seed_changes_play:
        assert play_random(env, seed=8, max_steps=budget) != first


@pytest.mark.parametrize("name", names())
def test_illegal_action_raises_naming_action_agent_phase(name):
    game = GAMES[name]
    env = make(name, num_players=2)
    env.reset(seed=0)
    before = env.state.copy()
    illegal = int(np.flatnonzero(env.action_mask() == 0)[0])
    with pytest.raises(ValueError) as err:
        env.step(illegal)
    message = str(err.value)
    assert env.agent_selection in message and str(illegal) in message and env.phase in message
    assert env.action_to_str(illegal) in message
    assert np.array_equal(env.state, before)               # nothing half-applied
    for bad in (-1, spec(name).num_actions, 3.5, game.bad_action, None, *game.extra_bad_actions):
        with pytest.raises(ValueError):
            env.step(bad)
    assert np.array_equal(env.state, before)


@pytest.mark.parametrize("name", names())
def test_numpy_integer_actions_play_like_ints_and_are_checked_alike(name):
    """Policies hand back numpy integers: they take the fast path and play exactly the
    game that Python ints play; illegal or out-of-range ones raise and change nothing."""
    plain, typed = make(name, num_players=2), make(name, num_players=2)
    plain.reset(seed=5)
    typed.reset(seed=5)
    kinds = (np.int64, np.int32, np.uint16, np.intp)
    for turn in range(40):
        if plain._game_over:
            break
        action = plain.legal_actions()[turn % len(plain.legal_actions())]
        plain.step(action)
        typed.step(kinds[turn % len(kinds)](action))
        assert np.array_equal(plain.state, typed.state)
        assert plain.agent_selection == typed.agent_selection
    if typed._game_over:
        typed.reset(seed=5)
    before = typed.state.copy()
    illegal = int(np.flatnonzero(typed.action_mask() == 0)[0])
    for bad in (np.int64(illegal), np.int64(-1), np.int32(spec(name).num_actions),
                np.uint64(2**63 + 5)):
        with pytest.raises(ValueError, match=typed.agent_selection):
            typed.step(bad)
    assert np.array_equal(typed.state, before)


@pytest.mark.parametrize("name", names())
def test_illegal_penalty_option_terminates_the_offender(name):
    env = make(name, num_players=2, illegal="penalty")
    env.reset(seed=0)
    offender = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(offender)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0


@pytest.mark.parametrize("name", names())
def test_step_kernel_refuses_every_masked_action_and_applies_nothing(name):
    """``env_step`` answers ILLEGAL to any in-range action its mask forbids, leaving the
    state, the dice and the mask as they were (the AEC env relies on it)."""
    from meeplezoo.envs.core.contract import ILLEGAL

    env = make(name, num_players=2)
    env.reset(seed=3)
    for _ in range(12):                                     # somewhere into the game
        if env._game_over:
            break
        env.step(env.legal_actions()[len(env.legal_actions()) // 2])
    if env._game_over:
        env.reset(seed=3)
    env_step = spec(name).kernels["env_step"]
    state, rng, mask = env.state.copy(), env.rng.copy(), env.action_mask()
    forbidden = np.flatnonzero(mask == 0)
    assert forbidden.size > 0
    for action in forbidden[:: max(1, forbidden.size // 200)]:
        assert env_step(state, int(action), rng, mask) == ILLEGAL
    assert np.array_equal(state, env.state) and np.array_equal(rng, env.rng)
    assert np.array_equal(mask, env.action_mask())


def _bad_construction_cases():
    cases = []
    for name in names():
        low, high = spec(name).min_players, spec(name).max_players
        players = f"{low}-{high} players"
        generic = (
            ({"num_players": low - 1}, players),
            ({"num_players": high + 1}, players),
            ({"num_players": "3"}, players),
            ({"colour": "red"}, f"unknown {GAMES[name].title} option"),
            ({"render_mode": "window"}, "render_mode"),
            ({"reward_scheme": "elo"}, "reward scheme"),
            ({"start_seat": 4}, "start_seat"),
            ({"illegal": "ignore"}, "illegal"),
        )
        for kwargs, match in generic + GAMES[name].bad_options:
            ident = "-".join(f"{k}={v!r}"[:30] for k, v in kwargs.items())
            cases.append(pytest.param(name, kwargs, match, id=f"{name}-{ident}"))
    return cases


@pytest.mark.parametrize("name, kwargs, match", _bad_construction_cases())
def test_bad_construction_is_rejected_clearly(name, kwargs, match):
    with pytest.raises(ValueError, match=match):
        make(name, **kwargs)


@pytest.mark.parametrize("name", names())
def test_json_round_trip_mid_game_continues_identically(name):
    seed, warm_up, twin_seed, rng_seed, steps = GAMES[name].round_trip
    env = make(name, num_players=4)
    play_random(env, seed=seed, max_steps=warm_up)
    saved = env.state_to_json()
    twin = make(name, num_players=4)
    twin.reset(seed=twin_seed)
    twin.state_from_json(saved)
    assert np.array_equal(twin.state, env.state) and twin.agent_selection == env.agent_selection
    assert np.array_equal(twin.action_mask(), env.action_mask())
    rng = np.random.default_rng(rng_seed)
    for _ in range(steps):
        if all(env.terminations.values()):
            break
        action = int(rng.choice(env.legal_actions()))
        env.step(action)
        twin.step(action)
        assert np.array_equal(twin.state, env.state)


@pytest.mark.parametrize("name", names())
def test_wrong_player_count_state_is_rejected(name):
    env3 = make(name, num_players=3)
    env3.reset(seed=0)
    env2 = make(name, num_players=2)
    env2.reset(seed=0)
    with pytest.raises(ValueError, match="3 players"):
        env2.state_from_json(env3.state_to_json())


@pytest.mark.parametrize("name", names())
def test_clone_is_independent(name):
    num_players, seed, warm_up = GAMES[name].clone
    env = make(name, num_players=num_players)
    play_random(env, seed=seed, max_steps=warm_up)
    twin = env.clone()
    env.step(env.legal_actions()[0])
    assert not np.array_equal(env.state, twin.state)
    twin.step(twin.legal_actions()[0])
    assert np.array_equal(env.state, twin.state)


def _corrupt_cases():
    cases = []
    for name in names():
        game = GAMES[name]
        generic = (
            ("game", lambda d, other=game.other: d.update(game=other), game.other),
            ("format_version", lambda d: d.update(format_version=99), "format_version"),
            ("unknown", lambda d: d["fields"].update(extra=1), "unknown"),
            ("rng", lambda d: d.update(rng=["x", "y"]), "rng"),
        )
        for ident, edit, match in generic + game.corrupt_edits:
            cases.append(pytest.param(name, edit, match, id=f"{name}-{ident}"))
    return cases


@pytest.mark.parametrize("name, edit, match", _corrupt_cases())
def test_corrupt_state_json_is_rejected_and_env_untouched(name, edit, match):
    env = make(name, num_players=2)
    play_random(env, seed=0, max_steps=GAMES[name].corrupt_warmup)
    saved = env.state_to_json()
    env.step(env.legal_actions()[-1])
    before = env.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(corrupt(saved, edit))
    with pytest.raises(StateFormatError, match="JSON"):
        env.state_from_json(saved[:-5])
    assert np.array_equal(env.state, before)


@pytest.mark.parametrize("name", names())
def test_notation_round_trip_for_every_legal_move(name):
    num_players, seed, steps, sampled = GAMES[name].notation
    env = make(name, num_players=num_players)
    env.reset(seed=seed)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        if all(env.terminations.values()):
            break
        legal = env.legal_actions()
        assert len(set(env.legal_move_names())) == len(legal)      # names are distinct
        chosen = legal if sampled is None else rng.choice(legal, size=min(sampled, len(legal)),
                                                          replace=False)
        for action in chosen:
            assert env.str_to_action(env.action_to_str(int(action))) == action
        env.step(int(rng.choice(env.legal_actions())))
    with pytest.raises(ValueError, match="legal moves"):
        env.str_to_action("fly away")
