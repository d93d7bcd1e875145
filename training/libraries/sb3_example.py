"""Worked example: ``sb3_contrib.MaskablePPO`` on a MeepleZoo game through the Gymnasium view.

    python -m meeplezoo.training.libraries.sb3_example --game saint_malo_v0 --steps 20000

The learner holds a random seat of a 2-player game against ``--opponent`` (random by
default); MaskablePPO reads the legal actions from ``env.action_masks()``.  After training,
the model plays ``--eval-games`` games against the same opponent and the win rate is
printed.  Needs ``pip install sb3-contrib`` (in the ``dev`` extra).
"""

from __future__ import annotations

import argparse

from meeplezoo.envs import game_argument
from meeplezoo.envs.interop.gymnasium_view import SingleAgentEnv


def train(game: str = "saint_malo_v0", opponent: str = "random", steps: int = 20_000,
          seed: int = 0, n_steps: int = 512, n_epochs: int = 10, verbose: int = 0):
    """A MaskablePPO model trained for ``steps`` learner decisions; returns (model, env)."""
    from sb3_contrib import MaskablePPO

    env = SingleAgentEnv(game, opponents=[opponent], seat="random")
    model = MaskablePPO("MlpPolicy", env, n_steps=n_steps, batch_size=min(128, n_steps),
                        n_epochs=n_epochs, seed=seed, verbose=verbose, device="cpu")
    model.learn(total_timesteps=steps)
    return model, env


def win_rate(model, env: SingleAgentEnv, games: int, seed: int = 10_000) -> float:
    """Mean final reward mapped to [0, 1] (1 = every game won) over ``games`` games."""
    total = 0.0
    for game in range(games):
        obs, _ = env.reset(seed=seed + game)
        terminated = False
        while not terminated:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, terminated, _, _ = env.step(int(action))
        total += (reward + 1.0) / 2.0
    return total / games


def main(argv: list[str] | None = None) -> float:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="saint_malo_v0", type=game_argument)
    parser.add_argument("--opponent", default="random")
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    model, env = train(args.game, args.opponent, args.steps, args.seed, verbose=1)
    rate = win_rate(model, env, args.eval_games)
    print(f"MaskablePPO after {args.steps} steps: win rate {rate:.2f} against "
          f"{args.opponent} over {args.eval_games} games "
          f"(mean final reward {2 * rate - 1:+.2f}; {round(rate * args.eval_games)} wins)")
    return rate


if __name__ == "__main__":
    main()
