"""Every file read on a user's word goes through ``envs/core/files.py``: regular files only,
never blocking, bounded in size (after decompression too), JSON strict and shallow, and
only inside the allowed folders where a policy is set, with one message whether the path
exists or not."""

from __future__ import annotations

import gzip
import io
import json
import os
import zipfile

import numpy as np
import pytest
from deadline import finishes

from meeplezoo.envs.core import files
from meeplezoo.envs.core.files import FileRefused


@pytest.fixture()
def fifo(tmp_path):
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def test_a_regular_file_reads_whole(tmp_path):
    path = tmp_path / "fit.json"
    path.write_text('{"a": [1, 2.5, "x"]}')
    assert files.read_json(path, "fitted-value") == {"a": [1, 2.5, "x"]}
    assert files.read_bytes(path, "board") == path.read_bytes()


def test_a_fifo_is_refused_without_blocking(fifo):
    with pytest.raises(FileRefused, match="not a regular file"):
        finishes(lambda: files.read_bytes(fifo, "fitted-value"))


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/stdin", "/proc/self/status",
                                     "/proc/self/fd/0", "/sys/kernel/mm"])
def test_devices_and_kernel_files_are_refused(special):
    if not os.path.exists(special):
        pytest.skip(f"{special} is not on this machine")
    with pytest.raises(FileRefused, match="not a regular file"):
        finishes(lambda: files.read_bytes(special, "checkpoint"))


def test_a_link_to_a_device_and_a_directory_are_refused(tmp_path):
    link = tmp_path / "weights.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileRefused, match="not a regular file"):
        finishes(lambda: files.read_json(link, "fitted-value"))
    with pytest.raises(FileRefused, match="not a regular file|cannot read"):
        files.read_bytes(tmp_path, "map")


def test_a_missing_file_and_a_bad_name_are_one_line(tmp_path):
    with pytest.raises(FileRefused, match="no such board file"):
        files.read_bytes(tmp_path / "nothing.json", "board")
    with pytest.raises(FileRefused, match="not a map file name"):
        files.read_bytes("a\0b", "map")


def test_the_size_cap_is_checked_before_reading(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    assert len(files.read_bytes(path, "board", limit=2048)) == 2048
    with pytest.raises(FileRefused, match="2,048 bytes, over the 1,024"):
        files.read_bytes(path, "board", limit=1024)


@pytest.mark.parametrize("text, message", [
    ("[" * 100_000 + "]" * 100_000, "nested"),
    (json.dumps([[[[[[[[1]]]]]]]]), "nested more than 4 levels"),
    ('{"w": NaN}', "NaN is not a number JSON allows"),
    ('{"w": Infinity}', "Infinity is not a number JSON allows"),
    ('{"w": -Infinity}', "Infinity is not a number JSON allows"),
    ("1" * 5000, "not valid JSON"),
    ('{"w": 1', "not valid JSON"),
    (b"\xff\xfe", "not UTF-8")])
def test_json_is_strict_and_shallow(text, message):
    depth = 4 if message.startswith("nested more") else files.MAX_JSON_DEPTH
    with pytest.raises(FileRefused, match=message):
        files.parse_json(text, "the file", depth=depth)


def test_json_errors_never_quote_the_file(tmp_path):
    secret = tmp_path / "secret"
    secret.write_text("root:TOPSECRET-API-KEY-123:0:0\n")
    with pytest.raises(FileRefused) as caught:
        files.read_json(secret, "fitted-value")
    assert "TOPSECRET" not in str(caught.value) and "\n" not in str(caught.value)


def test_gzip_is_bounded_after_decompression(tmp_path):
    path = tmp_path / "records.jsonl.gz"
    path.write_bytes(gzip.compress(b"0" * 10_000_000))       # ~10 kB that inflates to 10 MB
    assert len(files.read_gzip(path, "ladder records", limit=20_000_000)) == 10_000_000
    with pytest.raises(FileRefused, match="inflates to over"):
        files.read_gzip(path, "ladder records", limit=1_000_000)


def test_an_npz_header_is_checked_before_its_array_is_made(tmp_path):
    good = tmp_path / "good.npz"
    np.savez(good, states=np.arange(6, dtype=np.int64).reshape(2, 3))
    assert files.load_npz(good, "value-set")["states"].tolist() == [[0, 1, 2], [3, 4, 5]]
    # A member that claims 10**12 int64s in a few bytes: refused from its header alone.
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": "<i8", "fortran_order": False, "shape": (10**12,)})
    bomb = tmp_path / "bomb.npz"
    with zipfile.ZipFile(bomb, "w") as archive:
        archive.writestr("states.npy", np.lib.format.MAGIC_PREFIX + b"\x01\x00" +
                         header.getvalue()[8:])
    with pytest.raises(FileRefused, match="its arrays hold over"):
        files.load_npz(bomb, "value-set", limit=1_000_000)
    objects = tmp_path / "objects.npz"
    np.savez(objects, states=np.array([{"a": 1}], dtype=object))
    with pytest.raises(FileRefused, match="Python objects"):
        files.load_npz(objects, "value-set")


def test_outside_the_allowed_folders_nothing_is_read_or_asked(tmp_path, fifo):
    allowed, outside = tmp_path / "allowed", tmp_path / "outside"
    allowed.mkdir()
    outside.mkdir()
    (allowed / "fit.json").write_text("{}")
    secret = outside / "secret.json"
    secret.write_text('{"rules": "TOPSECRET"}')
    (allowed / "escape.json").symlink_to(secret)
    with files.only_inside(allowed):
        assert files.read_json(allowed / "fit.json", "fitted-value") == {}
        messages = []
        for path in (secret, outside / "missing.json", fifo, "/dev/zero", "/etc/shadow",
                     allowed / "escape.json", allowed / ".." / "outside" / "secret.json"):
            with pytest.raises(FileRefused, match="may not be named here") as caught:
                finishes(lambda path=path: files.read_json(path, "fitted-value"))
            messages.append(str(caught.value).replace(str(path), "PATH"))
        assert len(set(messages)) == 1, messages      # existing or not: the same answer
        assert "TOPSECRET" not in messages[0]
        with files.only_inside():
            with pytest.raises(FileRefused, match="may not be named here"):
                files.read_json(allowed / "fit.json", "fitted-value")
    assert files.allowed_folders() is None
    assert files.read_json(secret, "fitted-value") == {"rules": "TOPSECRET"}
