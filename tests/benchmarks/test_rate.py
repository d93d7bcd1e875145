"""Frozen ladders and ``meeplezoo rate``: the fixed-anchor fit against brute
force, an anchor rated as if new lands on its frozen rating (a ladder built here, and every
shipped ladder from its records), the same agent plays the same games, early stopping,
and bad ladders refused."""

from __future__ import annotations

import gzip
import json
import math
import re

import numpy as np
import pytest

from meeplezoo.benchmarks.rating import ladder, rate

GAME = "hansa_v0"
ANCHORS = ["random", "greedy", "mcts:20"]


@pytest.fixture(scope="module")
def small_ladder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ladder")
    path = ladder.build(GAME, ANCHORS, deals=4, work=folder / "work", out=folder,
                        workers=1, resamples=50, progress=False)
    return path


def test_the_fixed_anchor_fit_is_the_likelihood_maximum_by_brute_force():
    wins, games = np.array([7.0, 3.5, 1.0]), np.array([8.0, 8.0, 6.0])
    elos = np.array([0.0, 300.0, 650.0])
    best = ladder.fit_fixed(wins, games, elos, prior=1.0)
    grid = np.linspace(-500, 1500, 200_001)
    w, g = wins + 0.5, games + 1.0                          # one virtual draw per anchor
    p = 1 / (1 + 10 ** ((elos[None, :] - grid[:, None]) / 400))
    likelihood = (w * np.log(p) + (g - w) * np.log(1 - p)).sum(axis=1)
    assert best == pytest.approx(grid[likelihood.argmax()], abs=0.02)


def test_the_ladder_ships_its_records_and_ratings(small_ladder):
    frozen = ladder.load_ladder(str(small_ladder))
    assert frozen["name"] == "hansa_v0-2p-ladder-v1" and frozen["games"] == 24
    assert len(frozen["records"]) == 24 and frozen["deals"] == {"first_seed": 0, "count": 4}
    by_agent = {a["agent"]: a for a in frozen["anchors"]}
    assert set(by_agent) == set(ANCHORS) and by_agent["random"]["rating"] == 0.0
    assert by_agent["greedy"]["rating"] > by_agent["random"]["rating"]


@pytest.mark.parametrize("anchor", ["greedy", "mcts:20"])
def test_an_anchor_rated_as_new_lands_on_its_frozen_rating(small_ladder, tmp_path, anchor):
    frozen = {a["agent"]: a for a in ladder.load_ladder(str(small_ladder))["anchors"]}
    report = rate.rate(GAME, anchor, str(small_ladder), precision=1e-9, out=tmp_path,
                       workers=1, progress=False, log=lambda line: None)
    assert report["deal_set"]["used"] == 4 and report["games"] == 16   # all its deals
    assert report["low"] <= frozen[anchor]["rating"] <= report["high"]
    assert report["rating"] == pytest.approx(frozen[anchor]["rating"], abs=1.0)


@pytest.mark.parametrize("name", ladder.shipped())
def test_every_shipped_ladder_rates_its_anchors_back_onto_their_ratings(name):
    frozen = ladder.load_ladder(name, check_bots=False)          # its records alone
    ratings = {a["agent"]: a["rating"] for a in frozen["anchors"]}
    for anchor, rating in ratings.items():
        if anchor == frozen["anchor"]:
            continue
        fit = ladder.fit_on_ladder(frozen, frozen["records"], anchor, resamples=50)
        assert fit["low"] <= rating <= fit["high"], (anchor, rating, fit)


def test_the_same_agent_plays_the_same_games_and_reports(small_ladder, tmp_path, capsys):
    agent = "agents/examples/my_agent.py:MostMovesAgent"
    args = ["hansa", "--agent", agent, "--ladder", str(small_ladder), "--quiet", "--plot",
            "--min-deals", "2", "--chunk", "2", "--precision", "5000"]
    assert rate.main([*args, "--out", str(tmp_path / "one")]) == 0
    out = capsys.readouterr().out
    assert "<- rated" in out and "| `hansa_v0-2p-ladder-v1` |" in out and "plot:" in out
    assert "ratings compare only with ratings on hansa_v0-2p-ladder-v1" in " ".join(out.split())
    assert rate.main([*args, "--out", str(tmp_path / "two")]) == 0

    def games(folder):
        path = next(folder.rglob("*.jsonl"))
        found = [{k: v for k, v in json.loads(line).items() if "seconds" not in k}
                 for line in path.read_text().splitlines()]
        return sorted(found, key=lambda r: (r["seed"], r["seats"]))   # finishing order varies

    one, two = games(tmp_path / "one"), games(tmp_path / "two")
    assert one == two and len(one) == 2 * 2 * 3             # stopped early: 2 deals x 3 x 2
    report = json.loads(next((tmp_path / "one").rglob("*_rating.json")).read_text())
    assert report["deal_set"]["used"] == 2 and math.isfinite(report["rating"])


def test_an_extended_ladder_rates_past_its_reference_deals(small_ladder, tmp_path):
    path = ladder.extend(str(small_ladder), 6, version=2)
    old, new = ladder.load_ladder(str(small_ladder)), ladder.load_ladder(str(path))
    assert new["name"] == "hansa_v0-2p-ladder-v2" and new["extends"] == old["name"]
    assert new["anchors"] == old["anchors"] and new["records"] == old["records"]
    assert ladder.rating_deals(new) == {"first_seed": 0, "count": 6}
    assert ladder.rating_deals(old) == old["deals"]
    report = rate.rate(GAME, "greedy", str(path), precision=1e-9, out=tmp_path, workers=1,
                       progress=False, log=lambda line: None)
    assert report["deal_set"] == {"first_seed": 0, "count": 6, "used": 6}
    assert report["games"] == 6 * 2 * 2              # 2 anchors, both seatings, 6 deals
    played = sorted(json.dumps({k: v for k, v in r.items() if "seconds" not in k}, sort_keys=True)
                    for r in map(json.loads, next(tmp_path.rglob("*.jsonl")).read_text()
                                 .splitlines()) if r["seed"] < 4)
    reference = sorted(json.dumps({k: v for k, v in r.items() if "seconds" not in k},
                                  sort_keys=True) for r in old["records"] if "greedy" in r["seats"])
    assert played == reference                       # the reference deals replay exactly
    with pytest.raises(ValueError, match="fewer than the 4 reference deals"):
        ladder.extend(str(small_ladder), 3, version=3)
    with pytest.raises(ValueError, match="own version"):
        ladder.extend(str(small_ladder), 8, version=1)
    shrunk = json.loads(path.read_text())
    shrunk["rating_deals"]["count"] = 2
    (tmp_path / path.name).write_text(json.dumps(shrunk))
    (tmp_path / shrunk["records"]).write_bytes(small_ladder.with_name(shrunk["records"])
                                               .read_bytes())
    with pytest.raises(ValueError, match="must start with the reference deals"):
        ladder.load_ladder(str(tmp_path / path.name))


def test_a_perfect_record_never_stops_early(small_ladder, tmp_path):
    report = rate.rate(GAME, "agents/examples/my_agent.py:first_legal", str(small_ladder),
                       precision=5000, chunk=1, min_deals=1, out=tmp_path, workers=1,
                       progress=False, log=lambda line: None)
    assert report["score"] == 0.0 and report["deal_set"]["used"] == 4


def test_bad_ladders_are_refused(small_ladder, tmp_path):
    with pytest.raises(ValueError, match="no ladder 'nope'"):
        ladder.load_ladder("nope")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ValueError, match="not a readable ladder"):
        ladder.load_ladder(str(broken))
    text = json.loads(small_ladder.read_text())
    records = small_ladder.with_name(text["records"])
    tampered = tmp_path / text["records"]
    raw = gzip.decompress(records.read_bytes()).replace(b'"ranks": [1, 2]', b'"ranks": [2, 1]', 1)
    tampered.write_bytes(gzip.compress(raw))
    (tmp_path / small_ladder.name).write_text(small_ladder.read_text())
    with pytest.raises(ValueError, match="checksum"):
        ladder.load_ladder(str(tmp_path / small_ladder.name))
    with pytest.raises(ValueError, match="is for hansa_v0, not saint_malo_v0"):
        rate.rate("saint_malo", "random", str(small_ladder), out=tmp_path, progress=False)
    with pytest.raises(ValueError, match="include it in --anchors"):
        ladder.build(GAME, ["greedy", "mcts:20"], deals=1, work=tmp_path, out=tmp_path)


def test_the_precision_figure_replays_prefixes_of_the_ladder(small_ladder):
    from meeplezoo.benchmarks.studies import rate_precision

    frozen = ladder.load_ladder(str(small_ladder))
    row = rate_precision.games_needed(frozen, "mcts:20", precision=1e6)
    assert row["reached"] and row["deals"] >= 1 and row["games"] == 4 * row["deals"]
    never = rate_precision.games_needed(frozen, "mcts:20", precision=1e-6)
    assert not never["reached"] and never["games"] == 16
    assert "| `greedy` |" in rate_precision.leaderboard(frozen)


def test_the_time_control_figure_times_a_budgeted_search(tmp_path):
    from meeplezoo.benchmarks.speed import time_control

    row = time_control.overshoot(GAME, budget=0.01, moves=3)
    assert row["moves"] == 3 and row["budget_ms"] == 10.0
    assert set(row["overshoot_ms"]) == {"median", "p95", "max"}


def test_a_three_player_ladder_rates_with_openskill_and_fixed_anchors(tmp_path):
    path = ladder.build(GAME, ANCHORS, deals=3, players=3, work=tmp_path / "work",
                        out=tmp_path, workers=1, resamples=20, progress=False)
    frozen = ladder.load_ladder(str(path))
    assert frozen["name"] == "hansa_v0-3p-ladder-v1" and frozen["method"] == "plackett_luce"
    assert frozen["games"] == 9 and all("mu" in a and "sigma" in a for a in frozen["anchors"])
    greedy = next(a for a in frozen["anchors"] if a["agent"] == "greedy")
    report = rate.rate(GAME, "agents/examples/my_agent.py:MostMovesAgent", str(path),
                       precision=1e-9, players=3, out=tmp_path / "rate", workers=1,
                       progress=False, log=lambda line: None)
    # X replaces no anchor: tables of X with two of the three anchors, 3 rotations x 3 deals
    assert report["games"] == 3 * 3 * 3 and report["scale"] == "openskill_mu"
    assert report["low"] <= report["rating"] <= report["high"]
    again = rate.rate(GAME, "agents/examples/my_agent.py:MostMovesAgent", str(path),
                      players=3, out=tmp_path / "rate", workers=1, progress=False,
                      log=lambda line: None)           # resumed: no game played again
    assert again["precision"] == rate.DEFAULT_PRECISION["openskill_mu"] and again["games"] >= 9
    fit = ladder.fit_on_ladder(frozen, frozen["records"], "greedy", resamples=20)
    assert fit["games"] == 9 and fit["low"] <= greedy["rating"] <= fit["high"]


HUGE = str(10**30)


@pytest.mark.parametrize("flag, value", [
    *[("--precision", v) for v in ("0", "-1", "nan", "inf", "-inf", "1e30", "10001")],
    *[("--players", v) for v in ("0", "-1", "1", "7", HUGE)],
    *[(flag, v) for flag in ("--max-deals", "--chunk", "--min-deals", "--workers")
      for v in ("0", "-1", HUGE)],
    ("--max-deals", "201"),                      # the default hansa ladder has 200 deals
    *[(flag, v) for flag in ("--move-limit", "--time-per-move")
      for v in ("0", "-1", "nan", "inf", "-inf", "1e30", "3601")]])
def test_rate_refuses_a_number_out_of_range_before_any_game(monkeypatch, tmp_path, capsys,
                                                            flag, value):
    import warnings

    from meeplezoo.benchmarks.arena import run as arena_run
    from meeplezoo.play import cli

    def played(*args, **kwargs):
        raise AssertionError("a game was started")

    monkeypatch.setattr(arena_run, "_drain", played)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        status = cli.main(["rate", "hansa", "--agent", "random", f"{flag}={value}", "--out",
                           str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert status == 2 and len(lines) == 1, err
    assert lines[0].startswith(f"meeplezoo: error: {flag} ") and not (tmp_path / "out").exists()


def test_the_ladder_the_help_names_is_one_rate_takes():
    # an example naming a retired ladder version errors on a user's first try
    named = re.findall(r"--ladder (\S+)", rate.__doc__)
    assert named
    for name in named:
        assert ladder.load_ladder(name)["name"] == name
