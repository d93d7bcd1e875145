"""Training checkpoints: written atomically, loaded with ``weights_only=True``, checked.

A checkpoint is a plain dict of tensors and primitive containers (so ``torch.load(...,
weights_only=True)`` reads it without unpickling arbitrary objects):

- ``format``: :data:`FORMAT` (bumped when the layout changes);
- ``meta``: the network description of :func:`meeplezoo.agents.ppo.network.network_meta`
  (game, architecture, obs size, number of actions, hidden sizes), compared on load;
- ``model`` and ``optimizer``: state dicts;
- ``options``: the training options as a dict of primitives;
- ``counters``: ``update``, ``global_step``, ``elapsed_s`` (training seconds so far);
- ``rng``: torch's generator state (a tensor) and numpy's (a dict of ints).

Saving writes a temporary file in the same folder and ``os.replace``-s it over the target,
so a run killed mid-save leaves the previous checkpoint intact.
"""

from __future__ import annotations

import os
import pickle
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import torch

FORMAT = 1
REQUIRED = ("format", "meta", "model", "counters")


def save_checkpoint(path: str | os.PathLike, *, meta: dict, model: torch.nn.Module,
                    optimizer: torch.optim.Optimizer | None = None, options: dict | None = None,
                    counters: dict | None = None, np_rng: np.random.Generator | None = None
                    ) -> Path:
    """Write a checkpoint atomically (temporary file + ``os.replace``); returns its path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": FORMAT,
        "meta": dict(meta),
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict() if optimizer is not None else {},
        "options": dict(options or {}),
        "counters": dict(counters or {}),
        "rng": {"torch": torch.get_rng_state(),
                "numpy": np_rng.bit_generator.state if np_rng is not None else {}},
    }
    atomic_write(path, lambda file: torch.save(payload, file))
    return path


def atomic_write(path: Path, write) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then replace ``path``
    (a run killed mid-write leaves the previous file intact)."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_checkpoint(path: str | os.PathLike, expect: dict | None = None,
                    map_location: str | torch.device = "cpu") -> dict:
    """Read and validate a checkpoint; ``expect`` is a network meta it must match.

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` (saying why) for a
    file that is not a checkpoint, is from another format version, or whose network
    (game, obs size, actions, sizes) differs from ``expect``.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no checkpoint at {path}")
    try:
        payload = torch.load(path, map_location=map_location, weights_only=True)
    except (RuntimeError, pickle.UnpicklingError, zipfile.BadZipFile, EOFError, OSError,
            AttributeError, ValueError, TypeError) as err:
        raise ValueError(f"{path} is not a readable checkpoint (corrupt or not written by "
                         f"meeplezoo training): {type(err).__name__}: {err}") from None
    missing = [key for key in REQUIRED if not isinstance(payload, dict) or key not in payload]
    if missing:
        raise ValueError(f"{path} is not a meeplezoo checkpoint (missing {missing})")
    if payload["format"] != FORMAT:
        raise ValueError(f"{path} has checkpoint format {payload['format']}, this code reads "
                         f"format {FORMAT}")
    if expect is not None:
        check_compatible(payload["meta"], expect, path)
    return payload


def check_compatible(found: dict, expect: dict, path: str | os.PathLike = "checkpoint") -> None:
    """Raise a ``ValueError`` listing every field where two network metas differ."""
    differences = [f"{key}: checkpoint has {found.get(key)!r}, expected {expect[key]!r}"
                   for key in expect if found.get(key) != expect[key]]
    if differences:
        raise ValueError(f"{path} does not fit this network/game; " + "; ".join(differences))


def restore_rng(payload: dict, np_rng: np.random.Generator | None = None) -> None:
    """Put torch's (and, if given, a numpy generator's) state back as it was saved."""
    rng = payload.get("rng", {})
    if "torch" in rng:
        torch.set_rng_state(rng["torch"])
    if np_rng is not None and rng.get("numpy"):
        np_rng.bit_generator.state = rng["numpy"]
