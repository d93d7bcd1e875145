"""Leaf values fitted to game results (``python -m meeplezoo.training.value.fit``)."""
