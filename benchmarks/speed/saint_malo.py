"""Speed of Saint Malo, measured side by side with PettingZoo's connect four in one run.

``python -m meeplezoo.benchmarks.speed.saint_malo [--quick] [--out PATH]`` measures, in one process
(plus a few child processes for start-up times):

(a) AEC turns per second driven the way an RL user drives an env (``env.last()``, a
    uniformly random legal action from ``obs["action_mask"]``, ``env.step``), for
    ``saint_malo_v0`` and PettingZoo's ``connect_four_v3`` with the very same loop,
    interleaved in rounds (the machine is shared and noisy; medians are reported);
(b) random full games per second played entirely inside compiled code;
(c) the batched stepper's game-steps per second, with and without observations;
(d) start-up: a fresh process's import time and time to its first ``reset()`` + step,
    with an empty numba cache and with a warm one.

Results go to JSON (``results/speed_saint_malo.json`` by default) and a table
is printed.  Ratios against a peer measured in the same run are the meaningful figures;
absolute rates depend on the machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
import warnings
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, timed, write_report
from meeplezoo.benchmarks.speed.startup import startup_benchmark

GAME = "saint_malo_v0"

AEC_BAR_RATIO = 10.0     # the target: >= 10x connect_four_v3's AEC turns/s


@dataclasses.dataclass(frozen=True)
class Settings:
    """How long to measure; ``FULL`` for the published figures, ``QUICK`` for tests."""

    aec_rounds: int = 20           # alternating rounds per AEC contender
    aec_budget_s: float = 0.25     # seconds per contender per round
    repeats: int = 3               # repeats (median) for playouts and batch figures
    budget_s: float = 1.0          # seconds per repeat for playouts and batch figures
    playout_players: tuple[int, ...] = (2, 3, 4, 5)
    batch_sizes: tuple[int, ...] = (1, 64, 1024)
    cold_start: bool = True        # also measure start-up with an empty numba cache
    warm_starts: int = 3           # fresh processes with a warm cache (median)


FULL = Settings()
QUICK = Settings(aec_rounds=3, aec_budget_s=0.2, repeats=1, budget_s=0.2,
                 cold_start=False, warm_starts=1)




# --- (a) AEC turns per second ------------------------------------------------------------


def finish_turn_of_ended_game(env, rng: np.random.Generator) -> None:
    """The dead agent's ``step(None)``; a new game, seeded from ``rng``, once all are done
    (only at a game's end, so the timed turn loops stay free of the call)."""
    env.step(None)
    if not env.agents:
        env.reset(seed=int(rng.integers(2**31)))


def play_random_turns(env, rng: np.random.Generator, num_turns: int) -> int:
    """The RL user's loop: ``num_turns`` random legal moves, finishing and resetting games."""
    turns = 0
    while turns < num_turns:
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            finish_turn_of_ended_game(env, rng)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(legal.size)]))
        turns += 1
    return turns


def aec_contenders() -> dict[str, Callable]:
    """Env factories measured in (a): ours, and the peer with the same loop."""
    try:
        with warnings.catch_warnings():    # PettingZoo 1.27 deprecates its own import path
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import connect_four_v3
    except ImportError as error:    # connect four imports pygame
        raise SystemExit(f"connect_four_v3 does not import ({error}); pip install pygame") from None
    from meeplezoo.envs import make

    # Ours and the peer sit next to each other so that each round's pair sees the same load.
    return {
        "saint_malo_2p": lambda: make(GAME, num_players=2),
        "connect_four_v3": connect_four_v3.env,
        "saint_malo_4p": lambda: make(GAME, num_players=4),
        "connect_four_v3_raw": connect_four_v3.raw_env,
        "saint_malo_2p_pz_wrappers": lambda: make(GAME, num_players=2, wrappers=True),
    }


def aec_benchmark(settings: Settings) -> dict:
    contenders = {}
    for name, factory in aec_contenders().items():
        env, rng = factory(), np.random.default_rng(0)
        env.reset(seed=0)
        timed(lambda env=env, rng=rng: play_random_turns(env, rng, 64), 0.1)  # compile, warm
        contenders[name] = (env, rng)
    names = list(contenders)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(settings.aec_rounds):
        order = names if round_ % 2 == 0 else names[::-1]   # no contender always goes first
        for name in order:
            env, rng = contenders[name]
            turns, seconds = timed(lambda env=env, rng=rng: play_random_turns(env, rng, 256),
                                   settings.aec_budget_s)
            rates[name].append(turns / seconds)
        say(f"  (a) round {round_ + 1}/{settings.aec_rounds}: "
            + ", ".join(f"{n} {rates[n][-1]:,.0f}" for n in names))
    results = {name: {"turns_per_s": statistics.median(r), "per_round": r}
               for name, r in rates.items()}
    ratios = {f"{ours} / {peer}": paired_ratio(rates[ours], rates[peer])
              for ours, peer in AEC_RATIOS}
    headline = ratios["saint_malo_2p / connect_four_v3"]["median_of_rounds"]
    return {"rounds": settings.aec_rounds, "budget_s_per_round": settings.aec_budget_s,
            "contenders": results, "ratios": ratios,
            "bar": {"ratio_at_least": AEC_BAR_RATIO, "measured": headline,
                    "met": headline >= AEC_BAR_RATIO}}


AEC_RATIOS = [("saint_malo_2p", "connect_four_v3"), ("saint_malo_4p", "connect_four_v3"),
              ("saint_malo_2p", "connect_four_v3_raw"),
              ("saint_malo_2p_pz_wrappers", "connect_four_v3"),
              ("saint_malo_2p", "saint_malo_2p_pz_wrappers")]


def paired_ratio(ours: list[float], peer: list[float]) -> dict:
    """Ratio per round (both measured under the same load), and the ratio of the medians."""
    per_round = [a / b for a, b in zip(ours, peer, strict=True)]
    return {"median_of_rounds": statistics.median(per_round), "min": min(per_round),
            "max": max(per_round),
            "of_medians": statistics.median(ours) / statistics.median(peer)}


# --- (b) random playouts inside compiled code --------------------------------------------


def playouts_benchmark(settings: Settings) -> dict:
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import random_playouts

    game, games_per_call = spec(GAME), 8
    random_playouts(game, 1, 2, seed=0)    # compiles the playout loop (once per process)
    results = {}
    for players in settings.playout_players:
        samples = []
        for _ in range(settings.repeats):
            calls = [0]

            def chunk(players=players, calls=calls):
                calls[0] += 1
                return random_playouts(game, games_per_call, players, seed=calls[0])

            decisions, seconds = timed(chunk, settings.budget_s)
            games = calls[0] * games_per_call
            samples.append((games / seconds, decisions / seconds, decisions / games))
        games_s, decisions_s, per_game = (statistics.median(s[i] for s in samples)
                                          for i in range(3))
        results[str(players)] = {"games_per_s": games_s, "decisions_per_s": decisions_s,
                                 "decisions_per_game": per_game}
        say(f"  (b) {players} players: {games_s:,.0f} games/s, {decisions_s:,.0f} decisions/s")
    return results


# --- (c) the batched stepper -------------------------------------------------------------


def batch_benchmark(settings: Settings, num_players: int = 2) -> list[dict]:
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import BatchEnv

    game, results = spec(GAME), []
    for with_obs in (True, False):
        for size in settings.batch_sizes:
            batch = BatchEnv(game, size, num_players, seed=0, with_observations=with_obs)
            batch.reset()
            batch.step(batch.random_actions())    # compiles the loops (once per process)
            calls_per_chunk = max(1, 256 // size)

            def chunk(batch=batch, n=calls_per_chunk):
                for _ in range(n):
                    batch.step(batch.random_actions())
                return n

            rates = []
            for _ in range(settings.repeats):
                calls, seconds = timed(chunk, settings.budget_s)
                rates.append(calls / seconds)
            calls_s = statistics.median(rates)
            results.append({"batch_size": size, "with_observations": with_obs,
                            "num_players": num_players, "steps_per_s": calls_s * size,
                            "calls_per_s": calls_s})
            say(f"  (c) batch {size:>4} obs={with_obs!s:<5}: {calls_s * size:,.0f} steps/s")
    return results


# --- the run -----------------------------------------------------------------------------


def collect(settings: Settings, command: str = "") -> dict:
    """Every measurement of one run, as a JSON-ready dict."""
    start = time.perf_counter()
    report = {"benchmark": "speed", "game": GAME, "command": command,
              "settings": dataclasses.asdict(settings),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info()}
    say("(a) AEC turns/s, interleaved rounds against connect_four_v3")
    report["aec"] = aec_benchmark(settings)
    say("(b) random playouts inside compiled code")
    report["playouts"] = playouts_benchmark(settings)
    say("(c) batched stepper, 2 players")
    report["batch"] = batch_benchmark(settings)
    say("(d) start-up in fresh processes")
    report["startup"] = startup_benchmark(settings)
    report["total_s"] = time.perf_counter() - start
    report["machine"]["load_average_at_end"] = list(os.getloadavg())
    return report


def format_table(report: dict) -> str:
    aec, lines = report["aec"], []
    lines.append("(a) AEC turns/s (median of rounds)")
    for name, row in aec["contenders"].items():
        lines.append(f"    {name:<28} {row['turns_per_s']:>12,.0f}")
    lines.append(f"    {'ratio':<44} {'median of rounds':>17} {'range':>14} {'of medians':>11}")
    for name, r in aec["ratios"].items():
        lines.append(f"    {name:<44} {r['median_of_rounds']:>16.2f}x "
                     f"{r['min']:>6.2f}-{r['max']:<6.2f} {r['of_medians']:>10.2f}x")
    bar = aec["bar"]
    lines.append(f"    bar >= {bar['ratio_at_least']:.0f}x: {'met' if bar['met'] else 'NOT met'}")
    lines.append("(b) random playouts in compiled code   games/s   decisions/s  decisions/game")
    for players, row in report["playouts"].items():
        lines.append(f"    {players} players {row['games_per_s']:>26,.0f} "
                     f"{row['decisions_per_s']:>13,.0f} {row['decisions_per_game']:>15,.0f}")
    lines.append("(c) batched stepper (2 players)     steps/s    calls/s")
    for row in report["batch"]:
        lines.append(f"    batch {row['batch_size']:>4} obs={row['with_observations']!s:<5} "
                     f"{row['steps_per_s']:>14,.0f} {row['calls_per_s']:>10,.0f}")
    lines.append("(d) start-up (s)        import  reset  step  spawn->1st step  batch 1st step")
    for kind in ("cold", "warm"):
        if kind in report["startup"]:
            r = report["startup"][kind]
            lines.append(f"    {kind:<18} {r['import_s']:>7.2f} {r['first_reset_s']:>6.2f} "
                         f"{r['first_step_s']:>5.2f} {r['process_to_first_step_s']:>16.2f} "
                         f"{r['batch_first_step_s']:>15.2f}")
    bar = report["startup"]["bar"]
    lines.append(f"    bar warm < {bar['warm_process_to_first_step_s_below']:.0f} s: "
                 f"{'met' if bar['met'] else 'NOT met'}")
    return "\n".join(lines)


def run(argv: list[str] | None = None) -> dict:
    """Parse the command line, measure, write the JSON, print the table; returns the report."""
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.saint_malo",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="short budgets and no cold-cache start (well under a minute)")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON output (default results/speed_saint_malo.json, "
                             "or speed_saint_malo_quick.json with --quick)")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    out = args.out or RESULTS_DIR / ("speed_saint_malo_quick.json" if args.quick
                                     else "speed_saint_malo.json")
    command = "python -m meeplezoo.benchmarks.speed.saint_malo" + (" --quick" if args.quick else "")
    report = collect(settings, command)
    write_report(report, out)
    print(format_table(report))
    print(f"wrote {out} ({report['total_s']:.0f} s)")
    return report


def main(argv: list[str] | None = None) -> int:
    run(argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
