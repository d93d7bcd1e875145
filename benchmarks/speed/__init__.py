"""Speed benchmarks: MeepleZoo's games, search and training against peers, run in one process."""
