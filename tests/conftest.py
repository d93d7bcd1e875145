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


@pytest.fixture(scope="module")
def two_nodes():
    """A two-node Ray cluster on 127.0.0.1 (one CPU a node) for a test module; the
    module sets ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` before it imports ray."""
    ray = pytest.importorskip("ray")
    from meeplezoo.training.run.ray_cluster import loopback_cluster

    cluster = loopback_cluster(2)
    yield cluster
    ray.shutdown()
    cluster.shutdown()

