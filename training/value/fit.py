"""Fit a game's leaf value to the results of games (``agents/fitted_values.py``).

    python -m meeplezoo.training.value.fit carcassonne_v1 --agent mcts:100 \\
        --games 1200 --out runs/carcassonne_value/round1.json
    python -m meeplezoo.training.value.fit carcassonne_v1 \\
        --agent mcts:100,leaf=fitted:runs/carcassonne_value/round1.json --out round2.json

Plays ``--games`` games of ``--agent`` against itself (``benchmarks/studies/value_sets.py``:
every seat seeded by the deal, ``--per-game`` decision points kept from each with the
game's final result; kept as ``<out>_positions.npz``), or reads such sets (``--set``,
repeatable: pooled),
and fits the weights of the game's fitted leaf by logistic regression: the chance that
the seat to move wins is ``sigmoid(w . (terms of the seat - terms of its rival))``, ties
counting half (two seats; the leaf itself plays at any count). There is no intercept, so
the value stays zero-sum whoever is to move. The nonlinear shape of the terms (e.g. how
fast an open city's chance to complete falls with its open ports) is chosen from the
module's grid by the log-loss on held-out games (every fifth game), and the weights of
that fit are written, with the held-out correlation of the fitted value and of the
game's hand-set leaf by game third (``value_quality``'s measure), to a JSON file.

Fitting the games of a search that already uses the previous fit is one round of
expert iteration (at Carcassonne a second round played weaker than the first: BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

from meeplezoo.agents.fitted_values import FORMAT, MAX_WEIGHT, VERSION, fitted_module
from meeplezoo.envs.core.contract import H_TO_MOVE
from meeplezoo.envs.versions import rules_name

HELD_OUT_EVERY = 5                       # games with id % 5 == 0 are held out
RIDGE = 1e-4                             # on standardised terms: keeps the Newton steps sane
HEURISTIC_ROLLOUTS = 4                   # per position, where the search values by rollouts


def logistic_fit(x: np.ndarray, y: np.ndarray, ridge: float = RIDGE,
                 steps: int = 50) -> np.ndarray:
    """Weights ``w`` minimising the mean log-loss of ``sigmoid(x @ w)`` against ``y`` in
    [0, 1], plus ``ridge`` on the standardised weights (Newton's method; no intercept)."""
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    w = np.zeros(x.shape[1])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        gradient = z.T @ (p - y) / len(y) + ridge * w
        hessian = (z * (p * (1 - p))[:, None]).T @ z / len(y) + ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w / scale


def log_loss(x: np.ndarray, w: np.ndarray, y: np.ndarray) -> float:
    logits = x @ w
    return float(np.mean(np.logaddexp(0.0, logits) - y * logits))


def mover_differences(module, states: np.ndarray, shape: np.ndarray) -> np.ndarray:
    """``[N, terms]``: the seat to move's terms minus its rival's (two seats)."""
    terms = module.position_terms(np.ascontiguousarray(states, np.int64), shape)
    rows = np.arange(len(states))
    mover = states[:, H_TO_MOVE]
    return terms[rows, mover] - terms[rows, 1 - mover]


def fit_value(game: str, value_set, progress: bool = True) -> dict:
    """The fit's record (module docstring) from a 2-seat value set of ``game``."""
    from meeplezoo.training.run.value_measure import heuristic_evaluator, quality_of

    module = fitted_module(game)
    if value_set.players != 2:
        raise ValueError(f"the fit reads 2-seat games; this set has {value_set.players} "
                         "(the fitted leaf then plays at any count)")
    if rules_name(value_set.game) != rules_name(game):
        raise ValueError(f"the set holds {value_set.game} games, not {game}")
    states = value_set.states
    rows = np.arange(len(states))
    won = (value_set.rewards[rows, states[:, H_TO_MOVE]] + 1.0) / 2.0   # ties: 0.5
    held = value_set.game_id % HELD_OUT_EVERY == 0
    if held.all() or not held.any():
        raise ValueError(f"the set has {len(np.unique(value_set.game_id))} games; the fit "
                         f"needs at least {HELD_OUT_EVERY} (every {HELD_OUT_EVERY}th is "
                         "held out)")
    best = None
    for values in itertools.product(*(module.SHAPE_GRID[name] for name in module.SHAPES)):
        shape = np.array(values, np.float64)
        x = mover_differences(module, states, shape)
        w = logistic_fit(x[~held], won[~held])
        loss = log_loss(x[held], w, won[held])
        if best is None or loss < best[0]:
            best = (loss, shape, w, x)
        if progress:
            print(f"fit_value: shape {dict(zip(module.SHAPES, values, strict=True))}: held-out "
                  f"log-loss {loss:.4f}", file=sys.stderr)
    loss, shape, w, x = best
    if not (np.abs(w) <= MAX_WEIGHT).all():     # NaN fails the comparison too
        raise ValueError(f"the fit diverged (a weight is not a number in "
                         f"-{MAX_WEIGHT:,.0f}..{MAX_WEIGHT:,.0f}): nothing written; check "
                         f"the value set's results")
    fitted = np.tanh(x @ w / 2.0)
    values = np.zeros((len(states), 2))                    # absolute seats, zero-sum
    values[rows, states[:, H_TO_MOVE]] = fitted
    values[rows, 1 - states[:, H_TO_MOVE]] = -fitted
    held_set = value_set.subset(held)
    # the search's own heuristic: its leaf value, or its rollouts where it rolls out
    heuristic, label = heuristic_evaluator(value_set.game, "auto", HEURISTIC_ROLLOUTS)
    quality = {"fitted": quality_of(values[held], held_set)["mover"],
               "heuristic": quality_of(heuristic(held_set.states), held_set)["mover"]}
    return {"format": FORMAT, "version": VERSION, "rules": rules_name(game),
            "shape": {name: float(v) for name, v in zip(module.SHAPES, shape, strict=True)},
            "weights": {name: round(float(v), 6) for name, v in zip(module.TERMS, w, strict=True)},
            "held_out": {"games": int(len(np.unique(value_set.game_id[held]))),
                         "positions": int(held.sum()), "log_loss": round(loss, 5),
                         "correlation": {who: {third: part["corr"] for third, part in
                                               q.items()} for who, q in quality.items()},
                         "heuristic": label},
            "data": {key: value_set.header.get(key) for key in
                     ("game", "options", "matchups", "games", "per_game", "seed",
                      "npz_sha256")}}


def env_options(pairs: list[str]) -> dict:
    """``["map=generated:train"]`` -> ``{"map": "generated:train"}`` (values as given)."""
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--option {pair!r}: write KEY=VALUE, e.g. map=generated:train")
        options[key] = value
    return options


def table(record: dict) -> str:
    rows = ["| held-out value, seat to move | early | middle | late | all |",
            "|---|---:|---:|---:|---:|"]
    heuristic = record["held_out"]["heuristic"]
    for who, parts in record["held_out"]["correlation"].items():
        label = "fitted leaf" if who == "fitted" else f"the search's {heuristic}"
        rows.append(f"| {label} | " + " | ".join(
            "-" if parts[t] is None else f"{parts[t]:.3f}"
            for t in ("early", "middle", "late", "all")) + " |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.benchmarks.studies.value_sets import build_set, load_set, pool_sets, save_set
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(prog="python -m meeplezoo.training.value.fit",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("game", type=game_argument)
    parser.add_argument("--agent", default="mcts:100", help="plays both seats")
    parser.add_argument("--set", action="append", default=[],
                        help="fit this value set (.npz) instead of playing (repeatable: "
                        "the sets pooled)")
    parser.add_argument("--games", type=int, default=1200)
    parser.add_argument("--per-game", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an env option for the games, e.g. map=generated:train "
                        "(each game on a board of the training split; repeatable)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", required=True, help="the fit's JSON file")
    parser.add_argument("--no-progress", dest="progress", action="store_false")
    args = parser.parse_args(argv)
    try:
        fitted_module(args.game)
        out = Path(args.out)
        started = time.perf_counter()
        if args.set:
            value_set = pool_sets([load_set(path) for path in args.set])
        else:
            value_set = build_set(args.game, 2, args.games, args.per_game, args.seed,
                                  args.workers, (args.agent,), args.progress,
                                  env_options(args.option))
            # the set beside the fit, with its own header (``<stem>_positions.json``)
            save_set(value_set, out.with_name(f"{out.stem}_positions.npz"))
        record = fit_value(args.game, value_set, args.progress)
    except ValueError as err:
        print(f"fit_value: {err}", file=sys.stderr)
        return 2
    record["seconds"] = round(time.perf_counter() - started, 1)
    record["command"] = "python -m meeplezoo.training.value.fit " + " ".join(
        sys.argv[1:] if argv is None else argv)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=1) + "\n")
    print(table(record))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
