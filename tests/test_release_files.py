"""LICENSE, CITATION.cff and CHANGELOG.md agree with pyproject.toml."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def cff_fields() -> dict[str, str]:
    """The top-level scalar fields of CITATION.cff (a flat reading, enough for these)."""
    fields = {}
    for line in (ROOT / "CITATION.cff").read_text().splitlines():
        found = re.match(r"^([a-z-]+):\s*(.+)$", line)
        if found:
            fields[found.group(1)] = found.group(2).strip().strip('"')
    return fields


def test_license_is_mit_as_pyproject_says():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "2026 MeepleZoo developers" in text


def test_citation_matches_pyproject():
    fields = cff_fields()
    assert fields["cff-version"] == "1.2.0"
    assert fields["version"] == PROJECT["version"]
    assert fields["license"] == "MIT"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", fields["date-released"])
    assert fields["title"] and fields["message"]
    assert re.search(r"^authors:\n  - name: \S", (ROOT / "CITATION.cff").read_text(), re.M)


def test_changelog_has_this_version():
    assert f"## {PROJECT['version']}" in (ROOT / "CHANGELOG.md").read_text()
