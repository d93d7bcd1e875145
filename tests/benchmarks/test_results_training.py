"""The results page's networks at every player count, rendered from a training record."""

from __future__ import annotations

import csv
import json

import pytest

from meeplezoo.benchmarks.studies.results_training import training_section
from meeplezoo.training.run.evaluate import EVAL_FIELDS
from meeplezoo.training.run.value_log import FIELDS as QUALITY_FIELDS


def write_csv(path, fields, rows):
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, restval="")
        writer.writeheader()
        writer.writerows(rows)


def record_folder(tmp_path, command: str):
    """A training record's folder with its run.json (Hansa's az:all at 2 and 3)."""
    folder = tmp_path / "training_runs" / "hansa_v0_all"
    folder.mkdir(parents=True)
    (folder / "run.json").write_text(json.dumps({
        "game": "hansa_v0", "bot": "az:all", "counts": [2, 3], "trained_at": [2, 3],
        "command": command}))
    return folder


def test_the_section_shows_the_last_evaluation_and_value_quality_by_count(tmp_path):
    folder = record_folder(tmp_path, "meeplezoo train hansa --algo az --seat-counts 2 3")
    evaluations = [{"update": update, "global_step": 10 * update, "elapsed_s": 60.0 * update,
                    "opponent": opponent, "games": 16, "score": score, "wilson_low": score / 2,
                    "wilson_high": 1.0, "players": players}
                   for update, score in ((5, 0.25), (10, 0.75))
                   for players in (2, 3) for opponent in ("random", "greedy")]
    write_csv(folder / "eval.csv", EVAL_FIELDS, evaluations)
    quality = [{"update": update, "source": source, "players": players, "corr_all": corr}
               for players in (2, 3)
               for update, source, corr in ((5, "network", 0.1), (5, "heuristic", 0.4),
                                            (10, "network", 0.5))]
    write_csv(folder / "value_quality.csv", QUALITY_FIELDS, quality)
    lines = training_section(tmp_path, None)
    text = "\n".join(lines)
    assert "### `hansa_v0`: `az:all` at 2, 3 players" in text
    assert "`meeplezoo train hansa --algo az --seat-counts 2 3`" in text
    assert "after 10 minutes of training" in text            # the last evaluation only
    assert "| 3 | 1/3 | 0.75 [0.38, 1.00] | 0.75 [0.38, 1.00] |" in lines
    assert "| 2 | 0.100 | 0.500 | 0.400 |" in lines and "| 3 | 0.100 | 0.500 | 0.400 |" in lines
    assert "0.25 [" not in text


def test_a_broken_record_is_named(tmp_path):
    (tmp_path / "training_runs" / "x").mkdir(parents=True)
    (tmp_path / "training_runs" / "x" / "run.json").write_text("{}")
    with pytest.raises(ValueError, match="x: not a training record"):
        training_section(tmp_path, None)
    assert "No training record yet." in training_section(tmp_path / "none", None)


def test_value_quality_reports_of_the_runs_checkpoints_are_a_curve_by_count(tmp_path):
    folder = record_folder(tmp_path, "train")

    def figures(middle, whole):
        return {"mover": {"middle": {"corr": middle}, "all": {"corr": whole}}}
    for players, first, last in ((2, 0.1, 0.3), (3, 0.05, 0.25)):
        (folder / f"value_quality_{players}p.json").write_text(json.dumps({
            "players": players, "results": {
                "runs/x/iter_100.pt": figures(first, first + 0.01),
                "runs/x/iter_900.pt": figures(last, last + 0.01),
                "heuristic rollouts (16 x to the end)": figures(0.4, 0.41)}}))
    lines = training_section(tmp_path, None)
    assert "| players | `iter_100` | `iter_900` | heuristic |" in lines
    assert "| 3 | 0.05 / 0.06 | 0.25 / 0.26 | 0.40 / 0.41 |" in lines
    assert "`results/training_runs/hansa_v0_all/value_quality_3p.json`" in "\n".join(lines)
