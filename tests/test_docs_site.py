"""The documentation site builds with warnings as errors, with a page per game generated
from the envs and an API reference generated from the docstrings (mkdocs.yml)."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from meeplezoo.envs import names, spec

pytest.importorskip("mkdocs", reason="the [docs] extra builds the site")
pytest.importorskip("material", reason="the [docs] extra builds the site")
pytest.importorskip("mkdocstrings", reason="the [docs] extra builds the site")

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "docs" / "hooks"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
         "-d", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert build.returncode == 0, build.stdout + build.stderr
    return out


def page_text(path: Path) -> str:
    """A page's HTML with the tags dropped and entities decoded, spaces collapsed."""
    text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", html.unescape(text))


def test_every_registered_game_has_a_page_with_its_players_and_actions(site):
    index = page_text(site / "games" / "index.html")
    for name in names():
        game = spec(name)
        page = site / "games" / re.sub(r"_v\d+$", "", name) / "index.html"
        assert page.is_file(), f"no page for {name}"
        raw = page.read_text(encoding="utf-8")
        text = page_text(page)
        assert f"from meeplezoo.envs import {name}" in text
        assert f"<td>{game.min_players}-{game.max_players}</td>" in raw, name
        assert f"Discrete({game.num_actions})" in text, name
        assert f"float32[{game.obs_size}]" in text, name
        assert name in index


def test_game_pages_carry_the_docstring_options_versions_and_pictures(site):
    text = page_text(site / "games" / "carcassonne" / "index.html")
    for heading in ("Options", "Version history", "Bots", "Observation layout"):
        assert heading in text
    assert "placement_layout" in text and "'frontier'" in text       # an option, its default
    assert "SAME_RULES" in text                                         # v1 shares v0's rules
    raw = (site / "games" / "carcassonne" / "index.html").read_text(encoding="utf-8")
    assert "====" not in raw                                  # the RST table became a table
    assert (site / "images" / "carcassonne.png").is_file()
    assert "../../images/carcassonne.png" in raw


def test_api_reference_documents_the_public_entry_points(site):
    pages = {page: (site / "api" / page / "index.html").read_text(encoding="utf-8")
             for page in ("envs", "agents", "benchmarks", "training", "interop")}
    for page, anchor in [("envs", "meeplezoo.envs.make"),
                         ("envs", "meeplezoo.envs.core.batch.BatchEnv"),
                         ("envs", "meeplezoo.envs.core.aec.KernelEnv"),
                         ("agents", "meeplezoo.agents.registry.make_agent"),
                         ("agents", "meeplezoo.agents.base.Agent"),
                         ("benchmarks", "meeplezoo.benchmarks.rating.rate.rate"),
                         ("training", "meeplezoo.training.ppo.loop.Options"),
                         ("interop", "meeplezoo.envs.interop.gymnasium_view.SingleAgentEnv")]:
        assert f'id="{anchor}"' in pages[page], anchor
    assert ":func:" not in pages["benchmarks"] + pages["training"]


def test_reference_tables_and_doctests_become_markdown():
    sys.path.insert(0, str(HOOKS))
    try:
        from rst_to_markdown import to_markdown
    finally:
        sys.path.remove(str(HOOKS))
    text = to_markdown('''Kernels:

        ==========================  ======================
        ``init(state, players,      the start position
        seat)``
        ``observe(state)``           one seat's view
        ==========================  ======================

        >>> make("hansa_v0")

        See :func:`make`; 10**8 <b>.
        ''')
    assert "| ``init(state, players, seat)`` | the start position |" in text
    assert "| ``observe(state)`` | one seat's view |" in text
    assert "```pycon\n>>> make(\"hansa_v0\")\n```" in text
    assert "See ``make``; 10\\*\\*8 &lt;b>." in text
