"""The arena on Ray: a real two-node cluster on this machine, records equal to
the local run's game by game, and one clear error without Ray."""

from __future__ import annotations

import json
import os

import pytest

# Ray turns a loopback address into the machine's IP unless told this is a one-machine
# cluster; read when ray is imported, so set first.  Every node then binds to 127.0.0.1.
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")

from meeplezoo.benchmarks.arena import arena  # noqa: E402
from meeplezoo.training.run.ray_cluster import loopback_cluster  # noqa: E402

GAME, AGENTS = "hansa_v0", ["random", "greedy"]


def _games(path) -> dict:
    """Each record by deal and seating, without the timing fields (clocks differ)."""
    games = {}
    for line in path.read_text().splitlines():
        record = json.loads(line)
        for key in ("seconds", "seat_seconds"):
            record.pop(key)
        key = (tuple(record["seats"]), record["seed"])
        assert key not in games, f"game {key} recorded twice"
        games[key] = record
    return games


def test_games_run_on_both_nodes_and_match_the_local_run(two_nodes, tmp_path, capsys):
    on_ray, _ = arena.run_arena(GAME, AGENTS, games=8, out=tmp_path / "ray", workers=2,
                                progress=True, ray=two_nodes.address)
    assert "16 games on 2 Ray node(s)" in capsys.readouterr().err
    local, _ = arena.run_arena(GAME, AGENTS, games=8, out=tmp_path / "local", workers=1,
                               progress=False)
    ray_games, local_games = _games(on_ray), _games(local)
    assert len(ray_games) == 16 and ray_games == local_games
    # A rerun finds every game recorded and plays none.
    again, records = arena.run_arena(GAME, AGENTS, games=8, out=tmp_path / "ray", workers=2,
                                     progress=False, ray=two_nodes.address)
    assert len(records) == 16 and len(again.read_text().splitlines()) == 16


def test_without_ray_the_cli_names_the_extra_and_exits_2(tmp_path, capsys, without_ray):
    code = arena.main([GAME, "--agents", *AGENTS, "--games", "1", "--ray",
                       "--out", str(tmp_path), "--quiet", "--no-plot"])
    assert code == 2
    assert "pip install 'meeplezoo[ray]'" in capsys.readouterr().err
    assert not (tmp_path / f"{GAME}_2p.jsonl").exists()          # nothing played


def test_a_node_killed_mid_run_loses_no_game_and_duplicates_none(tmp_path):
    """Its running games are retried on the node that is left: every game once, and the
    same records as a run that lost nothing."""
    import threading
    import time

    cluster = loopback_cluster(2)
    (doomed,) = cluster.worker_nodes                     # every node but the head
    agents, out = ["random", "mcts:300"], tmp_path / "ray"
    path, failures = out / f"{GAME}_2p.jsonl", []

    def play():
        try:
            arena.run_arena(GAME, agents, games=12, out=out, workers=2, progress=False,
                            ray=cluster.address)
        except Exception as err:                         # reported by the assert below
            failures.append(err)

    try:
        runner = threading.Thread(target=play)
        runner.start()
        deadline = time.monotonic() + 600               # generous: a loaded machine
        while time.monotonic() < deadline and runner.is_alive() and \
                (not path.exists() or len(path.read_text().splitlines()) < 4):
            time.sleep(0.05)
        at_kill = len(path.read_text().splitlines()) if path.exists() else 0
        cluster.remove_node(doomed, allow_graceful=False)
        runner.join(timeout=900)
        assert 4 <= at_kill < 24, f"the node was killed after {at_kill} of 24 games"
        assert not runner.is_alive() and not failures, failures
    finally:
        ray.shutdown()
        cluster.shutdown()
    games = _games(path)                                 # raises on a game recorded twice
    assert len(games) == 24
    local, _ = arena.run_arena(GAME, agents, games=12, out=tmp_path / "local", workers=1,
                               progress=False)
    assert games == _games(local)


def test_ray_alone_starts_a_local_ray_and_shuts_it_down(tmp_path):
    code = arena.main([GAME, "--agents", *AGENTS, "--games", "2", "--ray", "--workers", "2",
                       "--out", str(tmp_path), "--quiet", "--no-plot"])
    assert code == 0 and len(_games(tmp_path / f"{GAME}_2p.jsonl")) == 4
    assert not ray.is_initialized()


def test_the_speed_benchmark_times_local_and_ray_runs_of_the_same_games(tmp_path):
    from meeplezoo.benchmarks.speed import ray_arena as ray_arena_speed

    out = tmp_path / "speed.json"
    assert ray_arena_speed.main(["--agents", *AGENTS, "--games", "2", "--out", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["games"] == 4 and set(result["games_per_s"]) == {
        "local_1_worker", "local_2_workers", "ray_1_node", "ray_2_nodes"}
    assert all(rate > 0 for rate in result["games_per_s"].values())
    assert result["ray_2_over_1_node"] == pytest.approx(
        result["games_per_s"]["ray_2_nodes"] / result["games_per_s"]["ray_1_node"])
