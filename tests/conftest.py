"""Fixtures shared across the test folders."""

from __future__ import annotations

import builtins

import pytest


@pytest.fixture()
def without_ray(monkeypatch):
    """Imports of ray fail as on a machine without the ``ray`` extra."""
    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    yield
    monkeypatch.setattr(builtins, "__import__", real_import)
