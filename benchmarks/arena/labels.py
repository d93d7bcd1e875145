"""Short labels for agents in terminal tables, with a legend: a checkpoint path such as
``az:demo_runs/demo/checkpoint.pt,sims=64`` as a column header made the arena's
head-to-head grid over 200 columns wide.  Tables print at most ``WIDTH`` columns; the JSON
and Markdown reports keep the full names.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

WIDTH = 120          # the widest line a table prints
MAX_NAME = 14        # names up to this long are their own label


def short_labels(names: Sequence[str], max_name: int = MAX_NAME) -> dict[str, str]:
    """Each name's label: the name itself where it is at most ``max_name`` characters,
    else a letter (A, B, ... Z, then A1, B1, ...) that is not itself one of the names."""
    taken = set(names)
    labels, counter = {}, 0
    for name in names:
        if name in labels:
            continue
        if len(name) <= max_name:
            labels[name] = name
            continue
        while True:
            letter, rest = chr(ord("A") + counter % 26), counter // 26
            label = letter if rest == 0 else f"{letter}{rest}"
            counter += 1
            if label not in taken:
                break
        labels[name] = label
    return labels


def legend(labels: dict[str, str]) -> list[str]:
    """``A = full name`` for every label that is not the name itself (none: no lines)."""
    shortened = [(label, name) for name, label in labels.items() if label != name]
    if not shortened:
        return []
    lines = ["where"]
    for label, name in shortened:
        lines += textwrap.wrap(f"{label} = {name}", WIDTH, initial_indent="  ",
                               subsequent_indent="      ", break_on_hyphens=False)
    return lines


def wrap(text: str, indent: str = "") -> list[str]:
    """A long line (a list of per-agent figures) wrapped at ``WIDTH`` columns."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent or "  ",
                         break_on_hyphens=False) or [""]
