"""The cached copy of the search and one compiled in this process are the same search."""

from __future__ import annotations

import numpy as np

from meeplezoo.agents.mcts.agent import compiled_search
from meeplezoo.agents.mcts.search import P_OWNER_SLOT, P_ROOT_OWNER
from meeplezoo.agents.mcts.tree import Tree
from meeplezoo.agents.registry import make_agent
from meeplezoo.benchmarks.speed.search_cache import _position, main
from meeplezoo.envs.core.contract import MASK_DTYPE
from meeplezoo.envs.core.rng import new_rng


def _tree_after(simulate, spec, root, params) -> Tree:
    tree, rng = Tree(10_000), new_rng(7)
    codes = np.zeros(max(spec.max_chance_outcomes, 1), dtype=np.int64)
    simulate(200, root, tree.nodes, tree.values, tree.edges, tree.priors, tree.meta, params,
             rng, np.empty_like(root), np.zeros(spec.num_actions, dtype=MASK_DTYPE), codes,
             np.zeros(codes.shape[0]))
    return tree


def test_cached_and_in_process_copies_build_identical_trees():
    spec, root = _position("hansa_v0")
    agent = make_agent("mcts:1", "hansa_v0")          # the game's defaults: heuristic rollouts
    params = agent.params.copy()
    params[P_OWNER_SLOT], params[P_ROOT_OWNER] = spec.turn_owner_slot, root[spec.turn_owner_slot]
    cached, in_process = (compiled_search(spec, agent.rollout, agent.leaf_value, flag)[0]
                          for flag in (True, False))
    assert cached is not in_process
    a, b = (_tree_after(f, spec, root, params) for f in (cached, in_process))
    assert a.meta[0] > 100                             # a real tree, not an empty one
    for field in ("nodes", "values", "edges", "priors", "meta"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


def test_the_benchmark_writes_its_rows(tmp_path, monkeypatch):
    import meeplezoo.benchmarks.speed.search_cache as bench

    monkeypatch.setattr(bench, "RESULTS_DIR", tmp_path)
    assert main(["hansa_v0", "--rounds", "2", "--simulations", "64"]) == 0
    report = (tmp_path / "search_cache.json").read_text()
    assert '"random rollouts"' in report and '"game defaults"' in report
