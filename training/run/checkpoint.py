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

import io
import os
import pickle
import shutil
import tempfile
from pathlib import Path

import numpy as np
import torch

from meeplezoo.envs.core.files import exists, read_bytes

FORMAT = 1
REQUIRED = ("format", "meta", "model", "counters")


def save_checkpoint(path: str | os.PathLike, *, meta: dict, model: torch.nn.Module,
                    optimizer: torch.optim.Optimizer | None = None, options: dict | None = None,
                    counters: dict | None = None, np_rng: np.random.Generator | None = None,
                    play: dict | None = None) -> Path:
    """Write a checkpoint atomically (temporary file + ``os.replace``); returns its path.
    ``play``: the settings the bot plays best with (an AZ bot's search: c, leaves per
    batch, first-play urgency, the heuristic's share), read by ``az:`` as its defaults."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": FORMAT,
        "meta": dict(meta),
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict() if optimizer is not None else {},
        "options": dict(options or {}),
        "counters": dict(counters or {}),
        "play": dict(play or {}),
        "rng": {"torch": torch.get_rng_state(),
                "numpy": np_rng.bit_generator.state if np_rng is not None else {}},
    }
    atomic_write(path, lambda file: torch.save(payload, file))
    return path


def export_for_play(source: str | os.PathLike, destination: str | os.PathLike,
                    half: bool = False, play: dict | None = None) -> Path:
    """A copy of a training checkpoint with only what playing needs (the network's meta
    and weights, the options and counters that say how it was trained): no optimizer
    state or generators, about a third of the size, for bots that ship with the package.
    ``half`` stores the floating-point weights as float16 (half the size again; loading
    casts them back to the network's float32).  ``play`` replaces the play settings
    (tuned after training, e.g. the search's c and first-play urgency)."""
    payload = load_checkpoint(source)
    model = payload["model"]
    if half:
        model = {k: v.half() if v.is_floating_point() else v for k, v in model.items()}
    slim = {"format": FORMAT, "meta": payload["meta"], "model": model,
            "optimizer": {}, "options": payload.get("options", {}),
            "counters": payload.get("counters", {}),
            "play": dict(payload.get("play") or {}) if play is None else dict(play),
            "rng": {}}
    destination = Path(destination)
    destination.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(destination, lambda file: torch.save(slim, file))
    return destination


def atomic_write(path: Path, write) -> None:
    """Call ``write(file)`` on a temporary file beside ``path``, then replace ``path``
    (a run killed mid-write leaves the previous file intact)."""
    remove_stale_temporaries(path)
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


def keep_copy(checkpoint_path: Path, step: int) -> Path:
    """Copy the run's checkpoint to ``checkpoints/iter_<step>.pt`` beside it (``AZ``'s
    iteration or PPO's update): the files ``benchmarks.generalisation --checkpoints``
    draws a curve through."""
    kept = Path(checkpoint_path).parent / "checkpoints" / f"iter_{step}.pt"
    kept.parent.mkdir(exist_ok=True)
    shutil.copyfile(checkpoint_path, kept)
    return kept


def remove_stale_temporaries(path: str | os.PathLike) -> list[Path]:
    """Delete the temporary files that earlier writes of ``path`` left when they were
    killed midway (SIGKILL skips ``atomic_write``'s clean-up); returns what was removed."""
    path = Path(path)
    stale = sorted(path.parent.glob(f".{path.name}.*.tmp")) if path.parent.is_dir() else []
    for temporary in stale:
        temporary.unlink(missing_ok=True)
    return stale


def load_checkpoint(path: str | os.PathLike, expect: dict | None = None,
                    map_location: str | torch.device = "cpu") -> dict:
    """Read and validate a checkpoint; ``expect`` is a network meta it must match.

    Raises ``FileNotFoundError`` for a missing file and ``ValueError`` (saying why) for a
    file that is not a checkpoint, is from another format version, or whose network
    (game, obs size, actions, sizes) differs from ``expect``.
    """
    path = Path(path)
    if not exists(path, "checkpoint"):
        raise FileNotFoundError(f"no checkpoint at {path}")
    data = read_bytes(path, "checkpoint")  # a regular file, bounded (envs/core/files.py)
    try:
        payload = torch.load(io.BytesIO(data), map_location=map_location, weights_only=True)
    except Exception as err:  # noqa: BLE001 - any file may be handed in: weights_only=True
        # runs no code, but its unpickler fails on junk in many ways (IndexError on a text
        # file, KeyError, struct errors): each is the same answer, not a checkpoint.  Only
        # torch's own readers' messages are shown (a broken zip, a refused global); the
        # others can quote the bytes of whatever file was named (a server's /etc/passwd).
        shown = ""
        if isinstance(err, pickle.UnpicklingError):    # not torch's advice to load with
            # weights_only=False: the one thing never to do with a stranger's file
            shown = " (the weights-only loader refused what it holds besides tensors)"
        elif isinstance(err, RuntimeError) and str(err).strip():
            shown = f": {str(err).strip().splitlines()[0][:200]}"
        raise ValueError(f"{path} is not a readable checkpoint (corrupt or not written by "
                         f"meeplezoo training): {type(err).__name__}{shown}") from None
    missing = [key for key in REQUIRED if not isinstance(payload, dict) or key not in payload]
    if missing:
        raise ValueError(f"{path} is not a meeplezoo checkpoint (missing {missing})")
    if payload["format"] != FORMAT:
        raise ValueError(f"{path} has checkpoint format {payload['format']!r}, this code "
                         f"reads format {FORMAT}")
    check_meta(payload["meta"], path)
    check_weights(payload["model"], path)
    if expect is not None:
        check_compatible(payload["meta"], expect, path)
    return payload


def check_meta(meta, path: str | os.PathLike = "checkpoint") -> None:
    """A network meta must name a known game and fit it: a checkpoint written by hand or by
    another program gets one clear ``ValueError`` instead of a ``KeyError`` deep inside."""
    from meeplezoo.envs import names, spec

    if not isinstance(meta, dict):
        raise ValueError(f"{path}: 'meta' must be a dict describing the network, "
                         f"got {type(meta).__name__}")
    expected_types = {"game": str, "architecture": str, "obs_size": int, "num_actions": int}
    for key, kind in expected_types.items():
        if not isinstance(meta.get(key), kind) or isinstance(meta.get(key), bool):
            raise ValueError(f"{path}: meta[{key!r}] must be a {kind.__name__}, "
                             f"got {meta.get(key)!r}")
    if meta["game"] not in names():
        raise ValueError(f"{path}: meta names an unknown game {meta['game']!r}")
    game = spec(meta["game"])
    if (meta["obs_size"], meta["num_actions"]) != (game.obs_size, game.num_actions):
        raise ValueError(f"{path}: meta's obs_size/num_actions ({meta['obs_size']}, "
                         f"{meta['num_actions']}) do not fit {game.name} "
                         f"({game.obs_size}, {game.num_actions})")
    hidden = meta.get("hidden", [])
    if not isinstance(hidden, list | tuple) or not all(
            isinstance(h, int) and not isinstance(h, bool) and 1 <= h <= 1 << 16 for h in hidden):
        raise ValueError(f"{path}: meta['hidden'] must be a list of layer sizes >= 1, "
                         f"got {hidden!r}")


def check_weights(model, path: str | os.PathLike = "checkpoint") -> None:
    """Every weight a finite tensor (a NaN network plays one move forever)."""
    if not isinstance(model, dict) or not all(
            isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in model.items()):
        raise ValueError(f"{path}: 'model' must be a state dict of named tensors")
    for name, tensor in model.items():
        if tensor.is_floating_point() and not bool(torch.isfinite(tensor).all()):
            raise ValueError(f"{path}: weight {name!r} holds NaN or infinite values")


def load_weights(network: torch.nn.Module, model: dict, path: str | os.PathLike = "checkpoint"
                 ) -> None:
    """``load_state_dict`` that says, in one line, which tensor does not fit."""
    expected = network.state_dict()
    problems = [f"missing {k}" for k in expected if k not in model]
    problems += [f"unexpected {k}" for k in model if k not in expected]
    problems += [f"{k} has shape {tuple(model[k].shape)}, the network {tuple(v.shape)}"
                 for k, v in expected.items() if k in model and model[k].shape != v.shape]
    if problems:
        raise ValueError(f"{path}: the weights do not fit the network its meta describes: "
                         + "; ".join(problems[:4]))
    network.load_state_dict(model)


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
