"""Train and ship the bots that ``az:default`` (and ``ppo:default``) load.

    python -m meeplezoo.training.shipping.ship [GAME...] [--minutes 15] [--run-dir runs] \\
        [--algo ppo]

For each game (default: every registered env) this runs the ``meeplezoo train GAME --algo az``
command it prints (the same every time, so a shipped bot's training is reproducible from
BENCHMARKS.md), evaluated against random and greedy about six times along the way, plots
the learning curve, and then writes the checkpoint trimmed for play
(:func:`~meeplezoo.training.run.checkpoint.export_for_play`, weights stored as float16) to
``agents/az/bots/<game>.pt``, refusing one over 5 MB.  ``--algo ppo`` trains a PPO
policy for the same minutes instead (evaluated against greedy) and ships it to
``agents/ppo/bots/<game>.pt``, so the two methods are compared at the same budget.
"""

from __future__ import annotations

import argparse
import importlib
import shlex
from pathlib import Path

from meeplezoo.agents.az.agent import BOTS_DIR
from meeplezoo.agents.ppo.agent import PPO_BOTS_DIR
from meeplezoo.agents.shipped import ALL_SEATS, DISTILLED, VARIANTS, bot_stem
from meeplezoo.envs import game_argument, names, spec
from meeplezoo.envs.versions import rules_name
from meeplezoo.training.run.checkpoint import export_for_play, load_checkpoint
from meeplezoo.training.run.seats import trained_counts

MAX_BYTES = 5 * 1024 * 1024

# The tables below are keyed by the rules' name (``rules_name``): ``carcassonne_v1`` plays
# v0's game with 45 more observation floats, so v0's measured rates serve it.

# Iterations per minute on the 2-core machine of BENCHMARKS.md, to spread about six
# evaluations over a run; a slower machine just evaluates less often per minute.
ITERATIONS_PER_MINUTE = {"carcassonne_v0": 10, "hansa_teutonica_v0": 45, "hansa_v0": 60,
                         "saint_malo_v0": 40, "serenissima_v0": 40}
# 4 gradient steps of 256 per iteration of 2,048 moves (512 positions): each position is
# drawn about twice.  The first Hansa and Saint Malo bots took 16 (eight draws each) and
# their value heads memorised games: |v| averaged 0.9 on the buffer, 0.99 at move one.
UPDATES_PER_ITERATION = 4
# Hansa Teutonica between untrained players runs to its 3,000-decision cap (the first bot's
# 256 opening games never ended): self-play games are cut at four times a heuristic
# player's median length (151 decisions, results/game_lengths_*.json).
MAX_DECISIONS = {"hansa_teutonica_v0": 600}
# PPO updates (of 256 games x 64 decisions) per minute on one torch thread, likewise
# (measured in the shipped runs; those ran with the first guesses, their commands in
# results/ppo_ship/<game>_command.txt).
PPO_UPDATES_PER_MINUTE = {"carcassonne_v0": 6, "hansa_teutonica_v0": 12, "hansa_v0": 40,
                          "saint_malo_v0": 15, "serenissima_v0": 14}
# Carcassonne's observations are 6,728 floats (v1: 6,773): a smaller buffer keeps it
# under 2 GB.
BUFFER_SIZE = {"carcassonne_v0": 100_000}


def _run_flags(rate: float, game: str, minutes: float, torch_threads: int, players: int,
               evaluations: int, resume: bool) -> tuple[str, list[str]]:
    """``--eval-every`` for about ``evaluations`` evaluations at ``rate`` updates (or
    iterations) a minute, and the flags both methods' ship commands share."""
    every = max(1, round(rate * minutes / evaluations)) if evaluations else 0
    extra = ["--resume"] if resume else []
    if not evaluations:             # --eval-every 0 alone is the trainers' default schedule
        extra += ["--evaluations", "0"]
    cap = MAX_DECISIONS.get(rules_name(game))
    extra += ["--max-decisions", str(cap)] if cap else []
    if torch_threads:
        extra += ["--torch-threads", str(torch_threads)]
    if players != 2:
        extra += ["--players", str(players)]
    return str(every), extra


def ship_arguments(game: str, minutes: float, run_dir: str, torch_threads: int = 0,
                   players: int = 2, evaluations: int = 6, resume: bool = False) -> list[str]:
    """The ``meeplezoo train`` arguments that train ``game``'s shipped bot, evaluated
    about ``evaluations`` times along the way (0: never; a weak Hansa Teutonica bot's
    evaluation games against random run to the 3,000-decision cap and take minutes)."""
    every, extra = _run_flags(ITERATIONS_PER_MINUTE[rules_name(game)], game, minutes,
                              torch_threads, players, evaluations, resume)
    return [game, "--algo", "az", "--minutes", f"{minutes:g}", "--iterations", "1000000",
            "--num-games", "256", "--simulations", "32", "--fast-simulations", "8",
            "--updates-per-iteration", str(UPDATES_PER_ITERATION),
            "--buffer-size", str(BUFFER_SIZE.get(rules_name(game), 200_000)),
            "--checkpoint-every", "100", "--eval-every", every, "--eval-games", "20",
            "--run-dir", run_dir, "--run-name", f"ship_{bot_stem(game, players)}", *extra]


def ppo_ship_arguments(game: str, minutes: float, run_dir: str, torch_threads: int = 0,
                       players: int = 2, evaluations: int = 6,
                       resume: bool = False) -> list[str]:
    """The ``meeplezoo train --algo ppo`` arguments of ``game``'s shipped PPO policy: the
    PPO defaults for ``minutes``, evaluated against greedy about ``evaluations`` times."""
    every, extra = _run_flags(PPO_UPDATES_PER_MINUTE[rules_name(game)], game, minutes,
                              torch_threads, players, evaluations, resume)
    return [game, "--algo", "ppo", "--minutes", f"{minutes:g}", "--total-steps",
            "1000000000", "--eval-every", every, "--eval-games", "20",
            "--eval-opponents", "greedy", "--run-dir", run_dir,
            "--run-name", f"ppo_ship_{bot_stem(game, players)}", *extra]


def ship(game: str, minutes: float, run_dir: str, bots_dir: Path | None = None,
         torch_threads: int = 0, players: int = 2, evaluations: int = 6,
         resume: bool = False, algo: str = "az") -> Path:
    from meeplezoo.play.cli import ALGORITHMS
    from meeplezoo.training.run.evaluate import plot_learning_curve

    make_arguments = ship_arguments if algo == "az" else ppo_ship_arguments
    arguments = make_arguments(game, minutes, run_dir, torch_threads, players, evaluations,
                               resume)
    print("meeplezoo train " + shlex.join(arguments), flush=True)
    at = arguments.index("--algo")
    module = importlib.import_module(ALGORITHMS[algo])
    module.train_main(arguments[:at] + arguments[at + 2:])
    folder = Path(run_dir) / arguments[arguments.index("--run-name") + 1]
    if (folder / "eval.csv").exists():
        print(f"learning curve: {plot_learning_curve(folder)}", flush=True)
    return ship_checkpoint(folder / "checkpoint.pt", game, players, bots_dir, algo)


def play_record(options: str) -> dict:
    """A checkpoint's play record from ``az:`` options (``"sims=64,c=1.5,fpu=parent-0.2"``),
    each parsed and bounded as ``az:default,...`` parses them."""
    from meeplezoo.agents.registry import az_settings

    settings = az_settings([o for o in options.split(",") if o], f"--play {options}")
    if "root" in settings:
        raise ValueError("--play: root is chosen per spec (az:default,root=gumbel), not stored")
    return settings


def ship_checkpoint(checkpoint: Path, game: str, players: int = 2,
                    bots_dir: Path | None = None, algo: str = "az",
                    play: dict | None = None, variant: str = "") -> Path:
    """Write ``checkpoint`` trimmed for play (float16) as ``game``'s shipped bot, with
    ``play`` as its play record (None: the checkpoint's own); refused over 5 MB or if it
    is another game's or player count's network."""
    payload = load_checkpoint(checkpoint)
    options = payload.get("options") or {}
    trained = options.get("players", players)
    if variant == ALL_SEATS:
        # ``az:all`` plays at any count, so it must have learnt at every one
        counts = sorted(trained_counts({**options, "players": trained}))
        every = list(range(spec(game).min_players, spec(game).max_players + 1))
        if payload["meta"].get("game") != game or counts != every:
            raise ValueError(f"{checkpoint} is a {payload['meta'].get('game')} network "
                             f"trained at {counts} players; az:all is trained at every "
                             f"count {game} allows ({every}: --seat-counts)")
        trained = players = 2                    # the file has no count in its name
    if payload["meta"].get("game") != game or trained != players:
        raise ValueError(f"{checkpoint} is a {payload['meta'].get('game')} network trained "
                         f"at {trained} players, not {game} at {players}")
    if variant == DISTILLED:
        # A PPO policy distilled into the AlphaZero-style network plays by its policy alone
        # and ships beside the PPO policies, as ``ppo:distilled``.
        if algo != "az" or (play or {}).get("simulations", 0) != 0:
            raise ValueError("a distilled policy is an az network played with sims=0")
        play = {"simulations": 0}
    bots_dir = bots_dir or (BOTS_DIR if algo == "az" and variant != DISTILLED else PPO_BOTS_DIR)
    bot = export_for_play(checkpoint, bots_dir / f"{bot_stem(game, players, variant)}.pt",
                          half=True, play=play)
    bot.chmod(0o644)                  # package data: readable by every user of the install
    size = bot.stat().st_size
    if size > MAX_BYTES:
        bot.unlink()
        raise ValueError(f"{game}'s bot is {size / 1e6:.1f} MB, over the 5 MB a shipped "
                         "bot may take: train a smaller network")
    print(f"shipped {bot} ({size / 1e6:.2f} MB)", flush=True)
    return bot


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", metavar="GAME", default=None, type=game_argument)
    parser.add_argument("--minutes", type=float, default=15.0,
                        help="training minutes per game")
    parser.add_argument("--run-dir", default="runs")
    parser.add_argument("--torch-threads", type=int, default=0,
                        help="torch threads of each run (1: two games can train side by "
                             "side on two cores); 0: torch's default")
    parser.add_argument("--players", type=int, default=2,
                        help="seats of the self-play games (a bot at N != 2 ships as "
                             "az:default<N>p)")
    parser.add_argument("--evaluations", type=int, default=6,
                        help="evaluations against random and greedy along each run (0: none)")
    parser.add_argument("--resume", action="store_true",
                        help="continue each game's run in its folder up to --minutes")
    parser.add_argument("--algo", choices=("az", "ppo"), default="az",
                        help="az: ships az:default; ppo: ships ppo:default")
    parser.add_argument("--from-checkpoint", metavar="PATH",
                        help="ship this checkpoint for the one GAME named, without training")
    parser.add_argument("--variant", choices=VARIANTS, default=None,
                        help="ship as a named variant (with --from-checkpoint): gen plays as "
                             "az:gen, the bot trained on generated boards; distilled as "
                             "ppo:distilled, a PPO policy distilled into the az network "
                             "(played by its policy alone); all as az:all, one network "
                             "trained at every seat count (--seat-counts)")
    parser.add_argument("--play", metavar="OPTIONS", default=None,
                        help="the shipped bot's play record as az: options, e.g. "
                             "sims=64,c=1.5 (with --from-checkpoint; az only)")
    args = parser.parse_args(argv)
    if args.from_checkpoint or args.play is not None or args.variant:
        if not args.from_checkpoint or len(args.games) != 1:
            parser.error("--from-checkpoint ships one checkpoint for one GAME")
        if args.play is not None and args.algo != "az":
            parser.error("--play is an az bot's play record")
        try:
            play = None if args.play is None else play_record(args.play)
            ship_checkpoint(Path(args.from_checkpoint), args.games[0],
                            args.players, algo=args.algo, play=play,
                            variant=args.variant or "")
        except ValueError as err:
            parser.error(str(err).splitlines()[0])
        return 0
    for game in args.games or names():
        if game not in names():
            raise SystemExit(f"unknown game {game!r}; available: {', '.join(names())}")
        ship(game, args.minutes, args.run_dir, torch_threads=args.torch_threads,
             players=args.players, evaluations=args.evaluations, resume=args.resume,
             algo=args.algo)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
