"""Our MCTS against OpenSpiel's MCTS on the same MeepleZoo game and simulation budget.

    python -m meeplezoo.benchmarks.speed.openspiel_mcts --game saint_malo_v0 --sims 16 --games 4

OpenSpiel runs the game through the adapter (``envs/interop/openspiel_game.py``) with its
Python ``MCTSBot`` and one random rollout per simulation (its C++ ``MCTSBot`` crashes on
Python games: it releases the GIL, then calls back into Python).  Ours is ``MCTSAgent`` with
the same settings: random rollouts to the end of the game, UCT constant ``--uct-c``,
sampled chance.  Two figures, one process:

* speed: simulations per second of each on the same positions (a ratio, ours / theirs);
* strength: head-to-head games, seats alternated, the same deal for both seatings; our
  score with a Wilson 95% interval.

Writes ``results/openspiel_mcts_<game>.json``.
"""

from __future__ import annotations

import argparse
import json
import time
from datetime import datetime, timezone

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say
from meeplezoo.benchmarks.rating.ratings import wilson


def _positions(game: str, count: int, seed: int) -> list:
    """Envs a little into random games (at a decision point), as search roots."""
    from meeplezoo.envs import make

    envs, rng = [], np.random.default_rng(seed)
    for index in range(count):
        env = make(game, num_players=2)
        env.reset(seed=seed + index)
        for _ in range(int(rng.integers(5, 60))):
            if env._game_over:
                break
            env.step(int(rng.choice(env.legal_actions())))
        if not env._game_over:
            envs.append(env)
    return envs


def _our_agent(sims: int, uct_c: float, seed: int):
    from meeplezoo.agents.mcts import MCTSAgent

    return MCTSAgent(simulations=sims, c=uct_c, rollout="random", reuse=False, seed=seed)


def _their_bot(pyspiel_game, sims: int, uct_c: float, seed: int):
    from open_spiel.python.algorithms import mcts

    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return mcts.MCTSBot(pyspiel_game, uct_c, sims, evaluator,
                        random_state=np.random.RandomState(seed))


def measure_speed(game: str, sims: int, uct_c: float, positions: int, seed: int) -> dict:
    from meeplezoo.envs.interop.openspiel_game import load_game

    pyspiel_game = load_game(game, players=2)
    ours, theirs = _our_agent(sims, uct_c, seed), _their_bot(pyspiel_game, sims, uct_c, seed)
    roots = _positions(game, positions, seed)
    ours.act(roots[0].clone())                                # compile outside the clock
    our_time = their_time = 0.0
    for env in roots:
        started = time.perf_counter()
        ours.act(env)
        our_time += time.perf_counter() - started
        started = time.perf_counter()
        theirs.step(pyspiel_game.state_from_array(env.state))
        their_time += time.perf_counter() - started
    searches = len(roots)
    result = {"ours_sims_per_s": searches * sims / our_time,
              "openspiel_sims_per_s": searches * sims / their_time}
    result["ratio"] = result["ours_sims_per_s"] / result["openspiel_sims_per_s"]
    say(f"  speed: ours {result['ours_sims_per_s']:,.0f} sims/s, OpenSpiel "
        f"{result['openspiel_sims_per_s']:,.1f} sims/s ({result['ratio']:.0f}x)")
    return result


def play_match(game: str, sims: int, uct_c: float, deals: int, seed: int) -> dict:
    from meeplezoo.envs import make
    from meeplezoo.envs.interop.openspiel_game import load_game

    pyspiel_game = load_game(game, players=2)
    points, games = 0.0, 0
    for deal in range(deals):
        for our_seat in (0, 1):
            env = make(game, num_players=2)
            env.reset(seed=seed + deal)                       # the same dice both seatings
            ours = _our_agent(sims, uct_c, seed + 7 * deal + our_seat)
            theirs = _their_bot(pyspiel_game, sims, uct_c, seed + 7 * deal + our_seat)
            while not env._game_over:
                if env.agent_name_mapping[env.agent_selection] == our_seat:
                    action = ours.act(env)
                else:
                    action = theirs.step(pyspiel_game.state_from_array(env.state))
                env.step(int(action))
            reward = env.rewards[env.possible_agents[our_seat]]
            points += (reward + 1.0) / 2.0
            games += 1
            say(f"  game {games}/{2 * deals}: ours in seat {our_seat}, reward {reward:+.0f}")
    low, high = wilson(points, games)
    return {"games": games, "our_score": points / games, "wilson_low": low, "wilson_high": high}


def main(argv: list[str] | None = None) -> dict:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="saint_malo_v0", type=game_argument)
    parser.add_argument("--sims", type=int, default=16)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--games", type=int, default=4, help="deals; each played both ways")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    say(f"{args.game}: our MCTS vs OpenSpiel MCTS, {args.sims} simulations, random rollouts")
    result = {"game": args.game, "simulations": args.sims, "uct_c": args.uct_c,
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info(),
              "speed": measure_speed(args.game, args.sims, args.uct_c, args.positions,
                                     args.seed)}
    if args.games:
        result["match"] = play_match(args.game, args.sims, args.uct_c, args.games, args.seed)
        match = result["match"]
        say(f"  strength: our score {match['our_score']:.3f} "
            f"[{match['wilson_low']:.3f}, {match['wilson_high']:.3f}] over {match['games']}")
    out = args.out or RESULTS_DIR / f"openspiel_mcts_{args.game}.json"
    with open(out, "w") as handle:
        json.dump(result, handle, indent=2)
    print(json.dumps({k: result[k] for k in ("speed", "match") if k in result}, indent=2))
    return result


if __name__ == "__main__":
    main()
