"""Can a network correct the search's heuristic leaf?  A value learnt on top of it.

    python -m meeplezoo.training.expert.loop carcassonne_v1 --simulations 64 --games 1500 \\
        --record-fraction 0.2 --epochs 1 --seed 21 --run-name carc_pos64
    python -m meeplezoo.benchmarks.studies.residual_value carcassonne_v1 \\
        --positions runs/carc_pos64/positions.npz

Where a game's search values its leaves with a compiled heuristic (Saint Malo, Hansa
Teutonica, Carcassonne), a network that only has to learn what the heuristic misses might
beat it where a network learnt from nothing does not.  This fits, on the positions of a
``training.expert`` run (their states and final results), an MLP over the observation in
three ways and compares each with the heuristic on the games held out:

- ``logit``: value ``tanh(atanh(h) + f(obs))``, the network shifting the heuristic's
  squashed margin (``h`` clipped to +-0.999);
- ``blend``: value ``0.5 * tanh(f(obs)) + 0.5 * h``, what the AZ search computes at
  ``lam=0.5`` with the heuristic leaf, the network trained for that sum;
- ``direct``: value ``tanh(f(obs))``, the network alone.

The correction's last layer starts at zero, so both corrections start as the heuristic;
each model is scored at its best epoch on the held-out games (an upper bound on what early
stopping would get).  Correlation with the seat to move's final reward by third of its
game (a position's rank among its game's recorded positions), as ``value_quality``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, command_main, say, write_report
from meeplezoo.benchmarks.studies.value_sets import THIRDS
from meeplezoo.training.run.value_measure import heuristic_evaluator, pearson

MODES = ("logit", "blend", "direct")
CHUNK = 512


def game_thirds(game_index: np.ndarray) -> np.ndarray:
    """0, 1, 2 by where a position falls among its game's recorded positions (they are a
    uniform sample of its decisions, kept in order)."""
    thirds = np.zeros(len(game_index), dtype=np.int8)
    for game in np.unique(game_index):
        rows = np.flatnonzero(game_index == game)
        thirds[rows] = np.minimum(3 * np.arange(len(rows)) // max(len(rows), 1), 2)
    return thirds


def correlations(values: np.ndarray, results: np.ndarray, thirds: np.ndarray) -> dict:
    out = {name: float(pearson(values[thirds == k], results[thirds == k]))
           for k, name in enumerate(THIRDS)}
    out["all"] = float(pearson(values, results))
    return out


def inputs(game: str, positions: dict):
    """(observations float32, heuristic value and final reward of the seat to move)."""
    from meeplezoo.agents.az.evaluator import observers
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import observe_batch

    game_spec = spec(game)
    states = positions["states"]
    seats = observers(game_spec, states)
    rows = np.arange(len(states))
    evaluate, _ = heuristic_evaluator(game, "leaf")
    heuristic = np.concatenate([evaluate(states[i:i + CHUNK])
                                for i in range(0, len(states), CHUNK)])[rows, seats]
    obs = np.concatenate([observe_batch(game_spec, states[i:i + CHUNK], seats[i:i + CHUNK])
                          for i in range(0, len(states), CHUNK)]).astype(np.float32)
    return obs, heuristic, positions["rewards"][rows, seats]


def fit(mode: str, obs, heuristic, results, train, held, hidden: int, epochs: int,
        seed: int) -> tuple[np.ndarray, int]:
    """The held-out values at the epoch of best held-out correlation, and that epoch."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    net = nn.Sequential(nn.Linear(obs.shape[1], hidden), nn.ReLU(), nn.Linear(hidden, hidden),
                        nn.ReLU(), nn.Linear(hidden, 1))
    if mode != "direct":                 # start as the heuristic itself
        nn.init.zeros_(net[-1].weight)
        nn.init.zeros_(net[-1].bias)
    optimizer = torch.optim.AdamW(net.parameters(), lr=1e-3, weight_decay=1e-3)
    x = torch.from_numpy(obs)
    h = torch.from_numpy(heuristic.astype(np.float32))
    margin = torch.atanh(h.clamp(-0.999, 0.999))
    z = torch.from_numpy(results.astype(np.float32))

    def predict(index):
        out = net(x[index])[:, 0]
        if mode == "logit":
            return torch.tanh(margin[index] + out)
        if mode == "blend":
            return 0.5 * torch.tanh(out) + 0.5 * h[index]
        return torch.tanh(out)

    train_rows, held_rows = torch.from_numpy(train), torch.from_numpy(held)
    best, best_epoch = -np.inf, 0
    best_values = np.zeros(len(held))
    for epoch in range(epochs):
        order = train_rows[torch.randperm(len(train_rows))]
        for start in range(0, len(order), 256):
            index = order[start:start + 256]
            loss = ((predict(index) - z[index]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        with torch.no_grad():
            values = torch.cat([predict(held_rows[i:i + 4096])
                                for i in range(0, len(held_rows), 4096)]).numpy()
        score = pearson(values, results[held])
        if score > best:
            best, best_epoch, best_values = score, epoch + 1, values
    return best_values.astype(np.float64), best_epoch


def run(args) -> int:
    import torch

    from meeplezoo.agents.mcts_spec import LEAF_VALUES
    from meeplezoo.envs import spec
    from meeplezoo.envs.versions import rules_name
    from meeplezoo.training.expert.games import load_positions

    game = spec(args.game).name
    if rules_name(game) not in LEAF_VALUES:
        have = ", ".join(sorted(LEAF_VALUES))
        raise ValueError(f"{game} has no compiled heuristic leaf to correct (games with one: "
                         f"{have})")
    if not 0 < args.holdout < 1:
        raise ValueError("--holdout must be between 0 and 1")
    if args.epochs < 1 or args.hidden < 1:
        raise ValueError("--epochs and --hidden must be at least 1")
    torch.set_num_threads(args.torch_threads)
    positions = load_positions(args.positions, spec(game), args.players)
    obs, heuristic, results = inputs(game, positions)
    games = np.unique(positions["game_index"])
    rng = np.random.default_rng(args.seed)
    held_games = rng.choice(games, size=max(1, int(len(games) * args.holdout)), replace=False)
    is_held = np.isin(positions["game_index"], held_games)
    train, held = np.flatnonzero(~is_held), np.flatnonzero(is_held)
    thirds = game_thirds(positions["game_index"])[held]
    say(f"{len(obs)} positions of {len(games)} games, {len(held)} held out; "
        f"{obs.shape[1]} inputs")
    rows = {"heuristic leaf": {"epoch": None,
                               **correlations(heuristic[held], results[held], thirds)}}
    for mode in MODES:
        values, epoch = fit(mode, obs, heuristic, results, train, held, args.hidden,
                            args.epochs, args.seed)
        rows[mode] = {"epoch": epoch, **correlations(values, results[held], thirds)}
        say(f"{mode}: best epoch {epoch}, middle third {rows[mode]['middle']:.3f}")
    report = {"game": game, "positions": str(args.positions), "count": len(obs),
              "games": len(games), "held_out_games": len(held_games), "hidden": args.hidden,
              "epochs": args.epochs, "seed": args.seed, "rows": rows}
    print(table(report))
    out = Path(args.out) if args.out else RESULTS_DIR / "residual_value" / f"{game}.json"
    write_report(report, out)
    say(f"wrote {out}")
    return 0


def table(report: dict) -> str:
    lines = ["| value | best epoch | " + " | ".join(THIRDS) + " | all |",
             "|---|---:|" + "---:|" * (len(THIRDS) + 1)]
    for name, row in report["rows"].items():
        cells = [f"{row[k]:.3f}" for k in (*THIRDS, "all")]
        lines.append(f"| {name} | {row['epoch'] or ''} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def add_arguments(parser) -> None:
    from meeplezoo.envs import game_argument

    parser.add_argument("game", type=game_argument)
    parser.add_argument("--positions", required=True,
                        help="positions.npz of a training.expert run of this game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=128, help="width of the MLP's two layers")
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument("--holdout", type=float, default=0.2, help="share of games held out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--torch-threads", type=int, default=1)
    parser.add_argument("--out", default=None, help="JSON report (default: "
                        "results/residual_value/GAME.json)")


def main(argv: list[str] | None = None) -> int:
    return command_main("python -m meeplezoo.benchmarks.studies.residual_value",
                        __doc__.splitlines()[0],
                        add_arguments, run, argv)


if __name__ == "__main__":
    sys.exit(main())
