"""``meeplezoo games``: each registered game with its player counts, its status and its
shipped bots by player count (``agents/catalogue.py``)."""

from __future__ import annotations

from meeplezoo.envs import names, spec

# What `meeplezoo games` says of each game's rules and board, in a few words.
STATUS = {
    "saint_malo_v0": "complete",
    "hansa_teutonica_v0": "complete; 2-player regions from unverified data",
    "carcassonne_v0": "complete; the observation the shipped bots and ladders use",
    "carcassonne_v1": "complete",
    "hansa_v0": "complete; default board reconstructed (load the printed one: board=)",
    "serenissima_v0": "complete; default map reconstructed (map=); the shipped networks' rules",
    "serenissima_v1": "complete; default map reconstructed (load the printed one: map=)",
}


def shipped_by_players(game: str) -> dict[int, list[str]]:
    """The shipped bots' names of ``game``, by player count."""
    from meeplezoo.agents.catalogue import SHIPPED

    found: dict[int, list[str]] = {}
    for bot in SHIPPED:
        if bot.game == game:
            found.setdefault(bot.players, []).append(bot.name)
    return dict(sorted(found.items()))


def listing() -> str:
    rows = []
    for name in names():
        game = spec(name)
        rows.append((name, f"{game.min_players}-{game.max_players} players",
                     STATUS.get(name, "complete")))
        bots = shipped_by_players(name)
        rows.append(("", "", "bots " + ("   ".join(f"{p}p: {', '.join(b)}" for p, b in
                                                   bots.items()) or "none shipped")))
    width = max(len(r[0]) for r in rows)
    lines = [f"{a:<{width}}  {b:<11}  {c}" for a, b, c in rows]
    return "\n".join([*lines, "", "Every game also plays random, greedy and mcts:N; "
                      "'meeplezoo bots GAME' gives the shipped bots' figures."])
