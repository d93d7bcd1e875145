"""One place for numba settings, so every kernel compiles the same way.

``njit`` here is numba's ``njit`` with ``cache=True`` and ``nogil=True``.  The on-disk
cache lives under a directory keyed by a hash of the package's source files: numba only
invalidates a cached kernel when *its own* file changes, so a kernel that reads a table
from ``data.py`` would otherwise silently keep a stale copy.  Keying the whole cache on
the sources makes any edit start from a clean cache.

Set ``MEEPLEZOO_NUMBA_CACHE`` to choose the cache root (default: a ``.numba_cache``
folder beside the package, falling back to the user cache directory when that folder
is not writable).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
# The sibling folders that hold kernels (agents/ will hold MCTS); in an installed wheel they
# sit together under meeplezoo/, in a checkout under the repository root.
_KERNEL_FOLDERS = ("envs", "agents", "benchmarks")


def _source_fingerprint() -> str:
    digest = hashlib.sha1()
    for folder in _KERNEL_FOLDERS:
        root = _PACKAGE_ROOT.parent / folder
        for path in sorted(root.rglob("*.py")) if root.is_dir() else ():
            source = path.read_bytes()
            if b"njit" not in source and b"data" not in path.name.encode():
                continue            # no kernels and no tables: cannot make a cache stale
            digest.update(str(path.relative_to(root.parent)).encode())
            digest.update(source)
    return digest.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".probe"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def _choose_cache_dir() -> Path:
    fingerprint = _source_fingerprint()
    configured = os.environ.get("MEEPLEZOO_NUMBA_CACHE")
    candidates = [Path(configured)] if configured else []
    candidates += [
        _PACKAGE_ROOT.parent / ".numba_cache",
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "meeplezoo",
    ]
    for root in candidates:
        folder = root / fingerprint
        if _writable(folder):
            return folder
    return candidates[-1] / fingerprint


CACHE_DIR = _choose_cache_dir()
if not os.environ.get("NUMBA_CACHE_DIR"):
    # The cache locator reads this when each kernel is decorated, so set it first.
    numba.config.CACHE_DIR = str(CACHE_DIR)

JIT_DISABLED = bool(numba.config.DISABLE_JIT)


def njit(*args, **kwargs):
    """numba.njit with the project's flags (cache, nogil); usable bare or with options."""
    kwargs.setdefault("cache", True)
    kwargs.setdefault("nogil", True)
    if args and callable(args[0]) and len(args) == 1 and not kwargs.get("_sig"):
        return numba.njit(**kwargs)(args[0])
    return numba.njit(*args, **kwargs)


def njit_generic(*args, **kwargs):
    """``njit`` for kernels that take other compiled functions as arguments (the generic
    loops: batch stepping, playouts, MCTS).  These are compiled per process, not cached:
    numba's on-disk index keeps a weak reference to every function-typed argument it has
    seen, and an index written by a process that used other games' kernels fails to save
    ("underlying object has vanished").  The game kernels they call stay cached."""
    kwargs["cache"] = False
    return njit(*args, **kwargs)


def direct_entry(kernel, *example_args):
    """The compiled entry point of ``kernel`` for arguments typed like ``example_args``.

    Calling it skips the dispatcher's per-call type matching (about 0.1 us of the AEC env's
    ~6 us turn).  Only for callers whose argument types never change (the env's own state,
    rng and mask arrays); without the JIT the plain function comes back."""
    if JIT_DISABLED or not hasattr(kernel, "compile"):
        return kernel
    return kernel.compile(tuple(numba.typeof(arg) for arg in example_args))
