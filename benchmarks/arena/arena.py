"""The arena: round-robin matches between agents, with seat rotation and duplicate seeds.

    meeplezoo arena saint_malo_v0 --agents random greedy mcts:200 --games 50 --workers 2

**Tables.**  With two players, every pair of agents is a table.  With P > 2 players, every
set of P distinct agents is a table (C(n, P) tables); when fewer than P agents are given,
every multiset of P of them with at least two different agents (for ``random greedy`` at
three players: random-random-greedy and random-greedy-greedy).

**Deals.**  ``--games N`` is the number of deals per table: seeds ``S, S+1, … S+N-1``.  A deal
is played once in each seat arrangement of its table — both orders for two players, the P
cyclic rotations for more (``--rotation all``: every distinct permutation) — always with the
same env seed, so every arrangement sees the same dice and draws (duplicate games: the
luck of the deal cancels out).  A table thus plays N × arrangements games.

**Resuming.**  Each finished game is appended to ``OUT/<game>_<P>p.jsonl`` at once; a game
is known by (game, players, seats in order, seed), and a rerun skips every game already in
the file — interrupt it and run it again, or raise ``--games`` or add an agent and only the
new games are played.  Games run in ``--workers`` processes (spawned); each agent's first
game is played in the main process, so its kernels compile once into numba's on-disk cache
and every worker then loads them in about a second.

Afterwards every recorded game among the requested agents (earlier runs' too) is rated
(``ratings.py``: Bradley–Terry Elo for two players, OpenSkill Plackett–Luce for more, anchor
at 0, bootstrap intervals, Wilson head-to-head) and written to
``OUT/<game>_<P>p_summary.json``, printed as a table and plotted to
``OUT/<game>_<P>p_ratings.png``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.arena.fingerprints import fingerprints, seated_bots, with_fingerprints
from meeplezoo.benchmarks.arena.game import forfeits
from meeplezoo.benchmarks.arena.run import play_jobs
from meeplezoo.envs import game_argument, resolve_game  # noqa: F401  (the entry points' names)
from meeplezoo.envs.core.files import FileRefused, parse_json, read_bytes

MAX_DEALS = 100_000        # deals of one run: a million games' records is a typo's size

# --------------------------------------------------------------------------- scheduling


def tables_for(agents: Sequence[str], num_players: int) -> list[tuple[str, ...]]:
    """The tables of a round robin (see the module docstring), each sorted by name.

    Sorting makes a table's seat rotations independent of the order the agents are listed
    in, so a rerun with the agents reordered still finds its finished games.
    """
    agents = sorted(set(agents))
    if len(agents) < 2:
        raise ValueError("an arena needs at least two different agents")
    if len(agents) >= num_players:
        return list(itertools.combinations(agents, num_players))
    return [t for t in itertools.combinations_with_replacement(agents, num_players)
            if len(set(t)) > 1]


def arrangements(table: Sequence[str], rotation: str = "cyclic") -> list[tuple[str, ...]]:
    """The distinct seat orders a table is played in: cyclic rotations or all permutations."""
    if rotation == "all" or len(table) == 2:
        orders: Iterable = itertools.permutations(table)
    elif rotation == "cyclic":
        orders = (tuple(table[k:]) + tuple(table[:k]) for k in range(len(table)))
    else:
        raise ValueError(f"unknown rotation {rotation!r}; choose 'cyclic' or 'all'")
    return list(dict.fromkeys(tuple(o) for o in orders))


def schedule(game: str, agents: Sequence[str], num_players: int, games: int, seed: int = 0,
             rotation: str = "cyclic", versus: str | None = None) -> list[dict]:
    """Every game of the round robin, deal-major so an interrupted run stays balanced;
    with ``versus``, only the tables where that agent sits (one agent against a field)."""
    tables = [t for t in tables_for(agents, num_players) if versus is None or versus in t]
    return [{"game": game, "num_players": num_players, "table": list(table),
             "seats": list(seats), "seed": seed + deal}
            for deal in range(games) for table in tables
            for seats in arrangements(table, rotation)]


def game_key(record: dict) -> tuple:
    """A game's identity in a results file; games on another board (``env_options``, e.g.
    a generated board of the generalisation protocol) or with another network behind a
    seat's name (``bots``, ``fingerprints.py``: ``az:default`` re-shipped) are other
    games."""
    return (record["game"], record["num_players"], tuple(record["seats"]), record["seed"],
            json.dumps(record.get("env_options") or {}, sort_keys=True),
            json.dumps(record.get("bots") or {}, sort_keys=True))


def load_records(path: Path) -> list[dict]:
    """The records in a JSONL file; a line cut short by a crash is skipped."""
    records = []
    if path.exists():                          # a regular file, bounded (envs/core/files.py)
        for line in read_bytes(path, "records").decode("utf-8", "replace").splitlines():
            try:
                records.append(parse_json(line, str(path)))
            except FileRefused:
                continue
    return records


def check_setup(game: str, agents: Sequence[str], num_players: int) -> str:
    """Validate everything before any worker starts; the resolved game name."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    game = resolve_game(game)
    if len(set(agents)) != len(agents):
        raise ValueError(f"an agent is listed twice in {list(agents)}")
    for spec in agents:
        make_agent(spec, game, seed=0)              # unknown or malformed specs raise here
    make(game, num_players=num_players)             # so does a bad player count
    return game


def check_run_options(games: int | None, seed: int | None, workers: int | None, out,
                      move_limit, time_per_move) -> None:
    """The ranges of the options every arena run takes (``arena``, ``match``, ``rate``),
    checked before anything is made or written (``None``: not the caller's to set)."""
    from meeplezoo.training.run import flags

    if games is not None:
        flags.check_count("--games (deals)", games, 1, MAX_DEALS)
    flags.check_seed("--seed", seed)
    flags.check_workers("--workers", workers)
    flags.check_output_folder("--out", out)
    flags.check_seconds("--move-limit", move_limit)
    flags.check_seconds("--time-per-move", time_per_move)


def run_arena(game: str, agents: Sequence[str], num_players: int = 2, games: int = 10,
              out: str | Path = "arena_results", seed: int = 0, workers: int | None = None,
              rotation: str = "cyclic", progress: bool = True,
              ray: str | None = None, move_limit: float | None = None,
              versus: str | None = None, time_per_move: float | None = None
              ) -> tuple[Path, list[dict]]:
    """Play every game of the round robin not yet in the JSONL file; with ``ray`` (an
    address, ``auto``, or ``local`` to start one here) as Ray tasks instead of local
    processes (``arena_ray.py``).  With ``move_limit`` (seconds) a move that takes longer
    forfeits the game (``play_one``); with ``versus``, only that agent's tables are played;
    with ``time_per_move`` every agent that can think by the clock gets that many seconds
    a move (a match at equal time; keep such records in their own ``out`` folder), or only
    the ``versus`` agent where one is given (a ladder's anchors stay as they were rated).

    Returns the file and the records of this game, player count and agent set (old and new).
    """
    check_run_options(games, seed, workers, out, move_limit, time_per_move)
    game = check_setup(game, agents, num_players)
    arrangements(agents[:num_players], rotation)              # a bad rotation raises early
    if ray is not None:
        from meeplezoo.training.run.ray_cluster import check_address, import_ray

        check_address(ray)
        import_ray()                                          # so does a missing Ray
    path = Path(out) / f"{game}_{num_players}p.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    prints = fingerprints(agents, game)
    done = {game_key(r) for r in load_records(path) if "seats" in r}
    todo = [job for job in (with_fingerprints(job, prints) for job in
                            schedule(game, agents, num_players, games, seed, rotation, versus))
            if game_key(job) not in done]
    if move_limit is not None:
        todo = [{**job, "move_limit_s": move_limit} for job in todo]
    if time_per_move is not None:
        todo = [{**job, "time_per_move_s": time_per_move} for job in todo]
        if versus is not None:                  # the field keeps its own settings
            todo = [{**job, "time_per_move_agents": [versus]} for job in todo]
    play_jobs(todo, path, workers, ray, progress)
    wanted = set(agents)
    records = [r for r in load_records(path) if r.get("game") == game
               and r.get("num_players") == num_players and set(r["seats"]) <= wanted
               and (r.get("bots") or {}) == seated_bots(r["seats"], prints)]
    return path, records


# ---------------------------------------------------------------------------- reporting


def timing(records: Sequence[dict]) -> dict:
    """Medians over games (robust to the first games' compilation): seconds per game,
    decisions per game and each agent's thinking time per decision."""
    per_decision: dict[str, list[float]] = {}
    for r in records:
        for spec, seconds, moves in zip(r["seats"], r["seat_seconds"], r["seat_decisions"],
                                        strict=True):
            if moves:
                per_decision.setdefault(spec, []).append(seconds / moves)
    return {"seconds_per_game": float(np.median([r["seconds"] for r in records])),
            "decisions_per_game": float(np.median([r["decisions"] for r in records])),
            "seconds_per_decision": {s: float(np.median(v)) for s, v in per_decision.items()}}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="e.g. saint_malo_v0 (or saint_malo)")
    parser.add_argument("--agents", nargs="+", required=True,
                        help="agent specs, e.g. random greedy mcts:200")
    parser.add_argument("--games", type=int, default=10,
                        help="deals per table; each is played in every seat arrangement")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--out", default="arena_results", help="folder for JSONL/JSON/PNG")
    parser.add_argument("--seed", type=int, default=0, help="first deal's env seed")
    parser.add_argument("--anchor", default=None,
                        help="agent rated 0 (default: random if playing, else the first)")
    parser.add_argument("--rotation", choices=("cyclic", "all"), default="cyclic",
                        help="seat arrangements for 3+ players")
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap resamples")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("--move-limit", type=float, default=None, metavar="SECONDS",
                        help="a move that takes longer forfeits the game (as does a move "
                             "that raises or is illegal); process: agents are stopped at it")
    parser.add_argument("--time-per-move", type=float, default=None, metavar="SECONDS",
                        help="every agent that can think by the clock (the searches) gets "
                             "this budget per move: a match at equal time")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="play the games as Ray tasks: alone, on a Ray started here "
                             "with --workers CPUs; 'auto' or an address joins a cluster "
                             "(pip install 'meeplezoo[ray]')")


def command_line(args: argparse.Namespace) -> str:
    """The command that makes these results, for the summary and BENCHMARKS.md."""
    words = ["meeplezoo", "arena", args.game, "--agents", *args.agents, "--games",
             str(args.games), "--players", str(args.players), "--seed", str(args.seed),
             "--rotation", args.rotation, "--resamples", str(args.resamples)]
    if args.anchor:
        words += ["--anchor", args.anchor]
    if args.move_limit:
        words += ["--move-limit", f"{args.move_limit:g}"]
    if args.time_per_move:
        words += ["--time-per-move", f"{args.time_per_move:g}"]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    """The ``arena`` command; raises ValueError for bad input (the CLI prints one line)."""
    from meeplezoo.benchmarks.arena import plot as arena_plot
    from meeplezoo.benchmarks.rating import ratings
    from meeplezoo.training.run.flags import check_count

    check_count("--resamples", args.resamples, 1, 100_000)
    check_count("--players", args.players, 1, 64)
    check_run_options(args.games, args.seed, args.workers, args.out, args.move_limit,
                      args.time_per_move)
    if args.anchor is not None and args.anchor not in args.agents:
        raise ValueError(f"anchor {args.anchor!r} is not one of --agents")
    path, records = run_arena(args.game, args.agents, args.players, args.games, args.out,
                              args.seed, args.workers, args.rotation, not args.quiet,
                              ray=args.ray, move_limit=args.move_limit,
                              time_per_move=args.time_per_move)
    game = records[0]["game"] if records else resolve_game(args.game)
    summary = ratings.summarize(records, args.agents, args.anchor, args.resamples, args.seed)
    summary.update(game=game, agents=list(args.agents), deals_per_table=args.games,
                   records=str(path), timing=timing(records), forfeits=forfeits(records),
                   command=command_line(args))
    stem = path.with_suffix("")
    summary_path = Path(f"{stem}_summary.json")
    summary_path.write_text(json.dumps(summary, indent=2) + "\n")
    print(arena_plot.format_table(summary))
    for row in summary["forfeits"]:
        print(f"forfeits: {row['agent']} lost {row['games']} game(s): {row['reason']}")
    print(f"\nrecords: {path}\nsummary: {summary_path}")
    if not args.no_plot:
        png = arena_plot.plot_ratings(summary, Path(f"{stem}_ratings.png"))
        print(f"plot:    {png}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="meeplezoo arena",
                                     description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except ValueError as err:
        print(f"meeplezoo arena: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nmeeplezoo arena: interrupted; the finished games are saved, rerun the same "
              "command to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
