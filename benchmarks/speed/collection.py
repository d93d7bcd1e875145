"""Self-play collection throughput: our batched collector against Python loops over AEC envs.

``python -m meeplezoo.benchmarks.speed.collection [--quick]`` measures, in one process, env
steps per second *including policy inference* with the same freshly initialised network
(the training default, a 256-256 MLP) and masked sampling:

* ours: ``training.collect.Collector`` on a 1024-game ``BatchEnv`` (one compiled env call
  and one torch forward per step for all games);
* loop, batch-1 inference: a Python loop over 1024 AEC envs calling the policy once per
  env per step — how a PettingZoo AEC user typically collects;
* loop, batched inference: the same loop, but one forward per step over the 1024 envs'
  observations (the best a careful user can do without a batched env).

Writes ``results/collection.json``.  torch runs on 1 CPU thread (set
``--threads``): on a shared 2-core machine more threads slow every small op down.
"""

from __future__ import annotations

import argparse
import time
from datetime import datetime, timezone

import numpy as np

from meeplezoo.benchmarks.common import RESULTS_DIR, machine_info, say, write_report


def measure(game: str, num_envs: int, steps: int, hidden: tuple[int, ...], threads: int,
            seed: int = 0) -> dict:
    import torch

    from meeplezoo.agents.layers import masked_distribution
    from meeplezoo.agents.ppo.network import make_network, network_meta
    from meeplezoo.envs import make, spec
    from meeplezoo.envs.core.batch import BatchEnv
    from meeplezoo.training.ppo.collect import Collector

    torch.set_num_threads(threads)
    game_spec = spec(game)
    torch.manual_seed(seed)
    policy = make_network(network_meta(game, game_spec.obs_size, game_spec.num_actions, hidden))
    collector = Collector(BatchEnv(game_spec, num_envs, 2, seed=seed), steps)
    collector.collect(policy)                                # compile, allocate
    started = time.perf_counter()
    collector.collect(policy)
    ours = steps * num_envs / (time.perf_counter() - started)
    say(f"  ours: {ours:,.0f} steps/s")

    envs = [make(game, num_players=2) for _ in range(num_envs)]
    for index, env in enumerate(envs):
        env.reset(seed=seed + index)

    def loop(rounds: int, batched: bool) -> float:
        started = time.perf_counter()
        with torch.no_grad():
            for _ in range(rounds):
                for index, env in enumerate(envs):
                    if env.game_over:
                        env.reset(seed=seed + index)
                seen = [env.observe(env.agent_selection) for env in envs]
                obs = torch.from_numpy(np.stack([s["observation"] for s in seen]))
                masks = torch.from_numpy(np.stack([s["action_mask"] for s in seen]))
                if batched:
                    logits, _ = policy(obs)
                    actions = masked_distribution(logits, masks).sample().tolist()
                else:
                    actions = [int(masked_distribution(policy(obs[i:i + 1])[0],
                                                       masks[i:i + 1]).sample()[0])
                               for i in range(num_envs)]
                for env, action in zip(envs, actions, strict=True):
                    env.step(int(action))
        return rounds * num_envs / (time.perf_counter() - started)

    per_env = loop(max(1, steps // 4), batched=False)
    say(f"  loop, batch-1 inference: {per_env:,.0f} steps/s")
    batched = loop(steps, batched=True)
    say(f"  loop, batched inference: {batched:,.0f} steps/s")
    return {"game": game, "num_envs": num_envs, "hidden": list(hidden), "threads": threads,
            "ours_steps_per_s": ours, "loop_batch1_steps_per_s": per_env,
            "loop_batched_steps_per_s": batched,
            "ratio_vs_batch1_loop": ours / per_env, "ratio_vs_batched_loop": ours / batched}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m meeplezoo.benchmarks.speed.collection")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args(argv)
    steps, envs = (4, 64) if args.quick else (16, 1024)
    report = {"benchmark": "collection", "machine": machine_info(),
              "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "command": "python -m meeplezoo.benchmarks.speed.collection"
                         + (" --quick" if args.quick else ""), "results": []}
    for hidden in ((256, 256), (64,)):
        say(f"network {hidden}, batch {envs}")
        report["results"].append(measure("saint_malo_v0", envs, steps, hidden, args.threads))
    out = RESULTS_DIR / ("collection_quick.json" if args.quick else "collection.json")
    write_report(report, out)
    for row in report["results"]:
        print(f"{row['hidden']}: ours {row['ours_steps_per_s']:,.0f} steps/s = "
              f"{row['ratio_vs_batch1_loop']:.1f}x the batch-1 loop, "
              f"{row['ratio_vs_batched_loop']:.1f}x the batched-inference loop")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
