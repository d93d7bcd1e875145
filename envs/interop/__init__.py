"""MeepleZoo games inside other RL code: a single-agent Gymnasium view and an OpenSpiel game.

Both are written once against the kernel contract, so every registered game gets them.
"""
