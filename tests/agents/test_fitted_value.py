"""A leaf value fitted to game results (Carcassonne): the fitted leaf against the hand-set
one it generalises, the regression against planted weights, the fit's command end to end,
the weight files' checks, and the search and ``az:`` settings that play it."""

from __future__ import annotations

import functools
import json

import numpy as np
import pytest

from meeplezoo.agents.fitted_values import FORMAT, read_fit, shipped_path, weight_vector
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs import make
from meeplezoo.envs.carcassonne.fitted_value import SHAPES, TERMS, fitted_value
from meeplezoo.envs.carcassonne.policy import heuristic_value
from meeplezoo.training.value.fit import logistic_fit, main

GAME = "carcassonne_v1"
# The hand-set leaf's amounts as weights (policy.py: COMPLETION_DECAY 0.7 for cities and
# roads, COMPLETION_REACH 20, MONASTERY_FILL 0.5, NORMAL_RESERVE 1.5, LARGE_RESERVE 2.5),
# all divided by 10: the fitted leaf squashes with tanh(x / 2), the hand-set one with
# tanh(margin / LEAF_SCALE = 20).
HAND_SET = {"score": 1.0, "open_city_points": 1.0, "open_city_gain": 1.0,
            "open_road_points": 1.0, "open_road_gain": 1.0, "monastery_points": 1.0,
            "monastery_room": 0.5, "farm_points": 1.0, "farm_points_early": 0.0,
            "meeples_in_hand_early": 1.5, "large_meeple_early": 2.5, "meeples_in_hand": 0.0}


def _record(**changes) -> dict:
    record = {"format": FORMAT, "version": 1, "rules": "carcassonne_v0",
              "shape": {"city_decay": 0.7, "road_decay": 0.7, "reach": 20.0},
              "weights": {name: HAND_SET[name] / 10 for name in TERMS}}
    record.update(changes)
    return record


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_fitted_leaf_with_the_hand_set_amounts_is_the_hand_set_leaf(players):
    """Kernel against reference: with the hand-set amounts as weights, the fitted leaf
    equals ``heuristic_value`` at every position of random games (meeple phase, farms,
    every seat count, the end)."""
    weights = weight_vector(_record())
    rng = np.random.default_rng(players)
    fitted, hand = np.zeros(players), np.zeros(players)
    checked = 0
    for game in range(3):
        env = make(GAME, raw=True, num_players=players)
        env.reset(seed=game)
        while True:
            fitted_value(env.state, weights, fitted)
            heuristic_value(env.state, weights, hand)
            np.testing.assert_allclose(fitted, hand, atol=1e-12)
            checked += 1
            if env.game_over:
                break
            env.step(int(rng.choice(env.legal_actions())))
    assert checked > 3 * 100


def test_the_fitted_leaf_changes_with_its_weights():
    env = make(GAME, raw=True, num_players=2)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(60):
        env.step(int(rng.choice(env.legal_actions())))
    base, scored = _record(), _record()          # the score weighs 0.1 in base
    scored["weights"] = {**base["weights"], "score": 1.0}
    a, b = np.zeros(2), np.zeros(2)
    fitted_value(env.state, weight_vector(base), a)
    fitted_value(env.state, weight_vector(scored), b)
    assert not np.allclose(a, b) and abs(b.sum()) < 1e-12


def test_the_regression_recovers_planted_weights():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(40_000, 3)) * np.array([1.0, 10.0, 0.1])
    planted = np.array([0.8, -0.05, 4.0])
    won = (rng.random(len(x)) < 1 / (1 + np.exp(-(x @ planted)))).astype(float)
    np.testing.assert_allclose(logistic_fit(x, won), planted, rtol=0.06)


def test_the_fit_command_writes_a_file_the_search_plays(tmp_path, capsys):
    out = tmp_path / "fit.json"
    assert main([GAME, "--agent", "greedy", "--games", "10", "--per-game", "8",
                 "--workers", "1", "--out", str(out), "--no-progress"]) == 0
    record = read_fit(out, GAME)
    assert record["held_out"]["games"] == 2 and record["data"]["matchups"] == ["greedy"]
    assert set(record["held_out"]["correlation"]) == {"fitted", "heuristic"}
    assert "fitted leaf" in capsys.readouterr().out
    from meeplezoo.benchmarks.studies.value_sets import load_set

    assert len(load_set(tmp_path / "fit_positions.npz")) == record["data"]["games"] * 8
    # value_quality measures the shipped fitted leaf beside the hand-set one
    from meeplezoo.benchmarks.studies.value_quality import main as value_quality

    report = tmp_path / "quality.json"
    assert value_quality(["report", GAME, "--set", str(tmp_path / "fit_positions.npz"),
                          "--heuristic", "leaf", "--heuristic", "fitted", "--bootstrap", "0",
                          "--out", str(report)]) == 0
    results = json.loads(report.read_text())["results"]
    assert set(results) == {"heuristic leaf", "fitted leaf"}
    assert results["heuristic leaf"]["mover"]["all"] != results["fitted leaf"]["mover"]["all"]
    agent = make_agent(f"mcts:8,leaf=fitted:{out}", GAME, seed=0)
    assert agent.params[13:].tolist() == weight_vector(record).tolist()
    env = make(GAME, num_players=2)
    env.reset(seed=2)
    assert env.action_mask()[agent.act(env)]


def test_the_shipped_fit_loads_and_differs_from_the_hand_set_leaf():
    record = read_fit(shipped_path(GAME), GAME)
    assert list(record["weights"]) == list(TERMS) and list(record["shape"]) == list(SHAPES)
    assert record["held_out"]["correlation"]["fitted"]["middle"] > \
        record["held_out"]["correlation"]["heuristic"]["middle"]
    agent = make_agent("mcts:16,leaf=fitted", GAME)
    assert agent.params[13:].tolist() == weight_vector(record).tolist()
    assert weight_vector(record).tolist() != weight_vector(_record()).tolist()


@pytest.mark.parametrize("change, message", [
    ({"format": "pickle"}, "not a meeplezoo-fitted-value file"),
    ({"rules": "TOPSECRET-API-KEY"}, "fitted for another game, not for carcassonne_v1"),
    ({"version": True}, "not a meeplezoo-fitted-value file of version 1"),
    ({"weights": dict(reversed(list(_record()["weights"].items())))}, "in order"),
    ({"weights": {**_record()["weights"], "score": float("nan")}}, "NaN is not a number"),
    ({"weights": {**_record()["weights"], "score": float("inf")}}, "Infinity is not a"),
    ({"weights": {**_record()["weights"], "score": "1"}}, "score must be a number in"),
    ({"weights": {**_record()["weights"], "score": 1e308}}, "score must be a number in"),
    ({"weights": {**_record()["weights"], "score": 10**400}}, "score must be a number in"),
    ({"weights": {**_record()["weights"], "score": True}}, "score must be a number in"),
    ({"notes": functools.reduce(lambda inner, _: [inner], range(70), 1)},
     "nested more than 64"),
    ({"shape": {"city_decay": 1.5, "road_decay": 0.5, "reach": 20.0}}, "city_decay must be"),
    ({"shape": {"reach": 20.0}}, "shape must name"),
])
def test_a_bad_weight_file_is_refused_with_one_line(tmp_path, change, message):
    path = tmp_path / "fit.json"
    path.write_text(json.dumps(_record(**change)))
    with pytest.raises(ValueError, match=message) as caught:
        make_agent(f"mcts:8,leaf=fitted:{path}", GAME)
    assert "TOPSECRET" not in str(caught.value) and "\n" not in str(caught.value)


def test_a_deeply_nested_fit_is_one_line(tmp_path):
    path = tmp_path / "fit.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        read_fit(path, GAME)


def test_the_search_ends_with_the_most_extreme_weights_a_fit_may_have(tmp_path):
    """With every weight at the bound (either sign), the leaf saturates but stays finite:
    the search plays its moves and its root values are numbers."""
    from meeplezoo.agents.fitted_values import MAX_WEIGHT

    for sign in (1, -1):
        path = tmp_path / f"extreme{sign}.json"
        path.write_text(json.dumps(_record(weights={n: sign * MAX_WEIGHT for n in TERMS})))
        agent = make_agent(f"mcts:20,leaf=fitted:{path}", GAME, seed=1)
        env = make(GAME, num_players=2)
        env.reset(seed=3)
        for _ in range(6):
            env.step(agent.act(env))
            children = agent.tree.root_children()
            assert children and all(np.isfinite(v) for _, _, v in children)


def test_missing_corrupt_and_foreign_fits_are_refused(tmp_path):
    with pytest.raises(ValueError, match="no such fitted-value file"):
        read_fit(tmp_path / "none.json", GAME)
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        read_fit(tmp_path / "bad.json", GAME)
    with pytest.raises(ValueError, match="saint_malo_v0 has no fitted leaf value"):
        make_agent("mcts:8,leaf=fitted", "saint_malo_v0")
    assert main(["saint_malo_v0", "--out", str(tmp_path / "x.json")]) == 2


def test_an_az_bot_takes_the_fitted_leaf_only_beside_its_network():
    """``az:...,leaf=fitted`` mixes the fitted value into its network's leaves; a search
    that leaves the network out is ``mcts:N,leaf=fitted``, never an ``az:`` bot."""
    bot = make_agent("az:default,sims=12,leaf=fitted,lam=0.5", GAME, seed=4)
    assert bot.network is not None and bot.knowledge.leaf == "fitted"
    env = make(GAME, num_players=2)
    env.reset(seed=9)
    assert env.action_mask()[bot.act(env)]
    with pytest.raises(ValueError, match="always searches with its network"):
        make_agent("az:default,sims=12,search=uct,lam=0", GAME)
    with pytest.raises(ValueError, match="bad az option 'leaf=evil'"):
        make_agent("az:default,leaf=evil", GAME)


def test_pooled_sets_keep_their_games_and_matchups_apart():
    from meeplezoo.benchmarks.studies.value_sets import ValueSet, pool_sets

    def value_set(game, players, games, matchups):
        rows = 2 * games
        arrays = {"states": np.zeros((rows, 3), np.int64), "third": np.zeros(rows, np.int8),
                  "decision": np.zeros(rows, np.int32), "length": np.ones(rows, np.int32),
                  "game_id": np.repeat(np.arange(games, dtype=np.int32), 2),
                  "matchup": np.zeros(rows, np.int8),
                  "rewards": np.zeros((rows, players)), "margins": np.zeros((rows, players))}
        header = {"game": game, "players": players, "matchups": matchups, "games": games}
        return ValueSet(header, arrays)

    both = pool_sets([value_set(GAME, 2, 3, ["greedy"]), value_set(GAME, 2, 2, ["mcts:200"])])
    assert both.game_id.tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4]
    assert both.matchup.tolist() == [0] * 6 + [1] * 4
    assert both.header["matchups"] == ["greedy", "mcts:200"] and both.header["games"] == 5
    with pytest.raises(ValueError, match="cannot pool a set of carcassonne_v1 at 3 seats"):
        pool_sets([value_set(GAME, 2, 3, ["greedy"]), value_set(GAME, 3, 2, ["greedy"])])
