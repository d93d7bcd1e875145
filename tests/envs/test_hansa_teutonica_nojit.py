"""The rule tests pass with numba off, so a kernel bug can be stepped through in Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def test_rule_tests_pass_with_jit_disabled():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    files = ["test_hansa_teutonica_examples.py", "test_hansa_teutonica_examples_more.py"]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p",
         "no:randomly", "-W", "ignore::RuntimeWarning", *(str(HERE / f) for f in files)],
        env=env, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
