"""A trained AlphaZero-style network with search, as an agent: ``az:<checkpoint>[,sims=N]``.

The compiled MCTS (PUCT, priors and leaf values from the network in batches of
``leaf_batch`` leaves, chance nodes from the game's exact outcomes, stratified) picks the
most visited move.  ``root=gumbel`` puts the training's Gumbel root on top instead
(sequential halving over the network's 16 most probable moves, without the Gumbel noise:
the move with the best prior plus completed q), which makes better use of a small budget.
``sims=0`` plays the network's policy alone (its most probable legal move), which is what
the search improves on.

``leaf=fitted`` gives the heuristic share of each leaf's value (``lam`` < 1) to the value
fitted to game results that ships for the game (``agents/fitted_values.py``) instead of
the hand-set one.  An ``az:`` bot always plays its network (its priors, and its value
where ``lam`` > 0); the game's tuned search with a fitted leaf and no network is
``mcts:N,leaf=fitted``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..base import Agent
from ..mcts import MCTSAgent
from ..shipped import shipped_bot
from ..spec_values import AZ_BOUNDS, check_bounds
from .gumbel import GumbelMCTS
from .knowledge import Knowledge, KnowledgeEvaluator
from .network import make_az_network
from .play_evaluator import play_evaluator

BOTS_DIR = Path(__file__).resolve().parent / "bots"    # the shipped checkpoints


def shipped_checkpoint(game: str, players: int = 2, variant: str = "") -> Path:
    """The checkpoint ``az:default`` (trained at 2 seats), ``az:default<N>p`` (at N) or a
    variant (``az:gen``) loads for ``game``; a clear error if none ships."""
    return shipped_bot(BOTS_DIR, game, players, "AlphaZero", "az", variant)


# How a bot searches when its checkpoint and its spec say nothing: PUCT's c, leaves per
# network call, unvisited moves at a fixed 0, the network alone.  A checkpoint's ``play``
# record (written by the trainer, tuned before shipping) overrides these, and the spec's
# options (``az:default,c=1.5,fpu=parent-0.2,lam=0.5``) override both.
PLAY_DEFAULTS = {"simulations": 200, "c": 1.25, "leaf_batch": 8, "fpu_mode": "fixed",
                 "fpu": 0.0, "lam": 1.0, "prior_mix": 0.0, "rollouts": 1, "margin": 0.0,
                 "backup": "mean", "leaf": "", "depth": 0, "cut": "score"}


def load_az_checkpoint(path: str | Path, device: str = "cpu"):
    """``(network, meta, play)`` from a checkpoint, every field checked (``weights_only``);
    ``play`` is its recorded play settings (``PLAY_DEFAULTS`` keys)."""
    from meeplezoo.envs import spec
    from meeplezoo.training.run.checkpoint import load_checkpoint, load_weights

    payload = load_checkpoint(path, map_location=device)
    meta = payload["meta"]
    network = make_az_network(meta)
    seats = meta.get("seats")
    if seats != spec(meta["game"]).max_players:
        raise ValueError(f"{path}: meta['seats'] is {seats!r}; {meta['game']} has up to "
                         f"{spec(meta['game']).max_players} seats")
    load_weights(network, payload["model"], path)
    play = payload.get("play") or {}
    if not isinstance(play, dict) or set(play) - set(PLAY_DEFAULTS):
        raise ValueError(f"{path}: 'play' must hold only {sorted(PLAY_DEFAULTS)}, got {play!r}")
    check_play_record(play, str(path))
    return network.to(device).eval(), meta, dict(play)


def check_play_record(play: dict, where: str) -> None:
    """Each recorded setting of the right type and in the bounds ``az:`` options have: a
    checkpoint's file must not make a bot search forever or crash mid-game."""
    choices = {"fpu_mode": ("fixed", "parent"), "backup": ("mean", "max"),
               "leaf": ("", "heuristic", "fitted"), "cut": ("score", "leaf")}
    for key, value in play.items():
        expected = type(PLAY_DEFAULTS[key])
        if key in choices and value not in choices[key] or key not in choices and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or
                expected is int and not isinstance(value, int)):
            raise ValueError(f"{where}: play setting {key}={value!r} is not a valid value")
    check_bounds(f"{where}: play", play, AZ_BOUNDS)


def load_az_network(path: str | Path, device: str = "cpu"):
    """``(network, meta)`` from a checkpoint, every field checked (``weights_only``)."""
    network, meta, _ = load_az_checkpoint(path, device)
    return network, meta


class AZAgent(Agent):
    """Network-guided search (see the module docstring).  Each search setting left
    ``None`` comes from the checkpoint's ``play`` record, else ``PLAY_DEFAULTS``."""

    def __init__(self, checkpoint: str | Path, simulations: int | None = None,
                 c: float | None = None, leaf_batch: int | None = None, device: str = "cpu",
                 root: str = "puct", fpu_mode: str | None = None, fpu: float | None = None,
                 lam: float | None = None, prior_mix: float | None = None,
                 rollouts: int | None = None, margin: float | None = None,
                 backup: str | None = None, leaf: str | None = None,
                 depth: int | None = None, cut: str | None = None, seed: int | None = None):
        super().__init__(seed)
        if root not in ("puct", "gumbel"):
            raise ValueError(f"root must be puct or gumbel, not {root!r}")
        self.network, self.meta, recorded = load_az_checkpoint(checkpoint, device)
        given = {"simulations": simulations, "c": c, "leaf_batch": leaf_batch,
                 "fpu_mode": fpu_mode, "fpu": fpu, "lam": lam, "prior_mix": prior_mix,
                 "rollouts": rollouts, "margin": margin, "backup": backup, "leaf": leaf,
                 "depth": depth, "cut": cut}
        self.settings = settings = {**PLAY_DEFAULTS, **recorded,
                                    **{k: v for k, v in given.items() if v is not None}}
        if settings["simulations"] < 0:
            raise ValueError("sims must be >= 0 (0: the network's policy alone)")
        self.game = self.meta["game"]
        from meeplezoo.envs import spec

        # the MLP plays through NumPy (``play_evaluator``): torch's per-call overhead was
        # most of a move's think time at a game's batches of 8 leaves
        self.network_evaluator = play_evaluator(self.network, spec(self.game), device,
                                                float(settings["margin"]))
        knowledge = Knowledge(float(settings["lam"]), float(settings["prior_mix"]),
                              int(settings["rollouts"]), settings["leaf"],
                              int(settings["depth"]), settings["cut"])
        self.knowledge = knowledge
        self.evaluator = KnowledgeEvaluator(self.network_evaluator, spec(self.game), knowledge,
                                            seed) if knowledge.used else self.network_evaluator
        self.simulations = int(settings["simulations"])
        self.name = f"az:{checkpoint},sims={self.simulations}"
        search = GumbelMCTS if root == "gumbel" else MCTSAgent
        extra = {"gumbel_scale": 0.0} if root == "gumbel" else {}
        self.search = None if self.simulations == 0 else search(
            simulations=self.simulations, c=float(settings["c"]), evaluator=self.evaluator,
            leaf_batch=int(settings["leaf_batch"]), fpu=float(settings["fpu"]),
            fpu_mode=settings["fpu_mode"], backup=settings["backup"], chance="stratified",
            seed=seed, **extra)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.search is not None:
            self.search.reset(seed)

    def set_time_budget(self, seconds: float) -> bool:
        """By the clock with the PUCT root (the default); the Gumbel root's sequential
        halving is planned for a number of simulations, and sims=0 costs one forward pass."""
        return self.search is not None and self.search.set_time_budget(seconds)

    def act(self, env) -> int:
        game = env.unwrapped
        if game.spec.name != self.game:
            raise ValueError(f"{self.name} was trained on {self.game}, not {game.spec.name}")
        if self.search is not None:
            return self.search.act(env)
        game_state, mask = game.state[None, :], np.asarray(game.action_mask(), np.int8)[None, :]
        return int(np.argmax(self.evaluator(game_state, mask)[1][0]))

    def policy_and_value(self, env) -> tuple[np.ndarray, np.ndarray]:
        """The network's priors over the actions and its value per seat, for analysis."""
        game = env.unwrapped
        values, priors = self.network_evaluator(
            game.state[None, :], np.asarray(game.action_mask(), np.int8)[None, :])
        return priors[0], values[0]
