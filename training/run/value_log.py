"""Value quality at each evaluation of an AlphaZero run.

The network's value of a frozen test set's positions (``benchmarks/studies/value_sets.py``:
greedy and ``mcts:200`` games the bot never played) against their final results, for the
seat to move, by third of the game: Pearson correlation and mean squared error, one row
per evaluation in ``value_quality.csv`` in the run folder and TensorBoard scalars
``value/corr_middle``, ...  The search heuristic's figures on the same positions are
written once per run folder (``source`` heuristic, ``value_heuristic/...``), the line a
network's value has to pass.  ``--value-set auto`` uses the set that
``python -m meeplezoo.benchmarks.studies.value_quality build GAME --players N`` cached, if any.
"""

from __future__ import annotations

import csv
from pathlib import Path

from meeplezoo.benchmarks.studies.value_sets import THIRDS, load_set, read_header, set_path
from meeplezoo.training.run.evaluate import append_eval_rows
from meeplezoo.training.run.seats import trained_counts
from meeplezoo.training.run.value_measure import heuristic_evaluator, value_quality

PARTS = (*THIRDS, "all")
FIELDS = ("update", "global_step", "elapsed_s", "source", "detail", "positions",
          *(f"corr_{part}" for part in PARTS), *(f"mse_{part}" for part in PARTS),
          "mean_abs_all", "players")
HEURISTIC_ROLLOUTS = 16        # as the benchmark's report, so the two agree

_LOADED: dict[tuple, object] = {}     # a set is read once per process, not per evaluation


def value_set_path(choice: str | None, game: str, players: int) -> Path | None:
    """None where value quality is off: ``None``/``none``, or ``auto`` with no cached set
    for ``game`` at ``players``; else the set's path."""
    if choice is None or choice.lower() == "none":
        return None
    if choice == "auto":
        path = set_path(game, players)
        return path if path.with_suffix(".json").exists() else None
    return Path(choice)


def check_value_set(choice: str | None, game: str, players: int) -> None:
    """Refuse, at the start of a run, a set that cannot measure it (its header only)."""
    path = value_set_path(choice, game, players)
    if path is None:
        return
    try:
        header = read_header(path)
    except ValueError as err:
        raise ValueError(f"--value-set {choice}: {err}") from None
    if (header["game"], header["players"]) != (game, players):
        raise ValueError(f"--value-set {choice}: a test set of {header['game']} at "
                         f"{header['players']} players; this run trains {game} at {players}")


def log_value_quality(folder: Path, options, network, spec, device, stamp: dict,
                      writer) -> list[dict]:
    """Measure the network (and, the first time in ``folder``, the heuristic), append the
    rows to ``value_quality.csv`` and TensorBoard; the rows (none where it is off).  A run
    at several seat counts is measured at each count with a cached set (``auto``)."""
    rows = []
    counts = trained_counts(options)
    for players in counts:
        choice = options.value_set if options.value_set == "auto" or \
            players == options.players else None
        path = value_set_path(choice, options.game, players)
        if path is not None:
            rows += _measure(folder, options.game, players, path, network, spec, device,
                             stamp, writer, suffix=f"_{players}p" if len(counts) > 1 else "")
    return rows


def _measure(folder: Path, game: str, players: int, path: Path, network, spec, device,
             stamp: dict, writer, suffix: str) -> list[dict]:
    from meeplezoo.agents.az.evaluator import NetworkEvaluator

    test_set = _load(path)
    csv_path = Path(folder) / "value_quality.csv"
    measured = [("network", f"iteration {stamp['update']}",
                 value_quality(NetworkEvaluator(network, spec, device), test_set))]
    if not _has_heuristic(csv_path, players):
        evaluate, label = heuristic_evaluator(game, rollouts=HEURISTIC_ROLLOUTS)
        measured.append(("heuristic", label, value_quality(evaluate, test_set)))
    rows = []
    for source, detail, quality in measured:
        mover = quality["mover"]
        row = {**stamp, "source": source, "detail": detail, "players": players,
               "positions": mover["all"]["positions"], "mean_abs_all": mover["all"]["mean_abs"]}
        for part in PARTS:
            row[f"corr_{part}"], row[f"mse_{part}"] = mover[part]["corr"], mover[part]["mse"]
            prefix = "value" if source == "network" else "value_heuristic"
            for metric in ("corr", "mse"):
                if row[f"{metric}_{part}"] is not None:
                    writer.add_scalar(f"{prefix}{suffix}/{metric}_{part}",
                                      row[f"{metric}_{part}"], stamp["update"])
        rows.append(row)
    append_eval_rows(csv_path, rows, FIELDS, extras="ignore")
    return rows


def _load(path: Path):
    npz = path.with_suffix(".npz")
    key = (str(npz), npz.stat().st_mtime_ns if npz.exists() else 0)
    if key not in _LOADED:
        if len(_LOADED) >= 6:          # a set per seat count of a run, not an archive
            _LOADED.clear()
        _LOADED[key] = load_set(npz)
    return _LOADED[key]


def _has_heuristic(csv_path: Path, players: int) -> bool:
    """Whether the heuristic's rows at ``players`` are in the log already (a log written
    before rows kept their count holds one run's count)."""
    if not csv_path.exists():
        return False
    with csv_path.open(newline="") as handle:
        return any(row.get("source") == "heuristic" and
                   int(row.get("players") or players) == players
                   for row in csv.DictReader(handle))
