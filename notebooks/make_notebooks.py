"""Writes the tutorial notebooks from ``notebook_cells.py`` and stores them executed.

    python notebooks/make_notebooks.py                 # all of them
    python notebooks/make_notebooks.py train_a_bot     # one (train_a_bot trains ~4 minutes)

Each notebook runs top to bottom in a Jupyter kernel of this Python (its ipykernel, not
whatever ``python3`` kernel a user registered), in a scratch folder so its runs and
arenas stay out of the repository, and is saved with its outputs and inline pictures.
Volatile metadata (timings, kernel version strings) is left out, and cell ids are fixed,
so regenerating gives small diffs.  ``tests/notebooks`` re-executes them the same way.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from notebook_cells import NOTEBOOKS  # noqa: E402

PLOT_TAG = "plot"
METADATA = {"kernelspec": {"display_name": "Python 3", "language": "python",
                           "name": "python3"},
            "language_info": {"name": "python"}}


def build(name: str):
    """The notebook ``name`` without outputs (an ``nbformat`` node)."""
    import nbformat

    cells = []
    for index, (kind, text) in enumerate(NOTEBOOKS[name]):
        if kind == "md":
            cell = nbformat.v4.new_markdown_cell(text)
        else:
            cell = nbformat.v4.new_code_cell(text)
            if kind == PLOT_TAG:
                cell.metadata["tags"] = [PLOT_TAG]
        cell.id = f"{name}-{index}"              # stable ids: no churn on regeneration
        cells.append(cell)
    return nbformat.v4.new_notebook(cells=cells, metadata=dict(METADATA))


def kernel_manager():
    """A manager for this interpreter's own ipykernel: with no kernel folders to search,
    ``python3`` resolves to ipykernel's built-in spec, which launches ``sys.executable``
    (a ``python3`` kernelspec in ~/.local or elsewhere would launch some other Python)."""
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    return KernelManager(kernel_name="python3",
                         kernel_spec_manager=KernelSpecManager(kernel_dirs=[]))


def execute(notebook, folder: str | Path, timeout: int = 1800, env: dict | None = None):
    """Run every code cell of ``notebook`` in a fresh kernel with ``folder`` as its working
    directory; raises ``nbclient.exceptions.CellExecutionError`` at the first failing
    cell.  ``env``: extra environment variables of the kernel."""
    from nbclient import NotebookClient

    kernel_env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    kernel_env.update(env or {})              # (no MPLBACKEND: ipykernel picks inline)
    client = NotebookClient(notebook, km=kernel_manager(), timeout=timeout,
                            record_timing=False,
                            resources={"metadata": {"path": str(folder)}})
    client.execute(env=kernel_env)
    notebook.metadata = dict(METADATA)        # drop the kernel's version strings
    return notebook


def plot_cells(notebook) -> list:
    return [c for c in notebook.cells if PLOT_TAG in c.metadata.get("tags", [])]


def has_image(cell) -> bool:
    return any("image/png" in output.get("data", {}) for output in cell.outputs)


def main(argv: list[str] | None = None) -> int:
    import nbformat

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help=f"notebooks to write (default: all of {', '.join(NOTEBOOKS)})")
    args = parser.parse_args(argv)
    unknown = [n for n in args.names if n not in NOTEBOOKS]
    if unknown:
        parser.error(f"no notebook {unknown[0]!r}; the notebooks: {', '.join(NOTEBOOKS)}")
    for name in args.names or NOTEBOOKS:
        with tempfile.TemporaryDirectory(prefix=f"notebook-{name}-") as folder:
            notebook = execute(build(name), folder)
        missing = [c.id for c in plot_cells(notebook) if not has_image(c)]
        if missing:
            print(f"{name}: plot cells without a picture: {', '.join(missing)}")
            return 1
        path = HERE / f"{name}.ipynb"
        nbformat.write(notebook, str(path))
        print(f"{path} ({path.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
