"""Self-play throughput of the network-guided search: lockstep against one leaf per
forward pass.

Both sides are ``LockstepSelfPlay`` (``training/az/selfplay.py``) with the trainer's
network for the game (freshly initialised: the cost of a forward pass does not depend on
its weights), the same Gumbel root, budgets and playout caps.  The peer searches one game
with one leaf per network call, which is what a search that evaluates leaf by leaf does;
the lockstep side searches ``--games`` games with ``--leaf-batch`` leaves each per call.
Both play a training iteration's moves per call (``moves_per_iteration`` per game).
The two alternate in rounds of ``--seconds`` each, and the figure is the median of the
per-round ratios of simulations per second.  Reported besides: simulations/s, moves/s,
training positions/s into the buffer, leaves per network call, and the share of the
lockstep side's time spent inside the network call (observation encoding, forward pass,
softmax) against the compiled search and the Python around it.

``python -m meeplezoo.benchmarks.speed.az_throughput [GAME...] [--games 256] [--rounds 3]``
writes ``results/az_throughput.json``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import torch

from meeplezoo.agents.az.evaluator import NetworkEvaluator
from meeplezoo.agents.az.network import az_network_meta, make_az_network
from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, write_report
from meeplezoo.envs import names, spec
from meeplezoo.training.az.loop import Options
from meeplezoo.training.az.selfplay import LockstepSelfPlay


def _selfplay(game: str, games: int, leaf_batch: int, options: Options, seed: int):
    return LockstepSelfPlay(spec(game), games, 2, options.simulations,
                            options.fast_simulations, options.full_fraction,
                            options.considered, options.margin_scale, seed=seed,
                            leaf_batch=leaf_batch)


def _run_for(selfplay: LockstepSelfPlay, evaluator, seconds: float) -> dict:
    """Play moves in every game until ``seconds`` have passed; the counts of that span."""
    search = selfplay.lockstep
    before = (search.leaves, search.rounds, search.network_seconds, selfplay.moves_played,
              selfplay.positions_recorded)
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:     # a training iteration's moves
        selfplay.play_moves(evaluator, Options.moves_per_iteration * len(selfplay.envs))
    elapsed = time.perf_counter() - started
    leaves = search.leaves - before[0]
    return {"seconds": elapsed, "simulations": leaves, "rounds": search.rounds - before[1],
            "network_s": search.network_seconds - before[2],
            "moves": selfplay.moves_played - before[3],
            "positions": selfplay.positions_recorded - before[4]}


def measure(game: str, games: int, leaf_batch: int, rounds: int, seconds: float) -> dict:
    options = Options(game=game)
    game_spec = spec(game)
    meta = az_network_meta(game, game_spec.obs_size, game_spec.num_actions,
                           game_spec.max_players, options.hidden, options.channels,
                           options.blocks, options.architecture)
    torch.manual_seed(0)
    evaluator = NetworkEvaluator(make_az_network(meta).eval(), game_spec)
    lockstep = _selfplay(game, games, leaf_batch, options, seed=1)
    per_leaf = _selfplay(game, 1, 1, options, seed=2)
    for side in (lockstep, per_leaf):            # compile and warm both paths
        side.play_moves(evaluator)
    spans = {"lockstep": [], "per_leaf": []}
    for round_ in range(rounds):
        for name, side in (("per_leaf", per_leaf), ("lockstep", lockstep)):
            spans[name].append(_run_for(side, evaluator, seconds))
        ratio = (spans["lockstep"][-1]["simulations"] / spans["lockstep"][-1]["seconds"]) / \
            (spans["per_leaf"][-1]["simulations"] / spans["per_leaf"][-1]["seconds"])
        say(f"{game} round {round_ + 1}/{rounds}: lockstep / per-leaf = {ratio:.1f}x")
    report = {"ratios": [(a["simulations"] / a["seconds"]) / (b["simulations"] / b["seconds"])
                         for a, b in zip(spans["lockstep"], spans["per_leaf"], strict=True)]}
    report["ratio_median"] = statistics.median(report["ratios"])
    for name, runs in spans.items():
        total = {key: sum(run[key] for run in runs) for key in runs[0]}
        report[name] = {
            "simulations_per_s": total["simulations"] / total["seconds"],
            "moves_per_s": total["moves"] / total["seconds"],
            "positions_per_s": total["positions"] / total["seconds"],
            "leaves_per_network_call": total["simulations"] / max(total["rounds"], 1),
            "network_share": total["network_s"] / total["seconds"],
            "seconds": total["seconds"]}
    report["settings"] = {"games": games, "leaf_batch": leaf_batch, "architecture":
                          meta["architecture"], "simulations": options.simulations,
                          "fast_simulations": options.fast_simulations,
                          "full_fraction": options.full_fraction,
                          "considered": options.considered, "torch_threads":
                          torch.get_num_threads()}
    return report


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_to_run", nargs="*", metavar="GAME", default=None,
                        type=game_argument)
    parser.add_argument("--games", type=int, default=256, help="games in lockstep")
    parser.add_argument("--leaf-batch", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=20.0, help="per side per round")
    parser.add_argument("--out", default=str(RESULTS_DIR / "az_throughput.json"))
    args = parser.parse_args(argv)
    report = {"machine": machine_info(), "games": {}}
    print("| game | lockstep sims/s | per-leaf sims/s | ratio (median) | positions/s | "
          "leaves per call | network share |")
    print("|---|---|---|---|---|---|---|")
    for game in args.games_to_run or names():
        row = measure(game, args.games, args.leaf_batch, args.rounds, args.seconds)
        report["games"][game] = row
        lock, leaf = row["lockstep"], row["per_leaf"]
        print(f"| {game} | {lock['simulations_per_s']:,.0f} | {leaf['simulations_per_s']:,.0f} "
              f"| {row['ratio_median']:.1f}x | {lock['positions_per_s']:,.1f} | "
              f"{lock['leaves_per_network_call']:.0f} | {lock['network_share']:.0%} |",
              flush=True)
    write_report(report, Path(args.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
