"""Docstrings written for ``help()`` read as Markdown on the site.

The project's docstrings are prose with ``code`` spans (which Markdown reads as code
too), plus a few reStructuredText habits Markdown has no reading of: simple tables drawn
with ``====`` borders, doctest lines (``>>>``, which Markdown takes for quotes), roles
such as ``:func:`name```, and the odd ``<word`` or ``10**8`` in prose.  ``to_markdown``
turns those into Markdown; the rest passes as it is.

Used twice: by the game pages hook (``game_pages.py``) on the env modules' docstrings, and
by mkdocstrings as the griffe extension ``MarkdownDocstrings`` (mkdocs.yml) on every
docstring of the API reference.
"""

from __future__ import annotations

import inspect
import re

import griffe

RST_BORDER = re.compile(r"^ *=+( +=+)+ *$")
MD_TABLE_RULE = re.compile(r"^\|[-:| ]+\|$")
ROLE = re.compile(r":(?:func|data|class|meth|mod|attr|obj|exc|const):`~?([^`]+)`")
DOCTEST = re.compile(r"^ *(>>>|\.\.\.)( |$)")


def split_cells(line: str, starts: list[int]) -> list[str]:
    """A simple table's line cut at the columns' starts; a cell written one character
    past its column's edge (hand-aligned tables drift) is cut at the gap before it."""
    cuts = []
    for start in starts:
        if 0 < start <= len(line) and line[start - 1] != " ":
            gap = line.rfind("  ", 0, start)
            start = gap + 2 if gap >= 0 else start
        cuts.append(start)
    return [line[a:b].strip() for a, b in zip(cuts, [*cuts[1:], None], strict=True)]


def rst_tables(lines: list[str]) -> list[str]:
    """reStructuredText simple tables as Markdown tables: the top border's runs of ``=``
    give the columns; a line with text in its first and last columns starts a row, the
    others continue the row above (as does a line after a first cell whose ``code`` is
    still open)."""
    out, index = [], 0
    while index < len(lines):
        if not RST_BORDER.match(lines[index]):
            out.append(lines[index])
            index += 1
            continue
        starts = [m.start() for m in re.finditer(r"=+", lines[index])]
        end = index + 1
        while end < len(lines) and not (RST_BORDER.match(lines[end]) and
                                        (end + 1 == len(lines) or not lines[end + 1].strip())):
            end += 1
        rows: list[list[str]] = []
        for line in lines[index + 1:end]:
            if not line.strip() or RST_BORDER.match(line):
                continue
            cells = split_cells(line, starts)
            open_code = bool(rows) and rows[-1][0].count("``") % 2 == 1
            if not rows or cells[-1] and cells[0] and not open_code:
                rows.append(cells)
            else:
                rows[-1] = [f"{old} {new}".strip()
                            for old, new in zip(rows[-1], cells, strict=True)]
        columns = len(starts)
        out += ["", "|" + " |" * columns, "|" + "---|" * columns]
        out += ["| " + " | ".join(cell.replace("|", r"\|") for cell in row) + " |"
                for row in rows]
        out.append("")
        index = end + 1
    return out


def fence_doctests(lines: list[str]) -> list[str]:
    """Doctest examples (``>>>`` lines, their continuations and output, up to a blank line)
    as Python console blocks."""
    out, index = [], 0
    while index < len(lines):
        if not DOCTEST.match(lines[index]) or lines[index].lstrip().startswith("..."):
            out.append(lines[index])
            index += 1
            continue
        end = index
        while end < len(lines) and lines[end].strip():
            end += 1
        indent = len(lines[index]) - len(lines[index].lstrip())
        out += ["", "```pycon", *(line[indent:] for line in lines[index:end]), "```"]
        index = end
    return out


def headless_tables(lines: list[str]) -> list[str]:
    """A Markdown table whose first row is data (the games' spec tables) gets an empty
    header row, so its first row is not set in bold as column titles."""
    out = []
    for index, line in enumerate(lines):
        after = lines[index + 1] if index + 1 < len(lines) else ""
        before = out[-1] if out else ""
        if line.startswith("|") and MD_TABLE_RULE.match(after) and not before.startswith("|") \
                and line.strip("| "):
            columns = after.count("|") - 1
            out += ["|" + " |" * columns, "|" + "---|" * columns]
        if MD_TABLE_RULE.match(line) and before.startswith("|") and len(out) >= 3 and \
                MD_TABLE_RULE.match(out[-2]):
            continue                                    # the old header's rule
        out.append(line)
    return out


def escape_prose(line: str) -> str:
    """Outside ``code`` spans: roles lose their markup, ``<word`` would open an HTML tag,
    ``10**8`` would start bold text."""
    line = ROLE.sub(r"``\1``", line)
    parts = re.split(r"(``.*?``|`[^`]*`)", line)
    for index in range(0, len(parts), 2):
        parts[index] = re.sub(r"<(?=[A-Za-z/!])", "&lt;", parts[index])
        if re.search(r"\w\*\*\w", parts[index]):
            parts[index] = parts[index].replace("**", r"\*\*")
    return "".join(parts)


def to_markdown(text: str | None) -> str:
    """A docstring as Markdown (see the module docstring); indented literal blocks stay
    code blocks, as Markdown reads them."""
    if not text:
        return ""
    lines = inspect.cleandoc(text).splitlines()
    lines = headless_tables(fence_doctests(rst_tables(lines)))
    out, in_fence = [], False
    for line in lines:
        if line.startswith("```"):
            in_fence = not in_fence
        out.append(line if in_fence or line.startswith("    ") else escape_prose(line))
    return "\n".join(out)


class MarkdownDocstrings(griffe.Extension):
    """Every docstring griffe loads for the API reference, as Markdown."""

    def on_object(self, *, obj, loader, **kwargs) -> None:
        self.convert(obj)

    def on_package(self, *, pkg, loader, **kwargs) -> None:
        self.convert(pkg)

    @staticmethod
    def convert(obj) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
