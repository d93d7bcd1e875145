"""No figure goes stale: every strength or speed figure that the README or the site's
hand-written pages state is rendered from the records (``results_tables``), inside a
generated block that equals what the records say now.  The dated studies
(``docs/pages/studies``) are records of their day and keep their figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeplezoo.agents.catalogue import SHIPPED, figures, key
from meeplezoo.benchmarks.studies import results_tables
from meeplezoo.benchmarks.studies.results_tables import BLOCK, page, render_blocks

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"
PAGES = ROOT / "docs" / "pages"
needs_records = pytest.mark.skipif(not (RESULTS / "bot_bars").is_dir(),
                                   reason="no records (not a checkout)")


def stated_files() -> list[Path]:
    """The README and the hand-written site pages (the studies are dated records)."""
    pages = [p for p in sorted(PAGES.rglob("*.md")) if "studies" not in p.relative_to(PAGES).parts]
    return [ROOT / "README.md", *pages]


# What a figure looks like in prose: a score or rate with decimals, a multiple ("7.8x",
# "10-13x", "14×", "x faster"), a share ("74%"), a think-time fraction ("1/13.5", "a
# fifteenth of its think time"), an Elo figure, a rate ("1,300 moves/s") or a duration
# in milliseconds.  Versions ("Python 3.11", "2.13.0") and rule ids ("SM-7.5.3") are not,
# nor a score's reference points (0.5 an even match, 1/2 a draw) or a 95% confidence level.
FIGURE = re.compile("|".join([
    r"(?<![\w.-])(?!0\.5(?!\d)|1\.0(?!\d))\d+\.\d+(?![\w.]|\.\d)",  # 0.762, 10.3
    r"(?<![\w.])\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?[x×](?!\w)",   # 7.8x, 10-13x, 14×
    r"\b(?:times|x) (?:faster|slower|the speed)\b",
    r"(?<![\w.])(?!9[59]\s?%)\d+(?:\.\d+)?\s?%",                   # 74%
    r"(?<![\w/])1/(?:[3-9]|\d{2,})(?:\.\d+)?(?![\w/])",            # 1/13.5 of the think time
    r"\b(?:half|a third|a quarter|a fifth|an? \w+th) of (?:its|the search's|\S+'s) "
    r"(?:think )?time\b",
    r"(?:[+±-]|\+-)\s?\d+\s?Elo\b|\bElo (?:of )?[+±-]?\d{2,}",   # +-50 Elo, Elo 1122
    r"\d[\d,.]*\s?[kM]?\s(?:\w+\s)?(?:moves|turns|steps|simulations|sims|games|decisions"
    r"|positions|updates|frames)(?:/s| per second| a second)\b",  # 1,300 moves/s
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|µs)\b",                   # 2 ms
]), re.IGNORECASE)
VERSION_BEFORE = re.compile(r"(?:python|numba|numpy|torch|pettingzoo|ray|mkdocs|version|v)"
                            r"\s*(?:>=|==|<)?\s*$", re.IGNORECASE)


def prose_lines(text: str) -> list[tuple[int, str]]:
    """``text``'s lines as prose: generated blocks, code (but not a code block's comments,
    where a command's effect is described), inline code, HTML comments and link targets
    blanked, so line numbers stay those of the file."""
    text = BLOCK.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.DOTALL)
    lines, fence = [], None
    for number, line in enumerate(text.split("\n"), 1):
        marker = re.match(r"\s*(```|~~~)", line)
        if marker:
            fence = None if fence == marker.group(1) else fence or marker.group(1)
            continue
        if fence:
            comment = re.search(r"(?:^|\s)#\s(.*)$", line)
            line = comment.group(1) if comment else ""
        line = re.sub(r"`[^`]*`", "", line)
        line = re.sub(r"\]\([^)]*\)", "]", line)
        lines.append((number, line))
    return lines


def typed_figures(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for number, line in prose_lines(path.read_text()):
        for match in FIGURE.finditer(line):
            if not VERSION_BEFORE.search(line[:match.start()]):
                found.append(f"{path.relative_to(root)}:{number}: {match.group(0)!r} in "
                             f"{line.strip()[:100]!r}")
    return found


@needs_records
def test_generated_blocks_are_what_the_records_say_now():
    readme = (ROOT / "README.md").read_text()
    assert "<!-- results:summary:start -->" in readme
    for path in stated_files():
        text = path.read_text()
        base = None if "docs" in path.relative_to(ROOT).parts else ""
        assert render_blocks(text, RESULTS, base) == text, \
            f"{path.relative_to(ROOT)}: stale; run python -m " \
            f"meeplezoo.benchmarks.studies.results_tables --update {path.relative_to(ROOT)}"


def test_no_figure_is_typed_outside_a_generated_block():
    typed = [line for path in stated_files() for line in typed_figures(path)]
    assert not typed, "figures typed by hand (render them from the records):\n" + \
        "\n".join(typed)


@pytest.mark.parametrize("prose, flagged", [
    ("the search is still far stronger (0.273)", True),
    ("scores 0.762 against mcts:1000", True),
    ("at a fifteenth of its think time", True),
    ("at 1/13.5 of the time", True),
    ("steps at 10-13x PettingZoo's connect four", True),
    ("wins 74% of its games", True),
    ("rate to a +-50 Elo interval", True),
    ("one actor makes 1,300 searched moves/s", True),
    ("a broadcast costs 2 ms", True),
    ("works with Python 3.11 and nothing else", False),
    ("the rule SM-7.5.3 and a 95% interval", False),
    ("a win 1, a draw 1/2; 0.5 is an even match", False),
    ("2-5 players, seed 42, `mcts:1000` at 0.5 s", False),
    ("trains for 2 minutes on 1,000 simulations", False),
    ("```\nmake demo   # then the bot, at a fifteenth of its think time\n```", True),
    ("```\nmeeplezoo arena hansa --agents mcts:2000,c=1.4 --move-limit 0.25\n```", False),
])
def test_the_scan_tells_figures_from_other_numbers(tmp_path, prose, flagged):
    page_file = tmp_path / "page.md"
    page_file.write_text(f"# A page\n\n{prose}\n\n```\nmcts:2000,c=1.4  # no figure\n```\n"
                         "<!-- results:summary:start -->\n0.715 [0.669, 0.757]\n"
                         "<!-- results:summary:end -->\n")
    found = typed_figures(page_file, tmp_path)
    assert bool(found) == flagged, found
    assert all(re.match(r"page\.md:[34]:", line) for line in found), found


@needs_records
def test_every_measured_bot_has_its_figure_on_the_page():
    assert "\n".join(results_tables.bots_section(None)) in page(RESULTS)
    rows = {line for line in results_tables.bots_section(None) if line.startswith("| `")}
    found = figures()
    for bot in SHIPPED:
        mine = [r for r in rows if r.startswith(f"| `{bot.game}` | {bot.players} | `{bot.name}` |")]
        assert len(mine) == 1, key(bot)
        figure = found.get(key(bot))
        expected = results_tables.strength_text(figure)
        assert expected in mine[0]
        if figure:
            assert figure["command"] in mine[0] and str(figure["games"]) in mine[0]
            value = figure["score"] if figure["kind"] == "score" else figure["mu"]
            assert f"{value:.3f}" in expected or f"{value:+.1f}" in expected


@needs_records
def test_every_game_and_count_has_its_bar_row_judged_from_the_figures():
    """One row per game of the bars and count it allows; where a bot was measured, the
    strongest one, met or missed as the catalogue's rule says, with what it missed."""
    from meeplezoo.agents.catalogue import BAR_GAMES, bar_misses
    from meeplezoo.envs import spec

    lines = results_tables.count_bars_section(None)
    assert "\n".join(lines) in page(RESULTS)
    found = figures()
    for game in BAR_GAMES:
        for players in range(spec(game).min_players, spec(game).max_players + 1):
            mine = [line for line in lines if line.startswith(f"| `{game}` | {players} |")]
            assert len(mine) == 1, (game, players)
            judged = [(bar_misses(f), name) for name, f in found.items()
                      if name.startswith(f"{game}/{players}/")]
            if not judged:
                assert mine[0].rstrip().endswith("| not measured |")
            elif any(not misses for misses, _ in judged):
                assert "| met (" in mine[0]
            else:
                assert "| missed: " in mine[0]
                assert any("; ".join(m) in mine[0] for m, _ in judged)


@needs_records
def test_the_readme_names_every_measured_bot():
    readme = (ROOT / "README.md").read_text()
    block = BLOCK.search(readme).group(3)
    for name, figure in figures().items():
        game, players, bot = name.split("/", 2)
        assert f"| `{game}` | {players} | `{bot}`" in block
        assert results_tables.strength_text(figure) in block


@needs_records
def test_the_page_has_every_table_and_the_command_checks(tmp_path, capsys):
    text = page(RESULTS, base="https://example.org/meeplezoo/blob/main/")
    for heading in ("## The shipped bots", "## The frozen ladders", "## Speed",
                    "### Self-play", "### Start-up", "### The calibration game"):
        assert heading in text
    assert "(https://example.org/meeplezoo/blob/main/results/az_throughput.json)" in text
    assert text.count("| `random` | +0 [+0, +0] |") == len(results_tables.ladder_names())
    stale = tmp_path / "README.md"
    stale.write_text("<!-- results:summary:start -->\nold\n<!-- results:summary:end -->\n")
    argv = ["--results", str(RESULTS)]
    assert results_tables.main([*argv, "--check", str(stale)]) == 1
    assert "stale" in capsys.readouterr().out
    assert results_tables.main([*argv, "--update", str(stale)]) == 0
    assert results_tables.main([*argv, "--check", str(stale)]) == 0
    stale.write_text("<!-- results:nonsense:start -->\n<!-- results:nonsense:end -->\n")
    assert results_tables.main([*argv, "--check", str(stale)]) == 2
    assert "unknown results block 'nonsense'" in capsys.readouterr().err


@needs_records
def test_the_site_hook_adds_the_results_page(tmp_path):
    pytest.importorskip("mkdocs")
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.structure.files import Files

    # The hook loaded and its event run as MkDocs does, the site's other hooks left out.
    config = MkDocsConfig(config_file_path=str(ROOT / "mkdocs.yml"))
    config.load_dict({"site_name": "t", "docs_dir": str(PAGES), "site_dir": str(tmp_path),
                      "repo_url": "https://example.org/meeplezoo",
                      "hooks": [str(ROOT / "docs/hooks/results_pages.py")]})
    errors, _warnings = config.validate()
    assert not errors, errors
    files = config.plugins.on_files(Files([]), config=config)
    generated = files.get_file_from_path("results.md")
    assert generated.content_string == page(RESULTS, "https://example.org/meeplezoo/blob/main/")
