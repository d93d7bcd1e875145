"""``meeplezoo warmup [GAME...]``: compile every compiled path ahead of time.

numba compiles a kernel the first time it is called with new argument types and keeps the
machine code in the on-disk cache (``envs/core/jit.py``), so a process that finds it there
starts in about a second.  Warming up plays each game through every path that compiles:
the AEC env to the end of a random game, the batched stepper and the compiled playouts,
the search in each of its per-game copies (the registry's ``mcts:N`` with the game's
defaults, plain random rollouts, the heuristic rollouts where the game has them, the
leaf-evaluator hook, subtree reuse), and the hand-written bots.  Calls go through the
public API, so the argument types are exactly those a real run uses.  Run it once when
building a cluster image or a CI cache; ``--prune`` removes the caches of other versions
of the sources.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import numpy as np

from meeplezoo.agents.registry import HEURISTICS, make_agent
from meeplezoo.envs import make, names, resolve_game
from meeplezoo.envs import spec as game_spec
from meeplezoo.envs.core import jit
from meeplezoo.envs.core.batch import BatchEnv, random_playouts
from meeplezoo.envs.core.contract import H_NUM_PLAYERS
from meeplezoo.envs.versions import rules_name


def play_random_game(game: str, seed: int) -> int:
    """A random 2-player game to its end through the AEC env: reset, step, the legal-move
    mask and the observation kernel compile (``serve``'s warm-up uses it too)."""
    env = make(game, num_players=2)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    while not env.game_over:
        env.last()                                     # the observation kernel
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
        decisions += 1
    return decisions


def _uniform_evaluator(states, masks):
    """Leaf values 0 and priors uniform over the legal moves (stands in for a network)."""
    return np.zeros((states.shape[0], int(states[0, H_NUM_PLAYERS]))), masks.astype(np.float64)


def search_twice(game: str, agent) -> None:
    """Two moves in a row: the second reuses the first tree (subtree reuse compiles).
    Any agent that searches: the registry's ``mcts:N``, ``az:default``."""
    env = make(game, num_players=2)
    env.reset(seed=0)
    for _ in range(2):
        if env.game_over:
            break
        env.step(agent.act(env))


def warm_game(game: str) -> list[str]:
    """Run every compiled path of ``game`` once; returns what was warmed, in order."""
    from meeplezoo.agents.mcts import MCTSAgent

    done = []
    play_random_game(game, seed=0)
    done.append("env")
    spec = game_spec(game)
    for observations in (True, False):
        batch = BatchEnv(spec, 2, 2, with_observations=observations)
        batch.reset()
        batch.step(batch.random_actions())
    random_playouts(spec, 1)
    done.append("batch")
    searches = [make_agent("mcts:8", game, seed=0), MCTSAgent(simulations=8, seed=0)]
    if "rollout_policy" in spec.kernels:
        searches.append(MCTSAgent(simulations=8, rollout="heuristic", seed=0))
    searches.append(MCTSAgent(simulations=8, evaluator=_uniform_evaluator, leaf_batch=4, seed=0))
    for agent in searches:
        search_twice(game, agent)
    done.append(f"mcts x{len(searches)}")
    for kind, bot_game in HEURISTICS:
        if bot_game == rules_name(game):
            search_twice(game, make_agent(kind, game, seed=0))
            done.append(kind)
    return done


def folder_size(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def prune_other_versions(cache_dir: Path) -> int:
    """Delete the sibling cache folders (other source fingerprints); bytes freed."""
    freed = 0
    for sibling in cache_dir.parent.iterdir():
        if sibling.is_dir() and sibling != cache_dir and len(sibling.name) == len(
                cache_dir.name) and all(c in "0123456789abcdef" for c in sibling.name):
            freed += folder_size(sibling)
            shutil.rmtree(sibling, ignore_errors=True)
    return freed


def add_arguments(parser) -> None:
    parser.add_argument("games", nargs="*", help=f"default: all ({', '.join(names())})")
    parser.add_argument("--prune", action="store_true",
                        help="also delete cached kernels of other versions of the sources")


def warmup_command(args) -> int:
    games = [resolve_game(g) for g in args.games] or names()
    cache_dir = jit.CACHE_DIR
    print(f"compiling into {cache_dir}", flush=True)
    started = time.perf_counter()
    for number, game in enumerate(games, 1):
        began = time.perf_counter()
        warmed = warm_game(game)
        print(f"[{number}/{len(games)}] {game}: {', '.join(warmed)} "
              f"({time.perf_counter() - began:.1f} s)", flush=True)
    if args.prune:
        freed = prune_other_versions(cache_dir)
        print(f"pruned other versions: {freed / 1e6:.1f} MB freed")
    print(f"done in {time.perf_counter() - started:.1f} s; cache {cache_dir} holds "
          f"{folder_size(cache_dir) / 1e6:.1f} MB", flush=True)
    return 0
