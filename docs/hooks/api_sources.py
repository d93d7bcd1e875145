"""MkDocs hook: lets mkdocstrings find the ``meeplezoo`` package's sources.

The package is assembled from top-level folders (pyproject.toml's
``[tool.setuptools.package-dir]``: ``meeplezoo.envs`` is ``envs/``, ...), and an editable
install maps them with an import hook that griffe's static finder does not read.  So the
build lays out a ``meeplezoo/`` folder of links to those folders in a temporary directory
and hands it to the python handler as a search path; griffe then reads the sources as
they are, without importing them.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import tomllib
from mkdocs.plugins import event_priority

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "meeplezoo"
_layout: tempfile.TemporaryDirectory | None = None


def package_folders() -> dict[str, Path]:
    """``{"envs": ROOT / "envs", ...}``: each direct subpackage of ``meeplezoo`` and its
    folder, from pyproject.toml."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        mapping = tomllib.load(handle)["tool"]["setuptools"]["package-dir"]
    return {name.split(".", 1)[1]: ROOT / folder for name, folder in mapping.items()
            if name.count(".") == 1 and name.startswith(PACKAGE + ".")}


@event_priority(100)         # before mkdocstrings reads its handlers' configuration
def on_config(config):
    global _layout
    _layout = tempfile.TemporaryDirectory(prefix="meeplezoo-api-")
    package = Path(_layout.name) / PACKAGE
    package.mkdir()
    (package / "__init__.py").write_text('"""MeepleZoo."""\n')
    for name, folder in package_folders().items():
        (package / name).symlink_to(folder, target_is_directory=True)
    handler = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    handler["paths"] = [*handler.get("paths", []), _layout.name]
    return config


def on_shutdown():
    if _layout is not None:
        _layout.cleanup()
