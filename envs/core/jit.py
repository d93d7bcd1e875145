"""One place for numba settings, so every kernel compiles the same way.

``njit`` here is numba's ``njit`` with ``cache=True`` and ``nogil=True``.  The on-disk
cache lives under a directory keyed by a hash of the package's source files: numba only
invalidates a cached kernel when *its own* file changes, so a kernel that reads a table
from ``data.py`` would otherwise silently keep a stale copy.  Keying the whole cache on
the sources makes any edit start from a clean cache.

The cache root is per user, never inside the installed package or the checkout (a
site-packages may be read-only, and two checkouts should not fight over one folder):
``MEEPLEZOO_NUMBA_CACHE`` when set, else ``$XDG_CACHE_HOME/meeplezoo`` (default
``~/.cache/meeplezoo``), else a folder in the system's temporary directory when neither is
writable.  ``meeplezoo warmup`` fills it ahead of time.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import warnings
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
        # A probe of its own: processes starting together must not unlink each other's.
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".probe")
        os.close(handle)
        os.unlink(probe)
        return True
    except OSError:
        return False


def cache_roots(environ=os.environ) -> list[Path]:
    """Where the cache may live, in order of preference (each gets a fingerprint folder)."""
    roots = [Path(environ["MEEPLEZOO_NUMBA_CACHE"])] if environ.get("MEEPLEZOO_NUMBA_CACHE") \
        else []
    user_cache = environ.get("XDG_CACHE_HOME")
    if not user_cache:
        try:
            user_cache = str(Path.home() / ".cache")
        except RuntimeError:            # no HOME and no password entry (some containers)
            user_cache = None
    if user_cache:
        roots.append(Path(user_cache) / "meeplezoo")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    roots.append(Path(tempfile.gettempdir()) / f"meeplezoo-cache-{uid}")
    return roots


def choose_cache_dir(environ=os.environ) -> Path:
    """The first writable root's folder for these sources (the last root if none is)."""
    fingerprint = _source_fingerprint()
    roots = cache_roots(environ)
    for root in roots:
        if _writable(root / fingerprint):
            if root != roots[0] and environ.get("MEEPLEZOO_NUMBA_CACHE"):
                warnings.warn(f"MEEPLEZOO_NUMBA_CACHE={roots[0]} is not writable; the "
                              f"compiled kernels are cached in {root} instead", stacklevel=2)
            return root / fingerprint
    return roots[-1] / fingerprint


CACHE_DIR = choose_cache_dir()
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
