"""Server memory per open replay: the browser's replay view (a kept position every
``SNAPSHOT_EVERY`` plies, the rest re-played on request) against keeping every position,
as the view did before, in the same process on the same replay.

    python -m meeplezoo.benchmarks.speed.replay_memory [--game hansa_teutonica_v0] [--views 10]

The replay is a random-vs-random game of the chosen game (Hansa Teutonica's run to about
3,000 plies, its decision cap).  Reported: resident memory (RSS) added per open view,
the time to open one, and the time to show a position stepping forward and jumping back.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time

from meeplezoo.benchmarks.common import say


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise OSError("no VmRSS in /proc/self/status (Linux only)")


class EveryPlyView:
    """The peer: a clone of the game kept at every ply (the view before snapshots)."""

    def __init__(self, record: dict):
        from meeplezoo.envs import make

        walker = make(record["game"], raw=True, num_players=record["num_players"],
                      **record["options"])
        walker.reset(seed=record["seed"])
        self.envs = [walker.clone()]
        for action in record["actions"]:
            walker.step(action)
            self.envs.append(walker.clone())

    def _env_at(self, ply: int):
        return self.envs[ply]


def measure(make_view, record: dict, views: int) -> dict:
    """RSS per view, seconds to open one, seconds per position shown."""
    plies = len(record["actions"])
    make_view(record)._env_at(plies)                     # compile and warm everything
    gc.collect()
    before = rss_mb()
    started = time.perf_counter()
    opened = [make_view(json.loads(json.dumps(record))) for _ in range(views)]
    open_s = (time.perf_counter() - started) / views
    gc.collect()
    per_view = (rss_mb() - before) / views
    forward = list(range(0, plies + 1, 7))
    backward = list(range(plies, -1, -137))
    started = time.perf_counter()
    for ply in forward + backward:
        opened[0]._env_at(ply)
    show_s = (time.perf_counter() - started) / len(forward + backward)
    return {"mb_per_view": per_view, "open_s": open_s, "show_s": show_s}


def long_replay(game: str, seed: int) -> dict:
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.play.replay import record_game

    return record_game(game, [make_agent("random", game), make_agent("random", game)], seed)


def main(argv: list[str] | None = None) -> int:
    from meeplezoo.envs import game_argument

    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.replay_memory",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hansa_teutonica_v0", type=game_argument)
    parser.add_argument("--views", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    from meeplezoo.play.web.sessions import ReplayView

    say(f"recording a random-vs-random {args.game} game...")
    record = long_replay(args.game, args.seed)
    plies = len(record["actions"])
    rows = {"snapshots": measure(lambda r: ReplayView(r, "bench"), record, args.views),
            "every ply": measure(EveryPlyView, record, args.views)}
    print(f"{args.game}: {plies} plies, {args.views} views each")
    print(f"{'view':<10} {'MB/view':>8} {'open ms':>8} {'show ms':>8}")
    for name, row in rows.items():
        print(f"{name:<10} {row['mb_per_view']:8.2f} {row['open_s'] * 1e3:8.1f} "
              f"{row['show_s'] * 1e3:8.3f}")
    ratio = rows["every ply"]["mb_per_view"] / max(rows["snapshots"]["mb_per_view"], 1e-3)
    print(f"memory per view: snapshots use 1/{ratio:.0f} of every-ply's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
