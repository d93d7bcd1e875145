"""Per-game copies of the generic loops (``envs/core/specialize.py``), cached by numba.

A new process must load the batched stepper's compiled loops from the on-disk cache, not
compile them again (issue 16), and the generated source must stay byte-identical across
processes (numba keys its cache on the file's modification time).
"""

from __future__ import annotations

import json
import subprocess
import sys

import numba
import pytest

from meeplezoo.envs.core.jit import CACHE_DIR, JIT_DISABLED
from meeplezoo.envs.core.specialize import game_module

CHILD = """
import json
from meeplezoo.benchmarks.connect_four.env import SPEC
from meeplezoo.envs.core.batch import BatchEnv, compiled_loops
batch = BatchEnv(SPEC, 4, seed=1)
batch.reset()
batch.step(batch.random_actions())
step, reset, _ = compiled_loops(SPEC)
import meeplezoo.envs.core.specialize as s
module = next(m for m in s._LOADED.values())
print(json.dumps({"misses": len(step.stats.cache_misses) + len(reset.stats.cache_misses),
                  "hits": len(step.stats.cache_hits) + len(reset.stats.cache_hits),
                  "file": module.__file__}))
"""


def _child() -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True,
                          timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(JIT_DISABLED, reason="nothing is compiled without the JIT")
def test_a_new_process_loads_the_batch_loops_from_the_cache():
    first = _child()                   # compiles, unless an earlier run already did
    second = _child()
    assert second["misses"] == 0 and second["hits"] == 2
    assert second["file"] == first["file"]
    assert str(CACHE_DIR) in second["file"]          # keyed by the sources' fingerprint


def test_a_binding_that_cannot_be_imported_by_name_is_refused():
    from meeplezoo.benchmarks.connect_four.env import SPEC

    @numba.njit
    def local_policy(state, mask, rng):           # defined here: no module attribute
        return 0

    with pytest.raises(ValueError, match="not importable by name"):
        game_module(SPEC, "meeplezoo.envs.core.batch_loops", {"policy": local_policy})
