"""The ``meeplezoo`` command line: ``demo``, ``games``, ``bots``, ``play``, ``serve``, ``replay``,
``arena``, ``match``, ``rate``, ``generalisation``, ``train``, ``warmup``, ``bench``.

``meeplezoo demo`` trains a Hansa bot by search and self-play for a few minutes, shows its
learning curve and measures it against greedy (``--bots``: bots play a few games instead);
``meeplezoo arena saint_malo --agents random greedy mcts:200 --games 50`` rates agents;
``meeplezoo play saint_malo --seats human mcts:2000`` plays against bots in the terminal
and ``meeplezoo replay game.json`` watches a recorded game; ``meeplezoo serve`` does both
in a browser.
"""

from __future__ import annotations

import argparse
import sys
import time

from meeplezoo.agents.registry import agent_names, make_agent
from meeplezoo.envs import __version__, names
from meeplezoo.play.demo import DEMO_MINUTES
from meeplezoo.play.table import play_game, results_table

# The docstring's whole first paragraph, on one line: every verb.
DESCRIPTION = " ".join(__doc__.split("\n\n")[0].split()).replace("``", "")


def demo(args) -> int:
    if not args.bots:
        try:
            import torch  # noqa: F401
        except ImportError:
            print("torch is not installed (the [train] extra): showing bot games instead")
        else:
            from meeplezoo.play.demo import train_and_rate

            return train_and_rate(minutes=args.minutes, deals=args.deals, out=args.out,
                                  seed=max(args.seed, 1))
    if args.game not in names():
        raise ValueError(f"unknown game {args.game!r}; available: {', '.join(names())}")
    seats = args.agents
    print(f"{args.game}: {args.games} games, seats {' vs '.join(seats)} (rotated each game)")
    records, env = [], None
    started = time.perf_counter()
    for game in range(args.games):
        shift = game % len(seats)
        order = seats[shift:] + seats[:shift]
        agents = [make_agent(name, args.game, seed=args.seed + game) for name in order]
        record, env = play_game(args.game, agents, seed=args.seed + game)
        records.append(record)
        print(f"  game {game + 1}/{args.games}: " + ", ".join(
            f"{n}={s}" for n, s in zip(record.seats, record.scores, strict=True))
            + f"  ({record.decisions} decisions)", flush=True)
    print(f"\n{results_table(records)}\n({time.perf_counter() - started:.1f} s)\n")
    print("Final position of the last game:")
    print(env.unwrapped.spec.render_ansi(env.state))
    return 0


def games(args) -> int:
    from meeplezoo.play.games import listing

    print(listing())
    return 0


def bots(args) -> int:
    from meeplezoo.agents.catalogue import listing
    from meeplezoo.envs import resolve_game

    print(listing(resolve_game(args.game) if args.game else None))
    return 0


# ``expert``: positions from the tuned search and a network pretrained on them, written as
# an ``az`` run that ``--algo az --resume`` continues (expert iteration's warm start).
ALGORITHMS = {"ppo": "meeplezoo.training.ppo.loop", "az": "meeplezoo.training.az.loop",
              "expert": "meeplezoo.training.expert.loop"}


def split_algorithm(rest: list[str]) -> tuple[str, list[str]]:
    """``--algo NAME`` (or ``--algo=NAME``) taken out of ``train``'s arguments; ppo if
    absent."""
    rest, algorithm = list(rest), "ppo"
    for index, argument in enumerate(rest):
        if argument == "--algo" or argument.startswith("--algo="):
            value = argument.partition("=")[2] if "=" in argument else (
                rest[index + 1] if index + 1 < len(rest) else "")
            del rest[index:index + (1 if "=" in argument else 2)]
            algorithm = value
            break
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown --algo {algorithm!r}; choose from {', '.join(ALGORITHMS)}")
    return algorithm, rest


def train(args) -> int:
    import importlib

    algorithm, rest = split_algorithm(args.rest)
    try:
        module = importlib.import_module(ALGORITHMS[algorithm])  # torch, tyro load here
    except ImportError as err:
        raise ValueError(f"training needs the [train] extra ({err.name} is missing)") from None
    return module.train_main(rest) or 0


def bench(args) -> int:
    from meeplezoo.benchmarks.speed import saint_malo as speed

    return speed.main(["--quick"] if args.quick else [])


class OneLineParser(argparse.ArgumentParser):
    """argparse, with a bad flag answered in one line (the message and where help is) and
    exit status 2, like every other bad input, instead of the usage block first."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(prog="meeplezoo", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"meeplezoo {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("demo", help="train a Hansa bot by search and self-play for a "
                            "few minutes, show its learning curve and measure it against "
                            "greedy (--bots: bots play a few games instead)")
    p.add_argument("--bots", action="store_true", help="only play bot games (no training)")
    p.add_argument("--minutes", type=float, default=DEMO_MINUTES,
                   help="training time (the compile and the evaluations not counted)")
    p.add_argument("--deals", type=int, default=20,
                   help="deals of the final match against greedy, each in both seat orders")
    p.add_argument("--out", default="demo_runs")
    p.add_argument("--game", default="saint_malo_v0")
    p.add_argument("--agents", nargs="+", default=["greedy", "random"],
                   help=f"one agent per seat, from: {', '.join(agent_names())}")
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(handler=demo)
    p = commands.add_parser("games", help="the games: player counts, status and shipped bots")
    p.set_defaults(handler=games)
    p = commands.add_parser("bots", help="the shipped bots of a game (or of every game) by "
                            "player count: what each is, its score against mcts:1000 and the "
                            "command that measured it; 'best' is the strongest")
    p.add_argument("game", nargs="?", default=None)
    p.set_defaults(handler=bots)
    from meeplezoo.play import replay, terminal  # light: no torch until a ppo seat asks

    p = commands.add_parser("play", help="play against bots in the terminal")
    terminal.add_arguments(p)
    p.set_defaults(handler=terminal.play_command)
    from meeplezoo.play.web import server as web_server  # light: starlette only when serving

    p = commands.add_parser("serve", help="play and watch the games in a browser "
                            "(the [web] extra)")
    web_server.add_arguments(p)
    p.set_defaults(handler=web_server.serve_command)
    p = commands.add_parser("replay", help="step through a recorded game, or film it")
    replay.add_arguments(p)
    p.set_defaults(handler=replay.replay_command)
    from meeplezoo.benchmarks.arena import arena as arena_command

    p = commands.add_parser("arena", help="round-robin matches and strength ratings")
    arena_command.add_arguments(p)
    p.set_defaults(handler=arena_command.run)
    from meeplezoo.benchmarks.rating import match as match_command

    p = commands.add_parser("match", help="two agents on paired deals; --sprt stops as "
                            "soon as one is shown stronger (or not)")
    match_command.add_arguments(p)
    p.set_defaults(handler=match_command.run)
    from meeplezoo.benchmarks.rating import rate as rate_command

    p = commands.add_parser("rate", help="an agent's rating on a game's frozen ladder")
    rate_command.add_arguments(p)
    p.set_defaults(handler=rate_command.run)
    from meeplezoo.benchmarks.studies import generalisation

    p = commands.add_parser("generalisation", help="MeepleZoo-Gen: a bot on training, "
                            "held-out and printed boards, and the gap")
    generalisation.add_arguments(p)
    p.set_defaults(handler=generalisation.run_command)
    p = commands.add_parser("train", help="self-play training: --algo ppo (default), az "
                            "(search + network) or expert (the search's positions, to start "
                            "az from); needs the [train] extra",
                            add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(handler=train)
    from meeplezoo.play import warmup

    p = commands.add_parser("warmup", help="compile every game's kernels and searches into "
                            "the on-disk cache ahead of time")
    warmup.add_arguments(p)
    p.set_defaults(handler=warmup.warmup_command)
    p = commands.add_parser("bench", help="speed benchmarks (see BENCHMARKS.md)")
    p.add_argument("--quick", action="store_true")
    p.set_defaults(handler=bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["train"]:
        # tyro parses train's options itself; argparse's REMAINDER would reject a leading
        # option (``train --game x``, ``train --help``) before tyro saw it.
        args = argparse.Namespace(handler=train, rest=argv[1:])
    else:
        args = build_parser().parse_args(argv)
    try:
        return args.handler(args)
    except (ValueError, FileNotFoundError) as err:    # bad input, e.g. a missing checkpoint
        # One line, even when a library's message (torch.load's) runs over several.
        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        print(f"meeplezoo: error: {first}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
