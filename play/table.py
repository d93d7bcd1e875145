"""Playing whole games between agents, and a small results table (used by the demo)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from meeplezoo.envs import make


@dataclass
class GameRecord:
    seats: list[str]
    scores: list[int]
    rewards: list[float]
    decisions: int

    def points(self, seat: int) -> float:
        """What the game gives ``seat``: a win 1, a win shared by k seats 1/k, else 0."""
        best = max(self.rewards)
        winners = [i for i, r in enumerate(self.rewards) if r == best]
        return 1.0 / len(winners) if seat in winners else 0.0


def play_game(game: str, agents: Sequence, seed: int, **env_options) -> tuple[GameRecord, object]:
    """Play one game; ``agents[i]`` sits in seat i.  Returns the record and the final env."""
    env = make(game, num_players=len(agents), **env_options)
    env.reset(seed=seed)
    for index, agent in enumerate(agents):
        agent.reset(seed=seed * 1000 + index)
    decisions = 0
    while not env.game_over:
        seat = env.agent_name_mapping[env.agent_selection]
        env.step(agents[seat].act(env))
        decisions += 1
    record = GameRecord(
        seats=[agent.name for agent in agents],
        scores=[int(s) for s in env.scores()],
        rewards=[float(env.rewards[a]) for a in env.possible_agents],
        decisions=decisions,
    )
    return record, env


def results_table(records: Sequence[GameRecord]) -> str:
    """Per agent name: games, wins (shared wins count as a fraction), mean score."""
    stats: dict[str, list] = {}
    for record in records:
        for seat, name in enumerate(record.seats):
            entry = stats.setdefault(name, [0, 0.0, []])
            entry[0] += 1
            entry[1] += record.points(seat)
            entry[2].append(record.scores[seat])
    lines = [f"{'agent':<12}{'games':>7}{'wins':>8}{'win %':>8}{'mean score':>12}"]
    for name, (games, wins, scores) in sorted(stats.items()):
        lines.append(f"{name:<12}{games:>7}{wins:>8.1f}{100 * wins / games:>7.1f}%"
                     f"{np.mean(scores):>12.1f}")
    return "\n".join(lines)
