"""MeepleZoo environments."""
