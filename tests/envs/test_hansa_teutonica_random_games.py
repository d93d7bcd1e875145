"""Random Hansa Teutonica games with the invariants checked after every step (WE-42).

All in compiled code (``invariants.py``): after every decision and chance event the piece
count of HT-4.5 (27 traders and 4 merchants per player, wherever they are: desk, score
cube, supplies, routes, offices, extra offices, Coellen, hands), the 16 bonus markers, the
completed-cities count and "a legal move exists until the end" are checked.

* 1,000 uniformly random games per player count.  Uniform play almost never finishes a
  game (HT-9.5: pieces end up spread over the routes and are moved around forever), so these
  games run under a cap of 1,000 decisions (the ``max_decisions`` option) to keep CI fast;
  the default cap is 3,000.
* 1,000 games per player count of the heuristic policy with 15% uniformly random moves,
  which almost always end by the rules' own triggers (T1/T2/T3): every kind of move is
  exercised and the end of the game is reached.  A few 2-player games still stall (both
  players with every piece on the board); they are cut off at 5,000 decisions here.
"""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.hansa_teutonica import data as D
from meeplezoo.envs.hansa_teutonica.invariants import (
    ERRORS,
    checked_policy_games,
    checked_random_games,
)
from meeplezoo.envs.hansa_teutonica.options import make_config

GAMES = 1_000
CONFIGS = [(2, {}), (3, {}), (4, {}), (5, {}), (2, {"two_player_regions": True})]
IDS = ["2p", "3p", "4p", "5p", "2p-regions"]


def buffers(games):
    return (np.zeros(D.STATE_SIZE, dtype=np.int64), np.zeros(D.NUM_ACTIONS, dtype=np.int8),
            np.zeros(games, dtype=np.int64), np.zeros(games, dtype=np.int64))


@pytest.mark.parametrize("players, options", CONFIGS, ids=IDS)
def test_uniform_random_games_keep_every_invariant(players, options):
    games = GAMES if not options else GAMES // 4
    state, mask, lengths, truncated = buffers(games)
    config = make_config(max_decisions=1_000, **options)
    code = checked_random_games(games, players, config, new_rng(players), state, mask,
                                lengths, truncated)
    assert code == 0, ERRORS[code]
    assert (lengths > 0).all() and lengths.max() <= 1_000
    assert lengths.sum() > 300 * games


@pytest.mark.parametrize("players, options", CONFIGS, ids=IDS)
def test_heuristic_games_with_random_moves_end_by_the_rules(players, options):
    games = GAMES if not options else GAMES // 4
    state, mask, lengths, truncated = buffers(games)
    config = make_config(max_decisions=5_000, **options)
    code = checked_policy_games(games, players, config, new_rng(10 + players), state, mask,
                                0.15, lengths, truncated)
    assert code == 0, ERRORS[code]
    assert truncated.mean() <= 0.03                 # the rest ended by T1, T2 or T3
    assert np.median(lengths) < 1_000


@pytest.mark.parametrize("players, options", CONFIGS, ids=IDS)
def test_full_validation_and_json_round_trip_every_step(players, options):
    """A few games in Python: ``validate_state`` (phase/seat agreement, HT-4.5, markers,
    offices filling left to right) and a JSON round trip after every step."""
    from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
    from meeplezoo.envs.core.state_io import state_from_json, state_to_json
    from meeplezoo.envs.hansa_teutonica import SPEC
    from meeplezoo.envs.hansa_teutonica.chance import env_reset, env_step
    from meeplezoo.envs.hansa_teutonica.policy import rollout_policy
    from meeplezoo.envs.hansa_teutonica.validate import validate_state

    state, mask, _, _ = buffers(1)
    policy = np.random.default_rng(players)
    for game in range(2):
        rng = new_rng(100 * players + game)
        env_reset(state, players, make_config(max_decisions=400, **options), game % players,
                  rng, mask)
        while state[H_TO_MOVE] != TERMINAL:
            if policy.random() < 0.3:
                action = int(policy.choice(np.flatnonzero(mask)))
            else:
                action = int(rollout_policy(state, mask.copy(), rng))
            env_step(state, action, rng, mask)
            validate_state(state)
            loaded, loaded_rng = state_from_json(SPEC, state_to_json(SPEC, state, rng))
            assert np.array_equal(loaded, state) and np.array_equal(loaded_rng, rng)
