"""Smoke test of the generic game benchmark: every registered game, tiny budgets.

Nothing is asserted about speed (the machine is shared and noisy); the figures are only
checked to be positive and finite, and the JSON to have the documented shape.
"""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

pytest.importorskip("pygame", reason="PettingZoo's connect_four_v3 (the peer) imports pygame")

from meeplezoo.benchmarks.speed import games  # noqa: E402
from meeplezoo.envs import names  # noqa: E402

TINY = dataclasses.replace(games.QUICK, aec_rounds=2, aec_budget_s=0.02, repeats=1,
                           budget_s=0.02)


def positive(value) -> bool:
    return isinstance(value, int | float) and math.isfinite(value) and value > 0


@pytest.fixture(autouse=True)
def tiny(monkeypatch):
    monkeypatch.setattr(games, "QUICK", TINY)


@pytest.mark.parametrize("game", names())
def test_quick_run_writes_well_formed_json(game, tmp_path, capsys):
    out = tmp_path / "games.json"
    assert games.main([game, "--quick", "--players", "2", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    short = games.short_name(game)
    assert report["game"] == game and report["players"] == [2]
    assert report["command"].startswith(f"python -m meeplezoo.benchmarks.speed.games {game}")
    for key in ("python", "numpy", "numba", "pettingzoo"):
        assert isinstance(report["machine"][key], str)

    aec = report["aec"]
    expected = {f"{short}_2p", "connect_four_v3"}
    pairs = {f"{short}_2p / connect_four_v3"}
    if games.legal_list_bar(game):        # both envs also driven from their legal lists
        expected |= {f"{short}_2p_legal_list", "connect_four_v3_legal_list"}
        pairs.add(f"{short}_2p_legal_list / connect_four_v3_legal_list")
    assert set(aec["contenders"]) == expected
    for row in aec["contenders"].values():
        assert positive(row["turns_per_s"]) and len(row["per_round"]) == TINY.aec_rounds
    assert set(aec["ratios"]) == pairs
    for ratio in aec["ratios"].values():
        assert ratio["min"] <= ratio["median_of_rounds"] <= ratio["max"]
    bar = aec["bar"]
    bar_pair = f"{bar['contender']} / {bar['peer']}"
    loop = "_legal_list" if games.legal_list_bar(game) else ""
    assert bar_pair == f"{short}_2p{loop} / connect_four_v3{loop}"
    assert bar["measured"] == aec["ratios"][bar_pair]["median_of_rounds"]
    assert bar["met"] == (bar["measured"] >= bar["ratio_at_least"])

    assert set(report["playouts"]) == {"random_generic_masks", *games.playout_hooks(game)}
    for rows in report["playouts"].values():
        assert set(rows) == {"2"}
        for row in rows.values():
            assert positive(row["games_per_s"]) and positive(row["decisions_per_s"])
            assert row["decisions_per_game"] > 1
    assert "strength" not in report

    printed = capsys.readouterr().out
    assert "(a) AEC turns/s" in printed and "(b) full games" in printed


def test_legal_list_loop_picks_only_legal_moves_of_both_envs():
    """The legal-list loop plays whole games of ours and of the peer without an illegal
    move (either env would raise) and reads the peer's own list of open columns."""
    import numpy as np
    from pettingzoo.classic import connect_four_v3

    from meeplezoo.envs import make

    for env in (make("carcassonne_v0", num_players=2), connect_four_v3.env()):
        env.reset(seed=3)
        assert games.play_legal_list_turns(env, np.random.default_rng(0), 300) == 300
    peer = connect_four_v3.env()
    peer.reset(seed=0)
    mask = peer.last()[0]["action_mask"]
    assert games.legal_list_of(peer)() == np.flatnonzero(mask).tolist()


def test_strength_goes_through_the_arena(tmp_path, capsys):
    out, arena = tmp_path / "games.json", tmp_path / "arena"
    argv = ["hansa", "--quick", "--skip-speed", "--strength", "2", "--simulations", "4",
            "--arena-dir", str(arena), "--out", str(out)]
    assert games.main(argv) == 0
    report = json.loads(out.read_text())
    assert "aec" not in report and report["game"] == "hansa_v0"
    strength = report["strength"]
    assert strength["deals"] == 1 and strength["num_players"] == 2
    assert list(strength["matches"]) == ["mcts:4 vs greedy", "mcts:4 vs random"]
    for match in strength["matches"].values():
        low, high = match["wilson95"]
        assert match["games"] == 2 and 0 <= low <= match["win_rate"] <= high <= 1
    assert {r["agent"] for r in strength["ratings"]} == {"mcts:4", "greedy", "random"}
    records = (arena / "hansa_v0_2p.jsonl").read_text().splitlines()
    assert len(records) == 4                       # one deal per opponent, both seatings
    assert games.main(argv) == 0                   # a rerun plays nothing new
    assert len((arena / "hansa_v0_2p.jsonl").read_text().splitlines()) == 4
    assert "mcts:4 vs greedy" in capsys.readouterr().out


def test_bad_player_count_is_refused(tmp_path):
    with pytest.raises(SystemExit):
        games.main(["hansa", "--quick", "--players", "9", "--out", str(tmp_path / "x.json")])
