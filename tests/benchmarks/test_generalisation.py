"""The MeepleZoo-Gen protocol: which boards each set plays, the same deals and both
seatings in every set, the scores and gaps, resuming, and one clear error per bad input."""

from __future__ import annotations

import json

import pytest

from meeplezoo.benchmarks.studies import generalisation as gen
from meeplezoo.envs.core.boards import BoardRangeError, split


def test_the_sets_play_the_same_deals_in_both_seatings_on_their_boards():
    jobs = gen.schedule("hansa_v0", "greedy", ["random", "mcts:8"], 4, 100, split("train"),
                        split("test"))
    assert len(jobs) == 3 * 4 * 2 * 2
    by_set = {name: [j for j in jobs if j["set"] == name] for name in gen.SETS}
    for mine in by_set.values():
        assert sorted({j["seed"] for j in mine}) == [100, 101, 102, 103]
        for job in mine:
            flipped = [j for j in mine if j["seed"] == job["seed"]
                       and j["seats"] == job["seats"][::-1]]
            assert len(flipped) == 1 and flipped[0]["env_options"] == job["env_options"]
    assert {j["env_options"]["board"] for j in by_set["test"]} == {
        f"generated:{1_000_000 + i}" for i in range(4)}
    assert {j["env_options"]["board"] for j in by_set["train"]} == {
        f"generated:{s}" for s in (0, 2500, 5000, 7500)}
    assert all(j["env_options"] == {} for j in by_set["printed"])
    serenissima = gen.schedule("serenissima_v0", "greedy", ["random"], 1, 0, split("train"),
                               split("test"), ["test"])
    assert serenissima[0]["env_options"] == {"map": "generated:1000000"}


def test_long_specs_that_differ_past_the_cut_keep_files_of_their_own():
    """A file label is cut at 80 characters; two specs alike up to there (one fitted-value
    file, two depths) must not share one results file and overwrite one summary."""
    fit = "results/fitted_value/serenissima_generated_train.json"
    deep, shallow = (f"mcts:300,leaf=fitted:{fit},depth={d},cut=leaf" for d in (20, 12))
    assert gen.label_of(deep) != gen.label_of(shallow)
    assert len(gen.label_of(deep)) == 80 and gen.label_of(deep) == gen.label_of(deep)
    assert gen.label_of("az:default,sims=64") == "az_default_sims=64"     # short: as it was


def test_bad_splits_and_deals_are_refused():
    with pytest.raises(BoardRangeError, match="not a board file"):
        gen.seed_range("board.json", "--test-split")
    with pytest.raises(BoardRangeError, match="not a board file"):
        gen.seed_range("generated:17", "--test-split")
    with pytest.raises(BoardRangeError, match="reversed"):
        gen.seed_range("generated:9-1", "--train-split")
    with pytest.raises(ValueError, match="201 deals need 201 boards"):
        gen.schedule("hansa_v0", "greedy", ["random"], 201, 0, split("train"), split("test"))


def test_scores_and_gaps_from_records():
    def game(name, agent_first, won):
        seats = ["bot", "opp"] if agent_first else ["opp", "bot"]
        ranks = [1, 2] if won == agent_first else [2, 1]
        return {"set": name, "seats": seats, "ranks": ranks if won is not None else [1, 1]}

    records = [game("train", True, True), game("train", False, True),
               game("test", True, True), game("test", False, False),
               game("printed", True, None), game("printed", False, True)]
    summary = gen.summarise(records, "bot", ["opp"])
    scores = {r["set"]: r["score"] for r in summary["rows"]}
    assert scores == {"train": 1.0, "test": 0.5, "printed": 0.75}
    assert summary["gaps"]["opp"] == {"train_minus_test": 0.5, "printed_minus_test": 0.25}
    assert "gap vs opp: train - test +0.500" in gen.format_table(summary)


def test_a_run_plays_every_game_once_and_resumes(tmp_path, capsys):
    argv = ["hansa", "--agent", "greedy", "--opponents", "random", "--deals", "2",
            "--workers", "1", "--out", str(tmp_path), "--quiet", "--seed", "5"]
    assert gen.main(argv) == 0
    records = [json.loads(line) for line in (tmp_path / "hansa_v0_greedy.jsonl").open()]
    assert len(records) == 12
    assert {r["env_options"].get("board") for r in records if r["set"] == "test"} == {
        "generated:1000000", "generated:1000001"}
    summary = json.loads((tmp_path / "hansa_v0_greedy_summary.json").read_text())
    assert [(r["set"], r["games"]) for r in summary["rows"]] == [
        ("train", 4), ("test", 4), ("printed", 4)]
    assert "gap vs random" in capsys.readouterr().out
    assert gen.main(argv) == 0                      # nothing left to play
    assert len((tmp_path / "hansa_v0_greedy.jsonl").read_text().splitlines()) == 12


def test_sets_played_one_at_a_time_with_their_own_deals_join_in_one_summary(tmp_path):
    """``--sets test`` then ``--sets train --deals 1``: a last run with every set and
    ``--set-deals`` plays nothing new and writes one summary with both sets and the gap."""
    common = ["hansa", "--agent", "greedy", "--opponents", "random", "--workers", "1",
              "--out", str(tmp_path), "--quiet"]
    results = tmp_path / "hansa_v0_greedy.jsonl"
    assert gen.main([*common, "--sets", "test", "--deals", "2"]) == 0
    assert gen.main([*common, "--sets", "train", "--deals", "1"]) == 0
    assert len(results.read_text().splitlines()) == 6
    assert gen.main([*common, "--sets", "test", "train", "--deals", "2",
                     "--set-deals", "train=1"]) == 0
    assert len(results.read_text().splitlines()) == 6              # nothing played again
    summary = json.loads((tmp_path / "hansa_v0_greedy_summary.json").read_text())
    assert [(r["set"], r["games"]) for r in summary["rows"]] == [("train", 2), ("test", 4)]
    assert "train_minus_test" in summary["gaps"]["random"]
    assert summary["deals"] == {"train": 1, "test": 2, "printed": 2}
    jobs = gen.schedule("hansa_v0", "greedy", ["random"], {"train": 3, "test": 1, "printed": 2},
                        0, split("train"), split("test"))
    assert [sum(j["set"] == name for j in jobs) for name in gen.SETS] == [6, 2, 4]


@pytest.mark.parametrize("argv, words", [
    (["saint_malo", "--agent", "greedy"], "saint_malo_v0 has no generated boards"),
    (["hansa", "--agent", "greedy", "--test-split", "b.json"], "not a board file"),
    (["hansa", "--agent", "nobody"], "nobody"),
    (["hansa", "--agent", "greedy", "--opponents", "greedy"], "also among the opponents"),
    (["hansa", "--agent", "greedy", "--deals", "0"], "--games"),
    (["hansa", "--agent", "greedy", "--opponents", "random", "--set-deals",
      "dev=3"], "write SET=N"),
    (["hansa", "--agent", "greedy", "--opponents", "random", "--set-deals",
      "test=0"], "write SET=N"),
    (["hansa", "--agent", "greedy", "--opponents", "random", "--set-deals",
      "test=201"], "201 deals need 201 boards"),
    (["hansa", "--checkpoints", "/nonexistent/folder"], "no iter_<N>.pt")])
def test_bad_input_is_one_clear_line(argv, words, capsys, tmp_path):
    assert gen.main([*argv, "--out", str(tmp_path)]) == 2
    assert words in capsys.readouterr().err


def test_overlapping_splits_warn(tmp_path):
    with pytest.warns(UserWarning, match="overlaps"):
        gen.main(["hansa", "--agent", "greedy", "--opponents", "random", "--deals", "1",
                  "--sets", "test", "--train-split", "generated:999000-1000000",
                  "--workers", "1", "--out", str(tmp_path), "--quiet"])
