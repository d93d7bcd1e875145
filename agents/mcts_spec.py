"""The ``mcts:`` spec read into the compiled search: its options, each game's tuned
defaults and leaf values.  The registry names it ``mcts``; the network search borrows the
game's tuned search from here (its heuristic leaves and rollouts, ``az/knowledge.py``)."""

from __future__ import annotations

from meeplezoo.envs.versions import rules_name

from .base import Agent
from .spec_values import (
    MCTS_BOUNDS,
    ascii_float,
    ascii_int,
    check_bounds,
    check_once,
    choice,
    flag,
    load_object,
)

MCTS_OPTIONS = {"depth": ("rollout_depth", ascii_int), "c": ("c", ascii_float),
                "nodes": ("max_nodes", ascii_int),
                "chance": ("chance", choice("sample", "stratified")),
                "rollout": ("rollout", choice("random", "heuristic")),
                "reuse": ("reuse", flag),
                "leaf": ("leaf_value", str),            # checked by leaf_value
                "backup": ("backup", choice("mean", "max")),
                "horizon": ("horizon", choice("game", "turn")),
                "prior": ("prior", ascii_float), "cut": ("cut", choice("score", "leaf"))}


# The settings that play best where a game has a heuristic, measured with the arena
# (BENCHMARKS.md): a heuristic leaf value instead of a random rollout, and a smaller UCT
# constant because that value is much less noisy.  Hansa Teutonica: PUCT with half of each
# node's prior on the heuristic's move and 10-decision heuristic rollouts valued by the
# running scores (full rollouts cost about 5x as much per game); Serenissima: the same
# prior with 60-decision rollouts (16/16 against greedy in a first check, ~20x cheaper
# than full rollouts).  ``leaf=rollout,c=1.41``
# restores the plain UCT with random rollouts.
GAME_MCTS_DEFAULTS = {"saint_malo_v0": ("leaf=heuristic", "c=0.5"),
                      # Carcassonne: the expected-completion leaf value, c=0.2 (values are
                      # tanh(margin / 20), so c=0.5 mostly explored), stratified tile
                      # draws, max at decisions / expectation at draws.  2 players against
                      # greedy, seats swapped, 60 deals on two seed sets: 90.5/120 (+24
                      # points a game; mean backup 89/120; the old leaf with c=0.5 9/20).
                      "carcassonne_v0": ("leaf=heuristic", "c=0.2", "chance=stratified",
                                         "backup=max"),
                      "hansa_v0": ("rollout=heuristic",),
                      "hansa_teutonica_v0": ("rollout=heuristic", "prior=0.5", "depth=10"),
                      "serenissima_v0": ("rollout=heuristic", "prior=0.5", "depth=60")}


# Compiled leaf values for ``mcts:N,leaf=heuristic``, by game.  This table and
# GAME_MCTS_DEFAULTS are keyed by the rules' name (``rules_name``), as the registry's
# HEURISTICS: ``carcassonne_v1`` plays v0's entries.
LEAF_VALUES = {
    "saint_malo_v0": "meeplezoo.agents.saint_malo_value:heuristic_value",
    "hansa_teutonica_v0": "meeplezoo.agents.hansa_teutonica_greedy.value:heuristic_value",
    "carcassonne_v0": "meeplezoo.envs.carcassonne.policy:heuristic_value",
}


def leaf_value(game: str, name: str):
    """``(leaf_value, weights)`` the spec's ``leaf=`` names: rollout (None, None),
    heuristic (the game's hand-set leaf, no weights) or fitted[:gen|<file.json>] (the
    fitted leaf and its weights, ``agents/fitted_values.py``)."""
    if name == "rollout":
        return None, None
    if name == "heuristic" and rules_name(game) in LEAF_VALUES:
        return load_object(LEAF_VALUES[rules_name(game)]), None
    kind, _, source = name.partition(":")
    if kind == "fitted":
        from .fitted_values import fitted_leaf

        return fitted_leaf(game, source)
    raise ValueError(f"no leaf value {name!r} for {game!r}")


def mcts_agent(game: str, seed: int | None, arguments: str) -> Agent:
    """``mcts:N`` (N simulations) or ``mcts:2.5s`` (seconds), then ``,key=value`` options:
    depth (rollout depth), c, nodes, chance (sample|stratified), rollout (random|heuristic),
    reuse, leaf (rollout|heuristic: value leaves with the game's heuristic; fitted: with
    the value fitted to game results that ships for the game, fitted:gen with the one
    fitted on generated boards, fitted:<file.json> with another fit,
    ``agents/fitted_values.py``), backup
    (mean|max: max at decisions, expectation at chance nodes), horizon (game|turn: plan
    only the current turn), prior (0..1: PUCT with that share of each node's prior on the
    game's heuristic move), cut (score|leaf: a rollout cut at its depth valued by the
    running scores' win/loss, or by the leaf value; with cut=leaf the leaf values only
    the cuts).  A game's ``GAME_MCTS_DEFAULTS`` come first, so the user's
    options override them."""
    from .mcts import MCTSAgent

    budget, *options = arguments.split(",") if arguments else ["200"]
    check_once(f"mcts:{arguments}", options)
    options = [*GAME_MCTS_DEFAULTS.get(rules_name(game), ()), *options]   # the user's win
    kwargs: dict = {"seed": seed}
    try:
        if budget.endswith("s"):
            kwargs["seconds"] = ascii_float(budget[:-1])
            kwargs["simulations"] = 1
        else:
            kwargs["simulations"] = ascii_int(budget)
        for option in options:
            key, value = option.split("=", 1)
            name, cast = MCTS_OPTIONS[key]
            kwargs[name] = cast(value)
    except (ValueError, KeyError):
        raise ValueError(
            f"bad MCTS spec 'mcts:{arguments}'; write mcts:N or mcts:Xs, then ,key=value "
            f"with keys depth=N, c=X, nodes=N, chance=sample|stratified, "
            f"rollout=random|heuristic, reuse=yes|no, leaf=rollout|heuristic|fitted[:...], "
            f"backup=mean|max, horizon=game|turn, prior=X, cut=score|leaf"
        ) from None
    check_bounds(f"mcts:{arguments}", kwargs, MCTS_BOUNDS)
    if "leaf_value" in kwargs:
        kwargs["leaf_value"], kwargs["leaf_weights"] = leaf_value(game, kwargs["leaf_value"])
    agent = MCTSAgent(**kwargs)
    agent.name = f"mcts:{arguments}"
    return agent
