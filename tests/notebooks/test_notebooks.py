"""Every notebook in notebooks/ runs top to bottom (code cells executed in order)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).parents[2] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    cells = json.loads(path.read_text())["cells"]
    namespace: dict = {"__name__": "__main__"}
    for index, cell in enumerate(cells):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        exec(compile(source, f"{path.name}[cell {index}]", "exec"), namespace)  # noqa: S102


def test_there_is_a_quick_start():
    assert any(p.name == "quickstart.ipynb" for p in NOTEBOOKS)
