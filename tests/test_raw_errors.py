"""Raw errors, fixed: each input below once gave a traceback, a hang, a MemoryError or a
wrong answer; each is now one clear line (exit 2 at the command line) and changes nothing."""

from __future__ import annotations

import json

import pytest

from meeplezoo.agents.registry import make_agent
from meeplezoo.envs import StateFormatError, make
from meeplezoo.play import cli, terminal
from meeplezoo.play.replay import record_game, write_replay

GAME = "saint_malo_v0"


def one_line_error(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0], lines
    return lines[0]


@pytest.mark.parametrize("kind", ["az", "ppo"])
def test_a_text_file_as_a_checkpoint_is_one_line(tmp_path, capsys, kind):
    text = tmp_path / "notes.txt"
    text.write_text("not a checkpoint\n" * 20)
    status = cli.main(["arena", "saint_malo", "--agents", "random", f"{kind}:{text}",
                       "--games", "1", "--quiet", "--no-plot", "--out", str(tmp_path)])
    assert status == 2
    assert "is not a readable checkpoint" in one_line_error(capsys)
    assert not list(tmp_path.glob("*.jsonl"))                       # no game was played


@pytest.mark.parametrize("spec,said", [
    ("mcts:nans", "Xs must be in"), ("mcts:infs", "Xs must be in"),
    ("mcts:-1s", "Xs must be in"), ("mcts:1e9s", "Xs must be in"),
    ("mcts:999999999", "N must be in"), ("mcts:200,nodes=999999999999", "nodes must be in"),
    ("mcts:200,depth=-7", "depth must be in"), ("mcts:200,c=nan", "c must be in"),
    ("az:default,sims=999999999", "sims must be in"),
])
def test_agent_options_that_size_memory_or_time_are_bounded(spec, said, tmp_path, capsys):
    with pytest.raises(ValueError, match=said):
        make_agent(spec, GAME)
    status = cli.main(["arena", GAME, "--agents", "random", spec, "--games", "1", "--quiet",
                       "--no-plot", "--out", str(tmp_path)])
    assert status == 2 and said in one_line_error(capsys)


def test_bounds_leave_the_usual_specs_alone():
    for spec in ("mcts:1", "mcts:1000000", "mcts:0.05s", "mcts:200,nodes=5000000",
                 "mcts:200,depth=-1"):
        make_agent(spec, GAME)
    make_agent("az:default,sims=0", "hansa_v0")


@pytest.mark.parametrize("where", ["folder", "under_a_file"])
def test_play_checks_save_to_before_the_game(tmp_path, capsys, monkeypatch, where):
    played = []
    monkeypatch.setattr(terminal.TerminalGame, "run", lambda self: played.append(1) or True)
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    target = tmp_path if where == "folder" else blocker / "game.json"
    status = cli.main(["play", GAME, "--seats", "random", "random", "--seed", "1",
                       "--save-to", str(target)])
    assert status == 2 and "--save-to" in one_line_error(capsys)
    assert not played                                  # refused before the game started


def test_a_state_from_another_player_count_is_a_state_format_error():
    two, five = make(GAME, raw=True, num_players=2), make(GAME, raw=True, num_players=5)
    two.reset(seed=1)
    five.reset(seed=1)
    before = two.state.copy()
    with pytest.raises(StateFormatError, match="has 5 players, this env 2"):
        two.state_from_json(five.state_to_json())
    assert (two.state == before).all()


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory):
    record = record_game(GAME, [make_agent("random", GAME), make_agent("greedy", GAME)], 3)
    path = tmp_path_factory.mktemp("replay") / "game.json"
    write_replay(path, record)
    return path


def test_a_replay_with_edited_rewards_is_refused(replay_file, tmp_path, capsys):
    assert cli.main(["replay", str(replay_file), "--all"]) == 0
    capsys.readouterr()
    record = json.loads(replay_file.read_text())
    assert record["rewards"][0] != record["rewards"][1]           # a decided game
    for rewards in ([-7, -7], list(reversed(record["rewards"])), record["rewards"][:1], "won"):
        edited = tmp_path / "edited.json"
        edited.write_text(json.dumps({**record, "rewards": rewards}))
        assert cli.main(["replay", str(edited), "--all"]) == 2
        assert "rewards" in one_line_error(capsys)


def test_an_unreadable_checkpoint_error_quotes_nothing_of_the_file(tmp_path):
    """The server shows this message on a page: it must not quote the file it was given
    (a seat ``ppo:/etc/passwd``), nor suggest loading it without weights_only."""
    import os

    import torch

    from meeplezoo.training.run.checkpoint import load_checkpoint

    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:TOPSECRET:/root:/bin/bash\n" * 50)

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {tmp_path / 'ran'}",))

    evil = tmp_path / "evil.pt"
    torch.save({"x": Evil()}, evil)
    for path in (secret, evil):
        with pytest.raises(ValueError, match="not a readable checkpoint") as caught:
            load_checkpoint(path)
        assert "TOPSECRET" not in str(caught.value) and "root:x" not in str(caught.value)
        assert "weights_only=False" not in str(caught.value)
    assert not (tmp_path / "ran").exists()
