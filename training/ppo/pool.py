"""An opponent pool of past policy snapshots, sampled by recency and strength.

Snapshots live in one folder: ``snapshot_<update>.pt`` (a dict of tensors and primitives:
``meta``, ``model``, ``update``; written atomically, read with ``weights_only=True``) and
``index.json`` (ids, updates and scores, rewritten atomically) so a resumed run gets its
pool back.  A snapshot's id is the update it was taken at.

Sampling weight of a snapshot: ``recency ** age_rank * (1 - score + 0.1)`` where
``age_rank`` is 0 for the newest snapshot, 1 for the one before, ... and ``score`` is the
learner's running score against it (1 win, 0 loss; 0.5 before any game), moved towards
each reported result by :data:`SCORE_RATE`.  Snapshots that beat the learner come more.
"""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from pathlib import Path

import numpy as np
import torch

from meeplezoo.agents.ppo.network import make_network
from meeplezoo.envs.core.files import read_json
from meeplezoo.training.run.checkpoint import FORMAT, atomic_write, load_checkpoint, load_weights

SCORE_RATE = 0.05
"""Step of a snapshot's score towards each reported game result (an exponential mean)."""
CACHE_SIZE = 3
"""Loaded snapshot networks kept in memory."""


class OpponentPool:
    """At most ``max_size`` past policies in ``folder`` (the oldest dropped first)."""

    def __init__(self, folder: str | os.PathLike, max_size: int = 10,
                 recency_weight: float = 0.8):
        if max_size < 1:
            raise ValueError(f"max_size must be at least 1, got {max_size}")
        if not 0.0 < recency_weight <= 1.0:
            raise ValueError(f"recency_weight must lie in (0, 1], got {recency_weight}")
        self.folder, self.max_size, self.recency_weight = Path(folder), max_size, recency_weight
        self.folder.mkdir(parents=True, exist_ok=True)
        self.entries: list[dict] = []           # oldest first: id, update, score, games
        self._cache: OrderedDict[int, torch.nn.Module] = OrderedDict()
        index = self.folder / "index.json"
        if index.exists():
            self.entries = read_json(index, "opponent pool")["snapshots"]

    def __len__(self) -> int:
        return len(self.entries)

    @property
    def ids(self) -> list[int]:
        return [entry["id"] for entry in self.entries]

    def path(self, snapshot_id: int) -> Path:
        return self.folder / f"snapshot_{snapshot_id:08d}.pt"

    def add(self, update: int, state_dict: dict, meta: dict) -> int:
        """Save a snapshot taken at ``update``; returns its id (the update)."""
        snapshot_id = int(update)
        payload = {"format": FORMAT, "meta": dict(meta), "update": snapshot_id, "counters": {},
                   "model": {k: v.detach().cpu().clone() for k, v in state_dict.items()}}
        atomic_write(self.path(snapshot_id), lambda file: torch.save(payload, file))
        self.entries = [e for e in self.entries if e["id"] != snapshot_id]
        self._cache.pop(snapshot_id, None)
        self.entries.append({"id": snapshot_id, "update": snapshot_id, "score": 0.5,
                             "games": 0})
        while len(self.entries) > self.max_size:
            dropped = self.entries.pop(0)
            self._cache.pop(dropped["id"], None)
            self.path(dropped["id"]).unlink(missing_ok=True)
        self.save_index()
        return snapshot_id

    def truncate(self, last_update: int) -> None:
        """Forget snapshots taken after ``last_update`` (a run resumed from before them)."""
        later = [e for e in self.entries if e["update"] > last_update]
        if later:
            self.entries = [e for e in self.entries if e["update"] <= last_update]
            for entry in later:
                self._cache.pop(entry["id"], None)
                self.path(entry["id"]).unlink(missing_ok=True)
            self.save_index()

    def probabilities(self) -> np.ndarray:
        """Sampling probability of each snapshot (oldest first)."""
        count = len(self.entries)
        ages = np.arange(count - 1, -1, -1, dtype=np.float64)
        scores = np.array([e["score"] for e in self.entries], dtype=np.float64)
        weights = self.recency_weight ** ages * (1.0 - scores + 0.1)
        return weights / weights.sum()

    def sample(self, rng: np.random.Generator, device: torch.device | str = "cpu"
               ) -> tuple[int, torch.nn.Module]:
        """Draw a snapshot (see the module doc); returns its id and network (eval mode)."""
        if not self.entries:
            raise ValueError("the opponent pool is empty")
        choice = int(rng.choice(len(self.entries), p=self.probabilities()))
        snapshot_id = self.entries[choice]["id"]
        return snapshot_id, self.network(snapshot_id, device)

    def network(self, snapshot_id: int, device: torch.device | str = "cpu") -> torch.nn.Module:
        """The snapshot's network, from the cache or its file."""
        if snapshot_id in self._cache:
            self._cache.move_to_end(snapshot_id)
            return self._cache[snapshot_id].to(device)
        payload = load_checkpoint(self.path(snapshot_id))
        net = make_network(payload["meta"])
        load_weights(net, payload["model"], self.path(snapshot_id))
        net.eval().requires_grad_(False)
        self._cache[snapshot_id] = net
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return net.to(device)

    def report(self, snapshot_id: int, learner_score: float) -> None:
        """Record one game's learner score (1 win, 0.5 tie, 0 loss) against a snapshot."""
        for entry in self.entries:
            if entry["id"] == snapshot_id:
                entry["score"] += SCORE_RATE * (float(learner_score) - entry["score"])
                entry["games"] += 1
                return

    def save_index(self) -> None:
        """Write ``index.json`` (atomically)."""
        text = json.dumps({"snapshots": self.entries}, indent=1).encode()
        atomic_write(self.folder / "index.json", lambda file: file.write(text))
