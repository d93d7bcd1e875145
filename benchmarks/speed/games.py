"""Speed and strength of any registered game, side by side with PettingZoo's connect four.

``python -m meeplezoo.benchmarks.speed.games <game> [--players 2 3 ...] [--rounds N]
[--strength N --simulations 1000 --jobs J] [--quick] [--out FILE]`` measures, in one process:

(a) AEC turns per second driven the way an RL user drives an env (``env.last()`` with its
    observation, a uniformly random legal action from ``obs["action_mask"]``, ``env.step``;
    ``speed.play_random_turns``) for the game at each ``--players`` count and PettingZoo's
    ``connect_four_v3`` with the very same loop, interleaved in rounds (the machine is
    shared and noisy): medians, and per player count the median of the per-round ratios.
    With ``--legal-list`` (always for ``AEC_LEGAL_LIST`` games, whose bar it is) both envs
    are also driven picking from their own legal-action list instead of scanning the mask;
(b) random full games per second played entirely inside compiled code, per player count:
    the core's generic ``batch.random_playouts`` (legal masks) for every game, plus the
    game's own compiled playout kernels where ``PLAYOUT_HOOKS`` lists one;
(c) with ``--strength N``: MCTS (``mcts:<--simulations>`` with the game's registry
    defaults) against ``greedy`` and against ``random`` through the arena
    (``arena.run_arena``: duplicate seeds, seats swapped, ``--jobs`` worker processes,
    finished games kept in ``--arena-dir`` and skipped on a rerun), N games per opponent,
    scored by ``ratings`` (head-to-head with Wilson 95% intervals, Bradley–Terry Elo).

Results go to JSON (``results/games_<game>.json`` by default, with the machine's
facts) and a table is printed.  Ratios against the peer measured in the same run are the
meaningful figures; absolute rates depend on the machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import statistics
import time
import warnings
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, timed, write_report
from meeplezoo.benchmarks.speed.saint_malo import (
    AEC_BAR_RATIO,
    finish_turn_of_ended_game,
    paired_ratio,
    play_random_turns,
)
from meeplezoo.envs.versions import rules_name

PEER = "connect_four_v3"


@dataclasses.dataclass(frozen=True)
class Settings:
    """How long to measure; ``FULL`` for published figures, ``QUICK`` for tests."""

    aec_rounds: int = 15           # alternating rounds per AEC contender
    aec_budget_s: float = 0.25     # seconds per contender per round
    repeats: int = 3               # repeats (median) per playout figure
    budget_s: float = 1.0          # seconds per playout repeat


FULL = Settings()
QUICK = Settings(aec_rounds=3, aec_budget_s=0.2, repeats=1, budget_s=0.3)


# --- game-specific hooks (keep small) ----------------------------------------------------


def _carcassonne_legal_lists(players: int, games: int, seed: int) -> int:
    """Carcassonne's own random playouts: legal lists from the kernel, no 131k mask scans."""
    from meeplezoo.envs.carcassonne import data
    from meeplezoo.envs.carcassonne.options import make_config
    from meeplezoo.envs.carcassonne.policy import random_playouts
    from meeplezoo.envs.core.rng import new_rng

    state = np.zeros(data.STATE_SIZE, dtype=np.int64)
    return int(random_playouts(games, players, make_config(), new_rng(seed), state))


def _hansa_teutonica_heuristic_checked(players: int, games: int, seed: int) -> int:
    """Hansa Teutonica's heuristic policy with per-step invariant checks (uniform random
    games mostly run into the ``max_decisions`` cap, spec HT-9.5; these end by the rules)."""
    from meeplezoo.envs.core.rng import new_rng
    from meeplezoo.envs.hansa_teutonica import data
    from meeplezoo.envs.hansa_teutonica.invariants import checked_policy_games
    from meeplezoo.envs.hansa_teutonica.options import make_config

    state = np.zeros(data.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(data.NUM_ACTIONS, dtype=np.int8)
    lengths, flags = np.zeros(games, dtype=np.int64), np.zeros(games, dtype=np.int64)
    code = checked_policy_games(games, players, make_config(), new_rng(seed), state, mask,
                                0.0, lengths, flags)
    if code:
        raise RuntimeError(f"hansa_teutonica invariant check failed (code {code})")
    return int(lengths.sum())


# Extra compiled playout kernels by game (its rules' name, ``rules_name``: they play
# states, not observations): label -> f(players, games, seed) -> decisions.
PLAYOUT_HOOKS: dict[str, dict[str, Callable[[int, int, int], int]]] = {
    "carcassonne_v0": {"random_legal_lists": _carcassonne_legal_lists},
    "hansa_teutonica_v0": {"heuristic_with_checks": _hansa_teutonica_heuristic_checked},
}

# Games whose AEC bar is taken on the legal-list loop (``play_legal_list_turns``), with the
# mask loop reported beside it.  Carcassonne's mask has 737 int8 slots (131,061 with
# placement_layout="grid"); numpy's ``flatnonzero`` over it costs ~2.4 us, about 40% of the
# whole turn that 10x connect four allows, and that is the user's loop, not the env.  The
# env lists its legal actions from compiled code instead (``env.legal_actions()``, as
# OpenSpiel's ``state.legal_actions()``); the peer runs the same loop with its own list
# (connect four's ``_legal_moves()``, which its observe() builds the mask from), so both
# sides of the ratio drive their env the same way, observation included.
AEC_LEGAL_LIST = {"carcassonne_v0"}        # by rules_name, as PLAYOUT_HOOKS
LEGAL_LIST = "_legal_list"


def playout_hooks(game: str) -> dict[str, Callable[[int, int, int], int]]:
    """``game``'s entry of ``PLAYOUT_HOOKS`` (looked up by its rules' name)."""
    return PLAYOUT_HOOKS.get(rules_name(game), {})


def legal_list_bar(game: str) -> bool:
    """Whether ``game``'s AEC bar is taken on the legal-list loop (``AEC_LEGAL_LIST``)."""
    return rules_name(game) in AEC_LEGAL_LIST


# --- (a) AEC turns per second ------------------------------------------------------------


def legal_list_of(env) -> Callable[[], list[int]]:
    """The env's own legal-action list: ours ``legal_actions``, connect four's
    ``_legal_moves`` (PettingZoo has no public one)."""
    if hasattr(env, "legal_actions"):
        return env.legal_actions
    return env.unwrapped._legal_moves


def play_legal_list_turns(env, rng: np.random.Generator, num_turns: int) -> int:
    """``play_random_turns`` picking from the env's legal list instead of the mask (the
    observation is still built every turn by ``last()``)."""
    legal_actions = legal_list_of(env)
    turns = 0
    while turns < num_turns:
        _, _, termination, truncation, _ = env.last()
        if termination or truncation:
            finish_turn_of_ended_game(env, rng)
            continue
        legal = legal_actions()
        env.step(int(legal[rng.integers(len(legal))]))
        turns += 1
    return turns


def short_name(game: str) -> str:
    return game.rsplit("_v", 1)[0]


def aec_contenders(game: str, players: list[int], legal_list: bool) -> dict[str, tuple]:
    """name -> (env factory, turn loop); ours first, the peer next to it."""
    try:
        with warnings.catch_warnings():    # PettingZoo 1.27 deprecates its own import path
            warnings.simplefilter("ignore", DeprecationWarning)
            from pettingzoo.classic import connect_four_v3
    except ImportError as error:           # connect four imports pygame
        raise SystemExit(f"connect_four_v3 does not import ({error}); pip install pygame") from None
    from meeplezoo.envs import make

    short = short_name(game)
    ours = {f"{short}_{p}p": (lambda p=p: make(game, num_players=p), play_random_turns)
            for p in players}
    names = list(ours)
    contenders = {names[0]: ours[names[0]], PEER: (connect_four_v3.env, play_random_turns)}
    contenders.update({n: ours[n] for n in names[1:]})
    if legal_list:
        contenders[names[0] + LEGAL_LIST] = (ours[names[0]][0], play_legal_list_turns)
        contenders[PEER + LEGAL_LIST] = (connect_four_v3.env, play_legal_list_turns)
        contenders.update({n + LEGAL_LIST: (ours[n][0], play_legal_list_turns)
                           for n in names[1:]})
    return contenders


def aec_benchmark(game: str, players: list[int], settings: Settings,
                  legal_list: bool = False) -> dict:
    contenders = {}
    for name, (factory, loop) in aec_contenders(game, players, legal_list).items():
        env, rng = factory(), np.random.default_rng(0)
        env.reset(seed=0)
        timed(lambda env=env, rng=rng, loop=loop: loop(env, rng, 64), 0.1)   # compile, warm
        contenders[name] = (env, rng, loop)
    names = list(contenders)
    rates: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(settings.aec_rounds):
        for name in names if round_ % 2 == 0 else names[::-1]:   # nobody always goes first
            env, rng, loop = contenders[name]
            turns, seconds = timed(lambda env=env, rng=rng, loop=loop: loop(env, rng, 256),
                                   settings.aec_budget_s)
            rates[name].append(turns / seconds)
        say(f"  (a) round {round_ + 1}/{settings.aec_rounds}: "
            + ", ".join(f"{n} {rates[n][-1]:,.0f}" for n in names))
    peer_of = {name: PEER + LEGAL_LIST if name.endswith(LEGAL_LIST) else PEER   # same loop
               for name in names if not name.startswith(PEER)}
    ratios = {f"{name} / {peer}": paired_ratio(rates[name], rates[peer])
              for name, peer in peer_of.items()}
    bar_name = names[0] + LEGAL_LIST if legal_list_bar(game) else names[0]
    headline = ratios[f"{bar_name} / {peer_of[bar_name]}"]["median_of_rounds"]
    return {"rounds": settings.aec_rounds, "budget_s_per_round": settings.aec_budget_s,
            "contenders": {n: {"turns_per_s": statistics.median(r), "per_round": r}
                           for n, r in rates.items()},
            "ratios": ratios,
            "bar": {"contender": bar_name, "peer": peer_of[bar_name],
                    "ratio_at_least": AEC_BAR_RATIO, "measured": headline,
                    "met": headline >= AEC_BAR_RATIO}}


# --- (b) full games inside compiled code -------------------------------------------------


def playout_kernels(game: str) -> dict[str, Callable[[int, int, int], int]]:
    """label -> f(players, games, seed) -> decisions: the generic path and the game's own."""
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.batch import random_playouts

    game_spec = spec(game)
    kernels = {"random_generic_masks":
               lambda players, games, seed: random_playouts(game_spec, games, players, seed)}
    kernels.update(playout_hooks(game))
    return kernels


def playout_rate(kernel: Callable[[int, int, int], int], players: int,
                 settings: Settings) -> dict:
    """Games/s and decisions/s of ``kernel``, median of ``settings.repeats`` timed runs."""
    kernel(players, 1, 0)                                     # compile, warm
    tick = time.perf_counter()
    kernel(players, 1, 1)
    one = time.perf_counter() - tick                          # a game's cost sets the chunk
    per_call = max(1, min(256, int(settings.budget_s / 10 / max(one, 1e-6))))
    samples = []
    for _ in range(settings.repeats):
        calls, decisions = [0], [0]

        def chunk(calls=calls, decisions=decisions):
            calls[0] += 1
            decisions[0] += kernel(players, per_call, calls[0])
            return per_call

        games, seconds = timed(chunk, settings.budget_s)
        samples.append((games / seconds, decisions[0] / seconds, decisions[0] / games))
    games_s, decisions_s, per_game = (statistics.median(s[i] for s in samples)
                                      for i in range(3))
    return {"games_per_s": games_s, "decisions_per_s": decisions_s,
            "decisions_per_game": per_game}


def playouts_benchmark(game: str, players: list[int], settings: Settings) -> dict:
    results: dict[str, dict] = {}
    for label, kernel in playout_kernels(game).items():
        results[label] = {}
        for p in players:
            row = playout_rate(kernel, p, settings)
            results[label][str(p)] = row
            say(f"  (b) {label} {p} players: {row['games_per_s']:,.1f} games/s, "
                f"{row['decisions_per_s']:,.0f} decisions/s")
    return results


# --- (c) strength through the arena ------------------------------------------------------


def strength_opponents(game: str) -> list[str]:
    from meeplezoo.agents.registry import HEURISTICS

    return (["greedy"] if ("greedy", rules_name(game)) in HEURISTICS else []) + ["random"]


def strength_benchmark(game: str, games: int, simulations: int, jobs: int = 1,
                       players: int = 2, arena_dir: Path | None = None, seed: int = 0,
                       resamples: int = 200, progress: bool = True) -> dict:
    """``games`` arena games of ``mcts:<simulations>`` against each opponent.

    A deal is played in every seat rotation with the same seed, so ``games`` is rounded up
    to a whole number of deals.  Ratings anchor ``random`` at 0.
    """
    from meeplezoo.benchmarks.arena.arena import game_key, run_arena, timing
    from meeplezoo.benchmarks.rating import ratings

    mcts = f"mcts:{simulations}"
    arena_dir = arena_dir or RESULTS_DIR / f"arena_{short_name(game)}"
    rotations = players                                    # cyclic seatings of a 2-agent table
    deals = max(1, math.ceil(games / rotations))
    seeds = range(seed, seed + deals)
    records: dict[tuple, dict] = {}
    for opponent in strength_opponents(game):
        _, found = run_arena(game, [mcts, opponent], players, deals, arena_dir, seed, jobs,
                             progress=progress)
        records.update((game_key(r), r) for r in found if r["seed"] in seeds)
    played = list(records.values())
    agents = ["random", *[a for a in strength_opponents(game) if a != "random"], mcts]
    summary = ratings.summarize(played, agents, "random", resamples, seed)
    results = {"agent": mcts, "num_players": players, "deals": deals,
               "arena_records": str(arena_dir), "matches": {},
               "ratings": summary["ratings"], "rating_scale": summary["scale"],
               "timing": timing(played)}
    order = strength_opponents(game)
    for row in sorted(summary["head_to_head"], key=lambda r: order.index(r["opponent"])
                      if r["opponent"] in order else len(order)):
        if row["agent"] == mcts:
            match = {"games": row["games"], "points": row["points"], "win_rate": row["score"],
                     "wilson95": [row["low"], row["high"]], "better": row["better"]}
            results["matches"][f"{mcts} vs {row['opponent']}"] = match
            say(f"  (c) {mcts} vs {row['opponent']}: {row['points']}/{row['games']} "
                f"[{row['low']:.2f}, {row['high']:.2f}]")
    return results


# --- the run -----------------------------------------------------------------------------


def format_table(report: dict) -> str:
    lines = []
    aec = report.get("aec")
    if aec:
        lines.append("(a) AEC turns/s (random legal moves, observation included; median)")
        for name, row in aec["contenders"].items():
            lines.append(f"    {name:<32} {row['turns_per_s']:>12,.0f}")
        for name, r in aec["ratios"].items():
            lines.append(f"    {name:<48} x{r['median_of_rounds']:.2f} per-round median "
                         f"({r['min']:.2f}-{r['max']:.2f}), x{r['of_medians']:.2f} of medians")
        bar = aec["bar"]
        lines.append(f"    bar >= {bar['ratio_at_least']:.0f}x ({bar['contender']} / "
                     f"{bar['peer']}): {'met' if bar['met'] else 'NOT met'}")
    if report.get("playouts"):
        lines.append("(b) full games in compiled code        games/s   decisions/s  decisions/game")
        for label, rows in report["playouts"].items():
            for players, row in rows.items():
                lines.append(f"    {label:<22} {players}p {row['games_per_s']:>12,.1f} "
                             f"{row['decisions_per_s']:>13,.0f} "
                             f"{row['decisions_per_game']:>15,.0f}")
    strength = report.get("strength")
    if strength:
        lines.append(f"(c) strength, {strength['num_players']} players (arena, Wilson 95%)")
        for name, row in strength["matches"].items():
            low, high = row["wilson95"]
            lines.append(f"    {name:<28} {row['points']:g}/{row['games']} "
                         f"({row['win_rate']:.0%}) [{low:.2f}, {high:.2f}]")
        for row in strength["ratings"]:
            lines.append(f"    {row['agent']:<28} {row['rating']:>8.0f} "
                         f"[{row['low']:.0f}, {row['high']:.0f}] {strength['rating_scale']}")
    return "\n".join(lines)


def command_line(args: argparse.Namespace) -> str:
    words = ["python", "-m", "meeplezoo.benchmarks.speed.games", args.game]
    if args.players:
        words += ["--players", *map(str, args.players)]
    if args.rounds:
        words += ["--rounds", str(args.rounds)]
    if args.strength:
        words += ["--strength", str(args.strength), "--simulations", str(args.simulations),
                  "--jobs", str(args.jobs)]
    for flag in ("quick", "skip_speed", "legal_list"):
        if getattr(args, flag):
            words.append("--" + flag.replace("_", "-"))
    return " ".join(words)


def parse(argv: list[str] | None) -> argparse.Namespace:
    from meeplezoo.envs import names

    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.games",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("game", help=f"one of {', '.join(names())} (without the _vN: the newest)")
    parser.add_argument("--players", type=int, nargs="+", default=None,
                        help="player counts for (a) and (b) (default: every count the game "
                             "allows)")
    parser.add_argument("--rounds", type=int, default=None, help="AEC rounds (a)")
    parser.add_argument("--quick", action="store_true", help="short budgets (tests)")
    parser.add_argument("--out", type=Path, default=None,
                        help="JSON output (default results/games_<game>.json)")
    parser.add_argument("--legal-list", action="store_true",
                        help="also time (a) picking from each env's legal list, ours "
                             "env.legal_actions() (always on, and the bar, for "
                             f"{', '.join(sorted(AEC_LEGAL_LIST))})")
    parser.add_argument("--skip-speed", action="store_true", help="only --strength")
    parser.add_argument("--strength", type=int, default=0, metavar="GAMES",
                        help="also play GAMES games of MCTS against greedy and against random")
    parser.add_argument("--simulations", type=int, default=1000, help="MCTS simulations (c)")
    parser.add_argument("--jobs", type=int, default=1, help="arena worker processes (c)")
    parser.add_argument("--strength-players", type=int, default=2, help="players in (c)")
    parser.add_argument("--seed", type=int, default=0, help="first arena deal's seed (c)")
    parser.add_argument("--arena-dir", type=Path, default=None,
                        help="arena records for (c), kept for resuming "
                             "(default results/arena_<game>)")
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap resamples (c)")
    return parser.parse_args(argv)


def run(argv: list[str] | None = None) -> dict:
    """Parse the command line, measure, write the JSON, print the table; returns the report."""
    from meeplezoo.envs import resolve_game, spec

    args = parse(argv)
    game = resolve_game(args.game)
    game_spec = spec(game)
    players = args.players or list(range(game_spec.min_players, game_spec.max_players + 1))
    bad = [p for p in players if not game_spec.min_players <= p <= game_spec.max_players]
    if bad:
        raise SystemExit(f"{game} takes {game_spec.min_players}-{game_spec.max_players} "
                         f"players, not {bad}")
    settings = QUICK if args.quick else FULL
    if args.rounds:
        settings = dataclasses.replace(settings, aec_rounds=args.rounds)
    out = args.out or RESULTS_DIR / f"games_{short_name(game)}.json"
    start = time.perf_counter()
    report = {"benchmark": "games", "game": game, "command": command_line(args),
              "players": players, "settings": dataclasses.asdict(settings),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "machine": machine_info()}
    if not args.skip_speed:
        say(f"(a) AEC turns/s of {game}, interleaved rounds against {PEER}")
        report["aec"] = aec_benchmark(game, players, settings,
                                      args.legal_list or legal_list_bar(game))
        say("(b) full games inside compiled code")
        report["playouts"] = playouts_benchmark(game, players, settings)
    if args.strength:
        say(f"(c) mcts:{args.simulations} against {' and '.join(strength_opponents(game))}")
        report["strength"] = strength_benchmark(
            game, args.strength, args.simulations, args.jobs, args.strength_players,
            args.arena_dir, args.seed, args.resamples, progress=not args.quick)
    report["total_s"] = time.perf_counter() - start
    report["machine"]["load_average_at_end"] = list(os.getloadavg())
    write_report(report, out)
    print(format_table(report))
    print(f"wrote {out} ({report['total_s']:.0f} s)")
    return report


def main(argv: list[str] | None = None) -> int:
    run(argv)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
