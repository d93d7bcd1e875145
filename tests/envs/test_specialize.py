"""Per-game copies of the generic loops (``envs/core/specialize.py``), cached by numba.

A new process must load the batched stepper's compiled loops from the on-disk cache, not
compile them again, and the generated source must stay byte-identical across
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
from meeplezoo.benchmarks.speed.connect_four.env import SPEC
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


# The search's copy: two moves (the second reuses the tree) and the leaf-evaluator hook.
SEARCH_CHILD = """
import json
import numpy as np
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.agents.mcts.agent import compiled_search
from meeplezoo.benchmarks.speed.connect_four.env import SPEC, raw_env
env = raw_env()
env.reset(seed=0)
env.step(MCTSAgent(simulations=32, seed=0).act(env))
agent = MCTSAgent(simulations=32, seed=1)
env.step(agent.act(env))
env.step(agent.act(env))
evaluated = MCTSAgent(simulations=8, leaf_batch=4, seed=0,
                      evaluator=lambda s, m: (np.zeros((len(s), 2)), m.astype(float)))
env.step(evaluated.act(env))
functions = compiled_search(SPEC)
print(json.dumps({"misses": sum(len(f.stats.cache_misses) for f in functions),
                  "hits": sum(len(f.stats.cache_hits) for f in functions)}))
"""


def _child(source: str = CHILD) -> dict:
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          timeout=600, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(JIT_DISABLED, reason="nothing is compiled without the JIT")
def test_a_new_process_loads_the_batch_loops_from_the_cache():
    first = _child()                   # compiles, unless an earlier run already did
    second = _child()
    assert second["misses"] == 0 and second["hits"] == 2
    assert second["file"] == first["file"]
    assert str(CACHE_DIR) in second["file"]          # keyed by the sources' fingerprint


@pytest.mark.skipif(JIT_DISABLED, reason="nothing is compiled without the JIT")
def test_a_new_process_loads_the_search_from_the_cache():
    """simulate, select_leaves, find_position (subtree reuse) and masks_of all come from
    disk in a second process: nothing of the search is compiled again."""
    _child(SEARCH_CHILD)
    second = _child(SEARCH_CHILD)
    assert second == {"misses": 0, "hits": 4}


def test_a_leaf_value_without_an_importable_name_is_compiled_in_this_process():
    """A notebook's leaf value cannot be found again by name, so its copy of the search is
    built in memory (not written to the cache) and still plays."""
    from meeplezoo.agents.mcts import MCTSAgent, search
    from meeplezoo.envs import make, spec

    @numba.njit
    def local_leaf(state, weights, out):                   # defined here: no module attribute
        out[:] = 0.0

    bindings = {"policy": search.random_policy, "leaf_value": local_leaf,
                "prior_policy": search.random_policy}
    module = game_module(spec("hansa_v0"), "meeplezoo.agents.mcts.search", bindings)
    assert module.__name__.endswith("_local") and not hasattr(module, "__file__")
    env = make("hansa_v0", num_players=2)
    env.reset(seed=0)
    action = MCTSAgent(simulations=16, leaf_value=local_leaf, seed=0).act(env)
    assert env.action_mask()[action] == 1


LEAF_SOURCE = """
from meeplezoo.envs.core.jit import njit


@njit
def leaf(state, weights, out):
    out[:] = {value}
"""

LEAF_CHILD = """
import json
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.agents.mcts.tree import VISITS
from meeplezoo.benchmarks.speed.connect_four.env import raw_env
import user_leaf
env = raw_env()
env.reset(seed=0)
agent = MCTSAgent(simulations=16, leaf_value=user_leaf.leaf, seed=0)
agent.act(env)
root = agent.root
print(json.dumps({"mean": agent.tree.values[root, 0] / agent.tree.nodes[root, VISITS]}))
"""


@pytest.mark.skipif(JIT_DISABLED, reason="nothing is compiled without the JIT")
def test_editing_a_users_leaf_value_never_runs_the_stale_cached_search(tmp_path):
    """The user's file is outside the package's fingerprint: the generated copy carries a
    hash of it, so an edit compiles a new copy instead of loading the old one."""
    import os

    environment = dict(os.environ, PYTHONDONTWRITEBYTECODE="1",     # no stale .pyc either
                       PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}")

    def mean_value(value: float) -> float:
        (tmp_path / "user_leaf.py").write_text(LEAF_SOURCE.format(value=value))
        done = subprocess.run([sys.executable, "-c", LEAF_CHILD], capture_output=True,
                              text=True, timeout=600, env=environment)
        assert done.returncode == 0, done.stderr[-2000:]
        return json.loads(done.stdout.strip().splitlines()[-1])["mean"]

    assert mean_value(0.25) == pytest.approx(0.25)
    assert mean_value(0.75) == pytest.approx(0.75)
    assert mean_value(0.25) == pytest.approx(0.25)     # and back: the first copy is reused
