"""What a ladder's anchor names meant when it was built, and re-issuing it under today's.

The shipped bots were renamed for what they are (``agents/catalogue.py``): the bot that
played as ``az:default`` at Saint Malo and Hansa Teutonica was a PPO policy distilled into
a network and played without search (now ``ppo:distilled``); at Carcassonne v1 and
Serenissima it was the game's search with a fitted leaf and no network (now the ``mcts:``
spec that says so).  A ladder built before that keeps its games, so it is re-issued as a
new version whose anchors and records carry the new names (the same games, the same
ratings, the same checkpoint or fit fingerprints), and the old version still loads but
says what its names meant and which version to rate with:

    python -m meeplezoo.benchmarks.rating.ladder_names saint_malo_v0-2p-ladder-v6 --version 7

A re-issued ladder records ``"naming": NAMING`` and ``"renamed_from"``; a ladder without
``naming`` is read with ``ladder_check.RENAMED``.
"""

from __future__ import annotations

import argparse
import json
import sys

from meeplezoo.benchmarks.arena.fingerprints import fingerprints

from .ladder import LADDER_DIR, _ladder_path, ladder_name, load_ladder, write_records
from .ladder_check import NAMING, renamed_anchors


def reissue(name: str, version: int) -> str:
    """Ladder ``name`` as version ``version`` with its anchors renamed (:data:`RENAMED`):
    the JSON and a records file of its own, the checksum and fingerprints redone."""
    old = load_ladder(name, check_bots=False)
    names = renamed_anchors(old)
    if not names:
        raise ValueError(f"{name} has no anchor to rename")
    new_name = ladder_name(old["game"], old["players"], version)
    if (LADDER_DIR / f"{new_name}.json").exists():
        raise ValueError(f"{new_name} exists already")

    def new(agent: str) -> str:
        return names.get(agent, agent)

    records = []
    for record in old["records"]:
        for key in ("seats", "table"):
            if key in record:
                record[key] = [new(seat) for seat in record[key]]
        if "bots" in record:
            record["bots"] = {new(agent): digest for agent, digest in record["bots"].items()}
        records.append(record)
    source = json.loads(_ladder_path(name).read_text())
    anchors = [{**row, "agent": new(row["agent"])} for row in source["anchors"]]
    records_file, digest = write_records(LADDER_DIR, new_name, records)
    ladder = {**source, "name": new_name, "anchors": anchors,
              "anchor": new(source["anchor"]), "records": records_file,
              "records_sha256": digest,
              "bots": fingerprints([row["agent"] for row in anchors], old["game"]),
              "naming": NAMING, "renamed_from": name, "renamed": names,
              "rename_command": f"python -m meeplezoo.benchmarks.rating.ladder_names {name} "
                                f"--version {version}"}
    (LADDER_DIR / f"{new_name}.json").write_text(json.dumps(ladder, indent=2) + "\n")
    load_ladder(new_name)                      # as rate will read it: every check passes
    return new_name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.rating.ladder_names",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("ladder")
    parser.add_argument("--version", type=int, required=True)
    args = parser.parse_args(argv)
    try:
        print(f"ladder: {reissue(args.ladder, args.version)}")
        return 0
    except ValueError as err:
        print(f"ladder_names: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
