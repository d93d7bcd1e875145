"""The project's import graph, drawn from the source: every ``import`` of a ``meeplezoo``
module, at the top of a file or inside a function alike (an import moved into a function
still makes a circle), so a circle among the project's modules fails here, naming it.

``python tests/test_import_graph.py`` prints the graph's folders and their imports."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def package_folders() -> dict[str, Path]:
    """``meeplezoo.<name>`` -> its folder, from ``pyproject.toml``'s package-dir."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return {name: ROOT / folder for name, folder in
            config["tool"]["setuptools"]["package-dir"].items()}


def modules() -> dict[str, Path]:
    """Every module of the project by its dotted name (a package by its ``__init__``)."""
    found = {}
    for package, folder in package_folders().items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join((package, *parts))] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``name`` imports (the module itself, for ``from x import y``
    the submodule ``x.y`` where it is one)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[:len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                       for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]       # a name inside a module
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, result, counter = {}, {}, set(), [], [], [0]
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
    return result


def test_the_graph_is_read_from_every_module():
    edges = graph()
    assert len(edges) > 100
    assert "meeplezoo.envs.core.files" in edges["meeplezoo.agents.fitted_values"]


def test_there_is_no_import_circle():
    found = circles(graph())
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(c) for c in found)


def folder_of(name: str) -> str:
    parts = name.split(".")
    return ".".join(parts[:3]) if len(parts) > 3 else ".".join(parts[:2])


if __name__ == "__main__":
    edges = graph()
    folders: dict[str, set[str]] = {}
    for name, targets in edges.items():
        folders.setdefault(folder_of(name), set()).update(
            folder_of(t) for t in targets if folder_of(t) != folder_of(name))
    for folder in sorted(folders):
        print(f"{folder} -> {', '.join(sorted(folders[folder])) or '(nothing)'}")
    for circle in circles(edges):
        print("circle:", " <-> ".join(circle), file=sys.stderr)
