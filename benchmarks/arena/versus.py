"""One agent against one opponent on fixed deals in both seatings: its score and how long
it thinks per decision beside the opponent, from the same games (the recipe comparison
and the play-time tuner measure candidates this way)."""

from __future__ import annotations

from pathlib import Path


def score_against(game: str, agent: str, opponent: str, deals: int, out: str | Path,
                  seed: int = 1_000, workers: int = 2) -> dict:
    """``{"score", "think_ratio", "games"}``: points taken from ``opponent`` per game (1 a
    win, 1/2 a tie) and the agent's seconds per decision over the opponent's, pooled."""
    from meeplezoo.benchmarks.arena.arena import run_arena
    from meeplezoo.benchmarks.rating.ratings import points_over

    _, records = run_arena(game, [agent, opponent], 2, deals, out, seed=seed, workers=workers,
                           progress=False)
    mine = [r for r in records if agent in r["seats"] and opponent in r["seats"]]
    spent = {agent: [0.0, 0], opponent: [0.0, 0]}
    for record in mine:
        for seat, name in enumerate(record["seats"]):
            spent[name][0] += record["seat_seconds"][seat]
            spent[name][1] += record["seat_decisions"][seat]
    per = {name: total / max(count, 1) for name, (total, count) in spent.items()}
    return {"score": sum(points_over(r, agent, opponent) for r in mine) / max(len(mine), 1),
            "think_ratio": per[agent] / max(per[opponent], 1e-12), "games": len(mine)}
