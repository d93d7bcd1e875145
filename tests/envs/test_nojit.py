"""The rule tests pass with numba off, so a kernel bug can be stepped through in Python."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

# game -> its rule-test files that must also pass in plain Python
RULE_TESTS = {
    "saint_malo": ["test_saint_malo_examples.py", "test_saint_malo_edge_cases.py",
                   "test_saint_malo_kernels.py", "test_saint_malo_dice.py"],
    "hansa_teutonica": ["test_hansa_teutonica_examples.py",
                        "test_hansa_teutonica_examples_more.py"],
    "carcassonne": ["test_carcassonne_examples.py", "test_carcassonne_kernels.py"],
}


@pytest.mark.parametrize("game", list(RULE_TESTS))
def test_rule_tests_pass_with_jit_disabled(game):
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-p",
         "no:randomly", "-W", "ignore::RuntimeWarning",
         *(str(HERE / f) for f in RULE_TESTS[game])],
        env=env, capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
