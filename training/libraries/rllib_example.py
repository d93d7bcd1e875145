"""Worked example: RLlib's PPO (new API stack) on a MeepleZoo game by self-play, through
RLlib's PettingZoo wrapper, with an action-masking RLModule.

    python -m meeplezoo.training.libraries.rllib_example --game hansa_v0 --iterations 20

Every seat maps to one shared policy (self-play).  The policy is :class:`MaskedPolicy`,
a small torch RLModule that reads the observation dict every MeepleZoo env gives
(``{"observation", "action_mask"}``) and pushes the logits of illegal moves to a large
negative number, so PPO never samples one.  After training, the module plays
``--eval-games`` games against ``random`` (seats alternated, its most likely move) and
the win rate is printed.

**Why ``illegal="penalty"``**: RLlib checks every env before it trains
(``check_multiagent_environments``) by stepping it with an action sampled from the
action space, ignoring the mask.  A MeepleZoo env refuses an illegal move with a
``ValueError`` by default, which fails that check; ``illegal="penalty"`` (PettingZoo's
terminate-on-illegal convention) ends the game instead, the offender scoring -1.  With the
masking module no illegal move is ever played in training, so the setting changes nothing
but the check.

Needs ``pip install 'meeplezoo[rllib]'`` (Ray with RLlib; torch from the ``train`` extra).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from meeplezoo.envs import game_argument, make

ENV_NAME = "meeplezoo"
POLICY = "shared"


def make_rllib_env(config: dict):
    """The RLlib env of ``config["game"]``: the AEC env with ``illegal="penalty"`` (module
    docstring) in RLlib's ``PettingZooEnv``."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    options = {k: v for k, v in config.items() if k != "game"}
    options.setdefault("illegal", "penalty")
    return PettingZooEnv(make(config["game"], **options))


def masked_policy_class():
    """:class:`MaskedPolicy`, defined on first use so that importing this module needs
    neither torch nor RLlib."""
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from torch import nn

    class MaskedPolicy(TorchRLModule, ValueFunctionAPI):
        """Policy and value heads on one tanh MLP trunk; illegal moves masked out."""

        def setup(self):
            obs_size = self.observation_space["observation"].shape[0]
            hidden = int(self.model_config.get("hidden", 128))
            self.trunk = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                       nn.Linear(hidden, hidden), nn.Tanh())
            self.policy_head = nn.Linear(hidden, self.action_space.n)
            self.value_head = nn.Linear(hidden, 1)

        def _forward(self, batch, **kwargs):
            obs = batch[Columns.OBS]
            features = self.trunk(obs["observation"].float())
            # Not -inf: a finished game's observation masks every move, and PPO still
            # builds a distribution from it (never sampled); -1e9 keeps it finite.
            logits = self.policy_head(features).masked_fill(obs["action_mask"] == 0, -1e9)
            return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: features}

        def compute_values(self, batch, embeddings=None):
            if embeddings is None:
                embeddings = self.trunk(batch[Columns.OBS]["observation"].float())
            return self.value_head(embeddings).squeeze(-1)

        def best_action(self, observation: dict) -> int:
            """The most likely legal move of one observation (for play)."""
            with torch.no_grad():
                obs = {k: torch.as_tensor(np.asarray(v))[None] for k, v in observation.items()}
                return int(self._forward({Columns.OBS: obs})[Columns.ACTION_DIST_INPUTS]
                           .argmax(-1)[0])

    return MaskedPolicy


def build(game: str = "hansa_v0", seed: int = 0, hidden: int = 128, batch: int = 1000,
          env_runners: int = 0, **env_options):
    """An RLlib PPO algorithm training :class:`MaskedPolicy` on ``game`` by self-play."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_rllib_env)
    module = RLModuleSpec(module_class=masked_policy_class(), model_config={"hidden": hidden})
    config = (PPOConfig()
              .environment(ENV_NAME, env_config={"game": game, **env_options})
              .multi_agent(policies={POLICY},
                           policy_mapping_fn=lambda agent_id, episode, **kwargs: POLICY)
              .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
              .env_runners(num_env_runners=env_runners)
              .training(train_batch_size_per_learner=batch, minibatch_size=min(256, batch),
                        num_epochs=4, lr=3e-4)
              .debugging(seed=seed))
    return config.build_algo()


def win_rate(module, game: str, games: int, seed: int = 10_000) -> float:
    """Score of ``module``'s most likely move against ``random`` (seats alternated, ties
    half) over ``games`` 2-player games."""
    from meeplezoo.agents.registry import make_agent

    total = 0.0
    for index in range(games):
        env, seat = make(game, num_players=2), index % 2
        env.reset(seed=seed + index)
        opponent = make_agent("random", game, seed=seed + index)
        while not env.game_over:
            agent = env.agent_selection
            if env.agents.index(agent) == seat:
                env.step(module.best_action(env.observe(agent)))
            else:
                env.step(opponent.act(env))
        reward = env.rewards[env.possible_agents[seat]]
        total += (reward + 1.0) / 2.0
    return total / games


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="hansa_v0", type=game_argument)
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--batch", type=int, default=1000, help="env steps per iteration")
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--env-runners", type=int, default=0,
                        help="RLlib env runner actors (0: sample in the driver)")
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    from meeplezoo.training.run.ray_cluster import connect

    ray, started = connect(None, cpus=max(1, args.env_runners + 1))
    try:
        algo = build(args.game, args.seed, args.hidden, args.batch, args.env_runners)
        started_at = time.perf_counter()
        for iteration in range(1, args.iterations + 1):
            runners = algo.train()["env_runners"]
            print(f"iteration {iteration}: {runners.get('num_episodes', 0)} episodes, "
                  f"mean length {runners.get('episode_len_mean', float('nan')):.0f}, "
                  f"{time.perf_counter() - started_at:.0f} s", flush=True)
        rate = win_rate(algo.get_module(POLICY), args.game, args.eval_games)
        print(f"RLlib PPO after {args.iterations} iterations: win rate {rate:.2f} against "
              f"random over {args.eval_games} games")
        algo.stop()
        return rate
    finally:
        if started:
            ray.shutdown()


if __name__ == "__main__":
    main()
