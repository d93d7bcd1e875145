"""Hansa Teutonica's trust boundary: a loaded state is memory-safe.

``data.FIELD_BOUNDS`` gives every field its range (``state_from_json`` refuses anything
outside it before ``validate_state`` runs); ``validate_state`` adds what depends on other
fields (seats below ``num_players``, the fields each phase reads, the decision cap).  A
seeded fuzzer below loads mutated states taken from every phase and plays the accepted
ones; the cross-game fuzzer (``benchmarks/studies/fuzz.py``) does the same in subprocesses.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.envs.core.contract import CHANCE, H_NUM_PLAYERS, H_PHASE, H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import StateFormatError, state_from_json, state_to_json
from meeplezoo.envs.hansa_teutonica import SPEC, board, chance, masks, observe, render, rules
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.options import make_config
from meeplezoo.envs.hansa_teutonica.policy import rollout_policy
from meeplezoo.envs.hansa_teutonica.validate import validate_state


def mid_game(players=2, seed=5, moves=40, **options):
    env = hansa_teutonica_v0.env(num_players=players, start_seat=0, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        env.step(int(rng.choice(env.legal_actions())))
    return env


def edited(env, **changes) -> str:
    """The env's saved state with ``field=value`` (or ``field=(index, value)``) changed."""
    data = json.loads(env.state_to_json())
    for name, value in changes.items():
        if isinstance(value, tuple):
            data["fields"][name][value[0]] = value[1]
        else:
            data["fields"][name] = value
    return json.dumps(data)


def refused(env, text):
    before = env.state.copy()
    with pytest.raises(StateFormatError):
        env.state_from_json(text)
    np.testing.assert_array_equal(env.state, before)
    env.observe(env.agent_selection)                  # the env still works


def test_every_field_has_tight_bounds():
    assert set(D.FIELD_BOUNDS) == set(D.STATE_FIELDS)
    assert D.FIELD_BOUNDS["coellen"] == D.FIELD_BOUNDS["space_owner"] == (-1, 4)
    assert D.FIELD_BOUNDS["establish_route"] == D.FIELD_BOUNDS["displace_origin"] == (-1, 33)
    assert D.FIELD_BOUNDS["phase"] == (0, 12) and D.FIELD_BOUNDS["actions_left"] == (0, 19)
    assert D.FIELD_BOUNDS["cfg_max_decisions"] == (100, D.MAX_DECISIONS_LIMIT)
    assert D.FIELD_BOUNDS["office_type"] == (0, 1)
    assert all(high < 2**61 for _, high in D.FIELD_BOUNDS.values())


@pytest.mark.parametrize("field", ["establish_route", "displace_origin", "coellen"])
@pytest.mark.parametrize("value", [2**61, -5, 9, 49, 999])
def test_values_that_once_segfaulted_observe_are_refused(field, value):
    """Each of these loaded, then observe() ended the process."""
    env = mid_game(3)
    refused(env, edited(env, **{field: (0, value) if field == "coellen" else value}))


@pytest.mark.parametrize("field, value", [("start_seat", 9), ("cfg_max_decisions", -1),
                                          ("actions_left", 2**61), ("office_type", (0, -1))])
def test_values_once_silently_accepted_are_refused(field, value):
    env = mid_game(2)
    refused(env, edited(env, **{field: value}))


def test_one_past_either_bound_of_every_element_is_refused():
    env = mid_game(4)
    saved = json.loads(env.state_to_json())
    for name, (low, high) in D.FIELD_BOUNDS.items():
        length = D.STATE_FIELDS[name][1]
        for index in {0, length - 1}:
            for value in (low - 1, high + 1):
                data = json.loads(json.dumps(saved))
                if length > 1:
                    data["fields"][name][index] = value
                else:
                    data["fields"][name] = value
                with pytest.raises(StateFormatError, match=name):
                    state_from_json(SPEC, json.dumps(data))


CROSS_FIELD = {   # in range field by field, inconsistent together
    "start seat not a seat of 2": {"start_seat": 3},
    "active seat not a seat of 2": {"active": 2, "to_move": 2},
    "Coellen owner not a seat": {"coellen": (0, 3)},
    "establish route outside Establish": {"establish_route": 5},
    "origin route outside a displacement": {"displace_origin": 5},
    "displaced player outside a displacement": {"displaced_player": 1},
    "reward phase without a route": {"phase": D.PH_REWARD},
    "paying with nothing owed": {"phase": D.PH_PAY, "displaced_player": 1,
                                 "displace_origin": 3, "displaced_piece": 0},
    "marker draw with an empty plate": {"phase": D.PH_MARKER_DRAW, "to_move": CHANCE},
    "marker placement without a marker": {"phase": D.PH_MARKER_PLACE},
    "pawn phase without the variant": {"phase": D.PH_PAWN_END},
    "truncated but live": {"truncated": 1},
    "live at the cap": {"ply": 3_000},
    "more turns than decisions": {"turns": 500},
    "too many actions in a turn": {"actions_left": 10, "actions_taken": 10},
    "pieces in hand outside Move": {"move_hand": (0, 1)},
    "remove count outside Remove 3": {"remove_left": 2},
    "marker on a 4-5 side route": {"route_marker": (33, 1)},
    "compensation bits beyond the board": {"compensation_placed": (1, 2**50)},
    "regions variant flag out of range": {"cfg_regions_on": 2},
    "region adjacent to itself": {"cfg_region_adj": (0, 1)},
    "track above its top": {"player_0": (0, 5)},
    "east-west count without a link": {"east_west_count": 1},
    "more supply markers than exist": {"marker_supply": (1, 3)},
}


@pytest.mark.parametrize("case", list(CROSS_FIELD))
def test_cross_field_checks_refuse_what_no_play_reaches(case):
    env = mid_game(2, moves=0)
    assert env.phase == "main" and int(env.state[H_PLY]) == 0
    refused(env, edited(env, **CROSS_FIELD[case]))


def test_the_reached_states_stay_loadable():
    """The checks refuse nothing the rules reach: the saved state of a fresh game, and the
    reported compensation case with its cap, load."""
    for players in range(2, 6):
        env = mid_game(players, moves=0)
        env.state_from_json(env.state_to_json())
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, 3, make_config(), 1)              # before setup's chance event
    validate_state(state)


# --- a seeded fuzzer over states of every phase -----------------------------------------------

def phase_states(seed: int = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """A few (state, rng) of every phase the rules reach, chance nodes included, from
    heuristic play with 30% random moves over 2-5 players and the option variants."""
    rng_policy = np.random.default_rng(seed)
    found: dict[tuple, list] = {}
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    variants = [(2, {}), (3, {}), (4, {"remove3_opponents_only": True}), (5, {}),
                (2, {"two_player_regions": True, "tie_break": "big_box"})]
    for game in range(20):
        players, options = variants[game % len(variants)]
        state = np.zeros(D.STATE_SIZE, dtype=np.int64)
        rng = new_rng(seed * 100 + game)
        rules.init_state(state, players, make_config(**options), game % players)
        while state[H_TO_MOVE] != TERMINAL and state[H_PLY] < 600:
            seen = found.setdefault((players, bool(options), int(state[H_PHASE])), [])
            if not seen or (len(seen) < 3 and rng_policy.random() < 0.02):
                seen.append((state.copy(), rng.copy()))
            if state[H_TO_MOVE] == CHANCE:
                chance.apply_chance(state, chance.sample_chance(state, rng))
                continue
            masks.legal_mask(state, mask)
            if rng_policy.random() < 0.3:
                action = int(rng_policy.choice(np.flatnonzero(mask)))
            else:
                action = int(rollout_policy(state, mask.copy(), rng))
            rules.apply_action(state, action)
        if state[H_TO_MOVE] == TERMINAL:
            found.setdefault((players, bool(options), D.PH_GAME_OVER), []).append(
                (state.copy(), rng.copy()))
    return [item for items in found.values() for item in items]


def play_a_little(state: np.ndarray, rng: np.ndarray, picks: np.random.Generator) -> None:
    """Every read-only kernel, then a few steps; each state reached must validate."""
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    out = np.zeros(D.OBS_SIZE, dtype=np.float32)
    scores = np.zeros(D.MAX_PLAYERS, dtype=np.int64)
    for _ in range(4):
        for seat in range(int(state[H_NUM_PLAYERS])):
            observe.observe(state, seat, out)
            assert np.isfinite(out).all()
        board.scores(state, scores)
        board.tiebreaks(state, scores)
        render.render_ansi(state)
        if state[H_TO_MOVE] == TERMINAL:
            return
        if state[H_TO_MOVE] == CHANCE:
            chance.resolve_chance(state, rng)
        else:
            assert masks.legal_mask(state, mask) > 0
            action = int(rollout_policy(state, mask.copy(), rng))    # what MCTS plays out
            assert mask[action]
            if picks.random() < 0.5:
                action = int(picks.choice(np.flatnonzero(mask)))
            chance.env_step(state, action, rng, mask)
        validate_state(state)


def test_seeded_fuzz_refuses_or_plays_safely():
    """Each field of states from every phase set to boundary and junk values (one field
    at a time, then several at once); a state either fails to load with StateFormatError
    or plays on keeping every invariant."""
    picks = np.random.default_rng(1)
    tried = accepted = 0
    by_phase: dict[int, list] = {}
    for state, rng in phase_states():
        by_phase.setdefault(int(state[H_PHASE]), []).append((state, rng))
    assert set(by_phase) == set(range(len(D.PHASE_NAMES)))
    for state, rng in [item for items in by_phase.values() for item in items[:2]]:
        saved = json.loads(state_to_json(SPEC, state, rng))
        changes = []
        for name, (low, high) in D.FIELD_BOUNDS.items():
            length = D.STATE_FIELDS[name][1]
            index = int(picks.integers(length))
            junk = [low, high, -1, 0, 1, int(picks.integers(low, high + 1))]
            for value in picks.choice(junk, size=2, replace=False):
                changes.append([(name, index, int(value))])
        for _ in range(20):
            names = picks.choice(list(D.FIELD_BOUNDS), size=3)
            changes.append([(n, int(picks.integers(D.STATE_FIELDS[n][1])),
                             int(picks.integers(-1, min(D.FIELD_BOUNDS[n][1], 40) + 1)))
                            for n in names])
        for change in changes:
            data = json.loads(json.dumps(saved))
            for name, index, value in change:
                if D.STATE_FIELDS[name][1] > 1:
                    data["fields"][name][index] = value
                else:
                    data["fields"][name] = value
            tried += 1
            try:
                loaded, loaded_rng = state_from_json(SPEC, json.dumps(data))
            except StateFormatError:
                continue
            accepted += 1
            try:
                play_a_little(loaded, loaded_rng, picks)
            except Exception as err:
                raise AssertionError(f"{change} in {D.PHASE_NAMES[int(state[H_PHASE])]}: "
                                     f"{err!r}") from err
    assert tried > 3_000 and 0.05 * tried < accepted < tried
