"""The speed tables of the results page, each read off one record under ``results/`` and
shown with the command that wrote it (the record's own ``command`` where it keeps one,
else its module's documented command) and the machine it ran on.

Only ratios against a peer measured in the same run travel between machines; absolute
rates are the machine's (the record names it), so every table gives both.
``results_tables.py`` assembles these with the strength tables into the page.
"""

from __future__ import annotations

import re
from pathlib import Path

from meeplezoo.envs.core.files import read_json

# A game's speed record is named for its rules, not its observation version
# (``carcassonne_v1`` steps as ``carcassonne_v0`` does: one game, two observations).
GAME_SPEED = "games_{stem}.json"


def rules_stem(game: str) -> str:
    return re.sub(r"_v\d+$", "", game)


def read_record(results: Path, name: str) -> dict | None:
    """The record ``results/<name>`` (None where this checkout has not got it)."""
    path = Path(results) / name
    return read_json(path, "records") if path.is_file() else None


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def link(path: str, base: str | None, label: str | None = None) -> str:
    """A record's path as a link from ``base`` (``""``: relative, as from the README; a
    repository address), or as code where the page cannot reach the file."""
    if base is None:
        return f"`{path}`"
    return f"[{label or f'`{path}`'}]({base}{path})"


def provenance(record: dict, path: str, command: str, base: str | None,
               bullet: bool = False) -> list[str]:
    """The line under a table: the command, the record and the machine it ran on (a list
    item where a table has several records)."""
    machine = record.get("machine", {})
    where = ", ".join(str(x) for x in (machine.get("cpu_model") or machine.get("processor"),
                                       machine.get("cpus_usable") and
                                       f"{machine['cpus_usable']} CPUs usable") if x)
    date = f", {record['date'][:10]}" if record.get("date") else ""
    line = f"`{command}`; record: {link(path, base)}" + (f" ({where}{date})" if where else "")
    return [f"- {line}"] if bullet else ["", f"Command: {line}."]


def env_speed_rows(results: Path) -> list[tuple[str, dict, dict]]:
    """Per game with a speed record: (game, the bar's ratio, the record)."""
    from meeplezoo.envs import names

    found = []
    for stem in sorted({rules_stem(game) for game in names()}):
        record = read_record(results, GAME_SPEED.format(stem=stem))
        if record is not None:
            bar = record["aec"]["bar"]
            ratio = record["aec"]["ratios"][f"{bar['contender']} / {bar['peer']}"]
            found.append((stem, {**bar, **ratio}, record))
    return found


def env_speed(results: Path, base: str | None) -> list[str]:
    lines = ["### Turns per second in an RL user's loop, against PettingZoo's connect four", "",
             "Every game and player count driven by the same loop as `connect_four_v3` "
             "(`env.last()`, a random legal action, `env.step`), in interleaved rounds; the "
             "ratio is the median of the per-round ratios.  `_legal_list` rows pick from "
             "`env.legal_actions()` instead of scanning the mask.", ""]
    rows, notes = [], []
    for stem, _bar, record in env_speed_rows(results):
        aec = record["aec"]
        for pair, ratio in aec["ratios"].items():
            contender, peer = pair.split(" / ")
            rows.append([f"`{contender}`", f"`{peer}`",
                         f"{aec['contenders'][contender]['turns_per_s']:,.0f}",
                         f"{aec['contenders'][peer]['turns_per_s']:,.0f}",
                         f"{ratio['median_of_rounds']:.1f}x"])
        notes += provenance(record, f"results/{GAME_SPEED.format(stem=stem)}",
                            record["command"], base, bullet=True)
    return (lines + table(["env", "peer", "env turns/s", "peer turns/s", "ratio"], rows)
            + ["", "Commands and records:", ""] + notes)


def playouts(results: Path, base: str | None) -> list[str]:
    lines = ["### Random full games inside compiled code", ""]
    rows = []
    for stem, _bar, record in env_speed_rows(results):
        for kind, counts in record.get("playouts", {}).items():
            for players, row in counts.items():
                rows.append([f"`{stem}`", kind.replace("_", " "), players,
                             f"{row['games_per_s']:,.0f}", f"{row['decisions_per_s']:,.0f}"])
    return (lines + table(["game", "playout", "players", "games/s", "decisions/s"], rows)
            + ["", "From the same runs and records as the table above."])


def self_play(results: Path, base: str | None) -> list[str]:
    record = read_record(results, "az_throughput.json")
    if record is None:
        return []
    rows = [[f"`{game}`", f"{row['lockstep']['simulations_per_s']:,.0f}",
             f"{row['per_leaf']['simulations_per_s']:,.0f}", f"{row['ratio_median']:.1f}x",
             f"{row['lockstep']['positions_per_s']:,.0f}",
             f"{row['lockstep']['leaves_per_network_call']:,.0f}"]
            for game, row in sorted(record["games"].items())]
    return (["### Self-play: many games searched in lockstep against one leaf per network call",
             "", "AlphaZero-style self-play on the CPU with the trainer's network for each "
             "game; the ratio is the median of the per-round ratios of simulations per "
             "second.", ""]
            + table(["game", "lockstep sims/s", "one leaf per call sims/s", "ratio",
                     "training positions/s", "leaves per network call"], rows)
            + provenance(record, "results/az_throughput.json",
                         "python -m meeplezoo.benchmarks.speed.az_throughput", base))


def search_and_peers(results: Path, base: str | None) -> list[str]:
    """The calibration game (connect four): our compiled playouts against pgx, our MCTS
    against OpenSpiel's C++ MCTSBot, in speed and in strength."""
    lines = ["### The calibration game: connect four against pgx and OpenSpiel", ""]
    peers = read_record(results, "peers_connect_four.json")
    mcts = read_record(results, "mcts.json")
    rows = []
    if peers is not None:
        steps = peers["steps"]
        rows.append(["random playouts, steps/s (ours / pgx on CPU, batch "
                     f"{steps['pgx']['batch_size']:,})",
                     f"{steps['ours']['playouts']['steps_per_s']:,.0f}",
                     f"{steps['pgx']['best_steps_per_s']:,.0f}",
                     f"{steps['ratios_vs_pgx_best']['playouts']:.1f}x"])
    if mcts is not None:
        speed = mcts["connect_four_speed"]
        rows.append([f"MCTS simulations/s (`mcts:{speed['sims_per_search']}` / OpenSpiel's "
                     "C++ MCTSBot)", f"{speed['ours_sims_per_s']:,.0f}",
                     f"{speed['openspiel_sims_per_s']:,.0f}",
                     f"{speed['ratio_median_of_rounds']:.1f}x"])
    lines += table(["measure", "ours", "peer", "ratio"], rows)
    if mcts is not None:
        strength = mcts["connect_four_strength"]
        low, high = strength["wilson95"]
        lines += ["", f"At the same budget ({strength['sims']} simulations) our MCTS scores "
                  f"{strength['our_score']:.3f} [{low:.3f}, {high:.3f}] against OpenSpiel's "
                  f"over {strength['games']} games; a node of its tree takes "
                  f"{mcts['memory']['bytes_per_node']:.0f} bytes."]
    if peers is not None:
        lines += provenance(peers, "results/peers_connect_four.json", peers["command"], base)
    if mcts is not None:
        lines += provenance(mcts, "results/mcts.json", mcts["command"], base)
    return lines


def startup(results: Path, base: str | None) -> list[str]:
    record = read_record(results, "startup_games.json")
    if record is None:
        return []
    marks = ("reset", "mcts", "batch")
    rows = [[f"`{game}`", *(f"{row['warm'][m]['median_s']:.2f} s" for m in marks),
             *(f"{row['cold'][m]:.0f} s" if "cold" in row else "not measured" for m in marks)]
            for game, row in sorted(record["games"].items())]
    return (["### Start-up: a new process to its first move", "",
             "Seconds from spawning a process to its first `reset()`, first `mcts:200` move "
             "and first `BatchEnv.step`: warm (the compile cache filled; median of three "
             "processes) and cold (an empty cache, so numba compiles).", ""]
            + table(["game", "warm reset", "warm mcts", "warm batch", "cold reset",
                     "cold mcts", "cold batch"], rows)
            + provenance(record, "results/startup_games.json",
                         "python -m meeplezoo.benchmarks.speed.startup --cold", base))


def fresh_boards(results: Path, base: str | None) -> list[str]:
    record = read_record(results, "board_speed.json")
    if record is None:
        return []
    rows = [[f"`{row['game']}`", f"`{row['boards']}`", str(row["batch_size"]),
             f"{row['fixed_steps_per_s']:,.0f}", f"{row['fresh_steps_per_s']:,.0f}",
             f"{row['ratio']:.2f}"] for row in record["rows"]]
    return (["### A fresh generated board per game in `BatchEnv`", ""]
            + table(["game", "boards", "batch", "one board steps/s", "fresh boards steps/s",
                     "fresh / one"], rows)
            + provenance(record, "results/board_speed.json", record["command"], base))


def speed_sections(results: Path, base: str | None) -> list[str]:
    lines = []
    for section in (env_speed, playouts, self_play, search_and_peers, startup, fresh_boards):
        part = section(results, base)
        if part:
            lines += part + [""]
    return lines
