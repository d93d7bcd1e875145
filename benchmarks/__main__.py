"""``python -m meeplezoo.benchmarks``: the speed benchmark (same options as ``.speed``)."""

from .speed import main

raise SystemExit(main())
