"""Where the compiled kernels are cached, ``meeplezoo warmup``, and a read-only install.

The cache is per user (``MEEPLEZOO_NUMBA_CACHE``, else ``$XDG_CACHE_HOME/meeplezoo``), never
inside the package: an install into a read-only site-packages must play and search.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from meeplezoo.envs.core import jit
from meeplezoo.play.cli import main
from meeplezoo.play.warmup import prune_other_versions

REPO = Path(__file__).resolve().parents[2]
PACKAGE_FOLDERS = ("envs", "agents", "training", "benchmarks")


def test_the_cache_is_per_user_and_overridable(tmp_path):
    fingerprint = jit.CACHE_DIR.name
    user = tmp_path / "xdg"
    assert jit.choose_cache_dir({"XDG_CACHE_HOME": str(user)}) == user / "meeplezoo" / fingerprint
    chosen = tmp_path / "chosen"
    assert jit.choose_cache_dir({"XDG_CACHE_HOME": str(user),
                                 "MEEPLEZOO_NUMBA_CACHE": str(chosen)}) == chosen / fingerprint
    # This process's cache is not in the checkout (the test run sets no override there).
    assert REPO not in jit.CACHE_DIR.parents


def test_an_unwritable_override_falls_back_with_a_warning(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("")             # a folder below a file cannot exist, even for root
    user = tmp_path / "xdg"
    with pytest.warns(UserWarning, match="not writable"):
        chosen = jit.choose_cache_dir({"XDG_CACHE_HOME": str(user),
                                       "MEEPLEZOO_NUMBA_CACHE": str(blocker / "cache")})
    assert chosen == user / "meeplezoo" / jit.CACHE_DIR.name


def test_prune_keeps_this_version_and_foreign_folders(tmp_path):
    current = tmp_path / "0123456789abcdef"
    old = tmp_path / "fedcba9876543210"
    other = tmp_path / "notes"
    for folder in (current, old, other):
        folder.mkdir()
        (folder / "f.nbi").write_bytes(b"x" * 10)
    assert prune_other_versions(current) == 10
    assert current.exists() and other.exists() and not old.exists()


def test_warmup_prints_a_line_per_game(capsys):
    assert main(["warmup", "hansa"]) == 0
    out = capsys.readouterr().out
    assert f"compiling into {jit.CACHE_DIR}" in out
    assert "[1/1] hansa_v0: env, batch, mcts x4, greedy" in out
    assert "MB" in out.splitlines()[-1]


def test_warmup_of_an_unknown_game_is_one_clear_line(capsys):
    assert main(["warmup", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


# Runs from the read-only copy: proves it cannot write there, then plays a whole game, a
# search (two moves: subtree reuse) and the batched stepper.
READ_ONLY_CHILD = r"""
import json, os, sys
import meeplezoo.envs
package = os.path.dirname(os.path.dirname(meeplezoo.envs.__file__))
assert package == sys.argv[1], (package, sys.argv[1])
try:
    open(os.path.join(package, "probe"), "w")
    writable = True
except OSError:
    writable = False
import numpy as np
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.envs import make
from meeplezoo.envs.core import jit
from meeplezoo.envs.core.batch import BatchEnv
env = make("hansa_v0", num_players=2)
env.reset(seed=0)
rng = np.random.default_rng(0)
while not env.game_over:
    env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
env.reset(seed=1)
agent = MCTSAgent(simulations=16, seed=0)
for _ in range(2):
    action = agent.act(env)
    assert env.action_mask()[action] == 1
    env.step(action)
batch = BatchEnv(env.unwrapped.spec, 2, 2)
batch.reset()
batch.step(batch.random_actions())
print(json.dumps({"writable": writable, "cache_dir": str(jit.CACHE_DIR)}))
"""


def _read_only_runner(site: Path) -> list[str] | None:
    """A command prefix that runs its command with ``site`` read-only: a read-only bind
    mount in a private mount namespace (root here: file modes do not stop root), or the
    file modes for any other user."""
    if os.geteuid() != 0:
        for path in [site, *site.rglob("*")]:
            path.chmod(path.stat().st_mode & ~0o222)
        return []
    remount = f"mount --bind {site} {site} && mount -o remount,bind,ro {site} && exec \"$@\""
    for unshare in (["unshare", "-m"], ["unshare", "-rm"]):
        probe = subprocess.run([*unshare, "sh", "-c", remount, "sh", "true"],
                               capture_output=True, timeout=60)
        if probe.returncode == 0:
            return [*unshare, "sh", "-c", remount, "sh"]
    return None


@pytest.mark.skipif(jit.JIT_DISABLED, reason="the cache matters only when compiling")
def test_a_read_only_install_plays_and_searches():
    root = Path(tempfile.mkdtemp(prefix="meeplezoo-readonly-"))
    try:
        site = root / "site-packages"
        for folder in PACKAGE_FOLDERS:    # the wheel's layout: meeplezoo/<folder>
            shutil.copytree(REPO / folder, site / "meeplezoo" / folder,
                            ignore=shutil.ignore_patterns("__pycache__", "results"))
        before = sorted((str(p), p.stat().st_mtime_ns) for p in site.rglob("*"))
        runner = _read_only_runner(site)
        if runner is None:
            pytest.skip("cannot make a folder read-only here (root without mount namespaces)")
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("MEEPLEZOO_NUMBA_CACHE", "NUMBA_CACHE_DIR")}
        environment |= {"PYTHONPATH": str(site), "XDG_CACHE_HOME": str(root / "cache")}
        done = subprocess.run([*runner, sys.executable, "-c", READ_ONLY_CHILD,
                               str(site / "meeplezoo")], env=environment,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["writable"] is False                    # the premise held
        cache_dir = Path(result["cache_dir"])
        assert cache_dir.parent == root / "cache" / "meeplezoo"
        assert list(cache_dir.rglob("*.nbi")) and list(cache_dir.glob("generated/*.py"))
        for path in site.rglob("*"):                          # undo, to compare and delete
            path.chmod(path.stat().st_mode | 0o200)
        assert sorted((str(p), p.stat().st_mtime_ns) for p in site.rglob("*")) == before
    finally:
        shutil.rmtree(root, ignore_errors=True)
