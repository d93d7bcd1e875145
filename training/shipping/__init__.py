"""Turning a run into a shipped bot: export, play settings tuned by the arena."""
