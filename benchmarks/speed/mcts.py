"""Our MCTS measured against OpenSpiel's C++ MCTS, in one run.

``python -m meeplezoo.benchmarks.speed.mcts [--quick] [--games N] [--sims N]``:

(a) simulations per second on connect four, ours (``agents/mcts``, UCT c = 2, one random
    rollout per simulation, no tree reuse) against ``pyspiel.MCTSBot`` with the same
    settings, on the same positions, interleaved; and Saint Malo (no peer) with random
    rollouts and with the heuristic leaf value;
(b) memory: bytes per tree node and the size of a 100,000-node tree;
(c) strength on connect four: our MCTS at N simulations against OpenSpiel's at N, colours
    alternated, with a Wilson 95% interval on our score (win 1, draw 1/2).  The bar: not
    significantly weaker (the interval reaches 0.5).

Writes ``results/mcts.json`` (``mcts_quick.json`` with ``--quick``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from meeplezoo.agents.mcts import MCTSAgent, Tree
from meeplezoo.agents.registry import make_agent
from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, write_report
from meeplezoo.benchmarks.rating.ratings import wilson
from meeplezoo.benchmarks.speed.connect_four.env import raw_env as connect_four_env
from meeplezoo.benchmarks.speed.peers import openspiel_mcts_sims_per_second, openspiel_positions


def connect_four_at(moves) -> object:
    env = connect_four_env()
    env.reset(seed=0)
    for column in moves:
        env.step(int(column))
    return env


def ours_sims_per_second(envs, sims: int, seconds: float) -> float:
    agent = MCTSAgent(simulations=sims, c=2.0, reuse=False, seed=0)
    agent.act(envs[0])                                  # compile
    done, spent = 0, 0.0
    while spent < seconds:
        for env in envs:
            agent.reset()
            start = time.perf_counter()
            agent.act(env)
            spent += time.perf_counter() - start
            done += agent.last_simulations
    return done / spent


def speed(sims: int, rounds: int, seconds: float) -> dict:
    positions = [list(s.history()) for s in openspiel_positions(4, seed=0)]
    envs = [connect_four_at(moves) for moves in positions]
    ours, theirs = [], []
    for round_ in range(rounds):
        ours.append(ours_sims_per_second(envs, sims, seconds))
        theirs.append(openspiel_mcts_sims_per_second(sims, 1, seconds, 4, seed=round_)
                      ["sims_per_s"])
        say(f"  (a) round {round_ + 1}/{rounds}: ours {ours[-1]:,.0f} sims/s, "
            f"OpenSpiel {theirs[-1]:,.0f} sims/s")
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    return {"sims_per_search": sims, "positions": positions,
            "ours_sims_per_s": statistics.median(ours),
            "openspiel_sims_per_s": statistics.median(theirs),
            "ratio_median_of_rounds": statistics.median(ratios), "per_round": ratios,
            "bar": {"ratio_at_least": 1.0, "met": statistics.median(ratios) >= 1.0}}


def saint_malo_speed(sims: int, seconds: float) -> dict:
    from meeplezoo.envs import make

    out = {}
    # The registry's mcts:N carries Saint Malo's defaults (heuristic leaf values, c = 0.5);
    # leaf=rollout,c=2 is plain UCT with a random rollout to the end of the game.
    for spec in (f"mcts:{sims},leaf=rollout,c=2", f"mcts:{sims}"):
        env = make("saint_malo_v0", num_players=2)
        env.reset(seed=0)
        agent = make_agent(spec + ",reuse=0", "saint_malo_v0", seed=0)
        agent.act(env)                                   # compile
        done, spent, steps = 0, 0.0, 0
        while spent < seconds and not env.game_over:
            agent.reset()
            start = time.perf_counter()
            action = agent.act(env)
            spent += time.perf_counter() - start
            done += agent.last_simulations
            env.step(action)
            steps += 1
        out[spec] = {"sims_per_s": done / spent, "decisions": steps}
        say(f"  (a) saint_malo {spec}: {done / spent:,.0f} sims/s")
    return out


def memory() -> dict:
    tree = Tree(100_000)
    return {"bytes_per_node": tree.nbytes / tree.max_nodes / 2,
            "tree_100k_nodes_mib": tree.nbytes / 2**20,
            "note": "nbytes counts the spare copy used for subtree reuse"}


def play_vs_openspiel(games: int, sims: int, seed: int = 0) -> dict:
    from meeplezoo.envs.core.extras import require

    pyspiel = require("pyspiel", "openspiel", "the match against OpenSpiel's MCTS")

    game = pyspiel.load_game("connect_four")
    points, results = 0.0, []
    start = time.perf_counter()
    for index in range(games):
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, seed + index), 2.0,
                              sims, 1000, False, seed + index, False)
        ours = MCTSAgent(simulations=sims, c=2.0, seed=seed + index)
        our_seat = index % 2
        state, env = game.new_initial_state(), connect_four_env()
        env.reset(seed=index)
        while not state.is_terminal():
            if state.current_player() == our_seat:
                action = ours.act(env)
            else:
                action = bot.step(state)
            state.apply_action(action)
            env.step(int(action))
        score = (state.returns()[our_seat] + 1) / 2
        points += score
        results.append(score)
        if (index + 1) % max(1, games // 20) == 0:
            say(f"  (c) {index + 1}/{games} games, our score {points / (index + 1):.3f}, "
                f"{time.perf_counter() - start:.0f} s")
    low, high = wilson(points, games)
    return {"games": games, "sims": sims, "our_score": points / games,
            "wilson95": [low, high], "wins": results.count(1.0),
            "draws": results.count(0.5), "losses": results.count(0.0),
            "bar": {"not_significantly_weaker": high >= 0.5, "met": high >= 0.5}}


def run(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.mcts")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    games = args.games if args.games is not None else (10 if args.quick else 400)
    rounds, seconds = (1, 0.5) if args.quick else (5, 2.0)
    say("(a) MCTS simulations per second")
    report = {
        "benchmark": "mcts", "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "python -m meeplezoo.benchmarks.speed.mcts" + (" --quick" if args.quick
                                                                  else ""),
        "machine": machine_info(),
        "connect_four_speed": speed(args.sims, rounds, seconds),
        "saint_malo_speed": saint_malo_speed(200 if args.quick else 2000, seconds),
        "memory": memory(),
    }
    say(f"(c) strength: {games} games, {args.sims} simulations each side")
    report["connect_four_strength"] = play_vs_openspiel(games, args.sims)
    out = args.out or RESULTS_DIR / ("mcts_quick.json" if args.quick else "mcts.json")
    write_report(report, out)
    say(f"wrote {out}")
    return report


def main(argv: list[str] | None = None) -> int:
    report = run(argv)
    speed_, strength = report["connect_four_speed"], report["connect_four_strength"]
    print(f"connect four sims/s: ours {speed_['ours_sims_per_s']:,.0f}, OpenSpiel "
          f"{speed_['openspiel_sims_per_s']:,.0f}, ratio {speed_['ratio_median_of_rounds']:.2f}x")
    for spec, row in report["saint_malo_speed"].items():
        print(f"saint malo {spec}: {row['sims_per_s']:,.0f} sims/s")
    print(f"memory: {report['memory']['bytes_per_node']:.0f} bytes/node, 100k-node tree "
          f"{report['memory']['tree_100k_nodes_mib']:.0f} MiB")
    low, high = strength["wilson95"]
    print(f"vs OpenSpiel MCTS-{strength['sims']}: score {strength['our_score']:.3f} "
          f"[{low:.3f}, {high:.3f}] over {strength['games']} games "
          f"(W{strength['wins']} D{strength['draws']} L{strength['losses']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
