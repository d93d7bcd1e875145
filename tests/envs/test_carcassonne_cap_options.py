"""Carcassonne's decision cap, option checks and move names.

The cap (``max_decisions``, 178 by default: 89 placements each followed by at most one
meeple decision, the most a complete game holds) is enforced in the kernels and ends the
game as a PettingZoo truncation; degenerate policies end by the rules (CA-6.6).
"""

from __future__ import annotations

import numpy as np
import pytest
from envtest import assert_move_names

import meeplezoo.envs.carcassonne_v0 as carcassonne_v0
from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne.masks import legal_actions
from meeplezoo.envs.carcassonne.options import make_config
from meeplezoo.envs.carcassonne.policy import MAX_LIST
from meeplezoo.envs.carcassonne.rules import apply_action, init_state, resolve_chance
from meeplezoo.envs.carcassonne.validate import validate_state
from meeplezoo.envs.core.contract import H_PLY, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng


def play(env, choose, seed=0) -> int:
    """Play to the end with ``choose(env, legal)``; returns the decisions taken."""
    env.reset(seed=seed)
    decisions = 0
    while not env.unwrapped._game_over:
        env.step(choose(env, env.legal_actions()))
        decisions += 1
    return decisions


FIRST = lambda env, legal: legal[0]                      # noqa: E731
LAST = lambda env, legal: legal[-1]                      # noqa: E731
# "No meeple" is the last meeple action; the placement is the first legal one.
NO_MEEPLE = lambda env, legal: legal[-1] if env.phase == "place_meeple" else legal[0]  # noqa: E731


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("policy", [FIRST, LAST, NO_MEEPLE], ids=["first", "last", "no_meeple"])
def test_degenerate_policies_end_by_the_rules_within_the_cap(policy, players):
    """CA-6.6: every draw shrinks the pile, so any policy ends with the last tile, in at
    most 2 decisions per placed tile, below the default cap (never a truncation)."""
    env = carcassonne_v0.env(num_players=players, auto_pass_meeple=False)
    decisions = play(env, policy)
    state = env.unwrapped.state
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert int(state[D.G_PILE_LEFT]) == 0 and int(state[D.G_TRUNCATED]) == 0
    placements = int(state[D.G_PLACED]) - 1
    assert decisions == int(state[H_PLY]) == 2 * placements <= D.MAX_DECISIONS


def test_the_default_cap_is_the_most_decisions_a_complete_game_holds():
    assert D.DEFAULT_OPTIONS["max_decisions"] == D.MAX_DECISIONS == 2 * (D.MAX_TILES - 1)
    assert int(make_config()[D.C_MAX_DECISIONS - D.HEADER_SIZE]) == D.MAX_DECISIONS


@pytest.mark.parametrize("cap", [1, 2, 7, 30])
def test_the_cap_ends_the_game_as_a_truncation(cap):
    """The cap finishes the turn in progress (its meeple decision skipped, its scoring
    done) and ends with final scoring (CA-12); the env reports a truncation."""
    env = carcassonne_v0.env(num_players=3, max_decisions=cap, auto_pass_meeple=False)
    assert play(env, NO_MEEPLE, seed=3) == cap
    state = env.unwrapped.state
    assert int(state[D.G_TRUNCATED]) == 1 and int(state[H_TO_MOVE]) == TERMINAL
    assert int(state[D.G_PILE_LEFT]) > 0 and int(state[H_PLY]) == cap
    assert int(state[D.G_PLACED]) == 1 + (cap + 1) // 2    # an odd cap cuts after a placement
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(info["truncated"] for info in env.infos.values())
    assert (state[D.G_NORMAL:D.G_NORMAL + 3] == D.NORMAL_MEEPLES).all()   # all home
    validate_state(state)


def test_a_cut_scores_the_features_in_progress():
    """Rewards at the cut come from the scores as if the game ended then."""
    env = carcassonne_v0.env(num_players=2, max_decisions=2, auto_pass_meeple=False,
                             start_seat=0)
    env.reset(seed=1)
    env.step(env.legal_actions()[0])
    on_feature = [a for a, name in zip(env.legal_actions(), env.legal_move_names(),
                                       strict=True) if "(city)" in name or "(road)" in name]
    env.step(on_feature[0])
    assert env.unwrapped._game_over and all(env.truncations.values())
    score = env.scores()
    assert score[0] > 0 and score[1] == 0
    assert env.rewards["player_0"] > env.rewards["player_1"]


def test_the_cap_is_kept_by_the_kernels_alone():
    """Batched envs and MCTS rollouts step the kernels directly: they stop at the cap."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    out = np.zeros(MAX_LIST, dtype=np.int64)
    rng = new_rng(5)
    init_state(state, 4, make_config(max_decisions=11), 0)
    resolve_chance(state, rng)
    while state[H_TO_MOVE] != TERMINAL:
        apply_action(state, out[legal_actions(state, out) - 1])
        resolve_chance(state, rng)
    assert int(state[H_PLY]) == 11 and int(state[D.G_TRUNCATED]) == 1


FLAGS = ("expansion_inns_cathedrals", "farmers", "auto_pass_meeple", "dedupe_rotations")
CHOICES = ("farm_scoring", "small_city_rule", "ic_tjunction_inn", "unplaceable",
           "placement_layout")


@pytest.mark.parametrize("name", FLAGS)
@pytest.mark.parametrize("value", ["yes", 2, None, 0.5, 1, np.array([True])])
def test_yes_no_options_take_only_booleans(name, value):
    with pytest.raises(ValueError, match=name):
        carcassonne_v0.env(**{name: value})


@pytest.mark.parametrize("name", CHOICES)
@pytest.mark.parametrize("value", [5, None, "nope", ["c3"], np.array(["grid"]), 2.5])
def test_choice_options_take_only_their_names(name, value):
    with pytest.raises(ValueError, match=name):
        carcassonne_v0.env(**{name: value})


@pytest.mark.parametrize("value", [10**30, 0, -1, D.MAX_DECISIONS + 1, 30.0, True, "30", None])
def test_max_decisions_takes_an_integer_up_to_the_longest_game(value):
    with pytest.raises(ValueError, match="max_decisions"):
        carcassonne_v0.env(max_decisions=value)


def test_every_option_is_checked():
    assert set(FLAGS) | set(CHOICES) | {"max_decisions"} == set(D.DEFAULT_OPTIONS)
    with pytest.raises(ValueError, match="unknown"):
        carcassonne_v0.env(farmer=True)
    assert carcassonne_v0.env(max_decisions=np.int64(40), farmers=np.bool_(False)) is not None


@pytest.mark.parametrize("options", [
    {}, {"placement_layout": "grid"}, {"dedupe_rotations": True, "auto_pass_meeple": False},
    {"placement_layout": "grid", "auto_pass_meeple": False, "expansion_inns_cathedrals": False},
], ids=["frontier", "grid", "frontier_dedupe_no_autopass", "grid_base_no_autopass"])
def test_move_names_are_unique_and_parse_back_in_every_phase(options):
    """One name per legal action, identical in ``legal_move_names`` and
    ``action_to_str``, parsed back exactly and case-insensitively, over whole random
    games (both decision phases: place_tile and place_meeple)."""
    env = carcassonne_v0.env(num_players=3, **options)
    phases = set()
    for seed in range(2):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not env.unwrapped._game_over:
            assert_move_names(env)
            phases.add(env.phase)
            env.step(int(rng.choice(env.legal_actions())))
    assert phases == {"place_tile", "place_meeple"}
