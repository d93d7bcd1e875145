"""Fuzz the state loader of a game: mutated saved states must be refused or play safely.

From random mid-game positions, each field of the saved state is set to boundary and junk
values (one field at a time, then several in-range fields at once, which is what finds a
validator's missing cross-field check), loaded with ``state_from_json`` and, when accepted,
played a few steps: every seat observed, the mask, the scores and the text rendering read,
a random legal action stepped, and the game's ``validate_state`` run on every state the play
reaches.  The work runs in child processes, so a segmentation fault or a hang is counted
against the mutation that caused it (the child writes each mutation's number before trying
it) and the run goes on from the next one.

A mutation passes when it is refused with ``StateFormatError`` or plays keeping every
invariant; a crash (death by signal), a hang (no progress for ``--hang-s``) or a failure
(a foreign exception, an invalid reached state, an empty mask on a live turn) is reported
with the field and value, so it can be replayed.

    python -m meeplezoo.benchmarks.studies.fuzz saint_malo_v0 --players 2 4 --states 20 \\
        --boundscheck

``--boundscheck`` runs the children with ``NUMBA_BOUNDSCHECK=1`` (a kernel indexing out of
bounds raises instead of reading or writing wild memory) in a cache of its own.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, say, write_report

JUNK = (-1, 0, 1, 2, -5, 9, 49, 999, 2**31, 2**61, -(2**61), 2**62 - 1)
OUTCOMES = ("rejected", "played", "crash", "hang", "failure")


# --- the mutations (the same list in parent and child: both derive it from the seed) ----

def base_states(name: str, players: int, count: int, seed: int) -> list[str]:
    """``count`` saved states from random games, at random depths, each with its rng."""
    from meeplezoo.envs import make

    env, rng, saved = make(name, num_players=players), np.random.default_rng(seed), []
    while len(saved) < count:
        env.reset(seed=int(rng.integers(2**31)))
        depth, played = int(rng.integers(0, 400)), 0
        while env.agents and played < depth and not env._game_over:
            env.step(int(rng.choice(env.legal_actions())))
            played += 1
        saved.append(env.state_to_json())
    return saved


def mutations(spec, saved: list[str], seed: int, multi: int) -> list[tuple[int, list]]:
    """(state index, [(field, element, value), ...]) for every mutation of the run."""
    rng, out = np.random.default_rng(seed + 1), []
    for index in range(len(saved)):
        for field, (_, length) in spec.state_fields.items():
            low, high = spec.field_bounds.get(field, (-(2**62), 2**62))
            values = sorted(set(JUNK) | {low - 1, low, high, high + 1,
                                         int(rng.integers(low, high, endpoint=True))})
            elements = sorted({0, length - 1, int(rng.integers(length))})
            out += [(index, [(field, e, v)]) for e in elements for v in values]
        for _ in range(multi):                # several in-range fields changed at once
            picks = rng.choice(list(spec.state_fields), size=int(rng.integers(2, 5)))
            change = []
            for field in picks:
                low, high = spec.field_bounds.get(field, (-(2**62), 2**62))
                length = spec.state_fields[field][1]
                low, high = max(low, -1000), min(high, 1000)
                change.append((str(field), int(rng.integers(length)),
                               int(rng.integers(low, high, endpoint=True))))
            out.append((index, change))
    return out


def mutated_text(saved: str, change: list) -> str:
    data = json.loads(saved)
    for field, element, value in change:
        if isinstance(data["fields"][field], list):
            data["fields"][field][element] = value
        else:
            data["fields"][field] = value
    return json.dumps(data)


# --- the child: try mutations from a start index, writing progress before each ----------

def play_loaded(env, rng, steps: int) -> None:
    """Play a loaded state a few steps, reading everything a user could read."""
    spec = env.spec
    for _ in range(steps):
        for agent in env.possible_agents:
            env.observe(agent)
        env.scores()
        spec.render_ansi(env.state)
        if env._game_over:
            return
        legal = env.legal_actions()
        if not legal:
            raise AssertionError(f"no legal action in phase {env.phase}")
        env.step(int(rng.choice(legal)))
        spec.validate_state(env.state)            # play keeps every invariant


def run_child(args) -> int:
    from meeplezoo.envs import make
    from meeplezoo.envs import spec as game_spec
    from meeplezoo.envs.core.state_io import StateFormatError

    spec = game_spec(args.game)
    saved = base_states(args.game, args.players, args.states, args.seed)
    todo = mutations(spec, saved, args.seed, args.multi)
    env, rng = make(args.game, num_players=args.players), np.random.default_rng(args.seed)
    progress = os.open(args.progress, os.O_WRONLY)
    results = os.open(args.results, os.O_WRONLY | os.O_APPEND)   # unbuffered: survives a crash

    def record(line: str) -> None:
        os.write(results, (line + "\n").encode())

    for number in range(args.start, len(todo)):
        os.pwrite(progress, f"{number:>12}".encode(), 0)
        if number == args.inject_crash:         # the harness's own test: a crash is counted
            os.kill(os.getpid(), signal.SIGSEGV)
        index, change = todo[number]
        try:
            env.state_from_json(mutated_text(saved[index], change))
        except StateFormatError:
            record(f"{number} rejected")
            continue
        try:
            play_loaded(env, rng, args.steps)
            record(f"{number} played")
        except Exception as err:                               # noqa: BLE001 - reported
            record(f"{number} failure {type(err).__name__}: {str(err)[:200]!r}")
    os.pwrite(progress, f"{len(todo):>12}".encode(), 0)
    os.close(results)
    return 0


# --- the parent: run children until every mutation has an outcome -----------------------

def fuzz(game: str, players: int, states: int = 20, seed: int = 0, steps: int = 5,
         multi: int = 200, boundscheck: bool = False, hang_s: float = 60.0,
         time_limit_s: float | None = None, inject_crash: int = -1) -> dict:
    """Run the fuzzer for one game and player count; returns the counts and findings."""
    from meeplezoo.envs import spec as game_spec

    spec = game_spec(game)
    todo = mutations(spec, ["{}"] * states, seed, multi)   # only the count of states matters
    total = len(todo)
    child_env = dict(os.environ)
    if boundscheck:
        child_env["NUMBA_BOUNDSCHECK"] = "1"
        base = Path(tempfile.gettempdir()) / "meeplezoo_boundscheck_cache"
        child_env["MEEPLEZOO_NUMBA_CACHE"] = str(base)
    counts = dict.fromkeys(OUTCOMES, 0)
    findings, start, began = [], 0, time.monotonic()
    with tempfile.TemporaryDirectory() as folder:
        progress, results = Path(folder) / "progress", Path(folder) / "results"
        progress.write_text(" " * 12)
        results.write_text("")
        while start < total:
            if time_limit_s is not None and time.monotonic() - began > time_limit_s:
                break
            command = [sys.executable, "-m", "meeplezoo.benchmarks.studies.fuzz", game, "--child",
                       "--players", str(players), "--states", str(states), "--seed", str(seed),
                       "--steps", str(steps), "--multi", str(multi), "--start", str(start),
                       "--progress", str(progress), "--results", str(results),
                       "--inject-crash", str(inject_crash)]
            child = subprocess.Popen(command, env=child_env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
            last, seen_at, hung = None, time.monotonic(), False
            while child.poll() is None:
                time.sleep(0.2)
                mark = progress.read_text().strip()
                if mark != last:
                    last, seen_at = mark, time.monotonic()
                elif mark and time.monotonic() - seen_at > hang_s:
                    child.kill()
                    hung = True
            child.wait()
            stderr = child.stderr.read().decode(errors="replace")[-2000:]
            reached = int(progress.read_text().strip() or start)
            if child.returncode == 0 and not hung:
                break
            outcome = "hang" if hung else "crash"
            if not last:          # died before its first mutation: not a finding, a bug here
                raise RuntimeError(f"fuzz child failed to start:\n{stderr}")
            with results.open("a") as log:
                log.write(f"{reached} {outcome} returncode {child.returncode}: "
                          f"{stderr.splitlines()[-1] if stderr else ''!r}\n")
            start = reached + 1
        lines = results.read_text().splitlines()
    for line in lines:
        number, outcome, *rest = line.split(" ", 2)
        counts[outcome] += 1
        if outcome in ("crash", "hang", "failure"):
            index, change = todo[int(number)]
            findings.append({"mutation": int(number), "state": index, "change": change,
                             "outcome": outcome, "detail": rest[0] if rest else ""})
    return {"game": game, "players": players, "states": states, "seed": seed,
            "steps": steps, "boundscheck": boundscheck, "mutations": total,
            "tried": sum(counts.values()), **counts, "findings": findings[:50],
            "seconds": round(time.monotonic() - began, 1)}


def build_parser() -> argparse.ArgumentParser:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", type=game_argument)
    parser.add_argument("--players", type=int, nargs="+", default=[2])
    parser.add_argument("--states", type=int, default=20, help="mid-game states per count")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=5, help="steps played after a load")
    parser.add_argument("--multi", type=int, default=200,
                        help="mutations per state changing several in-range fields")
    parser.add_argument("--boundscheck", action="store_true")
    parser.add_argument("--hang-s", type=float, default=60.0)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--progress", help=argparse.SUPPRESS)
    parser.add_argument("--results", help=argparse.SUPPRESS)
    parser.add_argument("--inject-crash", type=int, default=-1, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.child:
        args.players = args.players[0]
        return run_child(args)
    reports = []
    for players in args.players:
        say(f"fuzz {args.game}, {players} players, {args.states} states ...")
        report = fuzz(args.game, players, args.states, args.seed, args.steps, args.multi,
                      args.boundscheck, args.hang_s)
        say(f"  {report['tried']} mutations: {report['rejected']} rejected, "
            f"{report['played']} played, {report['crash']} crashes, {report['hang']} hangs, "
            f"{report['failure']} failures ({report['seconds']} s)")
        for finding in report["findings"][:10]:
            say(f"    {finding}")
        reports.append(report)
    out = args.out or RESULTS_DIR / f"fuzz_{args.game.removesuffix('_v0')}.json"
    write_report({"runs": reports}, out)
    bad = sum(r["crash"] + r["hang"] + r["failure"] for r in reports)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
