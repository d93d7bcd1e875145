"""Playing scheduled games (``play_one`` jobs): in this process, in spawned worker
processes, or as Ray tasks, each record appended to a JSONL file as it ends.  Shared by
the arena, matches, ladders and the generalisation protocol."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from meeplezoo.agents.torch_threads import one_thread_per_worker, one_torch_thread
from meeplezoo.benchmarks.arena.game import play_one


class _Progress:
    """tqdm when installed, else a line every ``every`` seconds with the ETA."""

    def __init__(self, total: int, enabled: bool, every: float = 10.0):
        self.total, self.done, self.enabled, self.every = total, 0, enabled, every
        self.started = self.last = time.perf_counter()
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, unit="game", dynamic_ncols=True, file=sys.stderr)
            except ImportError:
                pass

    def update(self) -> None:
        self.done += 1
        if self.bar is not None:
            self.bar.update()
            return
        now = time.perf_counter()
        if self.enabled and (now - self.last >= self.every or self.done == self.total):
            self.last = now
            rate = self.done / max(now - self.started, 1e-9)
            eta = (self.total - self.done) / max(rate, 1e-9)
            print(f"arena: {self.done}/{self.total} games, {rate:.2f} games/s, "
                  f"ETA {eta:.0f} s", file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def play_jobs(todo: Sequence[dict], path: Path, workers: int | None = None,
              ray: str | None = None, progress: bool = True) -> None:
    """Play scheduled games (``play_one`` jobs), each record appended to ``path`` as it
    ends: in this process, in ``workers`` spawned processes, or as Ray tasks."""
    workers = workers or min(2, os.cpu_count() or 1)
    bar = _Progress(len(todo), progress)
    try:
        with path.open("a") as sink, one_torch_thread():
            if ray is not None:
                from meeplezoo.benchmarks.arena.ray import play_on_ray

                # One result per task, retried or not: each game is written once.
                nodes = play_on_ray(todo, lambda record: _drain([record], sink, bar), ray,
                                    workers)
                if progress and nodes:
                    print(f"arena: {sum(nodes.values())} games on {len(nodes)} Ray node(s)",
                          file=sys.stderr)
            elif workers <= 1 or len(todo) <= 1:
                _drain(map(play_one, todo), sink, bar)
            else:
                # Each agent's first game runs here, so its kernels compile (or load from
                # numba's cache) once, instead of in every worker at the same moment.
                first, seen = [], set()
                for job in todo:
                    if not set(job["seats"]) <= seen:
                        first.append(job)
                        seen |= set(job["seats"])
                _drain(map(play_one, first), sink, bar)
                rest = [job for job in todo if not any(job is f for f in first)]
                if rest:
                    with multiprocessing.get_context("spawn").Pool(
                            workers, initializer=one_thread_per_worker) as pool:
                        _drain(pool.imap_unordered(play_one, rest), sink, bar)
    finally:
        bar.close()


def _drain(results: Iterable[dict], sink, bar: _Progress) -> None:
    for record in results:
        sink.write(json.dumps(record) + "\n")
        sink.flush()
        bar.update()
