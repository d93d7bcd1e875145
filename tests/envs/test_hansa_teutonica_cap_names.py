"""The decision cap (HT-9.5) and one name per legal action."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from envtest import assert_move_names

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.envs.core.contract import H_PLY
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica import options as options_module
from meeplezoo.envs.hansa_teutonica.invariants import checked_policy_games
from meeplezoo.envs.hansa_teutonica.options import make_config


def test_ht_9_5_the_default_cap_is_3000_decisions():
    """Uniform-random games run 23,000-28,000 decisions at the median (the old 20,000 cap
    cut most of them): the default is now about 5x the longest heuristic game."""
    assert D.DEFAULT_MAX_DECISIONS == 3_000
    config = make_config()
    assert config[D.C_MAX_DECISIONS - D.CONFIG_START] == 3_000
    env_doc = sys.modules[hansa_teutonica_v0.raw_env.__module__].__doc__
    assert "default 3,000" in env_doc and "(3,000;" in options_module.__doc__


def test_ht_9_5_a_random_game_is_truncated_at_the_default_cap():
    env = hansa_teutonica_v0.env(num_players=3)
    env.reset(seed=11)
    rng = np.random.default_rng(11)
    decisions = 0
    while env.agents and not env._game_over:
        env.step(int(rng.choice(env.legal_actions())))
        decisions += 1
    assert decisions == 3_000 == int(env.state[H_PLY])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(info["truncated"] for info in env.infos.values())


@pytest.mark.parametrize("players, options", [(2, {}), (3, {}), (4, {}), (5, {}),
                                              (2, {"two_player_regions": True})])
def test_ht_9_5_heuristic_games_end_by_the_rules_far_below_the_cap(players, options):
    """The greedy agent's policy (rollout_policy): the longest of 2,000 games per count was
    318 / 359 / 464 / 535 decisions (2-5 players) and 1,126 with the regions; a few 2p games
    stall (every piece on the board) and are the only ones the cap cuts."""
    games = 200
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    lengths, truncated = np.zeros(games, dtype=np.int64), np.zeros(games, dtype=np.int64)
    code = checked_policy_games(games, players, make_config(**options), new_rng(players),
                                state, mask, 0.0, lengths, truncated)
    assert code == 0
    assert lengths[truncated == 0].max() < D.DEFAULT_MAX_DECISIONS / 2
    assert (lengths[truncated == 1] == D.DEFAULT_MAX_DECISIONS).all()
    assert truncated.mean() <= (0.03 if players == 2 else 0.0)


def test_ht_9_5_a_lower_cap_cuts_there():
    for cap in (100, 101):
        env = hansa_teutonica_v0.env(num_players=2, max_decisions=cap, start_seat=0)
        env.reset(seed=0)
        for _ in range(cap):
            assert not env._game_over
            env.step(env.legal_actions()[-1])
        assert env._game_over and all(env.truncations.values())


# --- every legal action has its own name, which parses back --------------------------------

VARIANTS = [(2, {}), (3, {"remove3_opponents_only": True}), (4, {"tie_break": "big_box"}),
            (5, {}), (2, {"two_player_regions": True})]


@pytest.mark.parametrize("players, options", VARIANTS)
def test_every_legal_action_has_a_unique_name_that_parses_back(players, options):
    """In every phase: len(set(names)) == legal actions, unique even ignoring case and
    spacing (parsing is forgiving), and str_to_action(name) is the action."""
    env = hansa_teutonica_v0.env(num_players=players, **options)
    rng = np.random.default_rng(players)
    phases = set()
    for game in range(2):
        env.reset(seed=game)
        steps = 0
        while not env._game_over and steps < 500:
            legal = env.legal_actions()
            assert_move_names(env, parse=steps % 25 == 0
                              or env.phase not in ("main", "move_drop", "move_pick"))
            phases.add(env.phase)
            # Mostly the heuristic (so routes get established), sometimes a random move.
            if rng.random() < 0.4:
                action = int(rng.choice(legal))
            else:
                action = int(env.unwrapped.spec.kernels["rollout_policy"](
                    env.state, env.action_mask().copy(), env.rng.copy()))
            env.step(action)
            steps += 1
    assert {"main", "pay", "compensate", "move_pick", "move_drop", "reward"} <= phases
