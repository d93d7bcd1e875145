"""MeepleZoo-Gen: does a bot generalise to unseen boards, or did it memorise its board?

    python -m meeplezoo.benchmarks.studies.generalisation hansa --agent az:default
    python -m meeplezoo.benchmarks.studies.generalisation hansa \\
        --checkpoint runs/gen/checkpoint.pt \\
        --opponents mcts:1000 greedy --deals 200 --workers 2
    python -m meeplezoo.benchmarks.studies.generalisation hansa \\
        --checkpoints runs/gen/checkpoints \\
        --curve-deals 20 --curve-opponent greedy          # train and test along a run
    python -m meeplezoo.benchmarks.studies.generalisation serenissima --agent A --sets test train \\
        --deals 200 --set-deals train=100                 # a set with deals of its own

The protocol (Hansa's boards and Serenissima's maps are data with a seeded generator,
``envs/core/boards.py``): the bot plays each opponent on three sets of boards, with the
same deals (game seeds ``seed .. seed + deals - 1``) and both seatings in every set:

* ``train``: ``deals`` boards spread evenly over the training split (seeds 0-9,999);
* ``test``: the held-out split's boards (seeds 1,000,000-1,000,199), deal ``i`` on board
  ``1,000,000 + i``; 200 deals play each held-out board once per seating;
* ``printed``: the game's default board.

It prints one row per set and opponent (score: a win 1, a tie 1/2; Wilson 95% interval)
and the gap, train minus test, which is the figure a paper quotes as "MeepleZoo-Gen,
<game>, 200 held-out boards".  Every game is appended to
``OUT/<game>_<label>.jsonl`` as it ends (a rerun skips the games already there), the
summary to ``OUT/<game>_<label>_summary.json``.  ``--checkpoints DIR`` rates every
``iter_<N>.pt`` of a run (``meeplezoo train ... --keep-checkpoints``) on the train and test
sets and plots both scores along the run, as Procgen's figures do.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

from meeplezoo.benchmarks.arena.arena import (
    MAX_DEALS,
    check_run_options,
    game_key,
    load_records,
    play_jobs,
    resolve_game,
)
from meeplezoo.benchmarks.arena.fingerprints import fingerprints, with_fingerprints
from meeplezoo.benchmarks.common import RESULTS_DIR, command_main
from meeplezoo.benchmarks.rating.ratings import points_over, wilson

SETS = ("train", "test", "printed")
DEFAULT_OUT = RESULTS_DIR / "generalisation"


def seed_range(text: str, flag: str):
    """A split name or ``generated:<a>-<b>``; a board file (or one board) is refused: a
    split is a set of generated boards."""
    from meeplezoo.envs.core.boards import BoardRangeError, parse_range, split

    if text in ("train", "test"):
        return split(text)
    seeds = parse_range(text)
    if seeds is None:
        raise BoardRangeError(f"{flag} {text!r}: a split is 'train', 'test' or a range of "
                              f"generated boards 'generated:<a>-<b>', not a board file or "
                              f"one board")
    return seeds


def board_seeds(seeds, deals: int, spread: bool) -> list[int]:
    """The boards of ``deals`` deals: spread evenly over the range, or its first ``deals``
    (the held-out split: each board once)."""
    if deals > seeds.size and not spread:
        raise ValueError(f"{deals} deals need {deals} boards; {seeds} has {seeds.size}")
    return [seeds.seed_at(i * seeds.size // deals if spread else i) for i in range(deals)]


def schedule(game: str, agent: str, opponents: Sequence[str], deals: int | Mapping[str, int],
             seed: int, train, test, sets: Sequence[str] = SETS) -> list[dict]:
    """Every game of the protocol, deal-major within each set; ``deals`` for every set or
    by set (``{"test": 200, "train": 100}``)."""
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.boards import board_option_of

    option = board_option_of(spec(game))
    boards = {"train": board_seeds(train, deals_of(deals, "train"), spread=True),
              "test": board_seeds(test, deals_of(deals, "test"), spread=False)}
    jobs = []
    for name in sets:
        for deal in range(deals_of(deals, name)):
            env_options = {} if name == "printed" else \
                {option: f"generated:{boards[name][deal]}"}
            for opponent in opponents:
                for seats in ([agent, opponent], [opponent, agent]):
                    jobs.append({"game": game, "num_players": 2, "table": [agent, opponent],
                                 "seats": seats, "seed": seed + deal, "set": name,
                                 "env_options": env_options})
    return jobs


def deals_of(deals: int | Mapping[str, int], name: str) -> int:
    """The deals of set ``name``: one count for every set, or a count by set."""
    return deals if isinstance(deals, int) else deals[name]


def set_deals(deals: int, per_set: Sequence[str]) -> int | dict[str, int]:
    """``--deals`` with ``--set-deals train=100 printed=50`` over it, each checked."""
    if not per_set:
        return deals
    chosen = dict.fromkeys(SETS, deals)
    for item in per_set:
        name, _, count = item.partition("=")
        if name not in SETS or not (count.isascii() and count.isdigit()) or int(count) < 1:
            raise ValueError(f"--set-deals {item!r}: write SET=N with SET one of "
                             f"{', '.join(SETS)} and N a positive number of deals")
        chosen[name] = int(count)
    return chosen


def summarise(records: Sequence[dict], agent: str, opponents: Sequence[str]) -> dict:
    """Score, Wilson interval and games per set and opponent, and the gaps."""
    rows = []
    for opponent in opponents:
        for name in SETS:
            mine = [r for r in records if r.get("set") == name and agent in r["seats"]
                    and opponent in r["seats"]]
            if not mine:
                continue
            points = sum(points_over(r, agent, opponent) for r in mine)
            low, high = wilson(points, len(mine))
            rows.append({"set": name, "opponent": opponent, "games": len(mine),
                         "score": points / len(mine), "wilson_low": low, "wilson_high": high,
                         "cut": sum(bool(r.get("truncated")) for r in mine)})
    gaps = {}
    for opponent in opponents:
        score = {r["set"]: r["score"] for r in rows if r["opponent"] == opponent}
        if "train" in score and "test" in score:
            gaps[opponent] = {"train_minus_test": score["train"] - score["test"]}
            if "printed" in score:
                gaps[opponent]["printed_minus_test"] = score["printed"] - score["test"]
    return {"agent": agent, "rows": rows, "gaps": gaps}


def format_table(summary: dict) -> str:
    lines = [f"{summary['agent']}",
             f"{'set':<8} {'opponent':<14} {'games':>5} {'score':>6}  {'Wilson 95%':<15} "
             f"{'cut':>3}"]
    for r in summary["rows"]:
        lines.append(f"{r['set']:<8} {r['opponent']:<14} {r['games']:>5} {r['score']:>6.3f}  "
                     f"[{r['wilson_low']:.3f}, {r['wilson_high']:.3f}] {r['cut']:>4}")
    for opponent, gap in summary["gaps"].items():
        extra = f", printed - test {gap['printed_minus_test']:+.3f}" \
            if "printed_minus_test" in gap else ""
        lines.append(f"gap vs {opponent}: train - test {gap['train_minus_test']:+.3f}{extra}")
    return "\n".join(lines)


def label_of(agent: str) -> str:
    """A file-name-safe label for an agent spec; one longer than 80 characters is cut and
    ends in a digest of the whole spec, so two specs that differ only past the cut (a
    fitted-value file, then ``depth=12`` or ``depth=20``) keep files of their own."""
    label = re.sub(r"[^A-Za-z0-9_.=-]+", "_", agent).strip("_")
    if len(label) <= 80:
        return label
    return f"{label[:71]}_{hashlib.sha256(agent.encode()).hexdigest()[:8]}"


def run(game: str, agent: str, opponents: Sequence[str], deals: int | Mapping[str, int],
        seed: int, out: Path,
        train, test, sets: Sequence[str] = SETS, workers: int | None = None,
        progress: bool = True) -> dict:
    """Play the games not yet in the results file; the summary of all of them."""
    path = Path(out) / f"{game}_{label_of(agent)}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    prints = fingerprints([agent, *opponents], game)
    jobs = [with_fingerprints(job, prints)
            for job in schedule(game, agent, opponents, deals, seed, train, test, sets)]
    done = {_key(r) for r in load_records(path)}
    todo = [job for job in jobs if _key(job) not in done]
    if todo:
        play_jobs(todo, path, workers, progress=progress)
    wanted = {_key(job) for job in jobs}
    records = [r for r in load_records(path) if _key(r) in wanted]
    summary = summarise(records, agent, opponents)
    summary.update({"game": game, "deals": deals, "seed": seed, "train": str(train),
                    "test": str(test)})
    return summary


def _key(record: dict) -> tuple:
    """The arena's game key (its board included) and the set the game counts for."""
    return record["set"], *game_key(record)


def checkpoints_in(folder: Path) -> list[tuple[int, Path]]:
    """A run's kept checkpoints (``iter_<N>.pt``), by iteration."""
    found = sorted((int(m.group(1)), p) for p in Path(folder).glob("iter_*.pt")
                   if (m := re.fullmatch(r"iter_(\d+)\.pt", p.name)))
    if not found:
        raise FileNotFoundError(f"no iter_<N>.pt checkpoints in {folder} (train with "
                                f"--keep-checkpoints)")
    return found


def curve(game: str, folder: Path, template: str, opponent: str, deals: int, seed: int,
          out: Path, train, test, workers: int | None, progress: bool) -> list[dict]:
    """Train and test scores of each kept checkpoint of a run against ``opponent``."""
    points = []
    for iteration, path in checkpoints_in(folder):
        agent = template.format(checkpoint=path)
        summary = run(game, agent, [opponent], deals, seed, out, train, test,
                      ("train", "test"), workers, progress)
        for row in summary["rows"]:
            points.append({"iteration": iteration, **row})
    return points


def plot_curve(points: Sequence[dict], title: str, path: Path) -> Path:
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "generalisation plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.6))
    for name, colour in (("train", "tab:blue"), ("test", "tab:orange")):
        mine = sorted((p for p in points if p["set"] == name), key=lambda p: p["iteration"])
        x = [p["iteration"] for p in mine]
        axes.plot(x, [p["score"] for p in mine], marker="o", color=colour,
                  label=f"{name} boards")
        axes.fill_between(x, [p["wilson_low"] for p in mine],
                          [p["wilson_high"] for p in mine], color=colour, alpha=0.15)
    axes.axhline(0.5, color="grey", lw=0.8, ls=":")
    axes.set(xlabel="training iteration", ylabel="score", ylim=(0, 1), title=title)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="hansa or serenissima (any game with generated boards)")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--agent", help="the bot's agent spec, e.g. az:default")
    who.add_argument("--checkpoint", help="an AZ checkpoint: plays as az:<checkpoint>")
    who.add_argument("--checkpoints", type=Path, help="a run's kept checkpoints (a curve)")
    parser.add_argument("--template", default="az:{checkpoint}",
                        help="agent spec of each --checkpoints file (default %(default)s)")
    parser.add_argument("--opponents", nargs="+", default=["mcts:1000", "greedy"])
    parser.add_argument("--deals", type=int, default=200, help="deals per set (%(default)s)")
    parser.add_argument("--set-deals", nargs="+", default=[], metavar="SET=N",
                        help="one set's deals over --deals, e.g. train=100 printed=50: a "
                             "rerun with every set writes one summary of the games played "
                             "(the training split's boards are spread by its deals: 100 "
                             "and 200 deals play other boards)")
    parser.add_argument("--sets", nargs="+", default=list(SETS), choices=SETS)
    parser.add_argument("--curve-opponent", default="greedy")
    parser.add_argument("--curve-deals", type=int, default=20)
    parser.add_argument("--train-split", default="train")
    parser.add_argument("--test-split", default="test")
    parser.add_argument("--seed", type=int, default=0, help="first deal's game seed")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run_command(args: argparse.Namespace) -> int:
    """``meeplezoo generalisation`` / ``python -m meeplezoo.benchmarks.studies.generalisation``:
    bad input raises ``ValueError`` (one line, exit status 2)."""
    try:
        print(_main(args))
    except FileNotFoundError as err:
        raise ValueError(str(err)) from None
    return 0


def main(argv: list[str] | None = None) -> int:
    return command_main("python -m meeplezoo.benchmarks.studies.generalisation",
                        __doc__.split("\n\n")[0], add_arguments, run_command, argv)


def _main(args: argparse.Namespace) -> str:
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.boards import board_option_of
    from meeplezoo.training.run.flags import check_count

    game = resolve_game(args.game)
    board_option_of(spec(game))                     # a game without generated boards
    deals = args.curve_deals if args.checkpoints else args.deals
    check_run_options(deals, args.seed, args.workers, args.out, None, None)
    if not args.checkpoints:
        deals = set_deals(deals, args.set_deals)
        for count in ([] if isinstance(deals, int) else deals.values()):
            check_count("--set-deals", count, 1, MAX_DEALS)
    train = seed_range(args.train_split, "--train-split")
    test = seed_range(args.test_split, "--test-split")
    if train.overlaps(test):
        warnings.warn(f"--train-split {train} overlaps --test-split {test}: the held-out "
                      f"score no longer measures generalisation", stacklevel=2)
    if args.checkpoints:
        make_agent(args.curve_opponent, game, seed=0)
        points = curve(game, args.checkpoints, args.template, args.curve_opponent, deals,
                       args.seed, args.out, train, test, args.workers, not args.quiet)
        stem = args.out / f"{game}_{label_of(str(args.checkpoints))}_curve"
        stem.with_suffix(".json").write_text(json.dumps(points, indent=1))
        figure = plot_curve(points, f"{game}: train vs held-out boards, against "
                            f"{args.curve_opponent}", stem.with_suffix(".png"))
        return "\n".join(f"iter {p['iteration']:>6} {p['set']:<5} {p['score']:.3f} "
                         f"[{p['wilson_low']:.3f}, {p['wilson_high']:.3f}]" for p in points) \
            + f"\ncurve: {figure}"
    agent = args.agent or f"az:{args.checkpoint}"
    for name in [agent, *args.opponents]:
        make_agent(name, game, seed=0)              # a typo fails before any game
    if agent in args.opponents:
        raise ValueError(f"{agent} is also among the opponents")
    summary = run(game, agent, args.opponents, deals, args.seed, args.out, train, test,
                  args.sets, args.workers, not args.quiet)
    path = args.out / f"{game}_{label_of(agent)}_summary.json"
    path.write_text(json.dumps(summary, indent=1))
    return format_table(summary) + f"\nsummary: {path}"


if __name__ == "__main__":
    raise SystemExit(main())
