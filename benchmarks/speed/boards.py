"""The cost of a fresh board per game: ``BatchEnv`` steps/s on a board distribution against
the same game's fixed board, in the same process, rounds interleaved.

    python -m meeplezoo.benchmarks.speed.boards [--batch 256] [--rounds 7] [--budget 1.0]

Each round times both envs for ``--budget`` seconds of random legal moves (observations
written, as a training collector has them); the figure is the median over rounds of the
distribution's steps/s over the fixed board's (the target: within 20%, a ratio of at
least 0.8).  The distribution is the standard training split (10,000 boards), whose
configs are built once and cached (``envs/core/boards.py``); the time that takes the first
time is reported apart.  Writes ``results/board_speed.json``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, timed, write_report

GAMES = {"hansa_v0": "board", "serenissima_v0": "map"}


def steps_per_s(batch, budget_s: float, calls: int = 16) -> float:
    def chunk():
        for _ in range(calls):
            batch.step(batch.random_actions())
        return calls

    done, seconds = timed(chunk, budget_s)
    return done * batch.batch_size / seconds


def measure(game: str, option: str, batch_size: int, rounds: int, budget_s: float,
            split: str = "generated:train") -> dict:
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import BatchEnv

    began = time.perf_counter()
    fresh = BatchEnv(spec(game), batch_size, 2, seed=1, **{option: split})
    bank_s = time.perf_counter() - began
    fixed = BatchEnv(spec(game), batch_size, 2, seed=1)
    for batch in (fixed, fresh):
        batch.reset()
        steps_per_s(batch, 0.2)                     # compiled loops loaded, caches warm
    ratios, rates = [], {"fixed": [], "fresh": []}
    for _ in range(rounds):
        for name, batch in (("fixed", fixed), ("fresh", fresh)):
            rates[name].append(steps_per_s(batch, budget_s))
        ratios.append(rates["fresh"][-1] / rates["fixed"][-1])
    row = {"game": game, "batch_size": batch_size, "boards": split,
           "fixed_steps_per_s": statistics.median(rates["fixed"]),
           "fresh_steps_per_s": statistics.median(rates["fresh"]),
           "ratio": statistics.median(ratios), "ratio_min": min(ratios),
           "ratio_max": max(ratios), "env_build_s": bank_s}
    say(f"{game}: fixed {row['fixed_steps_per_s']:,.0f} steps/s, fresh board per game "
        f"{row['fresh_steps_per_s']:,.0f}: ratio {row['ratio']:.3f} "
        f"({row['ratio_min']:.3f}-{row['ratio_max']:.3f}); env built in {bank_s:.1f} s")
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.boards",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--out", default=str(RESULTS_DIR / "board_speed.json"))
    args = parser.parse_args(argv)
    rows = [measure(game, option, args.batch, args.rounds, args.budget)
            for game, option in GAMES.items()]
    command = "python -m meeplezoo.benchmarks.speed.boards " + " ".join(argv or [])
    write_report({"benchmark": "board_speed", "command": command.strip(), "rows": rows,
                  "machine": machine_info()}, Path(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
