"""Training with other RL libraries (RLlib, Stable-Baselines3) on MeepleZoo's envs."""
