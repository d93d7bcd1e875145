"""The SPRT's measured error rates: simulated matches at the two hypotheses' Elo
differences, each stopped by the test after every pair.

    python -m meeplezoo.benchmarks.studies.sprt_error_rates [--elo0 0 --elo1 10 --runs 1000]

At ``true_elo = elo0`` the share that accepts H1 is the measured alpha; at ``elo1`` the
share that accepts H0 is the measured beta.  Pairs of independent games with a draw rate.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from meeplezoo.benchmarks.common import RESULTS_DIR
from meeplezoo.benchmarks.rating.sprt import simulate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--draw", type=float, default=0.2, help="draw rate of a game")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--out", default=str(RESULTS_DIR / "sprt_error_rates.json"))
    args = parser.parse_args(argv)
    common = dict(elo0=args.elo0, elo1=args.elo1, runs=args.runs, alpha=args.alpha,
                  beta=args.beta, draw=args.draw)
    at_h0 = simulate(args.elo0, **common, seed=1)
    at_h1 = simulate(args.elo1, **common, seed=2)
    result = {**common, "measured_alpha": at_h0["accepted_h1"],
              "measured_beta": at_h1["accepted_h0"], "at_elo0": at_h0, "at_elo1": at_h1,
              "command": f"python -m meeplezoo.benchmarks.studies.sprt_error_rates "
                         f"--elo0 {args.elo0:g} "
                         f"--elo1 {args.elo1:g} --runs {args.runs} --draw {args.draw:g}"}
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
