"""The results page's networks at every player count, rendered from the training runs'
own records: for each game, the command that trained its network, the last evaluation
at each count against each rung (``eval.csv``), the value's quality at each count where
it was measured (``value_quality.csv``), and the learning curve.

A record is a folder ``results/training_runs/<name>/`` holding ``run.json`` (``game``,
``bot``: the name it ships as, ``counts``: the seat counts it plays, ``command``, and
``trained_at``: the counts its training saw) beside the run's ``eval.csv`` and
``learning_curve.png`` as the run wrote them, and the value's quality: the run's own
``value_quality.csv`` where its test sets were built before it ran, or
``value_quality_<N>p.json`` (and its plot), ``value_quality report`` of the checkpoints the
run left along the way at count ``N``.  ``command`` may be a list (a recipe of several
steps), and ``note`` a sentence on what the record does not show.
"""

from __future__ import annotations

import csv
from pathlib import Path

from meeplezoo.benchmarks.studies.results_speed import link, table
from meeplezoo.envs.core.files import FileRefused, read_json

RUNS = "training_runs"


def read_rows(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def seat_count(row: dict) -> int:
    """A CSV row's seat count (rows written before logs kept one were at two)."""
    return int(float(row.get("players") or 2))


def last_evaluation(rows: list[dict]) -> list[dict]:
    """The rows of the last evaluation (the largest ``update``)."""
    if not rows:
        return []
    last = max(float(row["update"]) for row in rows)
    return [row for row in rows if float(row["update"]) == last]


def score_cell(row: dict) -> str:
    return (f"{float(row['score']):.2f} [{float(row['wilson_low']):.2f}, "
            f"{float(row['wilson_high']):.2f}]")


def run_section(folder: Path, results: Path, base: str | None) -> list[str]:
    """One training record: its command, its last evaluation by count and rung, the
    value's correlation with results by count, and links to the curves."""
    run = read_json(folder / "run.json", "training record", limit=1024 * 1024)
    where = f"results/{RUNS}/{folder.name}"
    evaluations = read_rows(folder / "eval.csv")
    last = last_evaluation(evaluations)
    rungs = list(dict.fromkeys(row["opponent"] for row in last))
    counts = sorted({seat_count(row) for row in last})
    rows = []
    for count in counts:
        mine = {row["opponent"]: row for row in last
                if seat_count(row) == count}
        rows.append([str(count), f"1/{count}"] + [score_cell(mine[r]) if r in mine else ""
                                                   for r in rungs])
    minutes = float(last[0]["elapsed_s"]) / 60 if last else 0.0
    trained = ", ".join(map(str, run["trained_at"]))
    lines = [f"### `{run['game']}`: `{run['bot']}` at {', '.join(map(str, run['counts']))} "
             "players", ""]
    commands = run["command"] if isinstance(run["command"], list) else [run["command"]]
    if len(commands) == 1:
        lines.append(f"Trained at {trained} players by `{commands[0]}`.")
    else:
        lines += [f"Trained at {trained} players by these commands, in order:", "",
                  *(f"- `{command}`" for command in commands)]
    if run.get("note"):
        lines += ["", run["note"]]
    if last:
        lines += ["", f"Its last evaluation, after {minutes:.0f} minutes of training "
                  f"({last[0]['games']} games a rung and count, the rung in every other "
                  "seat; Wilson 95%):", ""]
        lines += table(["players", "even share", *(f"against `{r}`" for r in rungs)], rows)
    quality = [row for row in read_rows(folder / "value_quality.csv")]
    if quality:
        lines += ["", "Its value against the games' results on frozen test sets (Pearson "
                  "correlation for the seat to move, whole game; the search's heuristic on "
                  "the same positions beside it):", ""]
        lines += table(["players", "network, first", "network, last", "heuristic"],
                       quality_rows(quality))
    reports = sorted(folder.glob("value_quality_*p.json"))
    if reports:
        lines += ["", "Its value along the run against the games' results on each count's "
                  "frozen test set (`value_quality report`: Pearson correlation for the seat "
                  "to move, middle third of the game / whole game), the search's heuristic "
                  "on the same positions last:", ""]
        lines += report_table(reports)
    names = ["run.json", "eval.csv", "learning_curve.png", "value_quality.csv",
             *(p.name for p in reports), *(p.with_suffix(".png").name for p in reports)]
    lines += ["", "Records: " + ", ".join(link(f"{where}/{name}", base) for name in names
                                          if (folder / name).is_file()) + ".", ""]
    return lines


def report_table(reports: list[Path]) -> list[str]:
    """One row per count's ``value_quality report``: each measured checkpoint (in the
    order given to the report) and the heuristic, as middle / whole-game correlation."""
    rows, width, labels = [], 0, []
    for path in reports:
        report = read_json(path, "value-quality report", limit=1024 * 1024)
        cells = []
        for source, figures in report["results"].items():
            mover = figures["mover"]
            cells.append((source, f"{mover['middle']['corr']:.2f} / {mover['all']['corr']:.2f}"))
        networks = [cell for source, cell in cells if not source.startswith("heuristic")]
        labels = labels or [Path(source).stem for source, _ in cells
                            if not source.startswith("heuristic")]
        heuristic = [cell for source, cell in cells if source.startswith("heuristic")]
        width = max(width, len(networks))
        rows.append((str(report["players"]), networks, heuristic[0] if heuristic else ""))
    labels = [*labels[:width], *(f"checkpoint {k + 1}" for k in range(len(labels), width))]
    return table(["players", *(f"`{label}`" for label in labels), "heuristic"],
                 [[count, *networks, *[""] * (width - len(networks)), heuristic]
                  for count, networks, heuristic in rows])


def quality_rows(rows: list[dict]) -> list[list[str]]:
    """Per count: the network's correlation at its first and last measurement, and the
    heuristic's."""
    out = []
    for count in sorted({seat_count(r) for r in rows}):
        mine = [r for r in rows if seat_count(r) == count]
        network = sorted((r for r in mine if r["source"] == "network"),
                         key=lambda r: float(r["update"]))
        heuristic = [r for r in mine if r["source"] == "heuristic"]
        out.append([str(count),
                    f"{float(network[0]['corr_all']):.3f}" if network else "",
                    f"{float(network[-1]['corr_all']):.3f}" if network else "",
                    f"{float(heuristic[0]['corr_all']):.3f}" if heuristic else ""])
    return out


def training_section(results: Path, base: str | None) -> list[str]:
    """Every training record under ``results/training_runs``, one subsection each."""
    folders = sorted(p for p in (Path(results) / RUNS).glob("*") if p.is_dir())
    lines = ["## Networks at every player count", "",
             "How each game's network that plays more than one count was trained, and how "
             "it stood at each count when its training ended.", ""]
    for folder in folders:
        try:
            lines += run_section(folder, results, base)
        except (FileRefused, ValueError, KeyError) as err:
            raise ValueError(f"{folder}: not a training record: {err}") from None
    if not folders:
        lines += ["No training record yet.", ""]
    return lines
