"""Frozen test sets of positions with their final results, to measure values.

    python -m meeplezoo.benchmarks.studies.value_quality build hansa_v0 [--games 50] [--players 2]

A set holds positions from games no trained bot played: ``greedy`` against ``greedy`` and
``mcts:200`` against ``mcts:200`` (the game's search defaults), ``--games`` of each, every
seat seeded by the deal as in the arena, so the same command builds the same set.  From
each game ``--per-game`` decision points (never a chance event), spread evenly over its
length from a seeded offset, are kept with the game's final result:

| array      | shape, dtype      | what                                                        |
|------------|-------------------|-------------------------------------------------------------|
| states     | [N, S] int64      | the state rows (``H_TO_MOVE`` is the seat to move)          |
| third      | [N] int8          | 0 early, 1 middle, 2 late: ``3 * decision // length``       |
| decision   | [N] int32         | decisions played before the position                        |
| length     | [N] int32         | decisions in its game                                       |
| game_id    | [N] int32         | the game's index in the set (its positions share a result) |
| matchup    | [N] int8          | index into the header's ``matchups``                        |
| rewards    | [N, P] float64    | final win/loss reward per absolute seat (ties shared)       |
| margins    | [N, P] float64    | final score minus the best other seat's, per absolute seat  |

Files: ``<folder>/<game>_<players>p.npz`` (``np.savez_compressed``, read with
``allow_pickle=False``) and ``.json`` beside it, the header: game, env version, state
size, the rules (every rule option's value), players, matchups, seeds, the build time and
the npz's SHA-256, so a set built under other rules, or a file edited or swapped, is
refused with one line rather than measured.  Games cut at the decision cap are left out
(their "result" is the points at the cut) and counted in the header.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, say
from meeplezoo.envs.core.files import FileRefused, exists, load_npz, read_bytes, read_json

FORMAT, VERSION = "meeplezoo-value-set", 1
MATCHUPS = ("greedy", "mcts:200")
THIRDS = ("early", "middle", "late")
DEFAULT_FOLDER = RESULTS_DIR / "value_sets"
ARRAYS = {"states": (np.int64, 2), "third": (np.int8, 1), "decision": (np.int32, 1),
          "length": (np.int32, 1), "game_id": (np.int32, 1), "matchup": (np.int8, 1),
          "rewards": (np.float64, 2), "margins": (np.float64, 2)}
MAX_MARGIN = 10**6       # points between seats: no game's scores come near


@dataclass
class ValueSet:
    """A loaded (or freshly built) test set: ``header`` and the arrays of the table."""

    header: dict
    arrays: dict[str, np.ndarray]
    _masks: np.ndarray | None = field(default=None, repr=False)

    def __getattr__(self, name):
        arrays = self.__dict__.get("arrays", {})
        if name in arrays:
            return arrays[name]
        raise AttributeError(name)

    @property
    def game(self) -> str:
        return self.header["game"]

    @property
    def players(self) -> int:
        return self.header["players"]

    def __len__(self) -> int:
        return len(self.arrays["states"])

    def subset(self, keep: np.ndarray) -> ValueSet:
        """The positions where ``keep`` is true (e.g. one matchup's games)."""
        arrays = {name: array[keep] for name, array in self.arrays.items()}
        masks = None if self._masks is None else self._masks[keep]
        header = {**self.header, "positions": len(arrays["states"]),
                  "games": len(np.unique(arrays["game_id"]))}
        return ValueSet(header, arrays, masks)

    def masks(self) -> np.ndarray:
        """Each position's legal mask (computed once; an evaluator takes them)."""
        if self._masks is None:
            from meeplezoo.envs import spec

            game_spec = spec(self.game)
            legal = game_spec.kernel("legal_mask")
            self._masks = np.zeros((len(self), game_spec.num_actions), dtype=np.int8)
            for row, state in enumerate(self.states):
                legal(state.copy(), self._masks[row])
        return self._masks


def pool_sets(sets: list[ValueSet]) -> ValueSet:
    """One value set of several of the same game's rules and seats, their games (and
    matchups) numbered apart, as ``subset``'s inverse."""
    from meeplezoo.envs.versions import rules_name

    first = sets[0]
    for other in sets[1:]:
        if (rules_name(other.game), other.players) != (rules_name(first.game), first.players):
            raise ValueError(f"cannot pool a set of {other.game} at {other.players} seats "
                             f"with one of {first.game} at {first.players}")
    if len(sets) == 1:
        return first
    arrays, games, matchups = {name: [] for name in first.arrays}, 0, 0
    for value_set in sets:
        shift = {"game_id": games, "matchup": matchups}
        for name, array in value_set.arrays.items():
            arrays[name].append(array + shift.get(name, 0))
        games += int(value_set.game_id.max()) + 1
        matchups += len(value_set.header["matchups"])
    arrays = {name: np.concatenate(parts) for name, parts in arrays.items()}
    header = {**first.header, "matchups": [m for s in sets for m in s.header["matchups"]],
              "positions": len(arrays["states"]),
              "games": len(np.unique(arrays["game_id"])),
              "npz_sha256": [s.header.get("npz_sha256") for s in sets]}
    return ValueSet(header, arrays)


def set_path(game: str, players: int, folder: str | Path = DEFAULT_FOLDER) -> Path:
    """Where ``build`` writes (and ``auto`` looks for) the set of ``game`` at ``players``."""
    return Path(folder) / f"{game}_{players}p.npz"


def current_rules(game: str, options: dict | None = None) -> dict:
    """Every rule option's value as JSON writes it (tuples become lists)."""
    from meeplezoo.envs import spec

    return json.loads(json.dumps({**spec(game).default_options, **(options or {})}))


# ------------------------------------------------------------------------------ building


def game_seed(seed: int, matchup: int, index: int) -> int:
    return int(np.random.SeedSequence([seed, matchup, index]).generate_state(1)[0] % 2**31)


_AGENTS: dict[tuple, object] = {}     # per process: built once, re-seeded per game


def play_positions(job: dict) -> dict:
    """Play one game of the job's matchup and keep ``per_game`` of its decision points."""
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.benchmarks.arena.game import agent_seed
    from meeplezoo.envs import make
    from meeplezoo.envs.core.rewards import final_rewards

    game, players, name, seed = job["game"], job["players"], job["agent"], job["seed"]
    seats = [name] * players
    agents = []
    for seat in range(players):
        if (game, name, seat) not in _AGENTS:
            _AGENTS[game, name, seat] = make_agent(name, game, seed=0)
        agents.append(_AGENTS[game, name, seat])
        agents[seat].reset(seed=agent_seed(seed, seats, seat))
    env = make(game, num_players=players, **job["options"])
    env.reset(seed=seed)
    states = []
    while not env.game_over:
        states.append(env.unwrapped.state.copy())        # the env resolves chance itself
        env.step(agents[env.agent_name_mapping[env.agent_selection]].act(env))
    game_env = env.unwrapped
    scores, tiebreaks = game_env.scores(), game_env.tiebreaks()
    rewards = np.zeros(players, dtype=np.float64)
    final_rewards(scores, tiebreaks, players, 0, 1.0, rewards)
    margins = np.array([scores[s] - np.delete(scores, s).max() for s in range(players)],
                       dtype=np.float64)
    length = len(states)
    count = min(job["per_game"], length)
    offset = np.random.default_rng(seed).random()
    keep = np.floor((np.arange(count) + offset) * length / count).astype(np.int64)
    return {"index": job["index"], "matchup": job["matchup"], "length": length,
            "truncated": any(env.truncations.values()), "decision": keep,
            "states": np.stack([states[k] for k in keep]), "rewards": rewards,
            "margins": margins}


def build_set(game: str, players: int = 2, games: int = 50, per_game: int = 30,
              seed: int = 0, workers: int = 2, matchups=MATCHUPS,
              progress: bool = True, options: dict | None = None) -> ValueSet:
    """Play ``games`` games of each matchup (``workers`` processes) and keep their
    positions (module docstring); ``options`` go to the env (e.g. a board distribution,
    ``{"map": "generated:train"}``: each game on its own board)."""
    from meeplezoo.envs import spec

    game_spec = spec(game)
    if not game_spec.min_players <= players <= game_spec.max_players:
        raise ValueError(f"--players {players}: {game} is for {game_spec.min_players}-"
                         f"{game_spec.max_players} players")
    if not 1 <= games <= 100_000 or not 1 <= per_game <= 10_000:
        raise ValueError("--games must be in 1..100,000 and --per-game in 1..10,000")
    jobs = [{"game": game, "players": players, "agent": name, "matchup": m, "index": g,
             "seed": game_seed(seed, m, g), "per_game": per_game,
             "options": dict(options or {})}
            for m, name in enumerate(matchups) for g in range(games)]
    started = time.perf_counter()
    results = []
    if workers <= 1:
        stream = map(play_positions, jobs)
        results = _collect(stream, len(jobs), game, started, progress)
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            stream = pool.imap_unordered(play_positions, jobs)
            results = _collect(stream, len(jobs), game, started, progress)
    results.sort(key=lambda r: (r["matchup"], r["index"]))
    kept = [r for r in results if not r["truncated"]]
    header = {"format": FORMAT, "version": VERSION, "game": game,
              "game_version": game.rsplit("_v", 1)[-1], "state_size": game_spec.state_size,
              "players": players, "options": dict(options or {}),
              "rules": current_rules(game, options),
              "matchups": list(matchups), "games_per_matchup": games, "per_game": per_game,
              "seed": seed, "games": len(kept), "games_cut": len(results) - len(kept),
              "build_seconds": round(time.perf_counter() - started, 1), "workers": workers}
    return ValueSet(header, _arrays(kept, players))


def _collect(stream, total: int, game: str, started: float, progress: bool) -> list[dict]:
    results = []
    for result in stream:
        results.append(result)
        if progress and (len(results) % max(1, total // 10) == 0 or len(results) == total):
            say(f"{game}: {len(results)}/{total} games, "
                f"{time.perf_counter() - started:.0f} s")
    return results


def _arrays(results: list[dict], players: int) -> dict[str, np.ndarray]:
    per_game = [len(r["decision"]) for r in results]

    def repeat(values, dtype):
        return np.repeat(np.asarray(values, dtype=dtype), per_game, axis=0)

    decision = np.concatenate([r["decision"] for r in results]).astype(np.int32)
    length = repeat([r["length"] for r in results], np.int32)
    return {"states": np.concatenate([r["states"] for r in results]).astype(np.int64),
            "third": np.minimum(3 * decision.astype(np.int64) // length, 2).astype(np.int8),
            "decision": decision, "length": length,
            "game_id": repeat(np.arange(len(results)), np.int32),
            "matchup": repeat([r["matchup"] for r in results], np.int8),
            "rewards": repeat([r["rewards"] for r in results], np.float64).reshape(-1, players),
            "margins": repeat([r["margins"] for r in results], np.float64).reshape(-1, players)}


# ----------------------------------------------------------------------- saving, loading


def save_set(value_set: ValueSet, path: str | Path) -> Path:
    """Write the npz and its JSON header beside it (each replaced atomically)."""
    path = Path(path).with_suffix(".npz")
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **value_set.arrays)
    data = buffer.getvalue()
    header = {**value_set.header, "positions": len(value_set),
              "npz_sha256": hashlib.sha256(data).hexdigest()}
    _replace(path, data)
    _replace(path.with_suffix(".json"), (json.dumps(header, indent=2) + "\n").encode())
    value_set.header = header
    return path


def _replace(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)          # mkstemp's 0600 is for secrets
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def read_header(path: str | Path) -> dict:
    """The JSON header of the set at ``path`` (the .npz or the .json), checked against
    this code: game, env version, state size and rules."""
    json_path = Path(path).with_suffix(".json")
    if not exists(json_path, "value-set header"):
        raise ValueError(f"no value set at {json_path} (build one with `python -m "
                         f"meeplezoo.benchmarks.studies.value_quality build GAME`)")
    header = read_json(json_path, "value-set header")   # regular, bounded, shallow
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise ValueError(f"{json_path} is not a value-set header (format {FORMAT!r})")
    if type(header.get("version")) is not int or header["version"] != VERSION:
        raise ValueError(f"{json_path} is value-set version {header.get('version')!r}; this "
                         f"code reads version {VERSION}")
    from meeplezoo.envs import names, spec

    game = header.get("game")
    if game not in names():
        raise ValueError(f"{json_path}: unknown game {game!r}")
    players = header.get("players")
    if not isinstance(players, int) or not spec(game).min_players <= players <= \
            spec(game).max_players:
        raise ValueError(f"{json_path}: players {players!r} is not a player count of {game}")
    if header.get("game_version") != game.rsplit("_v", 1)[-1] or \
            header.get("state_size") != spec(game).state_size:
        raise ValueError(f"{json_path} was built for another version of {game} (state size "
                         f"{header.get('state_size')!r}, now {spec(game).state_size}): "
                         f"rebuild it")
    options = header.get("options")
    rules = current_rules(game, options if isinstance(options, dict) else {})
    if header.get("rules") != rules:
        changed = sorted(k for k in rules if (header.get("rules") or {}).get(k) != rules[k])
        raise ValueError(f"{json_path} was built under other rules of {game} (options "
                         f"{', '.join(changed) or 'unknown'} differ from this code's): "
                         f"rebuild it")
    return header


def load_set(path: str | Path) -> ValueSet:
    """A set from ``path`` (the .npz or its .json), every array and state checked: one
    ``ValueError`` line for a corrupt, edited or foreign file."""
    npz_path = Path(path).with_suffix(".npz")
    header = read_header(npz_path)
    data = read_bytes(npz_path, "value-set")          # a regular file, bounded
    if hashlib.sha256(data).hexdigest() != header.get("npz_sha256"):
        raise ValueError(f"{npz_path} does not match its header's checksum (corrupt, edited, "
                         f"or from another build)")
    try:
        # Every member's header is checked before its array is allocated.
        arrays = {name: found[name] for found in [load_npz(npz_path, "value-set", data=data)]
                  for name in ARRAYS}
    except FileRefused:
        raise
    except Exception as err:                    # the trust boundary: one line, whatever broke
        raise ValueError(f"{npz_path} is not a readable value set ({type(err).__name__})") \
            from None
    _check_arrays(arrays, header, npz_path)
    return ValueSet(header, arrays)


def _check_arrays(arrays: dict, header: dict, path: Path) -> None:
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.contract import H_GAME_ID, H_NUM_PLAYERS, H_TO_MOVE

    game_spec, players = spec(header["game"]), header["players"]
    rows = len(arrays["states"])
    for name, (dtype, ndim) in ARRAYS.items():
        array = arrays[name]
        width = {"states": game_spec.state_size, "rewards": players, "margins": players}
        if array.dtype != dtype or array.ndim != ndim or len(array) != rows or \
                (ndim == 2 and array.shape[1] != width[name]):
            raise ValueError(f"{path}: array {name!r} has the wrong dtype or shape")
    states = arrays["states"]
    if rows != header.get("positions") or rows == 0:
        raise ValueError(f"{path}: {rows} positions, the header says "
                         f"{header.get('positions')!r}")
    if (states[:, H_GAME_ID] != game_spec.game_id).any() or \
            (states[:, H_NUM_PLAYERS] != players).any() or \
            (states[:, H_TO_MOVE] < 0).any() or (states[:, H_TO_MOVE] >= players).any():
        raise ValueError(f"{path}: a state is not a decision point of {header['game']} at "
                         f"{players} players")
    if not np.isin(arrays["third"], (0, 1, 2)).all() or \
            (arrays["matchup"] < 0).any() or \
            (arrays["matchup"] >= len(header.get("matchups", ()))).any() or \
            not (np.abs(arrays["rewards"]) <= 1.0 + 1e-9).all() or \
            not (np.abs(arrays["margins"]) <= MAX_MARGIN).all():
        # Rewards are win/loss shares (zero-sum, ties shared): within -1..1.  A fit on
        # rewards of 1e308 would write NaN weights; NaN fails both comparisons too.
        raise ValueError(f"{path}: a third, matchup, reward (-1..1) or score margin "
                         f"(within +-{MAX_MARGIN:,}) is out of range")
    low = np.full(game_spec.state_size, -(2**62), dtype=np.int64)
    high = np.full(game_spec.state_size, 2**62, dtype=np.int64)
    for name, (offset, length) in game_spec.state_fields.items():
        low[offset:offset + length], high[offset:offset + length] = \
            game_spec.field_bounds[name]
    outside = ((states < low) | (states > high)).any(axis=1)
    if outside.any():
        raise ValueError(f"{path}: state {int(np.argmax(outside))} holds a value outside the "
                         f"range the rules can reach")
    try:
        for state in states:
            game_spec.validate_state(state)
    except Exception as err:                    # kernels index with these values
        raise ValueError(f"{path}: an inconsistent state ({str(err)[:80]})") from None
