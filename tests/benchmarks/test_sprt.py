"""The SPRT: the constrained maximum likelihood against brute force, the LLR
against its normal approximation, measured error rates at the nominal ones over 1,000
simulated matches, the pentanomial of real records, and ``meeplezoo match``."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from meeplezoo.benchmarks.rating import match, sprt


def test_the_constrained_mle_is_the_best_distribution_of_that_mean_by_brute_force():
    """Trinomial (0, 1/2, 1): a distribution with mean s is one number a = P(0), so a grid
    over a finds the likelihood's maximum."""
    values = np.array([0.0, 0.5, 1.0])
    frequencies = np.array([0.2, 0.5, 0.3])
    for score in (0.45, 0.5, 0.58):
        best = sprt.constrained_mle(frequencies, score, values)
        np.testing.assert_allclose(best.sum(), 1.0, atol=1e-12)
        np.testing.assert_allclose((best * values).sum(), score, atol=1e-12)
        # P(1) = a + 2s - 1 (the mean), P(1/2) = 1 - P(0) - P(1) = 2 - 2a - 2s
        a = np.linspace(max(0, 1 - 2 * score), min(1 - score, 1), 200_001)[1:-1]
        grid = np.stack([a, 2 - 2 * a - 2 * score, a + 2 * score - 1], axis=1)
        feasible = (grid > 0).all(axis=1)
        likelihood = (frequencies * np.log(grid[feasible])).sum(axis=1)
        np.testing.assert_allclose(grid[feasible][likelihood.argmax()], best, atol=1e-4)


def test_the_pentanomial_mle_beats_every_feasible_perturbation():
    rng = np.random.default_rng(0)
    frequencies = np.array([0.1, 0.15, 0.4, 0.2, 0.15])
    best = sprt.constrained_mle(frequencies, 0.53)
    constraints = np.stack([np.ones(5), sprt.PAIR_SCORES])
    null = np.linalg.svd(constraints)[2][2:]          # moves keeping the sum and the mean
    top = (frequencies * np.log(best)).sum()
    for _ in range(2000):
        other = best + null.T @ rng.normal(scale=0.02, size=3)
        if (other > 0).all():
            assert (frequencies * np.log(other)).sum() <= top + 1e-12


def test_the_llr_agrees_with_its_normal_approximation_for_small_differences():
    counts = np.array([[300, 400, 1500, 450, 350], [80, 100, 500, 90, 70]])
    exact, normal = sprt.llr(counts, 0, 5), sprt.llr_normal(counts, 0, 5)
    np.testing.assert_allclose(exact, normal, rtol=0.02)
    assert exact[0] > 0 > exact[1]                     # A ahead in the first, behind after
    assert sprt.llr([0, 0, 0, 0, 0], 0, 10) == 0.0


@pytest.mark.parametrize("true_elo, accepted", [(0, "accepted_h1"), (20, "accepted_h0")])
def test_simulated_matches_err_at_the_nominal_rates(true_elo, accepted):
    """1,000 matches each, alpha = beta = 0.05: a binomial 3-sigma band is +-0.021."""
    result = sprt.simulate(true_elo, 0, 20, runs=1000, seed=true_elo + 1)
    assert result["undecided"] == 0
    assert 0.02 <= result[accepted] <= 0.071


def test_the_pentanomial_of_records_counts_complete_pairs():
    def record(seed, seats, ranks):
        return {"seed": seed, "seats": seats, "ranks": ranks}

    records = [record(0, ["a", "b"], [1, 2]), record(0, ["b", "a"], [1, 2]),   # 1 point
               record(1, ["a", "b"], [1, 2]), record(1, ["b", "a"], [2, 1]),   # 2
               record(2, ["a", "b"], [1, 1]), record(2, ["b", "a"], [1, 2]),   # 1/2
               record(3, ["a", "b"], [1, 2]),                                  # half a pair
               record(4, ["a", "c"], [1, 2]), record(4, ["c", "a"], [2, 1])]   # other agents
    assert match.pentanomial(records, "a", "b").tolist() == [0, 1, 1, 0, 1]
    assert match.pentanomial(records, "b", "a").tolist() == [1, 0, 1, 1, 0]


@pytest.mark.parametrize("text, message", [
    ("elo0=0", "needs elo0 and elo1"), ("elo0=10,elo1=0", "elo1 > elo0"),
    ("elo0=0,elo1=10,alpha=2", "alpha and beta"), ("elo=3", "bad --sprt item"),
    ("elo0=x,elo1=3", "not a number"), ("elo0=0,elo1=inf", "not a finite number"),
    ("elo0=-inf,elo1=0", "not a finite number"), ("elo0=nan,elo1=5", "not a finite number"),
    ("elo0=0,elo1=5,alpha=nan", "not a finite number"), ("elo0=0,elo1=1e30", "within"),
    ("elo0=-5000,elo1=0", "within"), ("elo0=5,elo1=5", "elo1 > elo0"),
    ("elo0=0,elo1=5,alpha=0.5", r"in \(0, 0\.5\)"), ("elo0=0,elo1=5,beta=0", r"in \(0, 0\.5\)"),
    ("elo0=0,elo1=5,beta=-1", r"in \(0, 0\.5\)"), ("0", "bad --sprt item"),
    ("abc", "bad --sprt item")])
def test_bad_sprt_settings_are_refused(text, message):
    with pytest.raises(ValueError, match=message):
        match.parse_sprt(text)


def test_match_stops_at_the_bound_and_replays_the_same_games(tmp_path, capsys):
    args = ["hansa", "greedy", "random", "--sprt", "elo0=0,elo1=100", "--chunk", "4",
            "--workers", "1", "--quiet"]
    assert match.main([*args, "--out", str(tmp_path / "one")]) == 0
    out = capsys.readouterr().out
    assert "H1 accepted: greedy is stronger than random" in out
    report = json.loads((tmp_path / "one" / "hansa_v0_match.json").read_text())
    assert report["verdict"] == "H1" and report["llr"] >= report["bounds"][1]
    assert report["games"] == 2 * report["pairs"] and report["games"] % 8 == 0
    assert match.main([*args, "--out", str(tmp_path / "two")]) == 0
    again = json.loads((tmp_path / "two" / "hansa_v0_match.json").read_text())
    assert again["pentanomial"] == report["pentanomial"] and again["llr"] == report["llr"]
    assert match.main(["hansa", "greedy", "greedy", "--out", str(tmp_path)]) == 2
    assert "two different agents" in capsys.readouterr().err


@pytest.fixture
def no_games(monkeypatch):
    """The arena's game loop stubbed: a command that gets past its checks fails at once."""
    from meeplezoo.benchmarks.arena import run as arena_run

    def played(*args, **kwargs):
        raise AssertionError("a game was started")

    monkeypatch.setattr(arena_run, "_drain", played)


def refused_by_the_cli(argv, capsys) -> str:
    """``meeplezoo ARGV`` answers one line on stderr and exit status 2; that line."""
    from meeplezoo.play import cli

    with warnings.catch_warnings():
        warnings.simplefilter("error")                    # a numpy warning fails too
        status = cli.main(argv)
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("sprt_text", ["elo0=0,elo1=inf", "elo0=0,elo1=nan", "elo0=3,elo1=0",
                                       "elo0=0,elo1=5,alpha=0.7,beta=0.7"])
def test_a_match_with_an_sprt_that_cannot_end_is_refused(no_games, tmp_path, capsys,
                                                         sprt_text):
    line = refused_by_the_cli(["match", "hansa", "greedy", "random", "--sprt", sprt_text,
                               "--out", str(tmp_path / "out")], capsys)
    assert line.startswith("meeplezoo: error: ") and ("--sprt" in line or "alpha" in line)
    assert not (tmp_path / "out").exists()


HUGE = str(10**30)


@pytest.mark.parametrize("flag, value", [
    *[(flag, value) for flag in ("--games", "--max-games", "--chunk", "--workers")
      for value in ("0", "-1", HUGE)],
    ("--games", "100001"), ("--seed", "-1"), ("--seed", HUGE),
    *[(flag, value) for flag in ("--move-limit", "--time-per-move")
      for value in ("0", "-1", "nan", "inf", "-inf", "1e30", "3601")]])
def test_match_refuses_a_number_out_of_range_before_any_game(no_games, tmp_path, capsys,
                                                             flag, value):
    line = refused_by_the_cli(["match", "hansa", "greedy", "random", f"{flag}={value}",
                               "--out", str(tmp_path / "out")], capsys)
    assert line.startswith(f"meeplezoo: error: {flag} ")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("agents", [["abc", "random"], ["random", "0"],
                                    ["random", "process:"]])
def test_match_refuses_a_bad_agent_before_any_game(no_games, tmp_path, capsys, agents):
    refused_by_the_cli(["match", "hansa", *agents, "--out", str(tmp_path / "out")], capsys)
    assert not (tmp_path / "out").exists()
