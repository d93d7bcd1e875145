"""MkDocs hook: the results page, rendered at build time from the result records.

(Being written: for now it adds a results page that says so.)
"""

from __future__ import annotations

from mkdocs.structure.files import File


def on_files(files, config):
    files.append(File.generated(config, "results.md",
                                content="# Results\n\nGenerated from the result records.\n"))
    return files
