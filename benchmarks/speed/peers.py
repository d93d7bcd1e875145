"""Connect four measured side by side with its peers (pgx, OpenSpiel) in one run.

``python -m meeplezoo.benchmarks.speed.peers [--quick] [--out PATH]`` measures, in one process:

(a) steps per second of random play: ours (``meeplezoo.benchmarks.speed.connect_four``) as
    whole random games inside compiled code (``random_playouts``) and through the
    batched stepper at batch 1024; pgx's ``connect_four`` on the CPU at batch 1024, its
    ``vmap``-ed, auto-resetting step with random legal actions under ``jax.jit``, both
    driven from Python one batch step per call (as pgx's own benchmark does) and as
    ``lax.scan`` over many batch steps in one compiled call; the ratio ours / pgx's best
    against the target (>= 3x);
(b) OpenSpiel's C++ MCTS (``pyspiel.MCTSBot``, UCT c = 2, random-rollout evaluator)
    simulations per second on connect four, from the initial position and a few random
    ones: the figure our MCTS (``agents/mcts``) is compared with.

Results go to JSON (``results/peers_connect_four.json``; with ``--quick``,
``peers_connect_four_quick.json``) and a table is printed; progress goes to stderr.  A
peer that is not installed is reported as unavailable, with the import error.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, timed, write_report

PGX_BAR_RATIO = 3.0      # the target: ours >= 3x pgx's steps/s at batch 1024


@dataclasses.dataclass(frozen=True)
class Settings:
    """How long to measure; ``FULL`` for the published figures, ``QUICK`` for a check."""

    repeats: int = 5                       # repeats (median) of each steps/s figure
    budget_s: float = 1.0                  # seconds per repeat
    batch_size: int = 1024
    playout_chunk: int = 20_000            # games per compiled call of our playouts
    scan_steps: int = 64                   # batch steps per compiled pgx lax.scan call
    mcts_sims: tuple[int, ...] = (100, 1000, 10_000)
    mcts_rollouts: int = 1
    mcts_seconds: float = 8.0              # per simulation count, over all positions
    mcts_positions: int = 4                # the initial position + random ones


FULL = Settings()
QUICK = Settings(repeats=2, budget_s=0.3, mcts_sims=(1000,), mcts_seconds=2.0)




def median_rate(chunk: Callable[[], int], settings: Settings) -> dict:
    rates = []
    for _ in range(settings.repeats):
        units, elapsed = timed(chunk, settings.budget_s)
        rates.append(units / elapsed)
    return {"steps_per_s": statistics.median(rates), "per_repeat": rates}


# --- (a) ours ----------------------------------------------------------------------------------

def ours_playouts(settings: Settings) -> dict:
    """Whole random games of our connect four inside one compiled loop."""
    from meeplezoo.benchmarks.speed.connect_four import SPEC
    from meeplezoo.envs.core.batch import random_playouts

    random_playouts(SPEC, 10)                                  # compile / load the cache
    games = settings.playout_chunk
    seeds = iter(range(1, 1 << 30))
    row = median_rate(lambda: random_playouts(SPEC, games, seed=next(seeds)), settings)
    decisions_per_game = random_playouts(SPEC, games, seed=0) / games
    row.update(decisions_per_game=decisions_per_game,
               games_per_s=row["steps_per_s"] / decisions_per_game)
    say(f"  ours, random playouts in compiled code: {row['steps_per_s']:,.0f} steps/s "
        f"({row['games_per_s']:,.0f} games/s)")
    return row


def ours_batch(settings: Settings, with_observations: bool) -> dict:
    """Our batched stepper at ``batch_size``, random legal actions drawn in compiled code."""
    from meeplezoo.benchmarks.speed.connect_four import SPEC
    from meeplezoo.envs.core.batch import BatchEnv

    batch = BatchEnv(SPEC, settings.batch_size, seed=1, with_observations=with_observations)
    batch.reset()
    batch.step(batch.random_actions())

    def chunk() -> int:
        for _ in range(10):
            batch.step(batch.random_actions())
        return 10 * settings.batch_size

    row = median_rate(chunk, settings)
    row.update(batch_size=settings.batch_size, with_observations=with_observations)
    say(f"  ours, BatchEnv batch {settings.batch_size} obs={with_observations}: "
        f"{row['steps_per_s']:,.0f} steps/s")
    return row


# --- (a) pgx -------------------------------------------------------------------------------

def pgx_steps(settings: Settings) -> dict:
    """pgx connect four on the CPU: a Python loop of jitted batch steps, and ``lax.scan``."""
    try:
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
        import jax
        import pgx
        from pgx.experimental import act_randomly, auto_reset
    except Exception as err:  # noqa: BLE001 (any import failure means "not available")
        say(f"  pgx: not available ({type(err).__name__}: {err})")
        return {"available": False, "error": f"{type(err).__name__}: {err}"}

    env = pgx.make("connect_four")
    size = settings.batch_size
    step = jax.vmap(auto_reset(env.step, env.init))

    def random_step(carry, _):
        state, key = carry
        key, act_key, step_key = jax.random.split(key, 3)
        action = act_randomly(act_key, state.legal_action_mask)
        return (step(state, action, jax.random.split(step_key, size)), key), None

    one_step = jax.jit(lambda carry: random_step(carry, None)[0])

    @jax.jit
    def scan_steps(carry):
        return jax.lax.scan(random_step, carry, None, length=settings.scan_steps)[0]

    init_key, key = jax.random.split(jax.random.PRNGKey(0))
    box = {"carry": (jax.jit(jax.vmap(env.init))(jax.random.split(init_key, size)), key)}

    def python_loop() -> int:
        for _ in range(10):
            box["carry"] = one_step(box["carry"])
        box["carry"][0].current_player.block_until_ready()
        return 10 * size

    def scanned() -> int:
        box["carry"] = scan_steps(box["carry"])
        box["carry"][0].current_player.block_until_ready()
        return settings.scan_steps * size

    result = {"available": True, "pgx": pgx.__version__, "jax": jax.__version__,
              "devices": [str(d) for d in jax.devices()], "batch_size": size}
    for name, chunk in (("python_loop", python_loop), ("lax_scan", scanned)):
        start = time.perf_counter()
        chunk()                                                   # compile
        compile_s = time.perf_counter() - start
        result[name] = {**median_rate(chunk, settings), "compile_and_first_call_s": compile_s}
        say(f"  pgx, batch {size}, {name}: {result[name]['steps_per_s']:,.0f} steps/s")
    result["best_steps_per_s"] = max(result["python_loop"]["steps_per_s"],
                                     result["lax_scan"]["steps_per_s"])
    return result


# --- (b) OpenSpiel MCTS ---------------------------------------------------------------------

def openspiel_positions(count: int, seed: int = 0) -> list:
    """The initial position and ``count - 1`` random non-terminal ones (4-12 plies in)."""
    import pyspiel

    game = pyspiel.load_game("connect_four")
    rng = np.random.default_rng(seed)
    positions = [game.new_initial_state()]
    while len(positions) < count:
        state = game.new_initial_state()
        for _ in range(int(rng.integers(4, 13))):
            state.apply_action(int(rng.choice(state.legal_actions())))
            if state.is_terminal():
                break
        if not state.is_terminal():
            positions.append(state)
    return positions


def openspiel_mcts_sims_per_second(num_sims: int, rollouts: int = 1, seconds: float = 2.0,
                                   positions: int = 4, seed: int = 0, uct_c: float = 2.0,
                                   solve: bool = False) -> dict:
    """Simulations per second of OpenSpiel's C++ MCTS on connect four.

    ``pyspiel.MCTSBot(game, RandomRolloutEvaluator(rollouts, seed), uct_c, num_sims, ...)``
    searches from the initial position and ``positions - 1`` random ones (their moves are
    in the result, to replay them elsewhere), round-robin,
    until ``seconds`` have passed (at least one search each).  Each search is timed as
    ``bot.mcts_search(state)`` (what ``bot.step`` does, less picking the best child) and
    its simulations read from the root's visit count (equal to ``num_sims`` unless
    ``solve`` proves the root early).  Returns totals and a rate per position.
    """
    import pyspiel

    game = pyspiel.load_game("connect_four")
    evaluator = pyspiel.RandomRolloutEvaluator(rollouts, seed)
    bot = pyspiel.MCTSBot(game, evaluator, uct_c, num_sims, 1000, solve, seed, False)
    states = openspiel_positions(positions, seed)
    sims, times, searches = [0] * len(states), [0.0] * len(states), [0] * len(states)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or min(searches) == 0:
        for index, state in enumerate(states):
            begin = time.perf_counter()
            root = bot.mcts_search(state)
            times[index] += time.perf_counter() - begin
            sims[index] += int(root.explore_count)
            searches[index] += 1
    return {
        "num_sims": num_sims, "rollouts": rollouts, "uct_c": uct_c, "solve": solve,
        "searches": sum(searches), "simulations": sum(sims), "search_time_s": sum(times),
        "sims_per_s": sum(sims) / sum(times),
        "initial_position_sims_per_s": sims[0] / times[0],
        "per_position": [{"moves": list(state.history()), "searches": n,
                          "sims_per_s": s / t} for state, n, s, t
                         in zip(states, searches, sims, times, strict=True)],
    }


def openspiel_mcts(settings: Settings) -> dict:
    try:
        import pyspiel  # noqa: F401 (only checks that OpenSpiel is installed)
    except ImportError as err:
        say(f"  OpenSpiel: not available ({err})")
        return {"available": False, "error": f"{type(err).__name__}: {err}"}
    from importlib.metadata import version

    rows = []
    for num_sims in settings.mcts_sims:
        row = openspiel_mcts_sims_per_second(num_sims, settings.mcts_rollouts,
                                             settings.mcts_seconds, settings.mcts_positions)
        rows.append(row)
        say(f"  OpenSpiel MCTSBot, {num_sims} sims/search: {row['sims_per_s']:,.0f} sims/s "
            f"({row['searches']} searches)")
    return {"available": True, "open_spiel": version("open_spiel"), "searches": rows}


# --- the run -------------------------------------------------------------------------------

def collect(settings: Settings, command: str = "") -> dict:
    """Every measurement of one run, as a JSON-ready dict."""
    start = time.perf_counter()
    report = {"benchmark": "peers", "game": "connect_four_calibration", "command": command,
              "settings": dataclasses.asdict(settings),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info()}
    say("(a) random play, steps/s: ours")
    ours = {"playouts": ours_playouts(settings),
            "batch": ours_batch(settings, with_observations=False),
            "batch_obs": ours_batch(settings, with_observations=True)}
    say("(a) random play, steps/s: pgx (CPU)")
    pgx = pgx_steps(settings)
    report["steps"] = {"ours": ours, "pgx": pgx}
    if pgx["available"]:
        best = pgx["best_steps_per_s"]
        ratios = {name: row["steps_per_s"] / best for name, row in ours.items()}
        report["steps"]["ratios_vs_pgx_best"] = ratios
        report["steps"]["bar"] = {"ours_playouts_over_pgx_at_least": PGX_BAR_RATIO,
                                  "measured": ratios["playouts"],
                                  "met": ratios["playouts"] >= PGX_BAR_RATIO}
    say("(b) OpenSpiel C++ MCTS, simulations/s")
    report["openspiel_mcts"] = openspiel_mcts(settings)
    report["total_s"] = time.perf_counter() - start
    report["machine"]["load_average_at_end"] = list(os.getloadavg())
    return report


def format_table(report: dict) -> str:
    steps, lines = report["steps"], [f"(a) random play{'steps/s':>42}"]
    for name, row in steps["ours"].items():
        lines.append(f"    {'ours ' + name:<38} {row['steps_per_s']:>14,.0f}")
    pgx = steps["pgx"]
    if pgx["available"]:
        for name in ("python_loop", "lax_scan"):
            label = f"pgx batch {pgx['batch_size']} {name}"
            lines.append(f"    {label:<38} {pgx[name]['steps_per_s']:>14,.0f}")
        for name, ratio in steps["ratios_vs_pgx_best"].items():
            lines.append(f"    {'ours ' + name + ' / pgx best':<38} {ratio:>13.2f}x")
        bar = steps["bar"]
        lines.append(f"    bar >= {bar['ours_playouts_over_pgx_at_least']:.0f}x: "
                     f"{'met' if bar['met'] else 'NOT met'}")
    else:
        lines.append(f"    pgx not available: {pgx['error']}")
    mcts = report["openspiel_mcts"]
    lines.append(f"(b) OpenSpiel MCTSBot, sims/s{'all positions':>28} {'initial':>10}")
    if mcts["available"]:
        for row in mcts["searches"]:
            label = f"{row['num_sims']} sims/search, {row['rollouts']} rollout(s)"
            lines.append(f"    {label:<38} {row['sims_per_s']:>14,.0f} "
                         f"{row['initial_position_sims_per_s']:>10,.0f}")
    else:
        lines.append(f"    OpenSpiel not available: {mcts['error']}")
    return "\n".join(lines)


def run(argv: list[str] | None = None) -> dict:
    """Parse the command line, measure, write the JSON, print the table; returns the report."""
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.peers",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="short budgets (about 20 s)")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON output (default results/peers_connect_four.json, "
                             "or peers_connect_four_quick.json with --quick)")
    args = parser.parse_args(argv)
    settings = QUICK if args.quick else FULL
    out = args.out or RESULTS_DIR / ("peers_connect_four_quick.json" if args.quick
                                     else "peers_connect_four.json")
    command = "python -m meeplezoo.benchmarks.speed.peers" + (" --quick" if args.quick else "")
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
