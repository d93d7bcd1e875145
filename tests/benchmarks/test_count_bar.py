"""The strength bar at one player count and that count's ladder from the same games."""

from __future__ import annotations

import json

import pytest

from meeplezoo.benchmarks.arena import arena
from meeplezoo.benchmarks.rating import ladder, rate
from meeplezoo.benchmarks.studies import count_bar


def test_the_table_seats_distinct_agents_and_enough_games():
    assert count_bar.table_agents("az:all", 2) == ["az:all", "mcts:1000"]
    assert count_bar.table_agents("az:all", 3) == ["az:all", "mcts:1000", "greedy", "random"]
    assert count_bar.table_agents("az:all", 4) == ["az:all", "mcts:1000", "greedy", "random"]
    assert count_bar.table_agents("greedy", 4) == ["greedy", "mcts:1000", "random", "mcts:200"]
    assert len(set(count_bar.table_agents("x", 6))) == 6
    with pytest.raises(ValueError, match="at most 6 seats"):
        count_bar.table_agents("x", 7)
    assert count_bar.deals_for(300, 4) == 75 and count_bar.deals_for(300, 7) == 43
    assert count_bar.deals_for(300, 3, 4) == 25           # 4 tables x 3 seatings a deal
    assert count_bar.folder_name("hansa_v0", 3, "az:all,sims=64") == "hansa_v0_3p_az_all_sims_64"


def test_the_ladder_is_built_from_the_bars_games_without_playing_again(tmp_path,
                                                                        monkeypatch):
    done = count_bar.run("hansa", 3, "mcts:20", games=12, seed=4242, results=tmp_path,
                         ladder_version=5, workers=1, work=tmp_path / "work",
                         ladder_out=tmp_path / "ladders", search="mcts:40")
    bar = tmp_path / "bot_bars" / "hansa_v0_3p_mcts_20"
    summary = json.loads((bar / "hansa_v0_3p_summary.json").read_text())
    assert summary["games"] == 12 and summary["anchor"] == "greedy"      # 4 tables x 3
    assert {row["agent"] for row in summary["ratings"]} == {"mcts:20", "mcts:40", "greedy",
                                                            "random"}
    assert "--seed 4242" in summary["command"]
    frozen = ladder.load_ladder(done["ladder"])
    assert frozen["name"] == "hansa_v0-3p-ladder-v5" and frozen["games"] == 12
    assert frozen["deals"] == {"first_seed": 4242, "count": 1}
    assert "--first-seed 4242" in frozen["command"]
    bar_games = [json.loads(line) for line in (bar / "hansa_v0_3p.jsonl").open()]
    assert sorted((r["seed"], r["seats"], r["scores"]) for r in bar_games) == \
        sorted((r["seed"], r["seats"], r["scores"]) for r in frozen["records"])

    # built again, the ladder plays nothing: every game is in the work folder already
    def no_games(todo, *args, **kwargs):
        assert not todo, "a game was played again"
    monkeypatch.setattr(arena, "play_jobs", no_games)
    rebuilt = ladder.build("hansa_v0", frozen_anchor_names(frozen), 1, 5, 3,
                           work=tmp_path / "work", out=tmp_path / "l2", first_seed=4242,
                           progress=False)
    assert ladder.load_ladder(str(rebuilt))["games"] == 12
    monkeypatch.undo()
    report = rate.rate("hansa_v0", "random", str(rebuilt), players=3, out=tmp_path / "rate",
                       workers=1, progress=False, log=lambda line: None, max_deals=1)
    assert report["games"] > 0 and report["low"] <= report["rating"] <= report["high"]


def frozen_anchor_names(frozen: dict) -> list[str]:
    return [anchor["agent"] for anchor in frozen["anchors"]]
