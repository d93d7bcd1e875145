"""Tune a trained bot's play-time search and store the result with the bot.

    python -m meeplezoo.training.shipping.tune_play hansa --checkpoint runs/x/checkpoint.pt \\
        --against mcts:1000 --deals 20 --grid c=0.75,1.25,2 fpu=0,parent-0.1,parent-0.3 \\
        lam=0.5,1 --write agents/az/bots/hansa_v0.pt

Coordinate search: starting from the settings the checkpoint records, each key of
``--grid`` in turn is tried at each of its values (the others held at the best so far),
every candidate playing ``--against`` on the same deals in both seatings; a value is kept
when it scores higher (ties: the one that thinks less).  ``--write`` then stores the best
settings as the checkpoint's play record (``export_for_play``, float16 weights), so
``az:default`` plays at its best settings without options.  Keys are ``az:`` options
(``agents/registry.py``): sims, c, batch, lam, pmix, rollouts, margin, fpu, backup.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meeplezoo.agents.registry import AZ_OPTIONS, az_settings

# every az: option a play record stores (root is chosen per spec, not stored)
KEYS = (*AZ_OPTIONS, "fpu", "backup")


def parse_grid(items: list[str]) -> dict[str, list[str]]:
    grid = {}
    for item in items:
        key, _, values = item.partition("=")
        if key not in KEYS or not values:
            raise ValueError(f"--grid {item!r}: write KEY=V1,V2,... with KEY one of "
                             f"{', '.join(KEYS)}")
        grid[key] = values.split(",")
    return grid


def spec_of(checkpoint: str, settings: dict[str, str]) -> str:
    return ",".join([f"az:{checkpoint}", *(f"{k}={v}" for k, v in settings.items())])


def play_settings(settings: dict[str, str]) -> dict:
    """The checkpoint's play record from ``az:`` option strings (the registry's parse)."""
    return az_settings([f"{key}={value}" for key, value in settings.items()])


def score(game: str, spec: str, against: str, deals: int, out: Path, workers: int) -> tuple:
    """(score, think-time ratio) of ``spec`` against ``against`` on the deals."""
    from meeplezoo.benchmarks.arena.versus import score_against

    result = score_against(game, spec, against, deals, out, seed=2_000, workers=workers)
    return result["score"], result["think_ratio"]


def tune(game: str, checkpoint: str, against: str, grid: dict, deals: int, out: Path,
         workers: int = 2, log=print) -> tuple[dict, list]:
    """The best settings found and every candidate's row."""
    from meeplezoo.agents.registry import make_agent

    make_agent(spec_of(checkpoint, {}), game)                 # a bad checkpoint fails now
    for key, values in grid.items():
        for value in values:
            make_agent(spec_of(checkpoint, {key: value}), game)   # so does a bad value
    best: dict[str, str] = {}
    rows, seen = [], {}
    for key, values in grid.items():
        for value in values:
            candidate = {**best, key: value}
            spec = spec_of(checkpoint, candidate)
            if spec not in seen:
                seen[spec] = score(game, spec, against, deals, out / f"c{len(seen)}", workers)
                rows.append((spec, *seen[spec]))
                log(f"  {spec}: score {seen[spec][0]:.3f}, think {seen[spec][1]:.2f}x")
        incumbent = spec_of(checkpoint, best)
        choices = [(seen[spec_of(checkpoint, {**best, key: v})], v) for v in values]
        (points, think), value = max(choices, key=lambda c: (c[0][0], -c[0][1]))
        if incumbent not in seen or (points, -think) > (seen[incumbent][0],
                                                        -seen[incumbent][1]):
            best[key] = value
    return best, rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.training.shipping.tune_play",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--checkpoint", required=True, help="an AZ checkpoint (or default)")
    parser.add_argument("--against", default="mcts:1000")
    parser.add_argument("--grid", nargs="+", required=True, metavar="KEY=V1,V2")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="tune_results")
    parser.add_argument("--write", help="store the best settings in a copy of the checkpoint")
    args = parser.parse_args(argv)
    try:
        from meeplezoo.envs import resolve_game
        from meeplezoo.training.run import flags

        flags.check_count("--deals", args.deals, 1, 10_000)
        flags.check_workers("--workers", args.workers)
        game = resolve_game(args.game)
        best, _ = tune(game, args.checkpoint, args.against, parse_grid(args.grid), args.deals,
                       Path(args.out), args.workers)
        print(f"best: {spec_of(args.checkpoint, best)}")
        if args.write:
            from meeplezoo.agents.az import shipped_checkpoint
            from meeplezoo.training.run.checkpoint import export_for_play, load_checkpoint

            source = shipped_checkpoint(game) if args.checkpoint == "default" \
                else Path(args.checkpoint)
            play = {**(load_checkpoint(source).get("play") or {}), **play_settings(best)}
            print(f"wrote {export_for_play(source, args.write, half=True, play=play)}")
    except ValueError as err:
        print(f"tune_play: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
