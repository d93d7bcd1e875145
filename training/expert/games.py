"""The games of the warm start (``training/expert/loop.py``): the tuned search against itself,
and the positions it leaves, on disk and as replay-buffer rows.

Every seat is played by ``mcts:N`` with the game's tuned defaults (``GAME_MCTS_DEFAULTS``:
Saint Malo's heuristic leaf, Hansa Teutonica's heuristic prior and rollouts...), each seat
its own agent as in the arena.  At a recorded decision we keep the state and what the
search knows about it: the root's visit counts (the policy target), every seat's value
below the move played (what self-play mixes into its value target) and the root's value;
when the game ends, every seat's win/loss reward and score margin.  A share of the moves is
sampled from the visit distribution instead of taking the most visited one, so that
games started from the same opening do not all follow the same line.

Game ``g`` of a run is seeded from ``(seed, g)`` alone, so the positions are the same
whatever the number of worker processes and whatever order the workers finish in.

The positions file (``positions.npz``) keeps states, not observations: 333 int64 against
3,924 float16 for a Saint Malo position, and a later pretraining may change ``value_mix``
or ``margin_scale``, which only :func:`buffer_rows` applies.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import time
from pathlib import Path

import numpy as np

from meeplezoo.agents.mcts.tree import ACTION, BACKED, CHILD, FIRST_EDGE, NUM_EDGES, VISITS
from meeplezoo.agents.mcts.uct import P_BACKUP
from meeplezoo.agents.torch_threads import one_thread_per_worker, one_torch_thread
from meeplezoo.envs.core.files import load_npz

POSITIONS_FORMAT = 1
# name -> (dtype, width: "state", "actions", "seats" or None for one column)
POSITION_FIELDS = {"states": (np.int64, "state"), "policies": (np.float32, "actions"),
                   "search_values": (np.float64, "seats"), "root_values": (np.float64, "seats"),
                   "rewards": (np.float64, "seats"), "score_margins": (np.float64, "seats"),
                   "game_index": (np.int64, None)}


def node_values(agent, node: int, players: int) -> np.ndarray:
    """Every seat's value of a tree node as the search backs it up: the mean of its
    simulations, or the max/expectation values where the game's defaults ask for them
    (Carcassonne's ``backup=max``)."""
    tree = agent.tree
    if agent.params[P_BACKUP] > 0.5:
        return tree.values[node, BACKED:BACKED + players].copy()
    return tree.values[node, :players] / max(int(tree.nodes[node, VISITS]), 1)


def root_statistics(agent, num_actions: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(root moves, their visit counts, their child nodes, -1 where never expanded)."""
    tree = agent.tree
    root = tree.root
    first, count = int(tree.nodes[root, FIRST_EDGE]), int(tree.nodes[root, NUM_EDGES])
    edges = tree.edges[first:first + max(count, 0)]
    actions, children = edges[:, ACTION].astype(np.int64), edges[:, CHILD].astype(np.int64)
    visits = np.where(children >= 0, tree.nodes[np.maximum(children, 0), VISITS], 0)
    return actions, visits.astype(np.float64), children


class SearchTeacher:
    """A search: ``mcts:N`` with the game's tuned defaults (any ``mcts:`` options, such as
    the fitted leaf: ``mcts:100,leaf=fitted``), or a network-guided one
    (``az:CHECKPOINT,sims=N``, expert iteration with the apprentice's own search as the
    expert): its visit distribution, every seat's value below the move played and at the
    root."""

    def __init__(self, game: str, agent_spec: str, seed: int):
        from meeplezoo.agents.registry import make_agent

        self.player = make_agent(agent_spec, game, seed=seed)
        # an ``az:`` bot searches with the MCTS template; its tree is what is learnt
        self.agent = getattr(self.player, "search", self.player)
        if self.agent is None:
            raise ValueError(f"--teacher {agent_spec}: sims=0 plays the network's policy "
                             f"alone; give it a search (sims=N) to learn from")

    def decide(self, env, players: int):
        best = self.player.act(env)
        actions, visits, children = root_statistics(self.agent, env.unwrapped.spec.num_actions)
        tree = self.agent.tree

        def values_below(played: int) -> np.ndarray:
            child = int(children[np.flatnonzero(actions == played)[0]])
            below = child if child >= 0 and tree.nodes[child, VISITS] > 0 else tree.root
            return node_values(self.agent, below, players)

        return best, actions, visits / visits.sum(), values_below, \
            lambda: node_values(self.agent, tree.root, players)


class AgentTeacher:
    """Any agent of the registry (``expert``, ``greedy``, ``ppo:default``, ``ppo:PATH``).
    A policy network (PPO) gives its move distribution and, at two players, its value of
    the position for the seat to move as every seat's value (zero-sum: the other seat's is
    the negative); a hand-written bot gives its move (one-hot).  Where no value is known
    (a hand-written bot, or more than two seats, where one number does not say every
    seat's value) the game's result stands in for it."""

    def __init__(self, game: str, teacher: str, seed: int):
        from meeplezoo.agents.registry import make_agent

        self.agent = make_agent(teacher, game, seed=seed)
        self.is_policy = hasattr(self.agent, "logits_and_value")

    def decide(self, env, players: int):
        values = np.full(players, np.nan)
        if not self.is_policy:
            move = int(self.agent.act(env))
            return move, np.array([move]), np.ones(1), lambda _: values, lambda: values
        logits, mask, value = self.agent.logits_and_value(env)
        actions = np.flatnonzero(mask)
        weights = self.agent.probabilities(logits, mask)[actions]
        weights = weights / weights.sum()
        if players == 2:
            seat = env.possible_agents.index(env.agent_selection)
            mover = float(np.clip(value, -1.0, 1.0))
            values[seat], values[1 - seat] = mover, -mover
        return int(actions[np.argmax(weights)]), actions, weights, lambda _: values, \
            lambda: values


def make_teacher(job: dict, seed: int):
    teacher = job.get("teacher", "mcts")
    if teacher == "mcts":
        return SearchTeacher(job["game"], f"mcts:{job['simulations']}", seed)
    if teacher.startswith(("az:", "mcts:")):
        return SearchTeacher(job["game"], teacher, seed)
    return AgentTeacher(job["game"], teacher, seed)


def play_game(job: dict) -> dict:
    """One game of the teacher at every seat (``job``: game, players, teacher, simulations,
    record_fraction, sample_share, temperature, rule_options, seed, index); its recorded
    positions as arrays of :data:`POSITION_FIELDS` and the number of decisions."""
    from meeplezoo.envs import make
    from meeplezoo.training.az.selfplay import final_targets

    players, index = job["players"], job["index"]
    env_seed, agent_seed, move_seed = np.random.SeedSequence([job["seed"], index]).generate_state(3)
    rng = np.random.default_rng(move_seed)
    env = make(job["game"], num_players=players, **job["rule_options"])
    env.reset(seed=int(env_seed))
    game = env.unwrapped
    teachers = [make_teacher(job, int(agent_seed) + seat) for seat in range(players)]
    recorded: list[tuple] = []
    decisions = 0
    while not env.game_over:
        mask = game.action_mask()
        if int(mask.sum()) == 1:
            # a forced move teaches the policy nothing and costs a whole search
            env.step(int(np.flatnonzero(mask)[0]))
            continue
        seat = env.possible_agents.index(env.agent_selection)
        best, actions, weights, values_below, root_values = teachers[seat].decide(env, players)
        played = best
        if rng.random() < job["sample_share"]:
            sampled = sharpen(weights[None, :], job["temperature"])[0].astype(np.float64)
            played = int(actions[rng.choice(len(actions), p=sampled / sampled.sum())])
        if rng.random() < job["record_fraction"]:
            policy = np.zeros(game.spec.num_actions, dtype=np.float32)
            policy[actions] = weights
            recorded.append((game.state.copy(), policy, values_below(played), root_values()))
        env.step(played)
        decisions += 1
    rewards, margins = final_targets(env, 1.0)         # raw points; scaled in buffer_rows
    count = len(recorded)

    def search_values(which: int) -> np.ndarray:
        values = np.array([r[which] for r in recorded]).reshape(count, players)
        return np.where(np.isnan(values), rewards[None, :], values)   # no value: the result

    positions = {
        "states": np.array([r[0] for r in recorded], dtype=np.int64).reshape(
            count, game.spec.state_size),
        "policies": np.array([r[1] for r in recorded], dtype=np.float32).reshape(
            count, game.spec.num_actions),
        "search_values": search_values(2), "root_values": search_values(3),
        "rewards": np.tile(rewards, (count, 1)), "score_margins": np.tile(margins, (count, 1)),
        "game_index": np.full(count, index, dtype=np.int64)}
    return {"positions": positions, "decisions": decisions}


def generate(jobs: list[dict], workers: int, progress: bool) -> tuple[dict, dict]:
    """Play every job (a game), in ``workers`` spawned processes; (positions in game
    order, {"games", "decisions", "positions", "seconds"})."""
    from tqdm import tqdm

    started = time.perf_counter()
    results, decisions, count = [], 0, 0
    teacher = jobs[0].get("teacher", "mcts")
    label = f"mcts:{jobs[0]['simulations']}" if teacher == "mcts" else teacher
    bar = tqdm(total=len(jobs), unit="game", desc=f"{jobs[0]['game']} {label}",
               dynamic_ncols=True, disable=not progress)

    def collect(result):
        nonlocal decisions, count
        results.append(result["positions"])
        decisions += result["decisions"]
        count += len(result["positions"]["game_index"])
        rate = count / max(time.perf_counter() - started, 1e-9)
        bar.update(1)
        bar.set_postfix(positions=count, per_s=f"{rate:.1f}")

    # a policy teacher scores one position at a time: torch's extra threads only contend
    # with the other workers' (seven times slower with two workers on two cores) or with
    # whatever else runs (ten times, in this process beside one other job); the
    # pretraining gets torch's threads back
    policy = jobs[0].get("teacher", "mcts") != "mcts"
    try:
        with one_torch_thread(load=True) if policy else contextlib.nullcontext():
            if workers <= 1 or len(jobs) <= 1:
                for job in jobs:
                    collect(play_game(job))
            else:
                # The first game here compiles the search (or loads it from numba's cache)
                # once, so the workers load it instead of each compiling it at once.
                collect(play_game(jobs[0]))
                with multiprocessing.get_context("spawn").Pool(
                        workers, initializer=one_thread_per_worker if policy else None) as pool:
                    for result in pool.imap(play_game, jobs[1:]):   # in game order
                        collect(result)
    finally:
        bar.close()
    positions = {name: np.concatenate([r[name] for r in results]) for name in POSITION_FIELDS}
    stats = {"games": len(jobs), "decisions": decisions, "positions": count,
             "seconds": time.perf_counter() - started}
    return positions, stats


def save_positions(path: Path, positions: dict, game: str, players: int,
                   simulations: int) -> None:
    from meeplezoo.training.run.checkpoint import atomic_write

    header = np.array([POSITIONS_FORMAT, players, simulations], dtype=np.int64)
    atomic_write(path, lambda file: np.savez_compressed(
        file, header=header, game=np.array(game), **positions))


def load_positions(path: str | Path, spec, players: int) -> dict:
    """The positions saved at ``path``, refused with one ``ValueError`` if they are of
    another game, player count, format or shape, or hold values no game can give."""
    path = Path(path)
    try:               # a regular file, bounded, headers checked before allocating
        data = load_npz(path, "positions")
        header, game = data["header"], str(data["game"])
        positions = {name: data[name] for name in POSITION_FIELDS}
    except (OSError, ValueError, KeyError, EOFError, IndexError) as err:
        raise ValueError(f"--positions {path} is not a positions file of "
                         f"training.expert: {err}") from None
    if header.shape != (3,) or int(header[0]) != POSITIONS_FORMAT:
        raise ValueError(f"--positions {path}: format {header[:1].tolist()}, this code reads "
                         f"format {POSITIONS_FORMAT}")
    if game != spec.name or int(header[1]) != players:
        raise ValueError(f"--positions {path} holds {game} positions at {int(header[1])} "
                         f"players, not {spec.name} at {players}")
    widths = {"state": spec.state_size, "actions": spec.num_actions, "seats": players}
    count = len(positions["game_index"])
    for name, (dtype, width) in POSITION_FIELDS.items():
        array = positions[name]
        shape = (count,) if width is None else (count, widths[width])
        if array.shape != shape or array.dtype != dtype:
            raise ValueError(f"--positions {path}: {name} has shape {array.shape} "
                             f"{array.dtype}, expected {shape} {np.dtype(dtype)}")
        if array.dtype.kind == "f" and not np.isfinite(array).all():
            raise ValueError(f"--positions {path}: {name} holds NaN or infinite values")
    check_targets(positions, f"--positions {path}")
    return positions


def check_targets(positions: dict, where: str) -> None:
    """Distributions that sum to one and values in [-1, 1] (a hand-edited or truncated file
    would otherwise train quietly on nonsense)."""
    if not len(positions["game_index"]):
        raise ValueError(f"{where}: no positions")
    policies = positions["policies"]
    if (policies < 0).any() or not np.allclose(policies.sum(axis=1), 1.0, atol=1e-4):
        raise ValueError(f"{where}: policies must be distributions (>= 0, summing to 1)")
    for name in ("search_values", "root_values", "rewards"):
        if np.abs(positions[name]).max() > 1.0 + 1e-6:
            raise ValueError(f"{where}: {name} must be in [-1, 1]")


def sharpen(policies: np.ndarray, temperature: float) -> np.ndarray:
    """Each row ``** (1 / temperature)``, renormalised (in logs: a low temperature would
    overflow); moves without visits stay at zero."""
    if temperature == 1.0:
        return policies
    logs = np.log(np.maximum(policies, 1e-30).astype(np.float64))
    logs = np.where(policies > 0, (logs - logs.max(axis=1, keepdims=True)) / temperature,
                    -np.inf)
    weights = np.exp(logs)
    return (weights / weights.sum(axis=1, keepdims=True)).astype(np.float32)


def buffer_rows(spec, positions: dict, value_mix: float, margin_scale: float,
                policy_temperature: float = 1.0) -> dict:
    """Replay-buffer rows (``az_selfplay.BUFFER_FIELDS``, built as self-play's ``_close``
    builds them: observed and rotated for the seat to move, value target ``(1 - value_mix)
    * reward + value_mix * search value``, margins over ``margin_scale``; the policy target
    is the visit distribution sharpened by ``policy_temperature``) plus, for the held-out
    measures, the mover's final reward and its search values (``result``, ``search``,
    ``root``)."""
    from meeplezoo.agents.az.evaluator import absolute_to_rotated, observers
    from meeplezoo.agents.mcts.agent import search_module
    from meeplezoo.envs.core.batch import observe_batch

    states = positions["states"]
    seats = observers(spec, states)
    masks = np.zeros((len(states), spec.num_actions), dtype=np.int8)
    search_module(spec).masks_of(states, masks)
    if (positions["policies"][masks == 0] > 0).any():
        raise ValueError("policy targets put weight on illegal moves (positions of another "
                         "rules version?)")
    width = spec.max_players
    values = (1.0 - value_mix) * positions["rewards"] + value_mix * positions["search_values"]

    def mover(absolute):
        return absolute_to_rotated(absolute, seats, width)[:, 0]

    return {"obs": observe_batch(spec, states, seats).astype(np.float16), "masks": masks,
            "policies": sharpen(positions["policies"], policy_temperature),
            "values": absolute_to_rotated(values, seats, width),
            "margins": absolute_to_rotated(positions["score_margins"] / margin_scale, seats,
                                           width),
            "players": np.full(len(states), positions["rewards"].shape[1], dtype=np.int8),
            "result": mover(positions["rewards"]), "search": mover(positions["search_values"]),
            "root": mover(positions["root_values"])}
