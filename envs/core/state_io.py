"""Versioned, validated JSON save/load of a game state (and its RNG), for every game.

A saved state names the game, the format version and every field by name (the game's
``STATE_FIELDS``), so a file is readable and a corrupt or foreign file fails loudly
instead of loading garbage.  Loading never touches the live env until the whole file has
been checked.  A state saved by one version of a game loads into another version with the
same rules and state (``carcassonne_v0`` and ``carcassonne_v1``: ``envs/versions.py``);
the file keeps the name of the version that saved it.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..versions import rules_name
from .contract import STATE_DTYPE, GameSpec

FORMAT_VERSION = 1
MAX_TEXT_LENGTH = 10_000_000     # far above any game's state; a bigger text is not one


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


def _parse(text) -> dict:
    """The JSON object in ``text`` (str, UTF-8 bytes, or an already parsed dict)."""
    if isinstance(text, dict):
        return text
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise StateFormatError(f"a saved state must be UTF-8 text: {err}") from None
    if not isinstance(text, str):
        raise StateFormatError(f"a saved state is JSON text, got {type(text).__name__}")
    if len(text) > MAX_TEXT_LENGTH:
        raise StateFormatError(f"a saved state is at most {MAX_TEXT_LENGTH} characters")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise StateFormatError(f"not valid JSON: {err}") from None
    except RecursionError:
        raise StateFormatError("not a saved state: JSON nested too deeply") from None
    except ValueError as err:         # e.g. an integer with more digits than Python reads
        raise StateFormatError(f"not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise StateFormatError("a saved state must be a JSON object")
    return data


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_rng(words) -> np.ndarray:
    message = "'rng' must be a list of two unsigned 64-bit integers (decimal strings), not all zero"
    if not isinstance(words, list) or len(words) != 2:
        raise StateFormatError(message)
    values = []
    for word in words:
        if isinstance(word, str) and word.isascii() and word.isdigit() and len(word) <= 20:
            word = int(word)
        if not _is_int(word) or not 0 <= word < 2**64:
            raise StateFormatError(message)
        values.append(word)
    if not any(values):
        raise StateFormatError(message)
    return np.array(values, dtype=np.uint64)


def state_from_json(spec: GameSpec,
                    text: str | bytes | dict) -> tuple[np.ndarray, np.ndarray | None]:
    """Parse and validate; returns (state, rng or None).  Raises StateFormatError, and
    nothing else, for any input: every field must lie in the range the rules can reach
    (``spec.field_bounds``) and the whole must pass the game's consistency checks, so a
    kernel can never index outside its arrays after a successful load."""
    data = _parse(text)
    game = data.get("game")
    if not isinstance(game, str) or rules_name(game) != rules_name(spec.name):
        raise StateFormatError(f"this state is for {game!r}, not {spec.name!r}")
    version = data.get("format_version")
    if not _is_int(version) or version != FORMAT_VERSION:
        raise StateFormatError(
            f"unsupported format_version {version!r} (this version reads {FORMAT_VERSION})"
        )
    fields = data.get("fields")
    if not isinstance(fields, dict):
        raise StateFormatError("missing 'fields' object")
    unknown = set(fields) - set(spec.state_fields)
    missing = set(spec.state_fields) - set(fields)
    if unknown or missing:
        raise StateFormatError(
            f"unknown fields {sorted(unknown)[:10]}, missing {sorted(missing)[:10]}"
        )
    state = np.zeros(spec.state_size, dtype=STATE_DTYPE)
    for name, (offset, length) in spec.state_fields.items():
        value = fields[name]
        values = value if length > 1 else [value]
        if not isinstance(values, list) or len(values) != length:
            raise StateFormatError(f"field {name!r} must hold {length} integer(s)")
        if not all(_is_int(v) for v in values):
            raise StateFormatError(f"field {name!r} must hold integers, got {_short(value)}")
        low, high = spec.field_bounds.get(name, (-(2**62), 2**62))
        bad = [v for v in values if not low <= v <= high]
        if bad:
            raise StateFormatError(
                f"field {name!r} holds {_short(bad[0])}, outside the range {low}..{high} "
                "the rules can reach"
            )
        state[offset:offset + length] = values
    try:
        spec.validate_state(state)
    except Exception as err:          # the trust boundary: no foreign exception escapes
        raise StateFormatError(f"inconsistent state: {err}") from None
    rng = _parse_rng(data["rng"]) if "rng" in data else None
    return state, rng


def check_field_bounds(state_fields: dict, field_bounds: dict, state: np.ndarray) -> None:
    """The load's range check on a state array (for callers of a game's ``validate_state``
    that did not come through ``state_from_json``); raises ``ValueError``."""
    for name, (offset, length) in state_fields.items():
        low, high = field_bounds[name]
        values = state[offset:offset + length]
        if ((values < low) | (values > high)).any():
            raise ValueError(f"field {name!r} holds {_short(values.tolist())}, outside the "
                             f"range {low}..{high} the rules can reach")


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
