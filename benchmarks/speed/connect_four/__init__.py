"""Connect four on the kernel contract: a calibration game for the benchmarks.

Not a MeepleZoo game (it is not in ``meeplezoo.envs``' registry): it exists so our
kernels, batched stepper and MCTS can be measured and checked against peers that ship
connect four (OpenSpiel, PettingZoo, pgx) with exactly the same rules.

>>> from meeplezoo.benchmarks.speed.connect_four import SPEC, raw_env
"""

from meeplezoo.benchmarks.speed.connect_four.env import SPEC, env, raw_env

__all__ = ["SPEC", "env", "raw_env"]
