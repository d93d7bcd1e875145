"""Every bot that ships, named for what it is, and ``best``: each game's strongest.

A shipped name says what plays:

- ``az:default`` (``az:default<N>p``, ``az:gen``): an AlphaZero-style policy/value network
  searched with PUCT, its network's value at the leaves (mixed with the game's heuristic
  where its play record says so);
- ``ppo:default`` (``...<N>p``): a PPO policy, played by its policy alone;
- ``ppo:distilled`` (``...<N>p``): a PPO policy distilled into a policy/value network, played
  by its policy alone (no search);
- ``mcts:N,leaf=fitted[,...]``: the game's compiled MCTS whose leaves are valued by a linear
  value fitted to game results (``agents/fitted_values.py``); no network.

:data:`SHIPPED` describes each, game by game and seat count by seat count; ``bots.json``
beside this file holds the figures (its score against ``mcts:1000`` with its interval and
games, the think-time ratio, the command that measured it), generated from the arena
records by ``python -m meeplezoo.benchmarks.studies.bot_bars catalogue`` and never typed by
hand; ``meeplezoo bots [GAME]`` prints both.  ``best`` plays :data:`BEST`'s bot for the
game and the number of seats it finds at its first move.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from meeplezoo.envs import names
from meeplezoo.envs.versions import rules_name

from .base import Agent

CATALOGUE_FILE = Path(__file__).parent / "bots.json"
FALLBACK = "mcts:1000"          # ``best`` where no bot was measured at that many seats


@dataclass(frozen=True)
class ShippedBot:
    """One shipped name at one seat count: what it is, and where its figures come from
    (``record``: the arena folder of ``results/bot_bars`` and the name the bot had there)."""

    game: str
    players: int
    name: str
    method: str
    network: bool
    search: str
    record: tuple[str, str] | None = None


DISTILLED = "PPO policy distilled into a policy/value network"
FITTED = "MCTS with a linear leaf value fitted to game results"
AZ = "AlphaZero-style policy/value network"
PPO = "PPO policy network"
ALL_COUNTS = AZ + " self-played at every player count at once"
# A network trained at two seats plays any count (observations are padded to the most
# seats and rotated to the mover); where it was measured at more, it is listed there too.
TWO_SEATED = " (trained at 2 players)"
SHIPPED = [
    ShippedBot("saint_malo_v0", 2, "ppo:distilled", DISTILLED, True, "none (the policy alone)",
               ("saint_malo_v0", "az:default")),
    *(ShippedBot("saint_malo_v0", players, "ppo:distilled", DISTILLED + TWO_SEATED, True,
                 "none (the policy alone)",
                 (f"saint_malo_v0_{players}p_ppo_distilled", "ppo:distilled"))
      for players in (3, 4, 5)),
    ShippedBot("saint_malo_v0", 3, "ppo:distilled3p", DISTILLED, True,
               "none (the policy alone)", ("saint_malo_v0_3p", "az:default3p")),
    ShippedBot("saint_malo_v0", 2, "ppo:default", PPO, True, "none (the policy alone)"),
    ShippedBot("saint_malo_v0", 3, "ppo:default3p", PPO, True, "none (the policy alone)"),
    ShippedBot("hansa_teutonica_v0", 2, "ppo:distilled", DISTILLED, True,
               "none (the policy alone)", ("hansa_teutonica_v0", "az:default")),
    *(ShippedBot("hansa_teutonica_v0", players, "ppo:distilled", DISTILLED + TWO_SEATED,
                 True, "none (the policy alone)",
                 (f"hansa_teutonica_v0_{players}p_ppo_distilled", "ppo:distilled"))
      for players in (3, 4, 5)),
    ShippedBot("hansa_teutonica_v0", 2, "ppo:default", PPO, True, "none (the policy alone)"),
    ShippedBot("carcassonne_v1", 2, "mcts:100,leaf=fitted", FITTED, False,
               "UCT, 100 simulations, fitted leaf", ("carcassonne_v1", "az:default")),
    *(ShippedBot("carcassonne_v1", players, "mcts:100,leaf=fitted", FITTED, False,
                 "UCT, 100 simulations, fitted leaf",
                 (f"carcassonne_v1_{players}p_mcts_100_leaf_fitted", "mcts:100,leaf=fitted"))
      for players in (3, 4, 5, 6)),
    ShippedBot("carcassonne_v1", 2, "az:default", AZ, True, "PUCT, 100 simulations"),
    ShippedBot("carcassonne_v1", 2, "ppo:default", PPO, True, "none (the policy alone)"),
    ShippedBot("carcassonne_v0", 2, "mcts:100,leaf=fitted", FITTED, False,
               "UCT, 100 simulations, fitted leaf"),
    ShippedBot("carcassonne_v0", 2, "az:default", AZ + " (convolutional)", True,
               "PUCT, 200 simulations"),
    ShippedBot("carcassonne_v0", 2, "ppo:default", PPO, True, "none (the policy alone)"),
    ShippedBot("hansa_v0", 2, "az:default", AZ, True, "PUCT, 64 simulations",
               ("hansa_v0", "az:default")),
    ShippedBot("hansa_v0", 3, "az:default3p", AZ, True,
               "PUCT, 200 simulations, leaf half network, half heuristic",
               ("hansa_v0_3p", "az:default3p,sims=200,lam=0.5")),
    *(ShippedBot("hansa_v0", players, "az:all", ALL_COUNTS, True, "PUCT, 64 simulations",
                 (f"hansa_v0_{players}p_az_all", "az:all"))
      for players in (2, 3, 4)),
    ShippedBot("hansa_v0", 2, "az:gen", AZ + " trained on generated boards", True,
               "PUCT, 200 simulations, leaf half network, half heuristic"),
    ShippedBot("hansa_v0", 2, "ppo:default", PPO, True, "none (the policy alone)"),
    ShippedBot("serenissima_v0", 2, "mcts:300,leaf=fitted,depth=12,cut=leaf", FITTED, False,
               "UCT, 300 simulations of 12-decision heuristic rollouts valued by the fitted "
               "leaf at the cut", ("serenissima_v0", "az:default")),
    ShippedBot("serenissima_v0", 2, "mcts:1000,leaf=fitted:gen,depth=12,cut=leaf",
               FITTED + " on generated maps", False,
               "UCT, 1,000 simulations of 12-decision heuristic rollouts, fitted leaf"),
    ShippedBot("serenissima_v0", 2, "az:default", AZ, True, "PUCT, 300 simulations"),
    ShippedBot("serenissima_v0", 2, "ppo:default", PPO, True, "none (the policy alone)"),
    ShippedBot("serenissima_v1", 2, "mcts:300,leaf=fitted,depth=12,cut=leaf", FITTED, False,
               "as on serenissima_v0 (the same fitted leaf; its rules differ only in two "
               "legal-move details)"),
]


def ahead_of_search(figure: dict) -> bool:
    """Whether a measured bot beat ``mcts:1000`` (2 players: scored over half; more: a
    higher OpenSkill mu)."""
    if figure["kind"] == "score":
        return figure["score"] > 0.5
    return figure["mu"] > figure["opponents"]["mcts:1000"]


# The game versions the strength bars are measured on, one per game (the newest rules).
BAR_GAMES = ("saint_malo_v0", "hansa_teutonica_v0", "carcassonne_v1", "hansa_v0",
             "serenissima_v0")
BAR_THINK_RATIO = 5.0       # at most 1/5 of ``mcts:1000``'s think time per decision


def bar_misses(figure: dict) -> list[str]:
    """What keeps a measured bot from the strength bar at its seat count (none: met).  At
    no more than 1/5 of ``mcts:1000``'s think time per decision: at two players a score of
    at least 0.55 against it with the Wilson lower bound above 0.5 over 400 games; at more,
    over 300 games with seats rotated, an OpenSkill lead over both ``mcts:1000`` and
    ``greedy`` whose bootstrap interval stays above 0 (non-overlapping)."""
    misses = []
    if figure["think_ratio"] < BAR_THINK_RATIO:
        misses.append(f"think time 1/{figure['think_ratio']:.1f}")
    if figure["kind"] == "score":
        wanted = 400
        if figure["score"] < 0.55 or figure["low"] <= 0.5:
            misses.append("score below 0.55 or its lower bound not above 0.5")
    else:
        wanted, leads = 300, figure.get("leads", {})
        misses += [f"lead over {name} not clear of 0" for name in ("mcts:1000", "greedy")
                   if name not in leads or leads[name][0] <= 0]
    if figure["games"] < wanted:
        misses.append(f"{figure['games']} games, not {wanted}")
    return misses


def meets_bar(figure: dict) -> bool:
    return not bar_misses(figure)


def edge_over_search(figure: dict) -> float:
    """How far a measured bot is ahead of ``mcts:1000``: its score against it (two
    players), or its OpenSkill lead over it (more)."""
    if figure["kind"] == "score":
        return figure["score"]
    return figure["mu"] - figure["opponents"]["mcts:1000"]


def best_spec(game: str, players: int) -> str:
    """The spec ``best`` plays for ``game`` at ``players`` seats: of the shipped bots
    measured ahead of ``mcts:1000`` at that count, the one furthest ahead; where none is,
    the 2-player one when it is a search (a search plays any count) not measured at this
    count, else :data:`FALLBACK` itself."""
    found = figures()
    # A search measured on another version of the game plays this one as it played there:
    # the tuned search and the fitted leaf are keyed by the rules' tables
    # (``envs/versions.py``); a network is not (each version observes differently).
    versions = [game, *sorted(g for g in names() if g != game and
                              rules_name(g) == rules_name(game))]
    for name in versions:
        ahead = [(edge_over_search(figure), bot.name) for bot in SHIPPED
                 if bot.game == name and bot.players == players
                 and (figure := found.get(f"{name}/{players}/{bot.name}"))
                 and ahead_of_search(figure)
                 and (name == game or bot.name.startswith("mcts:"))]
        if ahead:                        # the one furthest ahead (the first of equals)
            return max(ahead, key=lambda pair: pair[0])[1]
    if players != 2 and (two := best_spec(game, 2)).startswith("mcts:") and \
            f"{game}/{players}/{two}" not in found:     # not measured short of the search
        return two
    return FALLBACK


@functools.cache
def figures() -> dict:
    """``bots.json``: ``{"<game>/<players>/<name>": figures}`` (empty where not built);
    package data, read once."""
    if not CATALOGUE_FILE.is_file():
        return {}
    return json.loads(CATALOGUE_FILE.read_text())["bots"]


def key(bot: ShippedBot) -> str:
    return f"{bot.game}/{bot.players}/{bot.name}"


def listing(game: str | None = None) -> str:
    """``meeplezoo bots [GAME]``: every shipped bot of ``game`` (or of every game), by seat
    count: its name, what it is, its measured score and the command that measured it."""
    found, lines = figures(), []
    games = sorted({bot.game for bot in SHIPPED})
    if game is not None:
        games = [g for g in games if g == game]
        if not games:
            raise ValueError(f"no shipped bots for {game!r}; games with some: "
                             f"{', '.join(sorted({bot.game for bot in SHIPPED}))}")
    for name in games:
        lines.append(name)
        for players in sorted({bot.players for bot in SHIPPED if bot.game == name}):
            best = best_spec(name, players)
            lines.append(f"  {players} players (best: {best})")
            for bot in (b for b in SHIPPED if b.game == name and b.players == players):
                lines.append(f"    {bot.name}")
                lines.append(f"      {bot.method}; search: {bot.search}")
                lines.append(f"      {score_text(found.get(key(bot)))}")
                if found.get(key(bot)):
                    figure = found[key(bot)]
                    then = f" (its name then: {figure['measured_as']})" \
                        if figure["measured_as"] != bot.name else ""
                    lines.append(f"      measured by: {figure['command']}{then}")
        others = sorted({p for p in range(2, 7)} - {b.players for b in SHIPPED if b.game == name})
        if others:
            lines.append(f"  other seat counts: no bot measured; best plays "
                         f"{best_spec(name, others[0])}")
    return "\n".join(lines)


def score_text(figure: dict | None) -> str:
    if not figure:
        return "not measured against mcts:1000"
    if figure["kind"] == "score":
        return (f"{figure['score']:.3f} [{figure['low']:.3f}, {figure['high']:.3f}] against "
                f"mcts:1000 over {figure['games']} games, at 1/{figure['think_ratio']:.0f} "
                f"of its think time")
    return (f"OpenSkill mu {figure['mu']:+.1f} [{figure['low']:+.1f}, {figure['high']:+.1f}] "
            f"over {figure['games']} {figure['players']}-player games; mcts:1000 "
            f"{figure['opponents']['mcts:1000']:+.1f}, greedy {figure['opponents']['greedy']:+.1f}"
            f"; 1/{figure['think_ratio']:.0f} of mcts:1000's think time")


class BestAgent(Agent):
    """``best``: the strongest shipped bot of the game it plays, at the seat count of the
    table (known at the first move), built then and kept while the count stays."""

    name = "best"

    def __init__(self, game: str, seed: int | None = None, make=None):
        super().__init__(seed)
        self.game, self.seed, self.make = game, seed, make
        self.inner, self.players = None, None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if seed is not None:
            self.seed = seed
        if self.inner is not None:
            self.inner.reset(seed)

    def playing(self, players: int) -> Agent:
        """The bot ``best`` is at ``players`` seats (built on first use)."""
        if self.inner is None or self.players != players:
            self.inner, self.players = self.make(best_spec(self.game, players), self.game,
                                                 self.seed), players
        return self.inner

    def act(self, env) -> int:
        return self.playing(len(env.possible_agents)).act(env)
