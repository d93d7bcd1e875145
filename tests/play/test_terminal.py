"""``meeplezoo play``: a person typed in by a script, against bots, to the end of a game."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

from meeplezoo.play.cli import main
from meeplezoo.play.replay import read_replay
from meeplezoo.play.terminal import TerminalGame

GAME = "saint_malo_v0"


def listed_moves(text: str) -> list[str]:
    """The move names of the last "legal moves:" list printed, in their numbered order."""
    block = text[text.rindex("legal moves:"):].split("\n")[1:]
    moves = []
    for line in block:
        cells = re.findall(r"\s*(\d+)\. (.+?)(?=\s{2,}\d+\. |$)", line)
        if not cells:
            break
        moves += [name.strip() for _, name in cells]
    return moves


class Typist:
    """Answers each prompt from what was printed: a listed move, by name or by number,
    after the scripted commands; end of input once the script says so."""

    def __init__(self, out: io.StringIO, commands=(), seed: int = 0, limit: int | None = None):
        self.out, self.commands = out, list(commands)
        self.rng = np.random.default_rng(seed)
        self.limit, self.moves = limit, 0

    def __call__(self, prompt: str) -> str:
        if self.commands:
            return self.commands.pop(0)
        if self.limit is not None and self.moves >= self.limit:
            raise EOFError
        self.moves += 1
        moves = listed_moves(self.out.getvalue())
        pick = int(self.rng.integers(len(moves)))
        return moves[pick] if self.moves % 2 else str(pick + 1)


def new_game(commands=(), limit=None, seats=("human", "random"), seed=3, **kwargs):
    out = io.StringIO()
    typist = Typist(out, commands, limit=limit)
    return TerminalGame(GAME, list(seats), seed=seed, input_fn=typist, out=out, **kwargs), out


def test_a_scripted_person_plays_random_to_the_end_and_the_replay_matches(
        tmp_path, monkeypatch, capsys):
    out = io.StringIO()
    typist = Typist(out, commands=["help", "moves", "board", "not a move", "999"])
    monkeypatch.setattr("builtins.input", typist)
    monkeypatch.setattr("sys.stdout", out)         # the typist reads what the game printed
    path = tmp_path / "game.json"
    assert main(["play", "saint_malo", "--seats", "human", "random", "--seed", "4",
                 "--save-to", str(path)]) == 0
    text = out.getvalue()
    assert "commands:" in text and "not a legal move here" in text
    assert "there is no move 999" in text
    assert "final: P0 (human) score" in text and "replay written to" in text
    record = read_replay(path)
    assert record["seats"] == ["human", "random"] and record["seed"] == 4
    assert typist.moves > 20 and len(record["actions"]) > typist.moves
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert main(["replay", str(path), "--all"]) == 0


def test_undo_restores_the_exact_state_and_dice():
    game, out = new_game(limit=6)
    game.run()
    assert len(game.actions) >= 6
    # At a person's decision (where the script quit): remember it, move, undo: identical.
    assert game.agents[game.seat_to_move] is None
    state, rng, actions = game.env.state.copy(), game.env.rng.copy(), list(game.actions)
    game.play(game.legal_moves()[0][1])
    after_state = game.env.state.copy()
    while game.agents[game.seat_to_move] is not None:
        game.play(game.agents[game.seat_to_move].act(game.env))
    assert game.undo()
    assert np.array_equal(game.env.state, state) and np.array_equal(game.env.rng, rng)
    assert game.actions == actions
    game.play(game.legal_moves()[0][1])            # the same dice come up again
    assert np.array_equal(game.env.state, after_state)


def test_undo_command_and_nothing_to_undo():
    game, out = new_game(commands=["undo"], limit=0)
    game.run()
    assert "nothing to undo" in out.getvalue()
    game, out = new_game(commands=["1", "undo", "quit"], options={"start_seat": 0})
    game.run()
    assert "undone: back to move 1" in out.getvalue() and game.actions == []


def test_save_and_load_mid_game_round_trip(tmp_path, monkeypatch, capsys):
    game, _ = new_game(limit=5)
    game.run()
    path = tmp_path / "saved.json"
    game.save(path)
    saved = json.loads(path.read_text())
    assert saved["format"] == "meeplezoo-saved-game" and saved["actions"] == game.actions
    loaded = TerminalGame.from_file(path, out=io.StringIO())
    assert loaded.actions == game.actions and loaded.seats == game.seats
    assert np.array_equal(loaded.env.state, game.env.state)
    assert np.array_equal(loaded.env.rng, game.env.rng)
    assert loaded.undo()                             # the history is rebuilt on load
    # The load command at the prompt, and play --load from the command line.
    other, out = new_game(commands=[f"load {path}", "quit"], seed=11)
    other.run()
    assert "loaded" in out.getvalue() and other.actions == game.actions

    def end_of_input(prompt):
        raise EOFError

    monkeypatch.setattr("builtins.input", end_of_input)
    assert main(["play", "--load", str(path)]) == 0
    assert f"left the game after {len(game.actions)} moves" in capsys.readouterr().out


def test_a_corrupt_or_foreign_file_is_refused_and_changes_nothing(tmp_path):
    game, _ = new_game(limit=4)
    game.run()
    good = tmp_path / "good.json"
    game.save(good)
    data = json.loads(good.read_text())
    data["state"]["rng"][0] = "12345"          # valid on its own, but not where the moves lead
    bad_state = tmp_path / "tampered.json"
    bad_state.write_text(json.dumps(data))
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"format": "something-else", "version": 1}))
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps({**json.loads(good.read_text()), "actions": [109, 109]}))
    before, actions = game.env.state.copy(), list(game.actions)
    for path, message in [(bad_state, "does not match"), (garbage, "not valid JSON"),
                          (foreign, "not a meeplezoo saved game"), (illegal, "not legal"),
                          (tmp_path / "absent.json", "no such saved game file")]:
        with pytest.raises(ValueError, match=message):
            game.load(path)
        assert np.array_equal(game.env.state, before) and game.actions == actions
    # At the prompt it is one line, and the game goes on.
    script = iter([f"load {garbage}", "quit"])
    game.input = lambda prompt: next(script)
    game.out = io.StringIO()
    game.run()
    assert "load failed:" in game.out.getvalue() and game.actions == actions


def test_hint_is_a_legal_move_shown_in_notation():
    game, out = new_game(commands=["hint", "quit"], hint_sims=16)
    game.run()
    shown = re.search(r"hint \(MCTS, 16 simulations\): (.+) \((\d+)\)", out.getvalue())
    names = [name for name, _ in game.legal_moves()]
    assert shown and names[int(shown.group(2)) - 1] == shown.group(1)
    assert game.env.action_mask()[game.hint()]


def test_move_by_name_number_and_action_id():
    game, _ = new_game(limit=0)
    moves = game.legal_moves()
    assert game.parse(moves[1][0].upper()) == moves[1][1]
    assert game.parse("2") == moves[1][1]
    assert game.parse(f"#{moves[1][1]}") == moves[1][1]
    with pytest.raises(ValueError, match="not a legal move here"):
        game.parse("fly to the moon")
    with pytest.raises(ValueError, match="not legal"):
        game.parse("#108")


@pytest.mark.parametrize("argv, message", [
    (["play", "chess", "--seats", "human", "random"], "unknown game 'chess'"),
    (["play", "saint_malo", "--seats", "human", "alphazero"], "unknown seat 'alphazero'"),
    (["play", "saint_malo", "--seats", "human", "mcts:lots"], "bad MCTS spec"),
    (["play", "saint_malo", "--seats", "human"], "1 seat(s) given"),
    (["play", "saint_malo"], "give one --seats entry"),
    (["play", "saint_malo", "--seats", "human", "random", "--hint-sims", "0"], "--hint-sims"),
    (["arena", "chess", "--agents", "random", "greedy"], "unknown game 'chess'"),
    (["arena", "saint_malo", "--agents", "random", "alphazero"], "unknown agent"),
    (["train", "--game", "chess"], "unknown game 'chess'"),
])
def test_bad_input_is_one_clear_line(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("meeplezoo: error:")


def test_missing_or_foreign_checkpoint_is_one_clear_line(tmp_path, capsys):
    pytest.importorskip("torch")
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a checkpoint")
    for argv, message in [
        (["play", "saint_malo", "--seats", "human", f"ppo:{tmp_path / 'no.pt'}"],
         "no checkpoint at"),
        (["play", "saint_malo", "--seats", "human", f"ppo:{junk}"], "not a readable checkpoint"),
        (["arena", "saint_malo", "--agents", "random", f"ppo:{tmp_path / 'no.pt'}"],
         "no checkpoint at"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1


def test_play_load_refuses_a_corrupt_saved_game(tmp_path, capsys):
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"format": "meeplezoo-saved-game", "version": 1,
                                "game": "saint_malo_v0", "num_players": 2,
                                "seats": ["human"], "seed": 0, "actions": [], "state": {}}))
    assert main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert "corrupt meeplezoo saved game" in err and err.count("\n") == 1
    assert main(["play", "--load", str(path), "--seats", "human", "random"]) == 2
    assert "--load takes the seats" in capsys.readouterr().err


@pytest.mark.parametrize("seat", ["process:{evil}:Bot", "{evil}:Bot"])
def test_a_saved_game_file_never_seats_code(tmp_path, capsys, seat):
    """A saved game names its seats; loading one from someone else must not import or
    start the code it names, whether at the command line or with ``load``."""
    from meeplezoo.play import cli

    marker = tmp_path / "ran"
    evil = tmp_path / "evil.py"
    evil.write_text(f"open({str(marker)!r}, 'w').write('x')\nclass Bot: pass\n")
    game = TerminalGame("saint_malo_v0", ["random", "random"], seed=3, input_fn=lambda p: "quit",
                        out=io.StringIO())
    saved = game.saved_game()
    saved["seats"][1] = seat.format(evil=evil)
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved))
    assert cli.main(["play", "--load", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "runs code" in err[0]
    with pytest.raises(ValueError, match="runs code"):
        game.load(path)
    assert not marker.exists()
