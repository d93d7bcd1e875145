"""``python -m meeplezoo.benchmarks``: the speed benchmark (same options as ``.speed``)."""

from meeplezoo.benchmarks.speed.saint_malo import main

raise SystemExit(main())
