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


def test_a_leaf_value_without_an_importable_name_is_compiled_in_this_process():
    """A notebook's leaf value cannot be found again by name, so its copy of the search is
    built in memory (not written to the cache) and still plays."""
    from meeplezoo.agents.mcts import MCTSAgent, search
    from meeplezoo.envs import make, spec

    @numba.njit
    def local_leaf(state, out):                   # defined here: no module attribute
        out[:] = 0.0

    bindings = {"policy": search.random_policy, "leaf_value": local_leaf,
                "prior_policy": search.random_policy}
    module = game_module(spec("hansa_v0"), "meeplezoo.agents.mcts.search", bindings)
    assert module.__name__.endswith("_local") and not hasattr(module, "__file__")
    env = make("hansa_v0", num_players=2)
    env.reset(seed=0)
    action = MCTSAgent(simulations=16, leaf_value=local_leaf, seed=0).act(env)
    assert env.action_mask()[action] == 1
