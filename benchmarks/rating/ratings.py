"""Strength ratings from arena results: Bradley–Terry (Elo), OpenSkill, Wilson intervals.

Every function reads arena game records (dicts with ``seats``, ``ranks``, ``seed``; see
``arena.py``); rank 1 is first place and tied players share a rank.

* **Bradley–Terry / Elo** (two players): the maximum-likelihood strengths of
  P(i beats j) = 1 / (1 + 10^((R_j - R_i)/400)), ties counted as half a win each way.
  Fitted by damped Newton steps on the concave log-likelihood.  A tiny prior — ``prior``
  virtual drawn games for each pair that met — keeps a perfect record (greedy beating
  random every game) finite; with hundreds of real games it moves nothing else.
* **OpenSkill Plackett–Luce** (three or more players): ``openskill``'s Bayesian ranking
  model fed the finishing ranks game by game, in a fixed order (by seed, then seats),
  with ``tau=0`` because an agent's strength does not drift.  Reported as ``mu``,
  ``sigma`` and the ordinal ``mu - 3 sigma``.
* Both are shifted so the **anchor** agent (default ``random``) is exactly 0, and get
  **bootstrap** 95% percentile intervals.  The bootstrap resamples *deals* — all the seat
  arrangements of one (table, seed) together — because duplicate-seed games are paired.
* **Head-to-head** scores between every two agents that sat at one table (ahead = 1,
  tie = 1/2; at bigger tables every pair of seats counts), with **Wilson** 95% intervals.
* **Significance**: A beats B at 95% when A's head-to-head Wilson interval lies above 1/2,
  or when the bootstrap interval of R_A - R_B lies above 0 (``significantly_better``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)
Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` may be fractional: ties = 1/2)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


# ----------------------------------------------------------------------------- pairwise


def points_over(record: dict, agent: str, opponent: str) -> float:
    """What ``agent`` took from ``opponent`` in one game: 1 for finishing ahead, 1/2 for a
    tie, 0 behind (the convention of :func:`pairwise_points`)."""
    mine = record["ranks"][record["seats"].index(agent)]
    theirs = record["ranks"][record["seats"].index(opponent)]
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def pairwise_points(records: Sequence[dict], agents: Sequence[str]) -> np.ndarray:
    """W[i, j] = points agent i took from agent j (a finish ahead = 1, a tie = 1/2)."""
    index = {a: k for k, a in enumerate(agents)}
    points = np.zeros((len(agents), len(agents)))
    for record in records:
        seats, ranks = record["seats"], record["ranks"]
        for s in range(len(seats)):
            for t in range(s + 1, len(seats)):
                i, j = index[seats[s]], index[seats[t]]
                if i == j:
                    continue
                if ranks[s] == ranks[t]:
                    points[i, j] += 0.5
                    points[j, i] += 0.5
                elif ranks[s] < ranks[t]:
                    points[i, j] += 1.0
                else:
                    points[j, i] += 1.0
    return points


def head_to_head(records: Sequence[dict], agents: Sequence[str]) -> list[dict]:
    """Every ordered pair (a, b) that met: a's score against b with its Wilson interval."""
    points = pairwise_points(records, agents)
    games = points + points.T
    rows = []
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            if i == j or games[i, j] == 0:
                continue
            low, high = wilson(points[i, j], games[i, j])
            rows.append({"agent": a, "opponent": b, "games": int(round(games[i, j])),
                         "points": float(points[i, j]),
                         "score": float(points[i, j] / games[i, j]),
                         "low": low, "high": high, "better": bool(low > 0.5)})
    return rows


# ------------------------------------------------------------------------ Bradley–Terry


def fit_bradley_terry(points: np.ndarray, anchor: int = 0, prior: float = 1.0,
                      prior_pairs: np.ndarray | None = None, tol: float = 1e-10) -> np.ndarray:
    """Log-strengths (natural units) maximising the Bradley–Terry likelihood, anchor = 0.

    ``points[i, j]`` are i's (possibly fractional) wins over j.  ``prior`` virtual drawn
    games are added to each pair in ``prior_pairs`` (default: the pairs that met).
    """
    n = points.shape[0]
    met = (points + points.T) > 0 if prior_pairs is None else prior_pairs
    wins = points + 0.5 * prior * met
    games = wins + wins.T
    if not _connected(games > 0, anchor):
        raise ValueError("the agents' games do not connect them all: ratings are undefined")
    free = np.arange(n) != anchor
    theta = np.zeros(n)

    def loglik(t):
        diff = t[:, None] - t[None, :]
        return float(-(wins * np.logaddexp(0.0, -diff)).sum())

    current = loglik(theta)
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))   # P(i beats j)
        gradient = (wins - games * p).sum(axis=1)
        curvature = games * p * (1.0 - p)
        hessian = curvature - np.diag(curvature.sum(axis=1))     # negative semi-definite
        step = np.zeros(n)
        step[free] = np.linalg.solve(hessian[np.ix_(free, free)], -gradient[free])
        scale = 1.0
        while True:                                              # damped: never go downhill
            candidate = theta + scale * step
            value = loglik(candidate)
            if value >= current - 1e-12 or scale < 1e-6:
                break
            scale *= 0.5
        theta, improvement, current = candidate, value - current, value
        if np.abs(scale * step).max() < tol or 0 <= improvement < tol * 1e-3:
            break
    return theta


def _connected(adjacency: np.ndarray, start: int) -> bool:
    seen, frontier = {start}, [start]
    while frontier:
        node = frontier.pop()
        for other in np.flatnonzero(adjacency[node]):
            if int(other) not in seen:
                seen.add(int(other))
                frontier.append(int(other))
    return len(seen) == adjacency.shape[0]


def bradley_terry_elo(records: Sequence[dict], agents: Sequence[str], anchor: str,
                      prior: float = 1.0) -> np.ndarray:
    """Elo ratings (400·log10 scale) of ``agents``, ``anchor`` pinned at exactly 0."""
    points = pairwise_points(records, agents)
    return ELO_PER_NAT * fit_bradley_terry(points, list(agents).index(anchor), prior)


# ------------------------------------------------------------------------ Plackett–Luce


def plackett_luce(records: Sequence[dict], agents: Sequence[str], anchor: str,
                  order: Sequence[int] | None = None) -> dict[str, np.ndarray]:
    """OpenSkill Plackett–Luce ``mu``, ``sigma``, ``ordinal``; mu and ordinal anchor = 0.

    An agent sitting twice at one table gets the mean of its two seats' updates.
    """
    from meeplezoo.envs.core.extras import require

    PlackettLuce = require("openskill.models", "train",
                           "ratings at three or more players").PlackettLuce

    model = PlackettLuce(tau=0.0)
    index = {a: k for k, a in enumerate(agents)}
    mu = np.full(len(agents), model.mu)
    sigma = np.full(len(agents), model.sigma)
    for k in range(len(records)) if order is None else order:
        seats, ranks = records[k]["seats"], records[k]["ranks"]
        ids = [index[s] for s in seats]
        teams = [[model.rating(mu=mu[i], sigma=sigma[i])] for i in ids]
        updated = model.rate(teams, ranks=list(ranks))
        new_mu, new_sigma, count = np.zeros_like(mu), np.zeros_like(sigma), np.zeros(len(mu))
        for i, (rating,) in zip(ids, updated, strict=True):
            new_mu[i] += rating.mu
            new_sigma[i] += rating.sigma
            count[i] += 1
        seen = count > 0
        mu[seen], sigma[seen] = new_mu[seen] / count[seen], new_sigma[seen] / count[seen]
    ordinal = mu - 3.0 * sigma
    a = index[anchor]
    return {"mu": mu - mu[a], "sigma": sigma, "ordinal": ordinal - ordinal[a],
            "mu_absolute": mu}


# ---------------------------------------------------------------------------- bootstrap


def deal_clusters(records: Sequence[dict]) -> list[list[int]]:
    """Record indices grouped by deal: (table, seed), every seat arrangement together."""
    groups: dict[tuple, list[int]] = {}
    for k, record in enumerate(records):
        groups.setdefault((tuple(sorted(record["seats"])), record["seed"]), []).append(k)
    return list(groups.values())


def sort_order(records: Sequence[dict]) -> list[int]:
    """A fixed processing order (seed, then seats): independent of worker timing."""
    return sorted(range(len(records)), key=lambda k: (records[k]["seed"], records[k]["seats"]))


def bootstrap_ratings(records: Sequence[dict], agents: Sequence[str], anchor: str,
                      method: str, resamples: int = 200, seed: int = 0,
                      prior: float = 1.0) -> np.ndarray:
    """``resamples`` × agents ratings (Elo or PL mu) from deals drawn with replacement."""
    rng = np.random.default_rng(seed)
    clusters = deal_clusters(records)
    samples = np.zeros((resamples, len(agents)))
    a = list(agents).index(anchor)
    if method == "bradley_terry":
        per_cluster = np.stack([pairwise_points([records[k] for k in c], agents)
                                for c in clusters])
        full = per_cluster.sum(axis=0)
        met = (full + full.T) > 0
        for b in range(resamples):
            counts = np.bincount(rng.integers(len(clusters), size=len(clusters)),
                                 minlength=len(clusters))
            points = np.tensordot(counts, per_cluster, axes=1)
            samples[b] = ELO_PER_NAT * fit_bradley_terry(points, a, prior, prior_pairs=met)
    elif method == "plackett_luce":
        for b in range(resamples):
            picks = rng.integers(len(clusters), size=len(clusters))
            chosen = [records[k] for c in picks for k in clusters[c]]
            order = rng.permutation(len(chosen))
            samples[b] = plackett_luce(chosen, agents, anchor, order=order)["mu"]
    else:
        raise ValueError(f"unknown rating method {method!r}")
    return samples


def percentile_interval(samples: np.ndarray, level: float = 0.95) -> tuple[np.ndarray, ...]:
    tail = 100 * (1 - level) / 2
    return np.percentile(samples, tail, axis=0), np.percentile(samples, 100 - tail, axis=0)


def significantly_better(summary: dict, a: str, b: str) -> dict:
    """Is ``a`` stronger than ``b`` at 95%?  By head-to-head Wilson and by bootstrap."""
    wilson_row = next((r for r in summary["head_to_head"]
                       if r["agent"] == a and r["opponent"] == b), None)
    diff = next((d for d in summary["differences"] if d["agent"] == a and d["opponent"] == b),
                None)
    return {"wilson": bool(wilson_row and wilson_row["better"]),
            "bootstrap": bool(diff and diff["low"] > 0),
            "head_to_head": wilson_row, "difference": diff}


# ------------------------------------------------------------------------------ summary


def summarize(records: Sequence[dict], agents: Sequence[str], anchor: str | None = None,
              resamples: int = 200, seed: int = 0, prior: float = 1.0) -> dict:
    """Ratings with intervals, head-to-head table and rating differences, as plain JSON."""
    agents = list(agents)
    anchor = anchor or ("random" if "random" in agents else agents[0])
    if anchor not in agents:
        raise ValueError(f"anchor {anchor!r} is not one of the agents {agents}")
    records = [r for r in records if set(r["seats"]) <= set(agents)]
    if not records:
        raise ValueError("no games recorded between these agents")
    players = {len(r["seats"]) for r in records}
    if len(players) != 1:
        raise ValueError(f"records mix player counts {sorted(players)}: rate them apart")
    method = "bradley_terry" if players == {2} else "plackett_luce"
    played = sorted({s for r in records for s in r["seats"]}, key=agents.index)
    if anchor not in played:
        raise ValueError(f"the anchor {anchor!r} has played no games")
    agents = played
    a = agents.index(anchor)
    if method == "bradley_terry":
        estimate = bradley_terry_elo(records, agents, anchor, prior)
        extra = {}
    else:
        fit = plackett_luce(records, agents, anchor, order=sort_order(records))
        estimate, extra = fit["mu"], fit
    samples = bootstrap_ratings(records, agents, anchor, method, resamples, seed, prior)
    low, high = percentile_interval(samples)
    points = pairwise_points(records, agents)
    games_played = np.zeros(len(agents))
    for r in records:
        for s in set(r["seats"]):
            games_played[agents.index(s)] += 1
    ratings = []
    for i, agent in enumerate(agents):
        row = {"agent": agent, "rating": float(estimate[i]), "low": float(low[i]),
               "high": float(high[i]), "games": int(games_played[i]),
               "pairwise_score": float(points[i].sum() / max(1e-12, (points + points.T)[i].sum()))}
        if extra:
            row.update(mu=float(extra["mu"][i]), sigma=float(extra["sigma"][i]),
                       ordinal=float(extra["ordinal"][i]))
        ratings.append(row)
    ratings.sort(key=lambda row: -row["rating"])
    differences = []
    for i, x in enumerate(agents):
        for j, y in enumerate(agents):
            if i != j:
                d = samples[:, i] - samples[:, j]
                d_low, d_high = percentile_interval(d)
                differences.append({"agent": x, "opponent": y,
                                    "difference": float(estimate[i] - estimate[j]),
                                    "low": float(d_low), "high": float(d_high)})
    # A perfect record drives a likelihood fit to infinity: only the prior (Bradley–Terry)
    # or the sequential updates (OpenSkill) keep it finite, and no resample can widen it.
    perfect = [[x, y] for i, x in enumerate(agents) for j, y in enumerate(agents)
               if points[i, j] > 0 and points[j, i] == 0]
    return {"method": method, "scale": "elo" if method == "bradley_terry" else "openskill_mu",
            "anchor": anchor, "anchor_rating": float(estimate[a]), "num_players": players.pop(),
            "games": len(records), "resamples": resamples, "prior_draws_per_pair": prior,
            "ratings": ratings, "head_to_head": head_to_head(records, agents),
            "differences": differences, "perfect_records": perfect}
