"""The strength bar's reading of an arena summary (issue 17, bar 2)."""

from meeplezoo.benchmarks.az_bars import bar_row


def _summary(score: float, low: float, think_az: float) -> dict:
    return {"head_to_head": [{"agent": "az:default,sims=64", "opponent": "mcts:1000",
                              "games": 400, "score": score, "low": low, "high": 0.7}],
            "timing": {"seconds_per_decision": {"az:default,sims=64": think_az,
                                                "mcts:1000": 0.03}}}


def test_the_bar_needs_the_score_its_lower_bound_and_a_tenth_of_the_time():
    assert bar_row(_summary(0.58, 0.53, 0.002), "az:default,sims=64")["met"]
    assert not bar_row(_summary(0.54, 0.51, 0.002), "az:default,sims=64")["met"]   # score
    assert not bar_row(_summary(0.56, 0.49, 0.002), "az:default,sims=64")["met"]   # bound
    slow = bar_row(_summary(0.60, 0.55, 0.004), "az:default,sims=64")
    assert not slow["met"] and abs(slow["think_ratio"] - 0.004 / 0.03) < 1e-12
    assert bar_row(_summary(0.6, 0.55, 0.002), "az:other") is None
