# MeepleZoo: `make demo` and `make test` work on a fresh machine with only Python 3.11.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# CPU build of torch first (an unpinned torch would pull a multi-GB CUDA build).
TORCH_CPU := torch==2.13.0

.PHONY: demo test test-nojit lint bench setup clean docs

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(TORCH_CPU) || echo "torch CPU build unavailable; training extras skipped"
	$(PY) -m pip install --quiet -e ".[dev,train,ray,rllib,web,docs]"
	@touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/meeplezoo demo

test: $(STAMP)
	$(PY) -m pytest -q -n 2 --dist loadfile

test-nojit: $(STAMP)
	NUMBA_DISABLE_JIT=1 $(PY) -m pytest -q tests/envs/test_saint_malo_examples.py tests/envs/test_saint_malo_edge_cases.py

# The documentation site into site/ (mkdocs.yml); a warning fails the build.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	$(PY) -m pip install --quiet -e ".[peers]"
	$(PY) -m meeplezoo.benchmarks.speed.saint_malo
	$(PY) -m meeplezoo.benchmarks.speed.peers

clean:
	rm -rf $(VENV) .pytest_cache *.egg-info   # the compile cache: meeplezoo warmup --prune
