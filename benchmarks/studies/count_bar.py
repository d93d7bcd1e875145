"""The strength bar of one game at one player count, and the frozen ladder of that count
from the same games:

    python -m meeplezoo.benchmarks.studies.count_bar saint_malo --players 4 \\
        --bot ppo:distilled --ladder-version 1

At two players the bot plays ``mcts:1000`` on ``--games / 2`` deals in both seatings.  At
``N`` > 3 one table seats the bot, ``mcts:1000``, ``greedy`` and ``random`` (then
``mcts:200``, ``mcts:50`` to fill five and six seats), every agent once, played on enough
deals in each of the ``N`` cyclic seatings: none needs repeated agents to fill the seats
(three agents at four seats would mean twelve tables).  At three seats the same four
agents make four tables of three.  The games go to
``results/bot_bars/<game>_<N>p_<bot>/`` with the arena's summary (OpenSkill, greedy at 0),
which ``agents/catalogue.py`` reads for the bar.

With ``--ladder-version`` the same games are the reference tournament of
``<game>-<N>p-ladder-v<version>``, built by ``ladder build --first-seed`` over them (its
anchors the table's agents, random at 0), so the ladder costs no further game.  The deals
are seeds ``--seed`` on (424242: deals no bot was tuned on).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import sys
from pathlib import Path

from meeplezoo.benchmarks.common import RESULTS_DIR

SEARCH = "mcts:1000"           # the bar's search
FILLERS = ("greedy", "random", "mcts:200", "mcts:50")
SEED = 424242


def table_agents(bot: str, players: int, search: str = SEARCH) -> list[str]:
    """The bar's agents: the bot and ``mcts:1000``, then greedy, random and weaker
    searches until every seat has its own agent; at three seats random as well (a
    ladder's scale is anchored at it), so four tables of three."""
    if players == 2:
        return [bot, search]
    agents = [bot, search, *(a for a in FILLERS if a != bot)][:max(players, 4)]
    if len(agents) < players:
        raise ValueError(f"no table of {players} distinct agents: at most "
                         f"{2 + len(FILLERS)} seats")
    return agents


def folder_name(game: str, players: int, bot: str) -> str:
    return f"{game}_{players}p_{re.sub(r'[^A-Za-z0-9]+', '_', bot).strip('_')}"


def deals_for(games: int, players: int, agents: int | None = None) -> int:
    """Deals giving at least ``games`` games: each deal is played at every table of
    ``agents`` (default: ``players``) in each of its ``players`` seatings."""
    tables = math.comb(agents or players, players)
    return math.ceil(games / (tables * players))


def run(game: str, players: int, bot: str, games: int, seed: int, results: Path,
        ladder_version: int | None, workers: int | None, work: Path,
        ladder_out: Path | None = None, search: str = SEARCH) -> dict:
    from meeplezoo.benchmarks.arena.arena import main as arena_main
    from meeplezoo.benchmarks.rating.ladder import LADDER_DIR, build, ladder_name
    from meeplezoo.envs import resolve_game

    game = resolve_game(game)
    agents = table_agents(bot, players, search)
    deals = deals_for(games, players, len(agents))
    out = Path(results) / "bot_bars" / folder_name(game, players, bot)
    argv = [game, "--agents", *agents, "--games", str(deals), "--players", str(players),
            "--seed", str(seed), "--out", str(out), "--quiet"]
    if players > 2:
        argv += ["--anchor", "greedy"]
    if workers:
        argv += ["--workers", str(workers)]
    if arena_main(argv) != 0:
        raise RuntimeError(f"the arena failed: meeplezoo arena {' '.join(argv)}")
    done = {"game": game, "players": players, "agents": agents, "deals": deals,
            "folder": str(out)}
    if ladder_version is not None and players > 2:
        name = ladder_name(game, players, ladder_version)
        (work / name).mkdir(parents=True, exist_ok=True)
        records = out / f"{game}_{players}p.jsonl"
        shutil.copyfile(records, work / name / records.name)
        done["ladder"] = str(build(game, agents, deals, ladder_version, players, work=work,
                                   out=ladder_out or LADDER_DIR, workers=workers,
                                   progress=False, first_seed=seed))
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.studies.count_bar",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--bot", required=True, help="agent spec of the measured bot")
    parser.add_argument("--games", type=int, default=None,
                        help="games at least (default: 400 at two players, else 300)")
    parser.add_argument("--seed", type=int, default=SEED, help="first deal's seed")
    parser.add_argument("--results", type=Path, default=RESULTS_DIR)
    parser.add_argument("--ladder-version", type=int, default=None,
                        help="also write this version of the count's ladder from the games")
    parser.add_argument("--work", type=Path, default=Path("ladder_runs"),
                        help="the ladder build's work folder")
    parser.add_argument("--ladder-out", type=Path, default=None,
                        help="where the ladder goes (default: the package's ladders)")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args(argv)
    games = args.games or (400 if args.players == 2 else 300)
    try:
        done = run(args.game, args.players, args.bot, games, args.seed, args.results,
                   args.ladder_version, args.workers, args.work, args.ladder_out)
    except (ValueError, RuntimeError) as err:
        print(f"count_bar: error: {str(err).splitlines()[0]}", file=sys.stderr)
        return 2
    print(f"bar records: {done['folder']}" + (f"; ladder: {done['ladder']}"
                                               if "ladder" in done else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
