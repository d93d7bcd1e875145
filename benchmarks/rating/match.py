"""``meeplezoo match GAME A B``: two agents on paired deals, with an SPRT to stop early.

    meeplezoo match hansa mcts:400 mcts:200 --sprt elo0=0,elo1=10
    meeplezoo match saint_malo my_bot.py:Bot greedy --games 100

Each deal is played in both seatings (the same dice or tiles in each), so a pair's result
is one of five (the pentanomial, ``sprt.py``).  With ``--sprt`` the match plays ``--chunk``
deals at a time (in parallel, into the arena's resumable JSONL: a rerun goes on where it
stopped) and after each chunk computes the log-likelihood ratio; it stops once the ratio
leaves its bounds (H1: A is ``elo1`` stronger; H0: only ``elo0``) or at ``--max-games``.
Checking after chunks rather than after every pair makes the test a little more
conservative than its nominal error rates.  Without ``--sprt`` it plays ``--games`` deals
and reports the score and Elo difference with a 95% interval.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.arena import arena
from meeplezoo.benchmarks.arena.labels import legend, short_labels, wrap
from meeplezoo.benchmarks.common import command_main
from meeplezoo.benchmarks.rating import sprt
from meeplezoo.benchmarks.rating.ratings import points_over, wilson
from meeplezoo.training.run import flags

SPRT_KEYS = {"elo0": float, "elo1": float, "alpha": float, "beta": float}
# Hypotheses are Elo differences of a few points; far out (|Elo| in the thousands) a
# score rounds to 0 or 1 and the likelihood ratio is no longer a number.
MAX_SPRT_ELO = 1000.0
MAX_DEALS = 100_000          # deals of one match: 200,000 games is already days of play


def parse_sprt(text: str) -> dict:
    """``elo0=0,elo1=10[,alpha=0.05,beta=0.05]`` as a dict, or a ValueError."""
    settings = {"alpha": 0.05, "beta": 0.05}
    for item in text.split(","):
        key, _, value = item.partition("=")
        if key not in SPRT_KEYS:
            raise ValueError(f"bad --sprt item {item!r}; write elo0=X,elo1=Y[,alpha=A,beta=B]")
        try:
            settings[key] = SPRT_KEYS[key](value)
        except ValueError:
            raise ValueError(f"bad --sprt value {item!r}: not a number") from None
        # float() reads "nan" and "inf": an infinite elo1 makes every LLR NaN, and the
        # match would run to --max-games without a verdict.
        if not math.isfinite(settings[key]):
            raise ValueError(f"bad --sprt value {item!r}: not a finite number")
    if "elo0" not in settings or "elo1" not in settings:
        raise ValueError("--sprt needs elo0 and elo1, e.g. --sprt elo0=0,elo1=10")
    if max(abs(settings["elo0"]), abs(settings["elo1"])) > MAX_SPRT_ELO:
        raise ValueError(f"--sprt needs elo0 and elo1 within +-{MAX_SPRT_ELO:g}")
    if not settings["elo1"] > settings["elo0"]:
        raise ValueError("--sprt needs elo1 > elo0")
    sprt.bounds(settings["alpha"], settings["beta"])              # in (0, 0.5)
    return settings


def check_numbers(games: int, max_games: int, chunk: int, workers: int | None, seed: int,
                  out, move_limit: float | None, time_per_move: float | None) -> None:
    """The flags in range, before the agents are built or any game is played: a count
    too large to play is refused like one too small (``training/run/flags.py``)."""
    flags.check_count("--games", games, 1, MAX_DEALS)
    flags.check_count("--max-games", max_games, 1, 2 * MAX_DEALS)
    flags.check_count("--chunk", chunk, 1, MAX_DEALS)
    arena.check_run_options(None, seed, workers, out, move_limit, time_per_move)


def pentanomial(records: list[dict], a: str, b: str) -> np.ndarray:
    """Counts of A's points per complete pair (both seatings of a deal played): index =
    twice A's points over the two games (0 .. 4)."""
    points: dict[int, list[float]] = {}
    for record in records:
        if sorted(record["seats"]) != sorted([a, b]):
            continue
        points.setdefault(record["seed"], []).append(points_over(record, a, b))
    counts = np.zeros(5, dtype=np.int64)
    for pair in points.values():
        if len(pair) == 2:
            counts[int(round(2 * sum(pair)))] += 1
    return counts


def outcome(records: list[dict], a: str, b: str, settings: dict | None) -> dict:
    """The match so far: games, W/D/L and score of A, the pentanomial, A's Elo over B with
    its interval, and with an SPRT the LLR, its bounds and the verdict."""
    counts = pentanomial(records, a, b)
    results = [points_over(r, a, b) for r in records if sorted(r["seats"]) == sorted([a, b])]
    wins, draws = results.count(1.0), results.count(0.5)
    elo, low, high = sprt.elo_estimate(counts)
    report = {"agents": [a, b], "games": len(results), "pairs": int(counts.sum()),
              "wins": wins, "draws": draws, "losses": len(results) - wins - draws,
              "score": (wins + draws / 2) / max(len(results), 1),
              "pentanomial": counts.tolist(), "elo": elo, "elo_interval": [low, high],
              "forfeits": sum("forfeit" in r for r in records
                              if sorted(r["seats"]) == sorted([a, b]))}
    if settings is not None:
        lower, upper = sprt.bounds(settings["alpha"], settings["beta"])
        ratio = float(sprt.llr(counts, settings["elo0"], settings["elo1"]))
        verdict = "H1" if ratio >= upper else "H0" if ratio <= lower else "inconclusive"
        report.update(sprt=settings, llr=ratio, bounds=[lower, upper], verdict=verdict)
    return report


def run_match(game: str, a: str, b: str, settings: dict | None = None, games: int = 50,
              max_games: int = 20_000, chunk: int = 16, out: str | Path = "match_results",
              workers: int | None = None, seed: int = 0, move_limit: float | None = None,
              progress: bool = True, log=print, time_per_move: float | None = None) -> dict:
    """Play the match (module docstring); its :func:`outcome` plus the records' path."""
    if a == b:
        raise ValueError("a match needs two different agents")
    check_numbers(games, max_games, chunk, workers, seed, out, move_limit, time_per_move)
    game = arena.check_setup(game, [a, b], 2)     # a bad game or agent spec, before a game
    deals = games if settings is None else min(chunk, max(max_games // 2, 1))
    while True:
        # Looked up on the module, so a test that stubs the arena's games stubs them here.
        path, records = arena.run_arena(game, [a, b], games=deals, out=out, workers=workers,
                                        seed=seed, progress=progress, move_limit=move_limit,
                                        time_per_move=time_per_move)
        report = outcome(records, a, b, settings)
        if settings is None or report["verdict"] != "inconclusive" or 2 * deals >= max_games:
            break
        log(f"  {report['games']} games: LLR {report['llr']:+.2f} in "
            f"[{report['bounds'][0]:.2f}, {report['bounds'][1]:.2f}], score "
            f"{report['score']:.3f}")
        deals = min(deals + chunk, max(max_games // 2, 1))
    return {"game": records[0]["game"] if records else game, **report, "records": str(path)}


def elo_text(report: dict) -> str:
    """A's Elo over B with its 95% interval.  Where every pair scored alike (a perfect
    record, say) the pairs' spread is zero and their interval would read as exact: then
    the interval is the Wilson interval of A's score over the games, and a side that won
    (or lost) every game has no bound on that side."""
    low, high = report["elo_interval"]
    games = report["games"]
    if high - low > 1e-6 or games == 0:
        return f"Elo {report['elo']:+.0f} [{low:+.0f}, {high:+.0f}]"
    score_low, score_high = wilson(report["score"] * games, games)
    elo_low, elo_high = (float(e) for e in sprt.score_to_elo([score_low, score_high]))
    if report["wins"] == games:
        return (f"Elo > {elo_low:+.0f} (won every game: no upper bound; score 95% "
                f"[{score_low:.2f}, 1])")
    if report["losses"] == games:
        return (f"Elo < {elo_high:+.0f} (lost every game: no lower bound; score 95% "
                f"[0, {score_high:.2f}])")
    return f"Elo {report['elo']:+.0f} [{elo_low:+.0f}, {elo_high:+.0f}] (Wilson: pairs alike)"


def format_report(report: dict) -> str:
    label = short_labels(report["agents"])           # checkpoint paths print as A, B
    a, b = (label[name] for name in report["agents"])
    lines = [*wrap(f"{report['game']}: {a} vs {b}, {report['games']} games "
                   f"({report['pairs']} pairs): +{report['wins']} ={report['draws']} "
                   f"-{report['losses']}, score {report['score']:.3f}, {elo_text(report)}"),
             f"pentanomial ({a}'s points per pair 0, 1/2, 1, 3/2, 2): {report['pentanomial']}"]
    if report["forfeits"]:
        lines.append(f"forfeits: {report['forfeits']} game(s) (see the records)")
    if "llr" in report:
        settings = report["sprt"]
        lines.append(f"SPRT elo0={settings['elo0']:g} elo1={settings['elo1']:g} "
                     f"(alpha {settings['alpha']:g}, beta {settings['beta']:g}): LLR "
                     f"{report['llr']:+.2f} in [{report['bounds'][0]:.2f}, "
                     f"{report['bounds'][1]:.2f}]")
        verdict = {"H1": f"H1 accepted: {a} is stronger than {b} by {settings['elo1']:g} "
                         f"Elo rather than {settings['elo0']:g}",
                   "H0": f"H0 accepted: {a} is not {settings['elo1']:g} Elo stronger than "
                         f"{b} (at most {settings['elo0']:g})",
                   "inconclusive": "inconclusive: --max-games reached"}[report["verdict"]]
        lines += wrap(verdict)
    return "\n".join([*lines, *legend(label)])


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game")
    parser.add_argument("a", help="agent spec (the one tested)")
    parser.add_argument("b", help="agent spec (the baseline)")
    parser.add_argument("--sprt", default=None, metavar="elo0=X,elo1=Y",
                        help="stop at the SPRT's bounds (optionally ,alpha=A,beta=B)")
    parser.add_argument("--games", type=int, default=50, help="deals without --sprt")
    parser.add_argument("--max-games", type=int, default=20_000)
    parser.add_argument("--chunk", type=int, default=16, help="deals between SPRT looks")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--move-limit", type=float, default=None, metavar="SECONDS",
                        help="a move that takes longer forfeits the game")
    parser.add_argument("--time-per-move", type=float, default=None, metavar="SECONDS",
                        help="the budget of every agent that can think by the clock")
    parser.add_argument("--out", default="match_results")
    parser.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    settings = parse_sprt(args.sprt) if args.sprt else None
    report = run_match(args.game, args.a, args.b, settings, args.games, args.max_games,
                       args.chunk, args.out, args.workers, args.seed, args.move_limit,
                       progress=not args.quiet, time_per_move=args.time_per_move)
    print(format_report(report))
    summary = Path(report["records"]).with_name(f"{report['game']}_match.json")
    summary.write_text(json.dumps(report, indent=2) + "\n")
    print(f"records: {report['records']}\nsummary: {summary}")
    return 0


def main(argv: list[str] | None = None) -> int:
    return command_main("meeplezoo match", __doc__.splitlines()[0], add_arguments, run, argv)


if __name__ == "__main__":
    sys.exit(main())
