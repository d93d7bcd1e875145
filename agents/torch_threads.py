"""Torch on one thread while games are played, in this process and in the worker
processes (the arena's, its Ray tasks' and the expert generator's): the searches are
single-threaded and a network agent scores one position at a time, so torch's extra
threads only contend with the other workers or jobs on the machine (a network on all
cores of a busy machine took 150 ms a move instead of 23; a policy teacher's games ran ten
times slower beside one other job)."""

from __future__ import annotations

import contextlib
import os
import sys


@contextlib.contextmanager
def one_torch_thread(load: bool = False):
    """Torch on one thread inside the block, its thread count restored after it.  Torch
    is not imported for this unless ``load`` (games of searches alone never need it)."""
    torch = sys.modules.get("torch")
    if torch is None and load:
        import torch
    before = torch.get_num_threads() if torch is not None else None
    if torch is not None:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if torch is not None:
            torch.set_num_threads(before)


def one_thread_per_worker() -> None:
    """A pool or Ray worker's initializer: the workers already fill the cores, and a
    network agent's torch would start one thread per core in each of them (a 1.6 ms move
    alone took 14-71 ms in the workers).  Set before torch loads, through the variables
    torch reads when it does; told directly where it has loaded already."""
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
