"""MkDocs hook: the results page (``results.md``), rendered at build time from the result
records by ``meeplezoo.benchmarks.studies.results_tables``, so the site states no figure
that the records do not.

The records live outside ``docs_dir`` (``results/``, ``agents/bots.json``, the ladders):
with ``repo_url`` set the page links each record on the repository, otherwise it names
its path.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File


def results_markdown(config) -> str:
    from meeplezoo.benchmarks.studies.results_tables import page

    root = Path(config["config_file_path"]).resolve().parent
    repo = config.get("repo_url")
    # GitHub and GitLab both show a file at <repo>/blob/<branch>/<path>.
    base = f"{repo.rstrip('/')}/blob/main/" if repo else None
    return page(root / "results", base)


def on_files(files, config):
    files.append(File.generated(config, "results.md", content=results_markdown(config)))
    return files
