"""Optional packages and the extra that installs each: ``require("matplotlib", "train",
"plots")`` imports the module, or fails with one line naming the extra to install.

The error is a ``ValueError`` (the ``meeplezoo`` CLI prints it as one line, exit 2) and an
``ImportError`` (so ``pytest.importorskip`` and ``except ImportError`` still work)."""

from __future__ import annotations

import importlib
from types import ModuleType


class MissingExtra(ValueError, ImportError):
    """An optional package is not installed; the message names the extra that has it."""


def require(module: str, extra: str, what: str) -> ModuleType:
    """``module`` imported, or :class:`MissingExtra`: "<what> needs the <extra> extra
    (<module> is not installed): pip install 'meeplezoo[<extra>]'"."""
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.partition(".")[0]
        raise MissingExtra(f"{what} needs the {extra} extra ({top} is not installed): "
                           f"pip install 'meeplezoo[{extra}]'") from None
