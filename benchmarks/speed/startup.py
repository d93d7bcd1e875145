"""(d) of the speed benchmark: start-up and compile time in fresh processes.

Each measurement is a new Python process (``subprocess``) that imports the game, makes the
env, resets and steps it, then makes a ``BatchEnv``'s first step; "cold" points
``MEEPLEZOO_NUMBA_CACHE`` at an empty directory, "warm" reuses it.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from meeplezoo.benchmarks.common import say

WARM_START_BAR_S = 2.0   # the target: first reset() in a new process, warm cache

# Run in a fresh interpreter: import, first reset + observation + step, then the batched
# stepper's first step (its per-game copy of the loops is cached on disk like a kernel).
_CHILD = """
import json, time
started = time.time(); t0 = time.perf_counter()
import meeplezoo.envs.saint_malo_v0 as game
t1 = time.perf_counter()
env = game.env(num_players=2)
env.reset(seed=0)
t2 = time.perf_counter()
obs = env.last()[0]
env.step(int(obs["action_mask"].nonzero()[0][0]))
t3 = time.perf_counter(); first_step_done = time.time()
from meeplezoo.envs.core import jit
from meeplezoo.envs.core.batch import BatchEnv
batch = BatchEnv(game.SPEC, 4); batch.reset(); batch.step(batch.random_actions())
t4 = time.perf_counter()
print(json.dumps(dict(started=started, first_step_done=first_step_done, import_s=t1 - t0,
                      first_reset_s=t2 - t1, first_step_s=t3 - t2,
                      batch_first_step_s=t4 - t3, cache_dir=str(jit.CACHE_DIR))))
"""


def child_environment(cache_root: str | None) -> dict:
    """This process's environment, with the numba cache at ``cache_root`` if given."""
    env = dict(os.environ)
    if cache_root is not None:
        env.pop("NUMBA_CACHE_DIR", None)
        env["MEEPLEZOO_NUMBA_CACHE"] = cache_root
    return env


def start_once(cache_root: str | None) -> dict:
    """One fresh process; ``cache_root`` None keeps this process's numba cache."""
    env = child_environment(cache_root)
    spawned = time.time()
    done = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                          text=True, timeout=900)
    exited = time.time()
    if done.returncode != 0:
        raise RuntimeError(f"start-up child failed:\n{done.stderr[-3000:]}")
    child = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "interpreter_start_s": child["started"] - spawned,
        "import_s": child["import_s"],
        "first_reset_s": child["first_reset_s"],     # env() + reset()
        "first_step_s": child["first_step_s"],       # last() + step()
        "process_to_first_step_s": child["first_step_done"] - spawned,
        "batch_first_step_s": child["batch_first_step_s"],
        "process_total_s": exited - spawned,
        "cache_dir": child["cache_dir"],
    }


def _median_runs(runs: list[dict]) -> dict:
    keys = [k for k in runs[0] if k != "cache_dir"]
    return {k: statistics.median(run[k] for run in runs) for k in keys} | {"runs": len(runs)}


def startup_benchmark(settings) -> dict:
    """``settings`` needs ``cold_start`` (bool) and ``warm_starts`` (int)."""
    from meeplezoo.envs.core import jit

    results: dict = {}
    scratch = tempfile.mkdtemp(prefix="meeplezoo_bench_cache_") if settings.cold_start else None
    try:
        if scratch is not None:
            say("  (d) cold numba cache (compiles every kernel)...")
            cold = start_once(scratch)
            results["cold"] = _median_runs([cold])
            expected_dir = cold["cache_dir"]
        else:
            expected_dir = str(jit.CACHE_DIR)     # (a) already filled this process's cache
        warm = []
        for _ in range(settings.warm_starts + 2):   # + retries if the sources change meanwhile
            attempt = start_once(scratch)
            if attempt["cache_dir"] != expected_dir:   # a source was edited: a new cache key
                say("  (d) sources changed during the run; the cache key moved, retrying")
                expected_dir, warm = attempt["cache_dir"], []
                continue
            warm.append(attempt)
            if len(warm) == settings.warm_starts:
                break
        if len(warm) < settings.warm_starts:
            raise RuntimeError("the numba cache key kept changing (sources edited mid-run)")
        results["warm"] = _median_runs(warm)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    measured = results["warm"]["process_to_first_step_s"]
    results["bar"] = {"warm_process_to_first_step_s_below": WARM_START_BAR_S,
                      "measured": measured, "met": measured < WARM_START_BAR_S}
    say(f"  (d) warm cache: first step done {measured:.2f} s after spawn")
    return results



# Per game, three milestones, each timed from the spawn of a new process:
# the env's first reset(), the first ``mcts:200`` move (the registry's agent, with the
# game's defaults), the first ``BatchEnv.step``.  "all" does the three in turn in one
# process (the cold run: each figure then includes what the earlier ones compiled).
_GAME_CHILD = """
import json, sys, time
game, mode, spawned = sys.argv[1], sys.argv[2], float(sys.argv[3])
marks = {}
if mode in ("reset", "mcts", "all"):
    from meeplezoo.envs import make
    env = make(game, num_players=2)
    env.reset(seed=0)
    marks["reset"] = time.time() - spawned
if mode in ("mcts", "all"):
    from meeplezoo.agents.registry import make_agent
    action = make_agent("mcts:200", game, seed=0).act(env)
    env.step(action)
    marks["mcts"] = time.time() - spawned
if mode in ("batch", "all"):
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import BatchEnv
    batch = BatchEnv(spec(game), 4, 2)
    batch.reset()
    batch.step(batch.random_actions())
    marks["batch"] = time.time() - spawned
from meeplezoo.envs.core import jit
print(json.dumps({"marks": marks, "cache_dir": str(jit.CACHE_DIR)}))
"""
GAME_BARS_S = {"reset": 2.0, "mcts": 2.0, "batch": 1.5}     # warm cache, spawn -> done


def game_start_once(game: str, mode: str, cache_root: str | None = None) -> dict:
    """One new process: seconds from its spawn to each milestone of ``mode``."""
    env = child_environment(cache_root)
    done = subprocess.run([sys.executable, "-c", _GAME_CHILD, game, mode, repr(time.time())],
                          env=env, capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise RuntimeError(f"start-up child for {game} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def folder_megabytes(folder: str) -> float:
    from pathlib import Path

    return sum(p.stat().st_size for p in Path(folder).rglob("*") if p.is_file()) / 1e6


def game_startup(game: str, warm_runs: int, cold: bool) -> dict:
    """Warm medians per milestone (after one process that fills the cache), and with
    ``cold`` one process in an empty cache (its milestones and the cache it leaves)."""
    row: dict = {}
    if cold:
        scratch = tempfile.mkdtemp(prefix="meeplezoo_cold_")
        try:
            child = game_start_once(game, "all", scratch)
            row["cold"] = {k: round(v, 2) for k, v in child["marks"].items()}
            row["cold"]["cache_mb"] = round(folder_megabytes(child["cache_dir"]), 1)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    game_start_once(game, "all")                   # fill (or confirm) this user's cache
    row["warm"] = {}
    for mode, bar in GAME_BARS_S.items():
        median = statistics.median(game_start_once(game, mode)["marks"][mode]
                                   for _ in range(warm_runs))
        row["warm"][mode] = {"median_s": round(median, 2), "bar_s": bar, "met": median < bar}
    return row


def main(argv: list[str] | None = None) -> int:
    """``python -m meeplezoo.benchmarks.speed.startup [GAME...]``: per game, spawn -> first
    ``reset()``, first ``mcts:200`` move and first ``BatchEnv.step``, warm cache (median of
    ``--warm`` processes) and, with ``--cold``, in an empty cache (one process)."""
    import argparse

    from meeplezoo.benchmarks.common import RESULTS_DIR, write_report
    from meeplezoo.envs import game_argument, names
    from meeplezoo.envs.core import jit

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=names(), type=game_argument)
    parser.add_argument("--warm", type=int, default=3)
    parser.add_argument("--cold", action="store_true", help="also one cold process per game")
    args = parser.parse_args(argv)
    from meeplezoo.benchmarks.common import machine_info

    report = {"machine": machine_info(), "cache_dir": str(jit.CACHE_DIR), "games": {}}
    for game in args.games:
        row = game_startup(game, args.warm, args.cold)
        report["games"][game] = row
        warm = ", ".join(f"{m} {r['median_s']:.2f} s ({'met' if r['met'] else 'NOT met'})"
                         for m, r in row["warm"].items())
        cold = "" if "cold" not in row else "; cold " + ", ".join(
            f"{k} {v}" for k, v in row["cold"].items())
        say(f"{game}: warm spawn -> first {warm}{cold}")
    report["cache_mb"] = round(folder_megabytes(str(jit.CACHE_DIR)), 1)
    write_report(report, RESULTS_DIR / "startup_games.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
