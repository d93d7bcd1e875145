"""How well a value predicts the game's result, by game third.

    python -m meeplezoo.benchmarks.studies.value_quality build GAME [--games 50] [--players 2]
    python -m meeplezoo.benchmarks.studies.value_quality report GAME --checkpoint az:default \\
        --heuristic [--set PATH] [--plot]

``build`` writes a frozen test set (``benchmarks/studies/value_sets.py``: positions of
greedy-vs-greedy and ``mcts:200``-vs-``mcts:200`` games with their final results).
``report`` values its positions with each checkpoint's network and with the heuristic
the search ``mcts:N`` uses (the game's compiled leaf value, or for a game whose search
rolls out, the mean of ``--rollouts`` heuristic rollouts of the game's default depth),
and gives, for the seat to move, the Pearson correlation of the value with that seat's
final reward (win 1, loss -1, ties shared) and the mean squared error, by third of the
game (by decision index over the game's length) and overall, with a 90% interval on the
correlation from resampling whole games (a game's positions share one result, so the
games, not the positions, are the sample).  ``all_seats`` in the JSON pools every seat's
value instead.  Results: a table on stdout, JSON in ``results/``.

The measurement itself, ``value_quality(evaluate, test_set)``, and the heuristic's
evaluator are ``training/run/value_measure.py``: the AlphaZero trainer logs the same
figures at each evaluation (``training/run/value_log.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, command_main, say, write_report
from meeplezoo.benchmarks.studies.value_sets import (
    DEFAULT_FOLDER,
    THIRDS,
    ValueSet,
    build_set,
    load_set,
    save_set,
    set_path,
)
from meeplezoo.envs import game_argument
from meeplezoo.training.run.seats import trained_counts
from meeplezoo.training.run.value_measure import heuristic_evaluator, value_quality

# ---------------------------------------------------------------------------- evaluators


def resolve_checkpoint(name: str, game: str, players: int) -> Path:
    """A checkpoint path from ``az:default``, ``az:default3p``, ``az:gen``, ``az:<path>``,
    ``ppo:default`` (``ppo:default3p``), ``ppo:<path>`` or a path (an AlphaZero one)."""
    from meeplezoo.agents.shipped import shipped_name

    is_ppo = name.startswith("ppo:")
    path = name.removeprefix("ppo:") if is_ppo else name.removeprefix("az:")
    shipped = shipped_name(path)
    if shipped is not None:
        if is_ppo:
            from meeplezoo.agents.ppo.agent import shipped_policy

            return shipped_policy(game, *shipped)
        from meeplezoo.agents.az.agent import shipped_checkpoint

        return shipped_checkpoint(game, *shipped)
    if not Path(path).is_file():
        raise ValueError(f"checkpoint {name!r}: no such file")
    return Path(path)


def network_evaluator(name: str, test_set: ValueSet) -> Callable:
    """The network of checkpoint ``name`` as an evaluator, refused unless it was trained
    on the set's game, env version and player count (``ppo:...``: a PPO policy's value
    head, :func:`ppo_value_evaluator`)."""
    from meeplezoo.agents.az.agent import load_az_network
    from meeplezoo.agents.az.evaluator import NetworkEvaluator
    from meeplezoo.envs import spec
    from meeplezoo.training.run.checkpoint import load_checkpoint

    path = resolve_checkpoint(name, test_set.game, test_set.players)
    if name.startswith("ppo:"):
        return ppo_value_evaluator(path, test_set, name)
    network, meta = load_az_network(path)
    check_network(meta, load_checkpoint(path).get("options", {}), test_set, name)
    return NetworkEvaluator(network, spec(test_set.game))


def ppo_value_evaluator(path: Path, test_set: ValueSet, name: str) -> Callable:
    """A PPO policy's value head: one (discounted) value for the seat each position is
    observed by, so only the seat to move's figures mean anything.  The other seats get
    its negation at 2 players (zero-sum) and NaN beyond (``all_seats`` is then NaN)."""
    import torch

    from meeplezoo.agents.az.evaluator import observers
    from meeplezoo.agents.ppo.agent import load_policy
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import observe_batch
    from meeplezoo.training.run.checkpoint import load_checkpoint

    payload = load_checkpoint(path)
    meta = payload.get("meta", {})
    if meta.get("architecture") != "mlp":
        raise ValueError(f"{name} is not a PPO policy (architecture "
                         f"{meta.get('architecture')!r})")
    check_network(meta, payload.get("options", {}), test_set, name)
    network, _ = load_policy(path, payload=payload)
    game_spec, players = spec(test_set.game), test_set.players

    @torch.no_grad()
    def evaluate(states: np.ndarray, masks=None) -> np.ndarray:
        seats = observers(game_spec, states)
        obs = torch.from_numpy(observe_batch(game_spec, states, seats))
        value = network.get_value(obs.float()).double().numpy()
        values = np.full((len(states), players), np.nan if players > 2 else 0.0)
        if players == 2:
            values[:] = -value[:, None]
        values[np.arange(len(states)), seats] = value
        return values

    return evaluate


def check_network(meta: dict, options: dict, test_set: ValueSet, name: str) -> None:
    """One ``ValueError`` where a network cannot be measured on ``test_set``."""
    from meeplezoo.envs import spec

    game = test_set.game
    if meta.get("game") != game:
        raise ValueError(f"{name} was trained on {meta.get('game')}, the test set is of {game}")
    game_spec = spec(game)
    if (meta.get("obs_size"), meta.get("num_actions")) != (game_spec.obs_size,
                                                          game_spec.num_actions):
        raise ValueError(f"{name} was trained on another version of {game} (observation "
                         f"{meta.get('obs_size')}, now {game_spec.obs_size})")
    # a network self-played at several counts (``--seat-counts``) is measured at each
    trained = trained_counts(options if isinstance(options, dict) else {})
    if test_set.players not in trained:
        shown = ", ".join(map(str, trained))
        raise ValueError(f"{name} was trained at {shown} players, the test set is of "
                         f"{test_set.players}")


# ----------------------------------------------------------------------------------- CLI


def add_arguments(parser) -> None:
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="build a game's frozen test set")
    build.add_argument("game", type=game_argument)
    build.add_argument("--games", type=int, default=50, help="games per matchup")
    build.add_argument("--per-game", type=int, default=30, help="positions kept per game")
    build.add_argument("--players", type=int, default=2)
    build.add_argument("--seed", type=int, default=0)
    build.add_argument("--workers", type=int, default=2)
    build.add_argument("--out", type=Path, default=DEFAULT_FOLDER, help="folder")
    report = commands.add_parser("report", help="measure checkpoints and the heuristic")
    report.add_argument("game", type=game_argument)
    report.add_argument("--checkpoint", action="append", default=[],
                        help="az:default, az:default3p, ppo:default, ppo:<path> or a "
                        "path (repeatable)")
    report.add_argument("--heuristic", nargs="?", const="auto", action="append",
                        default=None, help="also the search's heuristic: auto (default), "
                        "leaf, rollout or fitted (the fitted leaf that ships; repeatable)")
    report.add_argument("--rollouts", type=int, default=16)
    report.add_argument("--players", type=int, default=2)
    report.add_argument("--matchup", default=None,
                        help="only the games of one matchup of the set (e.g. greedy)")
    report.add_argument("--set", type=Path, default=None, help="default: the cached set")
    report.add_argument("--bootstrap", type=int, default=200, help="game resamples")
    report.add_argument("--out", type=Path, default=None, help="JSON report")
    report.add_argument("--plot", action="store_true", help="a PNG beside the JSON")


def run(args) -> int:
    game = args.game
    if args.command == "build":
        value_set = build_set(game, args.players, args.games, args.per_game, args.seed,
                              args.workers)
        path = save_set(value_set, set_path(game, args.players, args.out))
        print(f"{path}: {len(value_set)} positions from {value_set.header['games']} games "
              f"({value_set.header['games_cut']} cut at the cap left out) in "
              f"{value_set.header['build_seconds']} s")
        return 0
    path = args.set or set_path(game, args.players)
    test_set = load_set(path)
    if test_set.game != game:
        raise ValueError(f"{path} is a test set of {test_set.game}, not {game}")
    if args.matchup is not None:
        matchups = test_set.header["matchups"]
        if args.matchup not in matchups:
            raise ValueError(f"--matchup {args.matchup!r}: the set's are {', '.join(matchups)}")
        test_set = test_set.subset(test_set.matchup == matchups.index(args.matchup))
    if not args.checkpoint and args.heuristic is None:
        raise ValueError("nothing to measure: give --checkpoint and/or --heuristic")
    if not 0 <= args.bootstrap <= 100_000:
        raise ValueError("--bootstrap must be in 0..100,000")
    # networks load first, so a bad checkpoint is refused before any work
    sources = [(name, network_evaluator(name, test_set)) for name in args.checkpoint]
    for kind in args.heuristic or []:
        evaluate, label = heuristic_evaluator(game, kind, args.rollouts)
        sources.append((label, evaluate))
    results = {}
    for label, evaluate in sources:
        say(f"{game}: valuing {len(test_set)} positions with {label}")
        results[label] = value_quality(evaluate, test_set, args.bootstrap)
    report = {"game": game, "players": test_set.players, "set": path.name,
              "set_header": test_set.header, "matchup": args.matchup or "all",
              "seat": "mover", "results": results}
    out = args.out or RESULTS_DIR / f"value_quality_{game}.json"
    write_report(report, out)
    print(table(report))
    if args.plot:
        print(f"plot: {plot(report, out.with_suffix('.png'))}")
    return 0


def table(report: dict) -> str:
    """Correlation [90% interval] and MSE of the seat to move's value, by third."""
    header = report["set_header"]
    games = " / ".join(header["matchups"]) if report["matchup"] == "all" else report["matchup"]
    lines = [f"value quality, {report['game']} at {report['players']} players: "
             f"{header['positions']} positions of {header['games']} games ({games}), "
             f"seat to move",
             f"{'value':<40}{'':>5}" + "".join(f"{name:>22}" for name in (*THIRDS, "all"))]
    for label, result in report["results"].items():
        parts = [result["mover"][name] for name in (*THIRDS, "all")]
        lines.append(f"{label:<40}{'corr':>5}" + "".join(f"{_corr(p):>22}" for p in parts))
        lines.append(f"{'':<40}{'mse':>5}" + "".join(f"{_num(p['mse']):>22}" for p in parts))
    return "\n".join(lines)


def _num(value) -> str:
    return "-" if value is None else f"{value:.3f}"


def _corr(part: dict) -> str:
    if "corr_low" not in part:
        return _num(part["corr"])
    return f"{_num(part['corr'])} [{part['corr_low']:.2f}, {part['corr_high']:.2f}]"


def plot(report: dict, out: Path) -> Path:
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "value-quality plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(6, 3.6))
    for label, result in report["results"].items():
        corr = [result["mover"][name]["corr"] for name in THIRDS]
        axis.plot(THIRDS, [np.nan if c is None else c for c in corr], marker="o", label=label)
    axis.set_ylabel("corr(value, final result)")
    axis.axhline(0, color="grey", linewidth=1)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    axis.set_title(f"value quality: {report['game']}")
    figure.tight_layout()
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out


def main(argv: list[str] | None = None) -> int:
    return command_main("meeplezoo value_quality", __doc__.splitlines()[0], add_arguments,
                        run, argv)


if __name__ == "__main__":
    sys.exit(main())
