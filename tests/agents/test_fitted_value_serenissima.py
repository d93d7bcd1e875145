"""Serenissima's fitted leaf: its terms against the rules' own counts (a scoring pays
exactly the port-score term, ducats, ports and galleys as the env counts them), values
zero-sum and bounded, the exact result at the end."""

from __future__ import annotations

import json

import numpy as np
import pytest

from meeplezoo.agents.fitted_values import FORMAT, read_fit, weight_vector
from meeplezoo.envs import make
from meeplezoo.envs.serenissima.board import galleys_owned, ports_owned
from meeplezoo.envs.serenissima.data import S_DUCATS, S_SUPPLY
from meeplezoo.envs.serenissima.fitted_value import TERMS, fitted_value, position_terms
from meeplezoo.envs.serenissima.rules import score_ports

GAME = "serenissima_v0"
COLUMN = {name: k for k, name in enumerate(TERMS)}


def _positions(players: int, games: int = 2, seed: int = 0):
    rng = np.random.default_rng(seed)
    for game in range(games):
        env = make(GAME, raw=True, num_players=players)
        env.reset(seed=seed + game)
        while not env.game_over:
            yield env
            env.step(int(rng.choice(env.legal_actions())))
        yield env


@pytest.mark.parametrize("players", [2, 4])
def test_the_terms_are_the_rules_counts(players):
    checked = 0
    for env in _positions(players):
        state = env.state
        terms = position_terms(state[None, :].copy(), np.zeros(0))[0]
        scored = state.copy()
        score_ports(scored)                             # SE-9: what a scoring now pays
        for seat in range(players):
            paid = scored[S_DUCATS + seat] - state[S_DUCATS + seat]
            assert terms[seat, COLUMN["port_scores"]] == paid
            assert terms[seat, COLUMN["ducats"]] == state[S_DUCATS + seat]
            assert terms[seat, COLUMN["ports"]] == ports_owned(state, seat)
            assert terms[seat, COLUMN["galleys"]] == galleys_owned(state, seat)
            assert terms[seat, COLUMN["supply_sailors"]] == state[S_SUPPLY + seat]
            assert terms[seat, COLUMN["cargo"]] >= terms[seat, COLUMN["spices"]] >= 0
        assert not terms[players:].any()                # no seat beyond the table
        checked += 1
    assert checked > 100


def test_values_are_zero_sum_bounded_and_exact_at_the_end(tmp_path):
    rng = np.random.default_rng(1)
    record = {"format": FORMAT, "version": 1, "rules": GAME, "shape": {},
              "weights": {name: float(w) for name, w in zip(TERMS, rng.normal(0, 0.1,
                                                                           len(TERMS)),
                                                            strict=True)}}
    path = tmp_path / "fit.json"
    path.write_text(json.dumps(record))
    weights = weight_vector(read_fit(path, GAME))
    out = np.zeros(3)
    env = None
    for env in _positions(3, games=1, seed=5):
        fitted_value(env.state, weights, out)
        assert abs(out.sum()) < 1e-9 and (np.abs(out) <= 1).all()
    assert env.game_over
    fitted_value(env.state, weights, out)
    assert out.tolist() == [env.rewards[a] for a in env.possible_agents]


def _states(count: int, seed: int = 3) -> np.ndarray:
    states = []
    for env in _positions(2, games=1, seed=seed):
        if not env.game_over and env.state[1] >= 0:
            states.append(env.state.copy())
    rng = np.random.default_rng(seed)
    return np.array([states[k] for k in sorted(rng.choice(len(states), count, False))])


def test_rollouts_cut_by_the_leaf(tmp_path):
    """``cut=leaf``: a rollout stopped at its depth is valued by the leaf.  At depth 0
    that is the leaf itself; rolled out to the end, only results remain."""
    from meeplezoo.agents.az.knowledge import HeuristicLeaves
    from meeplezoo.agents.mcts.uct import P_LEAF_VALUE, P_ROLLOUT_DEPTH
    from meeplezoo.envs import spec

    rng = np.random.default_rng(2)
    record = {"format": FORMAT, "version": 1, "rules": GAME, "shape": {},
              "weights": {name: float(w) for name, w in
                          zip(TERMS, rng.normal(0, 0.1, len(TERMS)), strict=True)}}
    path = tmp_path / "fit.json"
    path.write_text(json.dumps(record))
    states = _states(30)
    leaves = HeuristicLeaves(spec(GAME), leaf=f"fitted:{path}")
    assert leaves.params[P_LEAF_VALUE] == 1.0
    direct = leaves.values(states)
    leaves.params[P_LEAF_VALUE], leaves.params[P_ROLLOUT_DEPTH] = 2.0, 0
    np.testing.assert_allclose(leaves.values(states), direct)
    leaves.params[P_ROLLOUT_DEPTH] = -1
    assert set(np.unique(leaves.values(states))) <= {-1.0, 0.0, 1.0}
    leaves.params[P_ROLLOUT_DEPTH] = 10
    cut = leaves.values(states)
    assert not np.allclose(cut, direct) and not set(np.unique(cut)) <= {-1.0, 0.0, 1.0}


def test_cut_and_depth_reach_the_tuned_search_and_need_their_parts():
    from meeplezoo.agents.registry import make_agent

    agent = make_agent("mcts:8,leaf=fitted,cut=leaf,depth=12", GAME)
    assert agent.params[5] == 2.0 and agent.params[2] == 12
    with pytest.raises(ValueError, match="cut=leaf values rollout cuts with the leaf"):
        make_agent("mcts:8,cut=leaf", GAME)
    # the network search's heuristic share is the same search's value
    mixed = make_agent("az:default,sims=8,leaf=fitted,cut=leaf,depth=12,lam=0.5", GAME)
    assert mixed.evaluator.heuristic.params.tolist()[2:] == agent.params.tolist()[2:]
    with pytest.raises(ValueError, match="cut must be 'score' or 'leaf'"):
        from meeplezoo.agents.az.knowledge import Knowledge

        Knowledge(cut="evil")


def test_the_fit_on_generated_maps_ships_as_fitted_gen():
    """``leaf=fitted:gen`` reads ``agents/values/serenissima_v0_gen.json`` (MeepleZoo-Gen's
    bot), fitted on maps of the training split, not the printed map's fit."""
    from meeplezoo.agents.fitted_values import read_fit, shipped_path, weight_vector
    from meeplezoo.agents.registry import make_agent

    record = read_fit(shipped_path(GAME, "gen"), GAME)
    assert record["data"]["options"] == {"map": "generated:train"}
    gen = make_agent("mcts:8,leaf=fitted:gen,cut=leaf,depth=12", GAME)
    printed = make_agent("mcts:8,leaf=fitted,cut=leaf,depth=12", GAME)
    weights = len(weight_vector(record))
    assert gen.params[-weights:].tolist() == weight_vector(record).tolist()
    assert gen.params[-weights:].tolist() != printed.params[-weights:].tolist()
    with pytest.raises(ValueError, match="no gen fitted leaf value ships for carcassonne"):
        make_agent("mcts:8,leaf=fitted:gen", "carcassonne_v0")


def test_a_fit_on_a_map_distribution(tmp_path, capsys):
    """``--option map=generated:train``: every game of the fit on its own generated map,
    recorded with the fit; a bad option is one line."""
    from meeplezoo.training.value.fit import main

    out = tmp_path / "fit.json"
    assert main([GAME, "--agent", "greedy", "--games", "5", "--per-game", "4", "--workers",
                 "1", "--option", "map=generated:train", "--out", str(out),
                 "--no-progress"]) == 0
    record = read_fit(out, GAME)
    assert record["data"]["options"] == {"map": "generated:train"}
    assert main([GAME, "--option", "map", "--out", str(out)]) == 2
    assert "--option 'map': write KEY=VALUE" in capsys.readouterr().err
