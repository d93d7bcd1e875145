"""The arena: scheduling, duplicate seeds, parallel resumable runs, ratings and the CLI.

Tiny tournaments (random vs greedy on Saint Malo, a few deals) keep this file fast.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter

import pytest

from meeplezoo.benchmarks.arena import arena
from meeplezoo.benchmarks.arena import run as arena_run
from meeplezoo.benchmarks.rating import ratings

needs_openskill = pytest.mark.skipif(importlib.util.find_spec("openskill") is None,
                                     reason="pip install openskill")
GAME = "saint_malo_v0"


@pytest.fixture(scope="module")
def two_player_run(tmp_path_factory):
    """Three deals in two worker processes, then a rerun and an extension in one process."""
    out = tmp_path_factory.mktemp("arena")
    path, first = arena.run_arena(GAME, ["random", "greedy"], 2, games=3, out=out,
                                  workers=2, progress=False)
    lines_first = path.read_text().splitlines()
    _, again = arena.run_arena(GAME, ["greedy", "random"], 2, games=3, out=out,
                               workers=1, progress=False)
    lines_again = path.read_text().splitlines()
    _, more = arena.run_arena(GAME, ["random", "greedy"], 2, games=4, out=out, workers=1,
                              progress=False)
    return {"path": path, "first": first, "lines_first": lines_first, "again": again,
            "lines_again": lines_again, "more": more}


def test_tables_and_arrangements():
    assert arena.tables_for(["random", "greedy", "mcts:9"], 2) == [
        ("greedy", "mcts:9"), ("greedy", "random"), ("mcts:9", "random")]
    assert len(arena.tables_for(list("abcd"), 3)) == 4
    assert arena.tables_for(["random", "greedy"], 3) == [
        ("greedy", "greedy", "random"), ("greedy", "random", "random")]
    assert arena.arrangements(("a", "b")) == [("a", "b"), ("b", "a")]
    assert arena.arrangements(("a", "b", "c")) == [("a", "b", "c"), ("b", "c", "a"),
                                                   ("c", "a", "b")]
    assert len(arena.arrangements(("a", "b", "c"), "all")) == 6
    assert len(arena.arrangements(("a", "a", "b"), "all")) == 3      # distinct orders only
    with pytest.raises(ValueError, match="two different agents"):
        arena.tables_for(["random"], 2)


def test_schedule_plays_every_deal_in_every_seat_order():
    jobs = arena.schedule(GAME, ["random", "greedy"], 2, games=3, seed=10)
    assert len(jobs) == 6 and len({arena.game_key(j) for j in jobs}) == 6
    by_seed = Counter(j["seed"] for j in jobs)
    assert by_seed == {10: 2, 11: 2, 12: 2}
    assert {tuple(j["seats"]) for j in jobs if j["seed"] == 11} == {
        ("random", "greedy"), ("greedy", "random")}


def test_records_are_written_game_by_game_with_every_field(two_player_run):
    records = two_player_run["first"]
    assert len(records) == len(two_player_run["lines_first"]) == 6
    for record in records:
        assert record["game"] == GAME and record["num_players"] == 2
        for field in ("seats", "scores", "rewards", "ranks", "seat_seconds"):
            assert len(record[field]) == 2
        assert record["decisions"] == sum(record["seat_decisions"]) > 0
        assert record["seconds"] > 0 and sorted(record["rewards"]) in ([-1, 1], [0, 0])
        assert sorted(record["ranks"]) in ([1, 2], [1, 1])


def test_duplicate_seeds_once_per_permutation(two_player_run):
    records = two_player_run["first"]
    per_seed = Counter((r["seed"], tuple(r["seats"])) for r in records)
    assert set(per_seed.values()) == {1}
    assert Counter(r["seed"] for r in records) == {0: 2, 1: 2, 2: 2}


def test_resume_skips_recorded_games(two_player_run):
    assert two_player_run["lines_again"] == two_player_run["lines_first"]   # nothing replayed
    assert len(two_player_run["again"]) == 6
    more = two_player_run["more"]
    assert len(more) == 8 and len({arena.game_key(r) for r in more}) == 8
    assert len(two_player_run["path"].read_text().splitlines()) == 8


def test_a_line_cut_short_by_a_crash_is_skipped(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"seats": ["a", "b"]}) + "\n" + '{"seats": ["a"')
    assert arena.load_records(path) == [{"seats": ["a", "b"]}]


def test_greedy_is_rated_above_random(two_player_run):
    summary = ratings.summarize(two_player_run["more"], ["random", "greedy"], resamples=50)
    best = summary["ratings"][0]
    assert summary["method"] == "bradley_terry" and best["agent"] == "greedy"
    assert best["rating"] > 200 and best["low"] > 0
    assert ratings.significantly_better(summary, "greedy", "random")["wilson"]


@needs_openskill
def test_three_players_are_rated_with_openskill(tmp_path):
    _, records = arena.run_arena(GAME, ["random", "greedy"], 3, games=1, out=tmp_path,
                                 workers=1, progress=False)
    # Tables greedy-greedy-random and greedy-random-random, three rotations each.
    assert len(records) == 6
    assert Counter(tuple(sorted(r["seats"])) for r in records) == {
        ("greedy", "greedy", "random"): 3, ("greedy", "random", "random"): 3}
    assert all(len(r["ranks"]) == 3 for r in records)
    summary = ratings.summarize(records, ["random", "greedy"], resamples=20)
    assert summary["method"] == "plackett_luce"
    greedy = next(r for r in summary["ratings"] if r["agent"] == "greedy")
    assert greedy["mu"] > 0 and greedy["sigma"] > 0 and "ordinal" in greedy


def test_cli_writes_summary_table_and_plot(tmp_path, capsys):
    code = arena.main(["saint_malo", "--agents", "random", "greedy", "--games", "1",
                       "--workers", "1", "--out", str(tmp_path), "--resamples", "20",
                       "--quiet"])
    assert code == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "Elo" in out and "head-to-head" in out
    summary = json.loads((tmp_path / f"{GAME}_2p_summary.json").read_text())
    assert summary["game"] == GAME and summary["games"] == 2
    assert summary["command"].startswith("meeplezoo arena saint_malo --agents random greedy")
    png = tmp_path / f"{GAME}_2p_ratings.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, message", [
    (["chess", "--agents", "random", "greedy"], "unknown game 'chess'"),
    ([GAME, "--agents", "random", "alphazero"], "unknown agent 'alphazero'"),
    ([GAME, "--agents", "random", "random"], "listed twice"),
    ([GAME, "--agents", "random", "greedy", "--anchor", "mcts:5"], "anchor 'mcts:5'"),
    ([GAME, "--agents", "random", "greedy", "--players", "9"], ""),
])
def test_bad_input_is_one_clear_line_before_any_game(tmp_path, capsys, argv, message):
    assert arena.main([*argv, "--out", str(tmp_path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("meeplezoo arena: error:")
    assert message in err
    assert not list(tmp_path.iterdir())                 # nothing played, nothing written


def test_games_played_in_this_process_think_on_one_torch_thread(tmp_path, monkeypatch):
    """As in the workers: a network agent may not take every core beside the others (a
    think-time ratio compares one core with one), and torch's setting comes back after."""
    torch = pytest.importorskip("torch")
    threads, real = [], arena_run.play_one

    def spy(job):
        threads.append(torch.get_num_threads())
        return real(job)

    monkeypatch.setattr(arena_run, "play_one", spy)
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        arena.run_arena("hansa_v0", ["random", "greedy"], games=1, out=tmp_path, workers=1,
                        progress=False)
        assert threads == [1, 1] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


def test_a_game_cut_at_its_decision_cap_is_marked_truncated():
    """The strength target counts games cut at the cap: random Hansa Teutonica players never
    end a game in 3,000 decisions; random Hansa players always do."""
    from meeplezoo.benchmarks.arena.game import play_one

    cut = play_one({"game": "hansa_teutonica_v0", "seats": ["random", "random"], "seed": 1})
    assert cut["decisions"] == 3000 and cut["truncated"] is True
    ended = play_one({"game": "hansa_v0", "seats": ["random", "random"], "seed": 1})
    assert ended["decisions"] < 3000 and "truncated" not in ended
