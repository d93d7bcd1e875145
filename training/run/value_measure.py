"""How well a value predicts the game's result: the measurement that the AlphaZero
trainer logs at each evaluation (``value_log.py``), the value fit reports and the study
``python -m meeplezoo.benchmarks.studies.value_quality`` prints.

For the seat to move (and pooled over every seat), the Pearson correlation of a value
with that seat's final reward (win 1, loss -1, ties shared) and the mean squared error,
by third of the game and overall, on a frozen test set's positions
(``benchmarks/studies/value_sets.py``), optionally with a 90% interval on the
correlation from resampling whole games (a game's positions share one result, so the
games, not the positions, are the sample).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from meeplezoo.benchmarks.studies.value_sets import THIRDS, ValueSet

BATCH = 256            # positions per evaluator call (a Carcassonne batch is ~7 MB of obs)


def pearson(x: np.ndarray, y: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Pearson correlation of ``x`` and ``y`` along the last axis, with ``weights`` (rows
    of resampling counts) broadcast against them; NaN where either side is constant."""
    w = np.ones_like(x) if weights is None else weights
    total = w.sum(axis=-1)
    mx, my = (w * x).sum(-1) / total, (w * y).sum(-1) / total
    dx, dy = x - mx[..., None], y - my[..., None]
    cov, vx, vy = (w * dx * dy).sum(-1), (w * dx * dx).sum(-1), (w * dy * dy).sum(-1)
    scale = np.sqrt(vx * vy)
    tiny = 1e-12 * np.maximum(total, 1.0)
    return np.where((vx > tiny) & (vy > tiny), cov / np.where(scale > 0, scale, 1.0), np.nan)


def _stats(values, results, games, rng, bootstrap: int) -> dict:
    if len(values) == 0:
        return {"positions": 0, "corr": None, "mse": None, "mean_abs": None}
    corr = float(pearson(values, results))
    row = {"positions": int(len(values)), "corr": None if np.isnan(corr) else round(corr, 4),
           "mse": round(float(np.mean((values - results) ** 2)), 4),
           "mean_abs": round(float(np.mean(np.abs(values))), 4)}
    if bootstrap:
        ids, index = np.unique(games, return_inverse=True)
        counts = np.stack([np.bincount(rng.integers(len(ids), size=len(ids)),
                                       minlength=len(ids)) for _ in range(bootstrap)])
        spread = pearson(values[None, :], results[None, :], counts[:, index].astype(float))
        spread = spread[np.isfinite(spread)]
        if len(spread):
            row["corr_low"], row["corr_high"] = (round(float(q), 4)
                                                 for q in np.quantile(spread, [0.05, 0.95]))
    return row


def evaluate_all(evaluate: Callable, test_set: ValueSet) -> np.ndarray:
    """``evaluate(states, masks)`` on every position in batches: values [N, players] in
    absolute seats (an evaluator may return ``(values, priors)``)."""
    masks, out = test_set.masks(), []
    for start in range(0, len(test_set), BATCH):
        answer = evaluate(test_set.states[start:start + BATCH], masks[start:start + BATCH])
        values = answer[0] if isinstance(answer, tuple) else answer
        out.append(np.asarray(values, dtype=np.float64)[:, :test_set.players])
    values = np.concatenate(out)
    if values.shape != (len(test_set), test_set.players):
        raise ValueError(f"the evaluator gave values of shape {values.shape}, not "
                         f"({len(test_set)}, {test_set.players})")
    return values


def quality_of(values: np.ndarray, test_set: ValueSet, bootstrap: int = 0,
               seed: int = 0) -> dict:
    """Correlation and error of ``values`` ([N, players], absolute seats) against the
    final rewards, by third and overall, for the seat to move and for all seats."""
    from meeplezoo.envs.core.contract import H_TO_MOVE

    rows = np.arange(len(test_set))
    mover = test_set.states[:, H_TO_MOVE]
    rng = np.random.default_rng(seed)
    report = {}
    for who, v, z, games, third in (
            ("mover", values[rows, mover], test_set.rewards[rows, mover], test_set.game_id,
             test_set.third),
            ("all_seats", values.ravel(), test_set.rewards.ravel(),
             np.repeat(test_set.game_id, test_set.players),
             np.repeat(test_set.third, test_set.players))):
        parts = {name: third == k for k, name in enumerate(THIRDS)}
        parts["all"] = np.ones(len(v), dtype=bool)
        report[who] = {name: _stats(v[keep], z[keep], games[keep], rng, bootstrap)
                       for name, keep in parts.items()}
    return report


def value_quality(evaluate: Callable, test_set: ValueSet, bootstrap: int = 0,
                  seed: int = 0) -> dict:
    """The value of ``evaluate(states, masks) -> values`` (absolute seats) on the test
    set's positions against their final results (:func:`quality_of`)."""
    return quality_of(evaluate_all(evaluate, test_set), test_set, bootstrap, seed)


def heuristic_evaluator(game: str, kind: str = "auto", rollouts: int = 16,
                        seed: int = 0) -> tuple[Callable, str]:
    """``(evaluate, label)``: the search's heuristic value of each state in absolute
    seats, as the game's ``mcts`` values a leaf (one compiled call a batch: the search
    template's ``heuristic_values``); ``kind`` leaf (the compiled leaf value), rollout
    (the mean of ``rollouts`` rollouts with the policy and depth of the game's ``mcts``
    defaults), fitted (the game's fitted leaf value that ships, ``agents/fitted_values.py``)
    or auto (leaf where the game has one).  A finished game is its result."""
    from meeplezoo.agents.az.knowledge import HeuristicLeaves
    from meeplezoo.agents.mcts.uct import P_ROLLOUT_DEPTH
    from meeplezoo.agents.mcts_spec import LEAF_VALUES
    from meeplezoo.envs import spec
    from meeplezoo.envs.versions import rules_name

    if kind not in ("auto", "leaf", "rollout", "fitted"):
        raise ValueError(f"--heuristic {kind!r}: write auto, leaf, rollout or fitted")
    if not 1 <= rollouts <= 10_000:
        raise ValueError("--rollouts must be in 1..10,000")
    if kind == "auto":
        kind = "leaf" if rules_name(game) in LEAF_VALUES else "rollout"
    leaves = HeuristicLeaves(spec(game), rollouts, seed,
                             leaf={"leaf": "heuristic"}.get(kind, kind))
    depth = int(leaves.params[P_ROLLOUT_DEPTH])
    label = {"leaf": "heuristic leaf", "fitted": "fitted leaf"}.get(
        kind, f"heuristic rollouts ({rollouts} x {'to the end' if depth < 0 else depth})")

    def evaluate(states: np.ndarray, masks=None) -> np.ndarray:
        return leaves.values(np.asarray(states, dtype=np.int64))

    return evaluate, label
