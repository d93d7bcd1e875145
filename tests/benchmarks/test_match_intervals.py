"""``meeplezoo match``'s Elo interval is honest where every pair scored alike: a perfect
record has no bound on its side instead of a zero-width interval that reads as exact."""

from __future__ import annotations

import re

from meeplezoo.benchmarks.rating import match


def records(results: list[float]) -> list[dict]:
    """Two games a deal (both seatings); ``results``: greedy's points in each game."""
    out = []
    for index, points in enumerate(results):
        seats = ["greedy", "random"] if index % 2 == 0 else ["random", "greedy"]
        mine, theirs = {1.0: (0, 1), 0.5: (0, 0), 0.0: (1, 0)}[points]
        ranks = [mine, theirs] if seats[0] == "greedy" else [theirs, mine]
        out.append({"seats": seats, "ranks": ranks, "seed": index // 2})
    return out


def report(results: list[float]) -> dict:
    return {"game": "hansa_v0", **match.outcome(records(results), "greedy", "random", None)}


def elo_part(results: list[float]) -> str:
    """The report's first line, unwrapped (it ends before the pentanomial's line)."""
    text = match.format_report(report(results)).split("\npentanomial")[0]
    return " ".join(text.split())


def test_a_perfect_record_has_no_upper_bound():
    line = elo_part([1.0, 1.0])
    assert "+3600" not in line and "[+3600, +3600]" not in line
    found = re.search(r"Elo > ([+-]\d+) \(won every game: no upper bound; score 95% "
                      r"\[(0\.\d\d), 1\]\)", line)
    assert found, line
    # Two games show little: the Wilson low of 2/2 is 0.34, about -113 Elo.
    assert found.group(2) == "0.34" and found.group(1) == "-113"
    assert "Elo > +" in elo_part([1.0] * 40)    # forty wins: clearly stronger


def test_lost_every_game_has_no_lower_bound():
    line = elo_part([0.0] * 6)
    assert re.search(r"Elo < -\d+ \(lost every game: no lower bound; score 95% \[0, 0\.\d\d\]\)",
                     line), line


def test_pairs_alike_but_not_perfect_use_wilson():
    line = elo_part([1.0, 0.0] * 3)                  # every deal split 1-1: zero spread
    assert re.search(r"Elo [+-]0 \[-\d+, \+\d+\] \(Wilson: pairs alike\)", line), line


def test_an_ordinary_record_keeps_the_pairs_interval():
    line = elo_part([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.5])
    assert re.search(r"Elo [+-]\d+ \[[+-]\d+, [+-]\d+\]$", line.rstrip()), line
    assert "Wilson" not in line and "bound" not in line
