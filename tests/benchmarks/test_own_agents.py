"""Bring your own agent: agents from a file, a module and a policy function in
the arena beside agents that crash, stall or cheat, which forfeit with the reason recorded
while the run goes on; the same agents in a child process (``process:``); bad specs."""

from __future__ import annotations

import json
import textwrap

import pytest

from meeplezoo.agents.external import PolicyAgent, is_external
from meeplezoo.agents.registry import agent_names, make_agent
from meeplezoo.benchmarks.arena import arena
from meeplezoo.benchmarks.arena.game import forfeits

GAME = "hansa_v0"
EXAMPLE = "agents/examples/my_agent.py"

BAD_AGENTS = textwrap.dedent('''
    import os
    import time

    import numpy as np

    from meeplezoo.agents.base import Agent


    class Crashes(Agent):
        def act(self, env):
            return 1 // 0


    def slow(observation, action_mask):
        time.sleep(0.3)
        return int(np.flatnonzero(action_mask)[0])


    def cheats(observation, action_mask):
        return int(np.flatnonzero(action_mask == 0)[0])     # the first illegal move


    def hangs(observation, action_mask):
        time.sleep(3600)


    def dies(observation, action_mask):
        os._exit(3)                                           # as a segfault would


    class NotAnAgent:
        pass
''')


@pytest.fixture()
def bad_file(tmp_path):
    path = tmp_path / "bad_agents.py"
    path.write_text(BAD_AGENTS)
    return str(path)


def _records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_three_forms_load_as_agents():
    agent = make_agent(f"{EXAMPLE}:MostMovesAgent", GAME, seed=1)
    assert type(agent).__name__ == "MostMovesAgent" and agent.name == f"{EXAMPLE}:MostMovesAgent"
    policy = make_agent("meeplezoo.agents.examples.my_agent:first_legal", GAME)
    assert isinstance(policy, PolicyAgent)
    made = make_agent(f"{EXAMPLE}:make_agent", GAME, seed=2)
    assert type(made).__name__ == "MostMovesAgent" and made.name == f"{EXAMPLE}:make_agent"
    assert not is_external("mcts:200", agent_names()) and not is_external("az:default",
                                                                         agent_names())
    assert is_external("my_pkg.bots:Bot", agent_names()) and is_external("x.py:Bot", [])


def test_forfeits_are_recorded_and_the_run_goes_on(tmp_path, bad_file, capsys):
    good = [f"{EXAMPLE}:MostMovesAgent", "meeplezoo.agents.examples.my_agent:first_legal"]
    bad = [f"{bad_file}:Crashes", f"{bad_file}:slow", f"{bad_file}:cheats"]
    code = arena.main([GAME, "--agents", *good, *bad, "--games", "1", "--workers", "1",
                       "--move-limit", "0.1", "--out", str(tmp_path), "--quiet",
                       "--no-plot", "--resamples", "20"])
    assert code == 0
    out = capsys.readouterr().out
    records = _records(tmp_path / f"{GAME}_2p.jsonl")
    assert len(records) == 20                                # 10 pairs x 2 seatings, all played
    for record in records:
        losers = [a for a in record["seats"] if a in bad]
        if not losers:
            assert "forfeit" not in record and record["decisions"] > 50   # a whole game
            continue
        forfeit = record["forfeit"]
        assert forfeit["agent"] in losers and record["seats"][forfeit["seat"]] == forfeit["agent"]
        assert record["ranks"][forfeit["seat"]] == 2 and sorted(record["ranks"]) == [1, 2]
    reasons = {f["agent"]: f["reason"] for f in (r["forfeit"] for r in records
                                                  if "forfeit" in r)}
    assert reasons[bad[0]].startswith("raised ZeroDivisionError")
    assert reasons[bad[1]].startswith("took 0.3") and "limit 0.1 s" in reasons[bad[1]]
    assert reasons[bad[2]].startswith("played illegal action")
    summary = json.loads((tmp_path / f"{GAME}_2p_summary.json").read_text())
    rated = {row["agent"]: row["rating"] for row in summary["ratings"]}
    assert set(rated) == set(good + bad)
    assert min(rated[a] for a in good) > max(rated[a] for a in bad)   # forfeits are losses
    # Every game but the 2 between the good agents is a forfeit, of whoever moved first in
    # a game of two bad agents; each bad agent loses its 4 games against the good ones.
    lost = {row["agent"]: row["games"] for row in summary["forfeits"]}
    assert sum(lost.values()) == 18 and set(lost) == set(bad)
    assert all(4 <= n <= 8 for n in lost.values())
    assert "forfeits:" in out and "ZeroDivisionError" in out


def test_a_process_agent_plays_as_in_process_and_is_stopped_when_it_hangs_or_dies(
        tmp_path, bad_file):
    import numpy as np

    from meeplezoo.envs import make

    inside = make_agent(f"{EXAMPLE}:MostMovesAgent", GAME, seed=5)
    outside = make_agent(f"process:{EXAMPLE}:MostMovesAgent", GAME, seed=5)
    env, rng = make(GAME, num_players=3), np.random.default_rng(0)
    env.reset(seed=4)
    for agent in (inside, outside):
        agent.reset(seed=9)
    for _ in range(60):                         # the same moves, state sent as JSON
        assert outside.act(env) == inside.act(env)
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    outside.close()
    _, stopped = arena.run_arena(GAME, ["random", f"process:{bad_file}:hangs",
                                        f"process:{bad_file}:dies"], games=1,
                                 out=tmp_path / "c", workers=1, progress=False,
                                 move_limit=1.0)
    reasons = {r["forfeit"]["agent"]: r["forfeit"]["reason"] for r in stopped
               if "forfeit" in r}
    assert reasons[f"process:{bad_file}:hangs"].startswith(
        "raised TimeoutError: no move within 1 s")
    assert "died" in reasons[f"process:{bad_file}:dies"]
    assert len(stopped) == 6 and len(forfeits(stopped)) == 2


@pytest.mark.parametrize("spec, message", [
    ("no/such/file.py:Bot", "no file"),
    ("{bad}:Missing", r"has no 'Missing' \(it defines: .*Crashes"),
    ("{bad}:NotAnAgent", "not a meeplezoo Agent subclass"),
    ("no_such_package.bots:Bot", "cannot import 'no_such_package.bots'"),
    ("process:", "write process:<agent spec>"),
])
def test_bad_specs_are_one_clear_error(bad_file, spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec.format(bad=bad_file), GAME)


def test_the_cli_refuses_a_bad_spec_before_playing(tmp_path, capsys):
    code = arena.main([GAME, "--agents", "random", "nowhere.py:Bot", "--out", str(tmp_path),
                       "--quiet", "--no-plot"])
    assert code == 2 and "no file nowhere.py" in capsys.readouterr().err
    assert not (tmp_path / f"{GAME}_2p.jsonl").exists()


def test_time_per_move_goes_to_the_agents_that_think_by_the_clock(tmp_path):
    _, records = arena.run_arena(GAME, ["mcts:50", "greedy"], games=1, out=tmp_path / "all",
                                 workers=1, progress=False, time_per_move=0.01)
    for record in records:
        assert record["timed_seats"] == [spec == "mcts:50" for spec in record["seats"]]
        assert record["time_per_move_s"] == 0.01
    # One agent against a field (rate): only that agent is put on the clock.
    _, records = arena.run_arena(GAME, ["mcts:30", "mcts:50", "greedy"], games=1,
                                 out=tmp_path / "one", workers=1, progress=False,
                                 time_per_move=0.01, versus="mcts:30")
    assert {frozenset(r["table"]) for r in records} == {frozenset({"mcts:30", "mcts:50"}),
                                                        frozenset({"mcts:30", "greedy"})}
    for record in records:
        assert record["timed_seats"] == [spec == "mcts:30" for spec in record["seats"]]
    agent = make_agent("mcts:100", GAME)
    assert agent.set_time_budget(0.02) and agent.seconds == 0.02
    assert not make_agent("greedy", GAME).set_time_budget(0.02)
    assert make_agent("az:default", GAME).set_time_budget(0.02)         # PUCT root
    assert not make_agent("az:default,root=gumbel", GAME).set_time_budget(0.02)
    assert not make_agent("ppo:default", GAME).set_time_budget(0.02)
    with pytest.raises(ValueError, match=r"--time-per-move must be a number of seconds in"):
        arena.run_arena(GAME, ["random", "greedy"], out=tmp_path, time_per_move=0)
