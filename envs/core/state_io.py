"""Versioned, validated JSON save/load of a game state (and its RNG), for every game.

A saved state names the game, the format version and every field by name (the game's
``STATE_FIELDS``), so a file is readable and a corrupt or foreign file fails loudly
instead of loading garbage.  Loading never touches the live env until the whole file has
been checked.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .contract import STATE_DTYPE, GameSpec

FORMAT_VERSION = 1


class StateFormatError(ValueError):
    """A saved state that cannot be loaded: corrupt, foreign, or from another version."""


def state_to_dict(spec: GameSpec, state: np.ndarray, rng: np.ndarray | None = None) -> dict:
    fields = {}
    for name, (offset, length) in spec.state_fields.items():
        values = [int(v) for v in state[offset:offset + length]]
        fields[name] = values if length > 1 else values[0]
    out: dict[str, Any] = {"game": spec.name, "format_version": FORMAT_VERSION, "fields": fields}
    if rng is not None:
        out["rng"] = [str(int(word)) for word in rng]
    return out


def state_to_json(spec: GameSpec, state: np.ndarray, rng: np.ndarray | None = None) -> str:
    return json.dumps(state_to_dict(spec, state, rng), separators=(",", ":"))


def state_from_json(spec: GameSpec, text: str | dict) -> tuple[np.ndarray, np.ndarray | None]:
    """Parse and validate; returns (state, rng or None).  Raises StateFormatError."""
    try:
        data = json.loads(text) if isinstance(text, str | bytes) else text
    except json.JSONDecodeError as err:
        raise StateFormatError(f"not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise StateFormatError("a saved state must be a JSON object")
    if data.get("game") != spec.name:
        raise StateFormatError(f"this state is for {data.get('game')!r}, not {spec.name!r}")
    if data.get("format_version") != FORMAT_VERSION:
        raise StateFormatError(
            f"unsupported format_version {data.get('format_version')!r} "
            f"(this version reads {FORMAT_VERSION})"
        )
    fields = data.get("fields")
    if not isinstance(fields, dict):
        raise StateFormatError("missing 'fields' object")
    unknown = set(fields) - set(spec.state_fields)
    missing = set(spec.state_fields) - set(fields)
    if unknown or missing:
        raise StateFormatError(f"unknown fields {sorted(unknown)}, missing {sorted(missing)}")
    state = np.zeros(spec.state_size, dtype=STATE_DTYPE)
    for name, (offset, length) in spec.state_fields.items():
        value = fields[name]
        values = value if length > 1 else [value]
        if not isinstance(values, list) or len(values) != length:
            raise StateFormatError(f"field {name!r} must hold {length} integer(s)")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise StateFormatError(f"field {name!r} must hold integers, got {value!r}")
        if any(abs(v) >= 2**62 for v in values):
            raise StateFormatError(f"field {name!r} is out of range")
        state[offset:offset + length] = values
    try:
        spec.validate_state(state)
    except ValueError as err:
        raise StateFormatError(f"inconsistent state: {err}") from None
    rng = None
    if "rng" in data:
        words = data["rng"]
        try:
            rng = np.array([int(w) for w in words], dtype=np.uint64)
        except (TypeError, ValueError, OverflowError):
            raise StateFormatError("'rng' must be two unsigned 64-bit integers") from None
        if rng.shape != (2,) or not rng.any():
            raise StateFormatError("'rng' must be two unsigned 64-bit integers, not all zero")
    return state, rng
