"""Per-game copies of generic compiled code, so numba can cache them on disk.

numba cannot cache a function that receives compiled functions as arguments (they become
function pointers, "dynamic globals"), but it caches one that calls compiled functions
held as module globals.  So generic loops are written once, in a *template* module whose
functions call the contract's kernels by their contract names (``env_step``, ``observe``,
...) without defining them; :func:`game_module` writes, per game, a module that imports
that game's kernels under those names followed by the template's source, into the
project's numba cache folder (which is keyed by a hash of every kernel source, so a
change anywhere gives a fresh folder and a stale copy never runs), and imports it.  Its
``@njit`` functions are then cached like any kernel: a new process loads them instead of
compiling.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from .contract import GameSpec
from .jit import CACHE_DIR

_LOADED: dict[tuple[str, str, tuple], ModuleType] = {}


def _import_line(name: str, function) -> str:
    python = getattr(function, "py_func", function)
    module, attribute = python.__module__, python.__name__
    if module == "__main__" or getattr(importlib.import_module(module), attribute,
                                       None) is not function:
        raise ValueError(f"{name} ({module}.{attribute}) is not importable by name, so it "
                         "cannot be bound into a cached per-game module")
    return f"from {module} import {attribute} as {name}\n"


def _source_stamp(function) -> str:
    """A comment with a hash of the file that defines ``function``.  The package's own
    files are in the cache folder's fingerprint; a user's leaf value is not, so without
    this an edit to it would leave the old compiled search in the cache.  (As with numba's
    own cache, only the function's own file is tracked, not files it imports.)"""
    python = getattr(function, "py_func", function)
    filename = getattr(sys.modules.get(python.__module__), "__file__", None)
    try:
        digest = hashlib.sha1(Path(filename).read_bytes()).hexdigest()[:16]
    except (OSError, TypeError):
        digest = "unknown"
    return f"# {python.__module__}: {digest}\n"


def _write_if_changed(path: Path, source: str) -> Path:
    """Write ``source`` atomically, only when it differs: numba keys its cache on the
    file's modification time, so rewriting an unchanged file would waste the cache."""
    try:
        if path.read_text() == source:
            return path
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    except OSError:                  # a read-only cache: generate into a private folder
        folder = Path(tempfile.gettempdir()) / f"meeplezoo-generated-{os.getuid()}"
        return _write_if_changed(folder / CACHE_DIR.name / path.name, source)
    with os.fdopen(handle, "w") as file:
        file.write(source)
    os.replace(temporary, path)
    return path


def _uncached_module(spec: GameSpec, template: str, header: str, bindings: dict,
                     template_file: str) -> ModuleType:
    """The copy of ``template`` with ``bindings`` injected as objects, compiled per process
    (numba cannot cache what it cannot find again by name)."""
    source = header + Path(template_file).read_text().replace(
        "from meeplezoo.envs.core.jit import njit\n",
        "from meeplezoo.envs.core.jit import njit_generic as njit\n")
    module = ModuleType(f"meeplezoo_generated.{template.rsplit('.', 1)[-1]}_{spec.name}_local")
    module.__dict__.update(bindings)
    exec(compile(source, f"<{module.__name__}>", "exec"), module.__dict__)   # noqa: S102
    return module


def game_module(spec: GameSpec, template: str, bindings: dict | None = None,
                cached: bool = True) -> ModuleType:
    """The per-game module of ``template`` (a module name under ``meeplezoo``), its free
    names bound to ``spec``'s kernels and to ``bindings`` (name -> compiled function).
    ``cached=False`` builds it in memory, compiled in this process (the benchmark's peer
    for the cached copy)."""
    bindings = dict(bindings or {})
    key = (spec.name, template, tuple(sorted((n, id(f)) for n, f in bindings.items())), cached)
    if key in _LOADED:
        return _LOADED[key]
    template_file = importlib.util.find_spec(template).origin
    kernel_lines = f'"""Generated from {template} for {spec.name}: do not edit."""\n' + \
        "".join(_import_line(name, kernel) for name, kernel in sorted(spec.kernels.items()))
    try:
        binding_lines = "".join(_import_line(name, f) + _source_stamp(f)
                                for name, f in sorted(bindings.items()))
    except ValueError:
        # A function with no importable name (a notebook's leaf value): the copy is built
        # in memory and compiled in this process, as before caching existed.
        cached = False
    if not cached:
        module = _uncached_module(spec, template, kernel_lines, bindings, template_file)
        _LOADED[key] = module
        return module
    header = kernel_lines + binding_lines
    source = header + Path(template_file).read_text()
    # One file per binding set (two leaf values of the same name never share a file).
    digest = hashlib.sha1(header.encode()).hexdigest()[:10]
    stem = f"{template.rsplit('.', 1)[-1]}_{spec.name}_{digest}"
    path = _write_if_changed(CACHE_DIR / "generated" / f"{stem}.py", source)
    module_name = f"meeplezoo_generated.{stem}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    loader_spec.loader.exec_module(module)
    _LOADED[key] = module
    return module
