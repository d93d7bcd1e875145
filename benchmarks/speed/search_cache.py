"""Does the cached search run as fast as one compiled in this process?

Each game's copy of the search is loaded from numba's on-disk cache.  Its peer here is the
same template compiled in memory in this process (``game_module(..., cached=False)``, what
every process did before the cache).  Both run the same simulations from the same
position with the same seed (identical work, so the timings compare directly), in
alternating rounds; the figure is the median of the per-round ratios.  Two settings per
game: plain UCT with random rollouts, and the registry's ``mcts:N`` with the game's
defaults (heuristic leaf values or rollouts).

``python -m meeplezoo.benchmarks.speed.search_cache [GAME...] [--rounds 9] [--simulations 1000]``
writes ``results/search_cache.json``.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.agents.mcts.agent import compiled_search
from meeplezoo.agents.mcts.search import P_OWNER_SLOT, P_ROOT_OWNER
from meeplezoo.agents.mcts.tree import Tree
from meeplezoo.agents.registry import make_agent
from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, write_report
from meeplezoo.envs import make, names
from meeplezoo.envs.core.contract import MASK_DTYPE
from meeplezoo.envs.core.rng import new_rng


def _position(game: str, plies: int = 6):
    """A position a few moves in (the first legal move each time: the same every run)."""
    env = make(game, num_players=2)
    env.reset(seed=3)
    for _ in range(plies):
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    return env.unwrapped.spec, env.unwrapped.state.copy()


def _rate(simulate, spec, root, params, simulations: int) -> float:
    tree, rng = Tree(100_000), new_rng(1)
    work = np.empty_like(root)
    mask = np.zeros(spec.num_actions, dtype=MASK_DTYPE)
    codes = np.zeros(max(spec.max_chance_outcomes, 1), dtype=np.int64)
    probs = np.zeros(codes.shape[0], dtype=np.float64)
    started = time.perf_counter()
    for done in range(0, simulations, 64):
        simulate(min(64, simulations - done), root, tree.nodes, tree.values, tree.edges,
                 tree.priors, tree.meta, params, rng, work, mask, codes, probs)
    return simulations / (time.perf_counter() - started)


def compare(game: str, setting: str, rounds: int, simulations: int) -> dict:
    spec, root = _position(game)
    agent = MCTSAgent(seed=0) if setting == "random rollouts" else make_agent("mcts:1", game)
    params = agent.params.copy()
    params[P_OWNER_SLOT] = spec.turn_owner_slot
    params[P_ROOT_OWNER] = root[spec.turn_owner_slot]
    searches = {cached: compiled_search(spec, agent.rollout, agent.leaf_value, cached)[0]
                for cached in (True, False)}
    for simulate in searches.values():
        _rate(simulate, spec, root, params, 64)              # compile / load, not timed
    rates: dict[bool, list[float]] = {True: [], False: []}
    for round_number in range(rounds):
        order = (True, False) if round_number % 2 == 0 else (False, True)
        for cached in order:
            rates[cached].append(_rate(searches[cached], spec, root, params, simulations))
    ratios = [c / u for c, u in zip(rates[True], rates[False], strict=True)]
    return {"setting": setting, "cached_sims_per_s": round(statistics.median(rates[True])),
            "in_process_sims_per_s": round(statistics.median(rates[False])),
            "ratio_median": round(statistics.median(ratios), 3),
            "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)]}


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=names(), type=game_argument)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--simulations", type=int, default=1000)
    args = parser.parse_args(argv)
    rows = []
    for game in args.games:
        for setting in ("random rollouts", "game defaults"):
            row = {"game": game} | compare(game, setting, args.rounds, args.simulations)
            rows.append(row)
            say(f"{game}, {setting}: cached {row['cached_sims_per_s']:,} sims/s, compiled "
                f"in process {row['in_process_sims_per_s']:,}; ratio {row['ratio_median']} "
                f"(rounds {row['ratio_range'][0]}-{row['ratio_range'][1]})")
    write_report({"machine": machine_info(), "rows": rows, "rounds": args.rounds,
                  "simulations": args.simulations}, RESULTS_DIR / "search_cache.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
