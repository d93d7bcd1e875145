"""Readable tables: long agent specs print as short labels with a legend, so
every terminal table fits 120 columns, while the JSON reports keep the full names."""

from __future__ import annotations

import itertools

import numpy as np

from meeplezoo.benchmarks.arena import plot as arena_plot
from meeplezoo.benchmarks.arena.labels import WIDTH, legend, short_labels
from meeplezoo.benchmarks.rating import match, rate, ratings

LONG = [f"az:runs/experiment_{k}/checkpoint_with_a_long_name.pt,sims=64" for k in range(4)]
AGENTS = ["random", "greedy", "mcts:1000", "az:default,sims=64", *LONG]


def records(agents, deals=3, seed=0):
    """Every pair on ``deals`` deals in both seatings; the stronger (later) agent wins two
    games in three."""
    rng, out = np.random.default_rng(seed), []
    for (i, a), (j, b) in itertools.combinations(enumerate(agents), 2):
        for deal in range(deals):
            for seats in ([a, b], [b, a]):
                stronger = seats.index(b if j > i else a)
                winner = stronger if rng.random() < 2 / 3 else 1 - stronger
                rewards = [1.0 if s == winner else -1.0 for s in range(2)]
                out.append({"game": "hansa_v0", "seats": seats, "seed": deal, "num_players": 2,
                            "rewards": rewards, "scores": [10 + 5 * (r > 0) for r in rewards],
                            "ranks": [1 if r > 0 else 2 for r in rewards]})
    return out


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


def test_labels_keep_short_names_and_letter_the_long_ones():
    labels = short_labels(["random", "A", *LONG[:2]])
    assert labels["random"] == "random" and labels["A"] == "A"
    assert labels[LONG[0]] == "B" and labels[LONG[1]] == "C"     # "A" is taken by a name
    assert legend(labels) == ["where", f"  B = {LONG[0]}", f"  C = {LONG[1]}"]
    assert legend(short_labels(["random", "greedy"])) == []
    many = short_labels([f"{'x' * 20}{k}" for k in range(30)])
    assert len(set(many.values())) == 30 and many["x" * 20 + "26"] == "A1"


def test_the_arena_table_fits_and_says_who_is_who():
    summary = ratings.summarize(records(AGENTS), AGENTS, "random", 50, 0)
    summary.update(game="hansa_v0", timing={"seconds_per_game": 1.0, "decisions_per_game": 9,
                                            "seconds_per_decision": {a: 0.001 for a in AGENTS}})
    text = arena_plot.format_table(summary)
    assert widest(text) <= WIDTH, text
    for name in LONG:
        assert sum(line.endswith(f"= {name}") for line in text.splitlines()) == 1
    assert {r["agent"] for r in summary["ratings"]} == set(AGENTS)   # JSON: full names


def test_the_rate_table_and_the_match_report_fit():
    anchors = [{"agent": a, "rating": 100.0 * k, "low": 100.0 * k - 50, "high": 100.0 * k + 50}
               for k, a in enumerate(AGENTS[:4])]
    report = {"ladder": "hansa_v0-2p-ladder-v2", "agent": LONG[0], "rating": 250.0, "low": 200.0,
              "high": 300.0, "anchors": anchors, "games": 80, "deals": 40, "score": 0.6,
              "scale": "elo"}
    text = rate.table(report)
    assert widest(text) <= WIDTH and f"= {LONG[0]}" in text and "<- rated" in text
    result = {"game": "hansa_v0", "agents": [LONG[0], LONG[1]], "games": 40, "pairs": 20,
              "wins": 22, "draws": 0, "losses": 18, "score": 0.55, "elo": 35.0,
              "elo_interval": [-40.0, 110.0], "pentanomial": [2, 3, 8, 4, 3], "forfeits": 0,
              "llr": 0.4, "bounds": [-2.9, 2.9], "verdict": "inconclusive",
              "sprt": {"elo0": 0, "elo1": 10, "alpha": 0.05, "beta": 0.05}}
    text = match.format_report(result)
    assert widest(text) <= WIDTH and text.splitlines()[0].startswith("hansa_v0: A vs B")
