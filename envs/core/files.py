"""Reading a file someone named: bounded, never blocking, and only where reading is allowed.

Every file the program reads on a user's word (checkpoints, fitted values, value sets,
boards, maps, replays, saved games, ladders, states) goes through this module, so one set
of rules holds everywhere:

- **Regular files only.**  A FIFO, a device (``/dev/zero``), a directory, a socket or a
  kernel pseudo-file (``/proc``, ``/sys``) is refused.  The file is opened with
  ``O_NONBLOCK`` and checked with ``fstat`` before a byte is read, so a FIFO or
  ``/dev/stdin`` cannot freeze the reader.
- **A size cap that fits the kind of file** (:data:`LIMITS`), checked before reading and
  again while reading (a file that grows is cut off, never read to exhaustion).
- **JSON with a depth limit**, no ``NaN``/``Infinity`` constants and no integer too long
  to convert, so a parsed document is small, finite and shallow.
- **Compressed data bounded after decompression** (``.gz`` records, ``.npz`` arrays, whose
  headers are checked before any array is allocated).
- **Only inside allowed folders where a policy is set.**  :func:`only_inside` sets, for the
  code it wraps (a server request), the folders reads may come from; any other path is
  refused with the same message whether it exists or not, before the filesystem is asked.

Every refusal is a :class:`FileRefused` (a ``ValueError``) with one line that names the
path as given and the kind of file, never the file's contents.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import zipfile
import zlib
from contextvars import ContextVar

KIB, MIB = 1024, 1024 * 1024
# The most bytes a kind of file may hold.  Shipped bots are ~4 MB and a training
# checkpoint with its optimizer state a few times that; a replay of the longest game is
# under 1 MB; fitted values, boards and maps a few KB; a ladder's records ~30 KB gzipped.
LIMITS = {"checkpoint": 256 * MIB, "fitted-value": 1 * MIB, "value-set": 1024 * MIB,
          "value-set header": 1 * MIB, "board": 1 * MIB, "map": 1 * MIB,
          "region": 1 * MIB, "replay": 16 * MIB, "saved game": 16 * MIB,
          "ladder": 4 * MIB, "ladder records": 64 * MIB, "state": 16 * MIB,
          "opponent pool": 4 * MIB, "records": 256 * MIB, "positions": 1024 * MIB}
MAX_JSON_DEPTH = 64                 # the deepest real document (a replay) nests 5 levels
PSEUDO_ROOTS = ("/proc", "/sys", "/dev")
# ``.npy`` header versions numpy writes, and the reader of each one's header.
HEADER_READERS = {(1, 0): "read_array_header_1_0", (2, 0): "read_array_header_2_0"}

_allowed: ContextVar[tuple[str, ...] | None] = ContextVar("meeplezoo_allowed_folders",
                                                          default=None)


class FileRefused(ValueError):
    """A file that may not or cannot be read as the kind asked for (one line)."""


def _shown(path) -> str:
    text = os.fspath(path) if isinstance(path, str | os.PathLike) else repr(path)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= 120 else text[:117] + "..."


@contextlib.contextmanager
def only_inside(*folders):
    """Within the block, reads are allowed only under ``folders`` (their real paths); a
    call with no folder allows none.  Nested blocks narrow to the innermost's folders."""
    real = tuple(os.path.realpath(os.fspath(f)) for f in folders)
    token = _allowed.set(real)
    try:
        yield
    finally:
        _allowed.reset(token)


def allowed_folders() -> tuple[str, ...] | None:
    """The folders reads are limited to now, or None where any path may be read."""
    return _allowed.get()


def is_inside(path, folders) -> bool:
    """Whether ``path``, symbolic links resolved, lies in one of ``folders`` (real paths)."""
    real = os.path.realpath(os.fspath(path))
    return any(real == f or real.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


def check_allowed(path, kind: str) -> None:
    """Refuse ``path`` when a policy is set and it lies outside the allowed folders; the
    message is the same whether the path exists or not."""
    folders = _allowed.get()
    if folders is None:
        return
    try:
        inside = isinstance(path, str | os.PathLike) and is_inside(path, folders)
    except (ValueError, OSError):            # a NUL byte, a name too long
        inside = False
    if not inside:
        raise FileRefused(f"{_shown(path)}: a {kind} file may not be named here (only the "
                          f"shipped ones, or files in a folder the server was started "
                          f"to allow)")


def exists(path, kind: str) -> bool:
    """Whether ``path`` exists, asked only once the read policy allows it (so a caller's
    own "no such file" message never tells a request what lies outside the allowed
    folders): the check before a friendlier message than :func:`read_bytes`' own."""
    check_allowed(path, kind)
    return os.path.exists(path)


def read_bytes(path, kind: str, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` (the kind's by default)."""
    limit = LIMITS[kind] if limit is None else limit
    check_allowed(path, kind)
    where = _shown(path)
    try:
        name = os.fspath(path)
        real = os.path.realpath(name)
    except (TypeError, ValueError) as err:
        raise FileRefused(f"{where}: not a {kind} file name ({err})") from None
    if any(real == root or real.startswith(root + os.sep) for root in PSEUDO_ROOTS):
        raise FileRefused(f"{where} is not a regular file (a {kind} file must be one)")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | \
        getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(name, flags)
    except FileNotFoundError:
        raise FileRefused(f"{where}: no such {kind} file") from None
    except (OSError, ValueError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise FileRefused(f"{where}: cannot read the {kind} file ({reason})") from None
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{where} is not a regular file (a {kind} file must be one)")
        if info.st_size > limit:
            raise FileRefused(f"{where} is {info.st_size:,} bytes, over the {limit:,} a "
                              f"{kind} file may have")
        chunks, total = [], 0
        while True:
            chunk = os.read(handle, min(4 * MIB, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileRefused(f"{where} grew over the {limit:,} bytes a {kind} file "
                                  f"may have")
        return b"".join(chunks)
    except OSError as err:
        raise FileRefused(f"{where}: cannot read the {kind} file ({err.strerror})") from None
    finally:
        os.close(handle)


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def json_depth(value) -> int:
    """How deeply ``value``'s lists and objects nest (0 for a scalar), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in item
                         if isinstance(child, dict | list))
    return deepest


def parse_json(text: str | bytes, what: str, depth: int = MAX_JSON_DEPTH):
    """``text`` parsed as strict JSON (no NaN or Infinity, no integer over 4,300 digits,
    nesting at most ``depth``), or one :class:`FileRefused` naming ``what``."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise FileRefused(f"{what} is not valid JSON: not UTF-8 text") from None
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise FileRefused(f"{what} is not valid JSON ({err.msg} at line {err.lineno} "
                          f"column {err.colno})") from None
    except RecursionError:
        raise FileRefused(f"{what} is not valid JSON: nested too deeply") from None
    except ValueError as err:                # NaN/Infinity, an integer too long to convert
        raise FileRefused(f"{what} is not valid JSON: {str(err).splitlines()[0][:100]}") \
            from None
    if json_depth(value) > depth:
        raise FileRefused(f"{what} is nested more than {depth} levels deep")
    return value


def read_json(path, kind: str, limit: int | None = None, depth: int = MAX_JSON_DEPTH):
    """The JSON document in the regular file ``path`` (:func:`read_bytes`,
    :func:`parse_json`)."""
    return parse_json(read_bytes(path, kind, limit), f"{_shown(path)} ({kind} file)", depth)


def read_gzip(path, kind: str, limit: int | None = None) -> bytes:
    """The gzip file ``path`` decompressed, at most ``limit`` bytes after decompression
    (a small file that inflates without end is cut off, not held)."""
    limit = LIMITS[kind] if limit is None else limit
    raw = read_bytes(path, kind, limit)
    inflater = zlib.decompressobj(wbits=31)
    try:
        data = inflater.decompress(raw, limit + 1)
    except zlib.error as err:
        raise FileRefused(f"{_shown(path)} is not a gzip {kind} file ({err})") from None
    if len(data) > limit or inflater.unconsumed_tail:
        raise FileRefused(f"{_shown(path)} inflates to over the {limit:,} bytes a {kind} "
                          f"file may have")
    return data


def load_npz(path, kind: str, limit: int | None = None, data: bytes | None = None) -> dict:
    """The arrays of the ``.npz`` file ``path`` (or of its bytes ``data``, already read
    with :func:`read_bytes`), read without pickle; every member's header (shape, dtype) is
    checked against ``limit`` before its array is allocated."""
    import numpy as np

    limit = LIMITS[kind] if limit is None else limit
    where = _shown(path)
    raw = read_bytes(path, kind, limit) if data is None else data
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            total = 0
            for member in archive.infolist():
                with archive.open(member) as handle:
                    version = np.lib.format.read_magic(handle)
                    if version not in HEADER_READERS:
                        raise ValueError(f"{member.filename}: .npy format {version}")
                    shape, _, dtype = getattr(np.lib.format, HEADER_READERS[version])(handle)
                if dtype.hasobject:
                    raise FileRefused(f"{where}: {member.filename} holds Python objects; "
                                      f"a {kind} file holds numbers only")
                total += int(np.prod(shape, dtype=object)) * dtype.itemsize
                if total > limit:
                    raise FileRefused(f"{where}: its arrays hold over the {limit:,} bytes a "
                                      f"{kind} file may have")
            with np.load(io.BytesIO(raw), allow_pickle=False) as npz:
                return {name: npz[name] for name in npz.files}
    except FileRefused:
        raise
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, KeyError) as err:
        raise FileRefused(f"{where} is not a {kind} file (.npz): "
                          f"{str(err).splitlines()[0][:100] if str(err) else type(err).__name__}"
                          ) from None

