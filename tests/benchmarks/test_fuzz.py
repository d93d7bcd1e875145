"""The state-loader fuzzer, per game: mutated saved states are refused with
``StateFormatError`` or play keeping every invariant; no death by signal, no hang.

Each game runs a CI-sized slice in child processes (``benchmarks/studies/fuzz.py``); the offline
run with ``NUMBA_BOUNDSCHECK=1`` and many more states is in BENCHMARKS.md.
"""

from __future__ import annotations

import pytest

from meeplezoo.benchmarks.studies.fuzz import fuzz, mutations
from meeplezoo.envs import names, spec


@pytest.mark.slow
@pytest.mark.parametrize("name", names())
def test_mutated_states_are_refused_or_play_safely(name):
    players = spec(name).max_players
    for count in sorted({2, players}):
        report = fuzz(name, count, states=2, seed=11, steps=4, multi=40, hang_s=120.0)
        assert report["tried"] == report["mutations"]
        assert (report["crash"], report["hang"], report["failure"]) == (0, 0, 0), \
            report["findings"][:5]
        assert report["rejected"] > 0 and report["played"] > 0


def test_a_crash_is_counted_against_its_mutation_and_the_run_goes_on():
    report = fuzz("hansa_v0", 2, states=1, seed=3, steps=1, multi=2, inject_crash=5)
    assert report["crash"] == 1
    assert [f["mutation"] for f in report["findings"]] == [5]
    assert report["tried"] == report["mutations"]       # the rest ran in a new child


def test_every_field_of_every_state_is_mutated():
    game = spec("saint_malo_v0")
    touched = {field for _, change in mutations(game, ["{}"], 0, 0) for field, _, _ in change}
    assert touched == set(game.state_fields)
