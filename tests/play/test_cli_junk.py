"""Every flag of ``arena``, ``match``, ``rate``, ``train``, ``play`` and ``serve`` given junk
(0, -1, NaN, inf, a huge value, a string): each answer is either a value the flag rightly
takes, or one line on stderr and exit status 2, before any work starts, never a traceback.

The flags are read from the parsers themselves (argparse's and the trainers' option
dataclasses), so a flag added later is swept too.  Work is stubbed where it would start
(the arena's first game, the terminal game's loop, uvicorn, the trainers' first self-play
step, a Ray connection): reaching a stub means the command accepted its arguments.
"""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from meeplezoo.play import cli

JUNK = ["0", "-1", "nan", "inf", "1e30", str(10**30), "abc"]


class Started(BaseException):
    """Raised by the stubs: the command got past its checks (not an ``Exception``, so no
    handler of the command can swallow it)."""


def _start(*args, **kwargs):
    raise Started


@pytest.fixture
def stubbed(monkeypatch, tmp_path):
    """Work stubbed at the points where each command would start it; cwd a temp folder."""
    from meeplezoo.benchmarks.arena import ray as arena_ray
    from meeplezoo.benchmarks.arena import run as arena_run
    from meeplezoo.play import terminal
    from meeplezoo.training.az import loop as az
    from meeplezoo.training.az import ray as az_ray
    from meeplezoo.training.expert import loop as expert
    from meeplezoo.training.ppo import loop as ppo

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(arena_run, "_drain", _start)
    monkeypatch.setattr(arena_ray, "connect", _start)
    monkeypatch.setattr(az_ray, "connect", _start)
    monkeypatch.setattr(az, "make_selfplay", _start)
    monkeypatch.setattr(ppo, "BatchEnv", _start)
    monkeypatch.setattr(expert, "generate", _start)
    monkeypatch.setattr(terminal.TerminalGame, "run", _start)
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", _start)
    return tmp_path


# Each command's arguments when nothing is junk: cheap agents, one deal.
BASE = {
    "arena": ["arena", "saint_malo_v0", "--agents", "random", "greedy", "--games", "1",
              "--quiet", "--no-plot"],
    "match": ["match", "saint_malo_v0", "random", "greedy", "--games", "1", "--quiet"],
    "rate": ["rate", "saint_malo_v0", "--agent", "random", "--quiet"],
    "play": ["play", "saint_malo_v0", "--seats", "random", "random", "--seed", "1"],
    "serve": ["serve"],
    "train": ["train", "saint_malo", "--no-progress"],
    "train-az": ["train", "saint_malo", "--algo", "az", "--no-progress"],
    "train-expert": ["train", "saint_malo", "--algo", "expert", "--no-progress"],
}

# (command, flag) -> the junk values the flag rightly takes.  Everything else must be
# refused.  A seed may be 0; a folder or file may be named "0", "abc"...; a ladder or a
# device is a name, refused when there is none such.
NAMES = {"0", "-1", "nan", "inf", "1e30", str(10**30), "abc"}
ACCEPTED = {
    **{(c, "--seed"): {"0"} for c in BASE},
    **{(c, "--out"): NAMES for c in ("arena", "match", "rate")},
    ("play", "--save-to"): NAMES,
    ("train", "--run-dir"): NAMES, ("train", "--run-name"): NAMES,
    ("train-az", "--run-dir"): NAMES, ("train-az", "--run-name"): NAMES,
    ("train", "--minutes"): {"0"}, ("train-az", "--minutes"): {"0"},
    ("train", "--torch-threads"): {"0"}, ("train-az", "--torch-threads"): {"0"},
    ("train", "--max-decisions"): {"0"}, ("train-az", "--max-decisions"): {"0"},
    ("train", "--opponent-fraction"): {"0"},
    ("train", "--ent-coef"): {"0"}, ("train", "--vf-coef"): {"0"},
    ("train", "--warm-value-mix"): {"0"},
    ("train-az", "--eval-every"): {"0"}, ("train", "--eval-every"): {"0"},
    ("train-az", "--evaluations"): {"0"}, ("train", "--evaluations"): {"0"},   # 0: none
    ("train-az", "--value-mix"): {"0"}, ("train-az", "--full-fraction"): {"0"},
    ("train-az", "--weight-decay"): {"0"}, ("train-az", "--margin-coef"): {"0"},
    ("train-az", "--max-actor-restarts"): {"0"}, ("train-az", "--eval-simulations"): {"0"},
    ("train-az", "--min-buffer"): {"0"}, ("train-az", "--prior-mix"): {"0"},
    ("train-az", "--explore-moves"): {"0"}, ("train-az", "--late-gumbel"): {"0"},
    ("train-az", "--lam-iterations"): {"0"}, ("train-az", "--opponent-share"): {"0"},
    ("train-expert", "--run-dir"): NAMES, ("train-expert", "--run-name"): NAMES,
    **{("train-expert", f"--{name}"): {"0"} for name in (
        "sample-share", "weight-decay", "holdout", "value-mix", "margin-coef", "max-decisions",
        "torch-threads")},
}


def argparse_flags(command: str) -> list[str]:
    """The flags of a subcommand that take one value (not switches)."""
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    flags = []
    for action in sub.choices[command]._actions:
        if not action.option_strings or action.nargs == 0 or "--help" in action.option_strings:
            continue
        flags.append(max(action.option_strings, key=len))
    return flags


def dataclass_flags(options_class) -> list[str]:
    """A trainer's flags (tyro's ``--field-name``), switches left out."""
    return [f"--{field.name.replace('_', '-')}" for field in dataclasses.fields(options_class)
            if field.type not in ("bool", bool) and field.name not in ("game",)]


def _with(argv: list[str], flag: str, value: str) -> list[str]:
    """``argv`` with ``flag`` set to ``value`` alone (replacing its values, if present)."""
    if flag not in argv:
        return [*argv, flag, value]
    start = argv.index(flag)
    end = start + 1
    while end < len(argv) and not argv[end].startswith("--"):
        end += 1
    return [*argv[:start], flag, value, *argv[end:]]


def cases() -> list[tuple[str, str, str]]:
    from meeplezoo.training.az import loop as az
    from meeplezoo.training.expert import loop as expert
    from meeplezoo.training.ppo import loop as ppo

    found = []
    for command in ("arena", "match", "rate", "play", "serve"):
        found += [(command, flag, value) for flag in argparse_flags(command) for value in JUNK]
    found += [("train", flag, value) for flag in dataclass_flags(ppo.Options) for value in JUNK]
    found += [("train-az", flag, value) for flag in dataclass_flags(az.Options)
              for value in JUNK]
    found += [("train-expert", flag, value) for flag in dataclass_flags(expert.Options)
              for value in JUNK]
    return found


def run_cli(argv, capsys) -> tuple[str, int | None, str]:
    """('started' | 'exit', status, stderr) of one command line."""
    try:
        status = cli.main(argv)
    except Started:
        return "started", None, capsys.readouterr().err
    except SystemExit as exit_:
        return "exit", exit_.code, capsys.readouterr().err
    return "exit", status, capsys.readouterr().err


def test_every_base_command_line_starts(stubbed, capsys):
    """The sweep's base lines are good: each reaches its stub (else the sweep proves
    nothing)."""
    for command, argv in BASE.items():
        outcome, status, err = run_cli(argv, capsys)
        assert outcome == "started", (command, status, err)


@pytest.mark.parametrize("command,flag,value", cases())
def test_junk_flag_value(stubbed, capsys, command, flag, value):
    argv = _with(BASE[command], flag, value)
    outcome, status, err = run_cli(argv, capsys)
    assert "Traceback" not in err, err
    if value in ACCEPTED.get((command, flag), ()):
        assert outcome == "started", f"{argv}: refused a good value: {err}"
        return
    assert outcome == "exit" and status == 2, f"{argv}: accepted ({outcome}, {status})"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0], f"{argv}: not one line:\n{err}"
