"""Self-play on Ray for the AlphaZero-style trainer: ``meeplezoo train GAME --algo az
--ray [ADDRESS] --actors N``.

What runs where:

- **Actors** (:class:`SelfPlayActor`, one CPU each, on any node): each holds a CPU copy
  of the network and ``num_games`` games searched in lockstep, exactly the local
  trainer's self-play (``training/az/mixed.py``: at one seat count or several).  A call plays
  ``moves_per_iteration * num_games`` moves and returns the positions of the games that
  ended, with the weights version they were played with.
- **The learner** (this process, :class:`~.az_learner.Learner`, on ``--device``): it takes
  each actor's positions as they arrive into the replay buffer, takes
  ``updates_per_iteration`` gradient steps, and writes the logs and checkpoints as a local
  run does.  One actor result is one iteration.
- **Weights** go through Ray's object store: after each learning step the learner puts
  them there once (``ray.put``) and sends every actor's next call a reference with the
  version (the number of updates the weights have had).  The reference travels inside a
  list so that Ray does not fetch it for a call whose actor already holds that version;
  the actor fetches and loads it only when the version is new.
- **Failures**: an actor whose worker or node dies is replaced by a new one (new seed,
  the latest weights) without stopping the run, up to ``--max-actor-restarts`` times.  Its
  unfinished games are lost; every position the learner has received is kept.

While the learner updates, the actors go on playing with the weights they have; the row of
each iteration logs how many updates behind they were (``policy_lag``), the time to put
the weights in the store (``put_ms``) and an actor's time to fetch and load them
(``load_ms``).  A distributed run is not reproducible move for move (results arrive in
the order the actors finish); a local one is.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter

import numpy as np

from meeplezoo.training.az.learner import Learner, selfplay_settings
from meeplezoo.training.run.ray_cluster import connect, import_ray

NO_RESULT_TIMEOUT_S = 900.0     # no actor has answered for this long: the cluster is stuck


class SelfPlayActor:
    """A Ray actor: ``num_games`` self-play games with a CPU copy of the network."""

    def __init__(self, game: str, meta: dict, settings: dict, seed: int):
        import torch

        from meeplezoo.agents.az.evaluator import NetworkEvaluator
        from meeplezoo.agents.az.network import make_az_network
        from meeplezoo.envs import spec
        from meeplezoo.training.az.mixed import make_selfplay

        torch.set_num_threads(1)            # one CPU per actor, as Ray schedules it
        game_spec = spec(game)
        self.network = make_az_network(meta).eval()
        self.evaluator = NetworkEvaluator(self.network, game_spec, "cpu")
        self.selfplay = make_selfplay(game_spec, settings, seed=seed)
        self.version = -1

    def ready(self) -> None:
        """Answers once the actor is built (its games set up, its kernels loaded)."""
        return None

    def play(self, weights: list, version: int, moves: int, lam: float = 1.0) -> dict:
        """Load the weights if ``version`` is new to this actor, then play ``moves`` with
        the network's share ``lam`` of the leaf value (the learner's schedule)."""
        import ray
        import torch

        load_s = None
        if version != self.version:
            started = time.perf_counter()
            arrays = ray.get(weights[0])
            self.network.load_state_dict({k: torch.tensor(v) for k, v in arrays.items()})
            self.version, load_s = version, time.perf_counter() - started
        selfplay = self.selfplay
        selfplay.set_lam(lam)
        games_before, moves_before = selfplay.games_finished, selfplay.moves_played
        started = time.perf_counter()
        positions = selfplay.play_moves(self.evaluator, moves)
        if positions:                       # the buffer's own dtypes: half the bytes to send
            positions["obs"] = positions["obs"].astype(np.float16)
        return {"positions": positions, "version": version, "load_s": load_s,
                "moves": selfplay.moves_played - moves_before,
                "games": selfplay.games_finished - games_before,
                "play_s": time.perf_counter() - started,
                "node": ray.get_runtime_context().get_node_id()}


class ActorPool:
    """The run's actors, each with one call in flight; replaces the ones that die."""

    def __init__(self, ray, learner: Learner, actors: int, max_restarts: int):
        self.ray, self.learner, self.max_restarts = ray, learner, max_restarts
        options = learner.options
        self.remote_class = ray.remote(num_cpus=1, max_restarts=0)(SelfPlayActor)
        self.settings = selfplay_settings(options)
        self.moves = options.moves_per_iteration * options.num_games
        self.restarts = 0
        self.generation = [0] * actors
        self.in_flight: dict = {}                # object ref -> actor index
        self.handles = [self._spawn(index) for index in range(actors)]

    def _spawn(self, index: int):
        """A new actor for slot ``index``; a first call that answers once it is built, so
        that its first games are played with the weights of that moment."""
        seed = int(self.learner.np_rng.integers(1 << 31))
        name = f"meeplezoo-selfplay-{index}.{self.generation[index]}"
        handle = self.remote_class.options(name=name).remote(
            self.learner.options.game, self.learner.meta, self.settings, seed)
        self.in_flight[handle.ready.remote()] = index
        return handle

    def submit(self, index: int, weights_ref, version: int) -> None:
        call = self.handles[index].play.remote([weights_ref], version, self.moves,
                                               self.learner.knowledge().lam)
        self.in_flight[call] = index

    def next_result(self) -> tuple[int, dict | None]:
        """(actor index, its games), or (index, None) where that actor has just been built
        (a new one replacing one that died, too); the caller then sends it a call."""
        while True:
            ready, _ = self.ray.wait(list(self.in_flight), num_returns=1,
                                     timeout=NO_RESULT_TIMEOUT_S)
            if not ready:
                raise RuntimeError(f"no self-play actor answered for "
                                   f"{NO_RESULT_TIMEOUT_S:.0f} s: does the cluster have a "
                                   f"free CPU for each of the {len(self.handles)} actors?")
            index = self.in_flight.pop(ready[0])
            try:
                return index, self.ray.get(ready[0])
            except self.ray.exceptions.RayActorError as err:
                self._replace(index, err)

    def _replace(self, index: int, err: Exception) -> None:
        self.restarts += 1
        if self.restarts > self.max_restarts:
            first = (str(err).strip().splitlines() or [type(err).__name__])[0]
            raise RuntimeError(f"self-play actors died {self.restarts} times (more than "
                               f"--max-actor-restarts {self.max_restarts}); the last: "
                               f"{first}") from None
        self.ray.kill(self.handles[index], no_restart=True)
        self.generation[index] += 1
        self.handles[index] = self._spawn(index)

    def stop(self) -> None:
        for handle in self.handles:
            self.ray.kill(handle, no_restart=True)


def train_on_ray(options) -> dict:
    """Train with self-play on Ray actors (module docstring); returns the final counters,
    the checkpoint, and what the run measured (``actor_nodes``: results per node id,
    ``actor_restarts``, median ``put_ms`` / ``load_ms`` of a weights broadcast,
    ``moves_per_s`` and ``positions_per_s`` of all actors together, counted once every
    actor has answered, so that their start-up is left out)."""
    import_ray()                     # a missing Ray is one clear line before anything is made
    learner = Learner(options)
    options = learner.options
    ray, started_here = connect(options.ray, cpus=options.actors)
    pool, log = None, None
    try:
        cpus = ray.cluster_resources().get("CPU", 0)
        if cpus < 1:
            raise ValueError(f"the Ray cluster at {options.ray} has no CPU for an actor")
        print(f"self-play on Ray: {options.actors} actors, {cpus:g} CPUs on "
              f"{len(ray.nodes())} node(s)", flush=True)
        if options.actors > cpus:
            print(f"  only {cpus:g} of the {options.actors} actors can run at once (one CPU "
                  f"each); the others wait for a CPU", flush=True)
        log = learner.open_log()
        pool = ActorPool(ray, learner, options.actors, options.max_actor_restarts)
        measured = _learn_from_actors(ray, learner, pool)
        learner.finish()
        return learner.result(**measured)
    finally:
        if pool is not None:
            pool.stop()
        if log is not None:
            log.close()
        if started_here:
            ray.shutdown()


def _learn_from_actors(ray, learner: Learner, pool: ActorPool) -> dict:
    """The learner's loop: one actor result, one learning step, one log row, the actor's
    next call with the newest weights, until the budget is spent."""
    counters = learner.counters
    put_ms: list[float] = []
    load_ms: list[float] = []
    nodes: Counter = Counter()

    def publish():
        started = time.perf_counter()
        ref = ray.put(learner.weights())
        put_ms.append(1000 * (time.perf_counter() - started))
        return ref, counters["updates"]

    weights_ref, version = publish()
    last = time.perf_counter()
    steady_start, steady_moves, steady_positions = None, 0, 0
    answered: set[int] = set()
    while learner.spent() < 1.0:
        index, result = pool.next_result()
        if result is None:                          # an actor is up: its first call
            pool.submit(index, weights_ref, version)
            continue
        positions = result["positions"]
        if positions:
            learner.buffer.add(**positions)
        update_started = time.perf_counter()
        updates_before = counters["updates"]
        stats = learner.learn()
        if counters["updates"] != updates_before:
            weights_ref, version = publish()
        pool.submit(index, weights_ref, version)
        now = time.perf_counter()
        nodes[result["node"]] += 1
        if result["load_s"] is not None:
            load_ms.append(1000 * result["load_s"])
        recorded = len(positions["obs"]) if positions else 0
        answered.add(index)
        if steady_start is None:                    # actors' start-up is not throughput:
            if len(answered) == len(pool.handles):  # count from every actor's first result
                steady_start = now
        else:
            steady_moves += result["moves"]
            steady_positions += recorded
        moves_per_s = steady_moves / max(now - steady_start, 1e-9) if steady_start else 0.0
        learner.record(moves=result["moves"], positions=recorded, games=result["games"],
                       moves_per_s=moves_per_s, elapsed_s=now - last,
                       update_s=now - update_started,
                       stats=stats, actor=index, policy_lag=updates_before - result["version"],
                       put_ms=round(put_ms[-1], 2),
                       load_ms=round(load_ms[-1], 2) if result["load_s"] is not None
                       else float("nan"),
                       actor_restarts=pool.restarts)
        last = time.perf_counter()     # an evaluation in record() is not training time
    wall = max(time.perf_counter() - (steady_start or last), 1e-9)
    return {"actor_nodes": dict(nodes), "actor_restarts": pool.restarts,
            "put_ms": _median(put_ms), "load_ms": _median(load_ms),
            "moves_per_s": steady_moves / wall, "positions_per_s": steady_positions / wall}


def _median(values: list[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")

