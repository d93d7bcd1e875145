"""The notebooks are stored executed (outputs and inline pictures of their current code)
and still run top to bottom in a Jupyter kernel, the way ``make_notebooks.py`` runs them."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

FOLDER = Path(__file__).parents[2] / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
# the training notebook's budget in the re-execution (the stored run trained 4 minutes)
QUICK_MINUTES = "0.3"


def load_maker():
    spec = importlib.util.spec_from_file_location("make_notebooks", FOLDER / "make_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


maker = load_maker()


def errors(notebook) -> list[str]:
    return [f"{cell.id}: {output.get('ename')}: {output.get('evalue')}"
            for cell in notebook.cells if cell.cell_type == "code"
            for output in cell.outputs if output.output_type == "error"]


def test_every_notebook_is_generated():
    assert {p.stem for p in NOTEBOOKS} == set(maker.NOTEBOOKS)
    assert "quickstart" in maker.NOTEBOOKS
    # the training notebook shows its learning curve and its arena inline
    assert len(maker.plot_cells(maker.build("train_a_bot"))) == 2


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_notebook_is_its_code_executed(path):
    stored = nbformat.read(str(path), as_version=4)
    built = maker.build(path.stem)
    # the stored cells are the generator's: outputs of older code would not be stored
    assert [(c.cell_type, c.source, c.metadata.get("tags")) for c in stored.cells] == \
        [(c.cell_type, c.source, c.metadata.get("tags")) for c in built.cells], \
        f"{path.name} differs from notebook_cells.py: run python notebooks/make_notebooks.py"
    code = [cell for cell in stored.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == list(range(1, len(code) + 1)), \
        f"{path.name} is stored unexecuted (or partly executed)"
    assert not errors(stored)
    assert all(maker.has_image(cell) for cell in maker.plot_cells(stored))
    assert path.stat().st_size < 1_000_000


def test_the_kernel_is_this_python(tmp_path):
    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("import sys\nprint(sys.executable)")])
    maker.execute(notebook, tmp_path, timeout=120)
    assert Path(notebook.cells[0].outputs[0].text.strip()) == Path(sys.executable)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_in_a_kernel(path, tmp_path):
    notebook = maker.build(path.stem)
    # a cell that raises stops the run with CellExecutionError (its traceback)
    maker.execute(notebook, tmp_path, timeout=600,
                  env={"MEEPLEZOO_NOTEBOOK_MINUTES": QUICK_MINUTES})
    assert not errors(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count for cell in code)
    assert all(maker.has_image(cell) for cell in maker.plot_cells(notebook))
