"""The arena's games as Ray tasks: ``meeplezoo arena ... --ray [ADDRESS]``.

No address starts a Ray on this machine with ``--workers`` CPUs; ``auto`` or an address
joins a running cluster.  Each scheduled game is one task (one CPU, torch on one thread,
the same ``play_one`` as the local pool), so the records are the local run's, seed for
seed; they stream into the same resumable JSONL as each task finishes.  A task whose
worker or node dies is run again by Ray (``max_retries``); since a game is a pure function
of its deal and seating, the rerun writes the record the lost one would have, once.

Ray is imported only here, and only when ``--ray`` is given (``pip install
'meeplezoo[ray]'``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from meeplezoo.training.run.ray_cluster import connect

RETRIES = 5          # reruns of a game whose worker process or node died


def _play_task(job: dict) -> tuple[dict, str]:
    """One game on a Ray worker, on one thread as in the local pool; the record and the
    node it ran on."""
    import ray

    from meeplezoo.agents.torch_threads import one_thread_per_worker
    from meeplezoo.benchmarks.arena.game import play_one

    one_thread_per_worker()
    return play_one(job), ray.get_runtime_context().get_node_id()


def play_on_ray(jobs: Sequence[dict], on_record, address: str | None, cpus: int) -> Counter:
    """Play ``jobs`` as Ray tasks, calling ``on_record(record)`` as each finishes (in any
    order); returns the games played per node id.  Ray started here is shut down after."""
    ray, started = connect(address, cpus)
    try:
        task = ray.remote(num_cpus=1, max_retries=RETRIES)(_play_task)
        pending = [task.remote(job) for job in jobs]
        nodes: Counter = Counter()
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            record, node = ray.get(done[0])
            nodes[node] += 1
            on_record(record)
        return nodes
    finally:
        if started:
            ray.shutdown()
