"""What every benchmark script shares: progress lines, timed loops, machine facts."""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np

# Where a benchmark or study writes its record unless given ``--out``: ``results/`` under
# the current directory (``$MEEPLEZOO_RESULTS`` to change it), never inside the installed
# package.  The project's own records live in the checkout's top-level ``results/``, so
# rerunning a record's command from the checkout's root refreshes that record.
RESULTS_DIR = Path(os.environ.get("MEEPLEZOO_RESULTS") or "results")


def say(message: str) -> None:
    """A progress line on stderr (stdout is kept for the result table)."""
    print(message, file=sys.stderr, flush=True)


def timed(chunk: Callable[[], int], budget_s: float) -> tuple[int, float]:
    """Call ``chunk()`` (returning units of work done) until ``budget_s`` has passed."""
    units, start = 0, time.perf_counter()
    while True:
        units += chunk()
        elapsed = time.perf_counter() - start
        if elapsed >= budget_s:
            return units, elapsed


def machine_info() -> dict:
    """CPU, versions and load: the context a reader needs to weigh the figures."""
    model = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    info = {"cpu_model": model, "cpu_count": os.cpu_count(), "cpus_usable": usable,
            "platform": platform.platform(), "python": platform.python_version(),
            "numpy": np.__version__, "numba": numba.__version__,
            "load_average_at_start": list(os.getloadavg())}
    try:
        import pettingzoo

        info["pettingzoo"] = pettingzoo.__version__
    except ImportError:
        pass
    return info


def write_report(report: dict, out: Path) -> None:
    """A benchmark's JSON report, its folder made if needed."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(report, indent=2) + "\n")


def command_main(prog: str, description: str, add_arguments, run, argv) -> int:
    """A subcommand run alone (``python -m meeplezoo.benchmarks.rating.match``): parse, run, and
    turn bad input (a ``ValueError``) into one line and exit status 2."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog=prog, description=description)
    add_arguments(parser)
    try:
        return run(parser.parse_args(argv))
    except ValueError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        return 2

