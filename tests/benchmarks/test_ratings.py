"""Ratings: Wilson intervals, Bradley–Terry MLE, OpenSkill, bootstrap, significance.

Synthetic records are built here in the arena's format (``seats``, ``ranks``, ``seed``), from
known strengths, so the fits can be checked against the truth and a slow reference fit.
"""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest

from meeplezoo.benchmarks.rating import ratings

needs_openskill = pytest.mark.skipif(importlib.util.find_spec("openskill") is None,
                                     reason="pip install openskill")


def two_player_records(elos: dict[str, float], games: int, seed: int = 0,
                       draw: float = 0.0) -> list[dict]:
    """Games between random pairs with Bradley–Terry outcomes (a share ``draw`` of draws)."""
    rng = np.random.default_rng(seed)
    names = list(elos)
    records = []
    for k in range(games):
        i, j = rng.choice(len(names), 2, replace=False)
        a, b = names[i], names[j]
        if rng.random() < draw:
            ranks = [1, 1]
        else:
            p = 1.0 / (1.0 + 10 ** ((elos[b] - elos[a]) / 400))
            ranks = [1, 2] if rng.random() < p else [2, 1]
        records.append({"seats": [a, b], "ranks": ranks, "seed": k})
    return records


def mm_reference(points: np.ndarray, iterations: int = 20000) -> np.ndarray:
    """Hunter's MM iteration for Bradley–Terry, the slow obvious way (natural log units)."""
    n = points.shape[0]
    games = points + points.T
    gamma = np.ones(n)
    for _ in range(iterations):
        for i in range(n):
            denominator = sum(games[i, j] / (gamma[i] + gamma[j]) for j in range(n) if j != i)
            gamma[i] = points[i].sum() / denominator
        gamma /= gamma[0]
    return np.log(gamma)


def test_wilson_matches_hand_computed_values():
    low, high = ratings.wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=5e-4) and high == pytest.approx(0.9433, abs=5e-4)
    low, high = ratings.wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=5e-4)
    low, high = ratings.wilson(5, 10)
    assert low + high == pytest.approx(1.0) and low == pytest.approx(0.2366, abs=5e-4)
    assert ratings.wilson(0, 0) == (0.0, 1.0)
    assert ratings.wilson(7.5, 10)[0] < 0.75 < ratings.wilson(7.5, 10)[1]   # half points


def test_newton_fit_equals_the_mm_reference_without_prior():
    points = np.array([[0, 7, 4, 9], [3, 0, 5, 6], [6, 5, 0, 8.5], [1, 4, 1.5, 0]], float)
    fitted = ratings.fit_bradley_terry(points, anchor=0, prior=0.0)
    np.testing.assert_allclose(fitted, mm_reference(points), atol=1e-6)


def test_bradley_terry_recovers_known_strengths():
    truth = {"random": 0.0, "a": 200.0, "b": -100.0, "c": 450.0}
    records = two_player_records(truth, 6000, seed=3)
    elo = ratings.bradley_terry_elo(records, list(truth), "random")
    np.testing.assert_allclose(elo, list(truth.values()), atol=35)


def test_symmetric_results_give_equal_ratings_and_the_anchor_is_exactly_zero():
    records = []
    for k, (a, b) in enumerate([("x", "y"), ("y", "z"), ("x", "z")] * 10):
        records.append({"seats": [a, b], "ranks": [1, 2], "seed": k})
        records.append({"seats": [a, b], "ranks": [2, 1], "seed": k})
        records.append({"seats": [b, a], "ranks": [1, 1], "seed": k})
    elo = ratings.bradley_terry_elo(records, ["x", "y", "z"], "y")
    assert elo[1] == 0.0
    np.testing.assert_allclose(elo, 0.0, atol=1e-9)


def test_anchor_choice_only_shifts_ratings():
    truth = {"random": 0.0, "greedy": 300.0, "mcts": 500.0}
    records = two_player_records(truth, 600, seed=1)
    by_random = ratings.bradley_terry_elo(records, list(truth), "random")
    by_greedy = ratings.bradley_terry_elo(records, list(truth), "greedy")
    assert by_random[0] == 0.0 and by_greedy[1] == 0.0
    np.testing.assert_allclose(by_random - by_random[1], by_greedy, atol=1e-6)


def test_a_perfect_record_stays_finite_through_the_prior():
    records = [{"seats": ["greedy", "random"], "ranks": [1, 2], "seed": k} for k in range(40)]
    elo = ratings.bradley_terry_elo(records, ["random", "greedy"], "random", prior=1.0)
    assert elo[1] == pytest.approx(400 * math.log10(40.5 / 0.5))


def test_disconnected_agents_are_refused():
    records = [{"seats": ["a", "b"], "ranks": [1, 2], "seed": 0},
               {"seats": ["c", "d"], "ranks": [1, 2], "seed": 0}]
    with pytest.raises(ValueError, match="connect"):
        ratings.bradley_terry_elo(records, ["a", "b", "c", "d"], "a")


def test_summary_intervals_contain_the_estimate_and_order_is_right():
    truth = {"random": 0.0, "greedy": 250.0, "mcts:50": 400.0}
    summary = ratings.summarize(two_player_records(truth, 900, seed=2, draw=0.1),
                                list(truth), resamples=200)
    assert summary["method"] == "bradley_terry" and summary["anchor"] == "random"
    assert [r["agent"] for r in summary["ratings"]] == ["mcts:50", "greedy", "random"]
    for row in summary["ratings"]:
        assert row["low"] <= row["rating"] <= row["high"]
        assert abs(row["rating"] - truth[row["agent"]]) < 80
    anchor = next(r for r in summary["ratings"] if r["agent"] == "random")
    assert anchor["rating"] == anchor["low"] == anchor["high"] == 0.0
    strong = ratings.significantly_better(summary, "mcts:50", "random")
    assert strong["wilson"] and strong["bootstrap"]
    assert not ratings.significantly_better(summary, "random", "greedy")["bootstrap"]


def test_equal_agents_are_not_significantly_different():
    truth = {"random": 0.0, "twin": 0.0}
    summary = ratings.summarize(two_player_records(truth, 200, seed=4), list(truth),
                                resamples=200)
    verdict = ratings.significantly_better(summary, "twin", "random")
    assert not verdict["wilson"] and not verdict["bootstrap"]
    assert verdict["difference"]["low"] < 0 < verdict["difference"]["high"]


def test_head_to_head_from_multiplayer_ranks_counts_every_pair_of_seats():
    records = [{"seats": ["a", "b", "c"], "ranks": [1, 2, 2], "seed": 0},
               {"seats": ["b", "a", "a"], "ranks": [1, 3, 2], "seed": 0}]
    points = ratings.pairwise_points(records, ["a", "b", "c"])
    # Game 1: a beats b and c, b ties c.  Game 2: b beats both a's; a vs a is skipped.
    np.testing.assert_allclose(points, [[0, 1, 1], [2, 0, 0.5], [0, 0.5, 0]])
    rows = {(r["agent"], r["opponent"]): r for r in ratings.head_to_head(records, ["a", "b", "c"])}
    assert rows[("b", "a")]["games"] == 3 and rows[("b", "a")]["score"] == pytest.approx(2 / 3)


def plackett_luce_records(strength: dict[str, float], games: int, seed: int = 0) -> list[dict]:
    """Three-player games; finishing order drawn from Plackett–Luce with exp(strength)."""
    rng = np.random.default_rng(seed)
    names = list(strength)
    records = []
    for k in range(games):
        seats = [names[i] for i in rng.choice(len(names), 3, replace=False)]
        weights = np.exp([strength[s] for s in seats])
        order = []
        remaining = list(range(3))
        while remaining:
            w = weights[remaining] / weights[remaining].sum()
            order.append(remaining.pop(rng.choice(len(remaining), p=w)))
        ranks = [0] * 3
        for place, seat in enumerate(order):
            ranks[seat] = place + 1
        records.append({"seats": seats, "ranks": ranks, "seed": k // 3})
    return records


@needs_openskill
def test_plackett_luce_orders_agents_and_pins_the_anchor():
    strength = {"random": 0.0, "weak": 0.5, "greedy": 1.5, "strong": 3.0}
    records = plackett_luce_records(strength, 400, seed=5)
    summary = ratings.summarize(records, list(strength), resamples=30)
    assert summary["method"] == "plackett_luce" and summary["num_players"] == 3
    assert [r["agent"] for r in summary["ratings"]] == ["strong", "greedy", "weak", "random"]
    for row in summary["ratings"]:
        assert row["low"] <= row["rating"] <= row["high"] and row["sigma"] > 0
        if row["agent"] == "random":
            assert row["rating"] == row["mu"] == row["ordinal"] == 0.0
    assert ratings.significantly_better(summary, "strong", "random")["bootstrap"]


def test_summary_refuses_mixed_player_counts_and_unknown_anchor():
    records = two_player_records({"random": 0, "b": 0}, 10)
    with pytest.raises(ValueError, match="anchor"):
        ratings.summarize(records, ["random", "b"], anchor="c")
    records.append({"seats": ["random", "b", "b"], "ranks": [1, 2, 3], "seed": 0})
    with pytest.raises(ValueError, match="player counts"):
        ratings.summarize(records, ["random", "b"])
