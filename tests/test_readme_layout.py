"""The README is a landing page that opens with the two commands (``make demo``, ``make
test``), then says what MeepleZoo is, how to install it, a short example, one generated
table of current results and where the documentation is; its "How the code is laid out"
names every folder of the tree, and only folders that exist: the map a newcomer reads
cannot drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_opens_with_the_two_commands_and_stays_a_landing_page():
    text = (ROOT / "README.md").read_text()
    first_block = text.split("```", 2)[1]
    assert text.startswith("# MeepleZoo\n\n```")
    commands = [line.split()[:2] for line in first_block.splitlines() if line[:1].isalpha()]
    assert commands == [["make", "demo"], ["make", "test"]]
    sections = re.findall(r"^## (.+)$", text, re.MULTILINE)
    for section in ("Install", "Current results", "Documentation", "How the code is laid out"):
        assert section in sections, section
    assert len(text.splitlines()) <= 200                # the guides live on the site
    for target in re.findall(r"\]\(((?!https?:)[^)#]+)\)", text):
        assert (ROOT / target).exists(), target


def listed_folders() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## How the code is laid out", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    return [m.group(1) for m in re.finditer(r"^(\S+/)\s", block, re.MULTILINE)]


def test_every_listed_folder_exists():
    listed = listed_folders()
    assert len(listed) >= 15
    for folder in listed:
        assert (ROOT / folder).is_dir(), folder


def test_every_package_folder_is_listed():
    listed = set(listed_folders())
    expected = {"envs/", "agents/", "play/", "tests/", "notebooks/", "results/"}
    for parent in ("training", "benchmarks"):
        expected |= {f"{parent}/{p.name}/" for p in (ROOT / parent).iterdir()
                     if (p / "__init__.py").exists()}
    assert expected <= listed, sorted(expected - listed)
    top_packages = {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()}
    assert top_packages == {"envs", "agents", "training", "benchmarks", "play"}
    modules = [p.name for p in (ROOT / "benchmarks").glob("*.py")]
    assert len(modules) <= 12, modules               # the top of benchmarks/ stays small
    assert not any((p / "__init__.py").exists() for p in (ROOT / "results").rglob("*")
                   if p.is_dir())                     # records live outside every package
