"""Serenissima maps as data: the JSON schema, its validation, and the shipped placeholder.

Much of the printed 2012 board is unknown (spec §3.3), so the engine never hard-codes it.
A map is a JSON document (or the same dict)::

    {"map_id": "...", "name": "...",
     "zones": [{"name": "Z1", "adjacent": ["Z2", "Z3"], "xy": [0.1, 0.5]}, ...],
     "ports": [{"name": "Valencia", "zone": "Z1", "good": "wood", "size": 5, "start": true,
                "slot_values": [2, 3, 4, 5, 6], "score": [0, 3, 6, 10, 15, 20]}, ...],
     "track": {"last": 10, "scoring_4p": [4, 7, 10], "start_23p": 0,
               "scoring_23p": [4, 7, 10]}}

``xy`` (optional, 0..1) places a zone in the picture.  ``validate_map`` checks every rule
of spec §3.4 and raises :class:`MapError` naming the entry and what is wrong (and nothing
else, whatever the input: a file that is not UTF-8 or not JSON, wrong types anywhere).
Each track has exactly three scoring spaces, the last at ``last`` (SE-11.1: the game ends
after the third scoring).  Names are compared ignoring case and spacing, as moves are
parsed, and a port may not be called like a galley (``g1`` .. ``g15``), so every legal
move has its own name.

``PLACEHOLDER_MAP`` is the spec's Appendix A: an **invented reconstruction**, not the real
board (only Valencia wood/5 next to Algiers, Antioch gold/3, the five start ports and the
counts are real).  Results on it are not results on the printed game.
"""

from __future__ import annotations

import math
import re

import numpy as np

from . import data as D


class MapError(ValueError):
    """A Serenissima map that breaks the schema (spec §3.4)."""


PLACEHOLDER_ID = "placeholder_v0"
SCORINGS = 3                         # SE-11.1: the game ends after the third scoring
_GALLEY_NAME = re.compile(r"g[0-9]+")
_ADJ = {1: (2, 3), 2: (1, 3, 7), 3: (1, 2, 4, 6), 4: (3, 5, 6), 5: (4, 6, 8, 10),
        6: (3, 4, 5, 7), 7: (2, 6, 8, 9), 8: (5, 7, 9, 10, 20), 9: (7, 8, 20),
        10: (5, 8, 11, 13, 20), 11: (10, 12, 13), 12: (11,), 13: (10, 11, 14, 16),
        14: (13, 15, 16), 15: (14,), 16: (13, 14, 17, 18, 19, 20), 17: (16, 18),
        18: (16, 17, 19), 19: (16, 18, 20), 20: (8, 9, 10, 16, 19)}
# Appendix A table: zone, port, start, size, good.  Rough west-to-east drawing positions.
_PORTS = ((1, "Valencia", True, 5, "wood"), (2, "Algiers", False, 3, "stone"),
          (3, "U1", False, 3, "wood"), (4, "Genoa", True, 5, "wine"),
          (5, "Naples", False, 4, "wine"), (6, "U2", False, 3, "marble"),
          (7, "U3", False, 3, "wood"), (8, "U4", False, 3, "wine"),
          (9, "Tripoli", False, 3, "gold"), (10, "U5", False, 4, "stone"),
          (11, "U6", False, 3, "wood"), (12, "Venice", True, 5, "marble"),
          (13, "U7", False, 4, "marble"), (14, "U8", False, 4, "wine"),
          (15, "Constantinople", True, 5, "stone"), (16, "U9", False, 4, "stone"),
          (17, "Antioch", False, 3, "gold"), (18, "U10", False, 3, "spices"),
          (19, "Alexandria", True, 5, "spices"))
_XY = {1: (0.05, 0.45), 2: (0.12, 0.75), 3: (0.18, 0.35), 4: (0.30, 0.10), 5: (0.42, 0.35),
       6: (0.30, 0.50), 7: (0.28, 0.80), 8: (0.45, 0.62), 9: (0.40, 0.92), 10: (0.56, 0.45),
       11: (0.60, 0.22), 12: (0.55, 0.05), 13: (0.70, 0.35), 14: (0.80, 0.18),
       15: (0.93, 0.12), 16: (0.80, 0.55), 17: (0.95, 0.60), 18: (0.92, 0.80),
       19: (0.78, 0.92), 20: (0.60, 0.75)}
PLACEHOLDER_SCALE = (0, 3, 6, 10, 15, 20)      # Appendix A [P]


def _placeholder() -> dict:
    zones = [{"name": f"Z{z}", "adjacent": [f"Z{n}" for n in _ADJ[z]], "xy": list(_XY[z])}
             for z in range(1, 21)]
    ports = [{"name": name, "zone": f"Z{z}", "good": good, "size": size, "start": start,
              "slot_values": list(range(2, size + 2)),
              "score": list(PLACEHOLDER_SCALE[:size + 1])}
             for z, name, start, size, good in _PORTS]
    return {"map_id": PLACEHOLDER_ID,
            "name": "PLACEHOLDER reconstruction (spec Appendix A), not the printed board",
            "zones": zones, "ports": ports,
            "track": {"last": 10, "scoring_4p": [4, 7, 10], "start_23p": 0,
                      "scoring_23p": [4, 7, 10]}}


PLACEHOLDER_MAP = _placeholder()

_TOP_KEYS = {"map_id", "name", "zones", "ports", "track", "notes"}
_ZONE_KEYS = {"name", "adjacent", "xy"}
_PORT_KEYS = {"name", "zone", "good", "size", "start", "slot_values", "score"}
_TRACK_KEYS = {"last", "scoring_4p", "start_23p", "scoring_23p"}


def _short(text: str) -> str:
    shown = repr(text)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def _int(value, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MapError(f"{where} must be an integer, got {_short(repr(value))}")
    if not low <= value <= high:
        shown = value if abs(value) < 10 ** 12 else "a huge integer"
        raise MapError(f"{where} = {shown} is outside {low}..{high}")
    return value


def _keys(obj, allowed: set, required: set, where: str) -> None:
    if not isinstance(obj, dict):
        raise MapError(f"{where} must be an object, got {type(obj).__name__}")
    unknown = set(obj) - allowed
    if unknown:
        raise MapError(f"{where} has unknown key(s) {sorted(unknown)}; allowed: {sorted(allowed)}")
    missing = required - set(obj)
    if missing:
        raise MapError(f"{where} is missing key(s) {sorted(missing)}")


def validate_map(spec: dict) -> dict:
    """Check ``spec`` against §3.4; returns the parsed tables.  Raises MapError, and
    nothing else, whatever ``spec`` holds (wrong types anywhere, unhashable names)."""
    try:
        return _validate_map(spec)
    except MapError:
        raise
    except Exception as err:       # the trust boundary: a malformed map is a MapError
        raise MapError(f"malformed map: {type(err).__name__}: {err}") from None


def _name(value, where: str) -> str:
    """A zone or port name: a non-empty string (compared case- and space-insensitively,
    as move notation is parsed)."""
    if not isinstance(value, str) or not value.strip():
        raise MapError(f"{where}: name must be a non-empty string")
    return value


def _ref(value, names: dict, where: str) -> int:
    """The index of a zone named by ``value`` (which may be of any JSON type)."""
    if not isinstance(value, str) or value not in names:
        raise MapError(f"{where} unknown zone {value!r}")
    return names[value]


def _key(name: str) -> str:
    return " ".join(name.lower().split())


def _validate_map(spec: dict) -> dict:
    _keys(spec, _TOP_KEYS, {"zones", "ports", "track"}, "map")
    zones, ports = spec["zones"], spec["ports"]
    if not isinstance(zones, list) or not 2 <= len(zones) <= D.MAX_ZONES:
        raise MapError(f"map needs a list of 2..{D.MAX_ZONES} zones")
    if not isinstance(ports, list) or not 1 <= len(ports) <= D.MAX_PORTS:
        raise MapError(f"map needs a list of 1..{D.MAX_PORTS} ports")
    zone_index: dict[str, int] = {}
    zone_keys: set[str] = set()
    for z, zone in enumerate(zones):
        _keys(zone, _ZONE_KEYS, {"name", "adjacent"}, f"zone #{z}")
        name = _name(zone["name"], f"zone #{z}")
        if _key(name) in zone_keys:       # move names must differ (notation)
            raise MapError(f"duplicate zone name {name!r}")
        zone_keys.add(_key(name))
        zone_index[name] = z
    num_zones = len(zones)
    adj = np.zeros((num_zones, num_zones), dtype=bool)
    xy = np.full((num_zones, 2), np.nan)
    for z, zone in enumerate(zones):
        name = zone["name"]
        if not isinstance(zone["adjacent"], list):
            raise MapError(f"zone {name!r}: adjacent must be a list of zone names")
        for other in zone["adjacent"]:
            y = _ref(other, zone_index, f"zone {name!r} is adjacent to")
            if y == z:
                raise MapError(f"zone {name!r} is adjacent to itself")
            adj[z, y] = True
        if "xy" in zone:
            pos = zone["xy"]
            if (not isinstance(pos, list) or len(pos) != 2
                    or not all(isinstance(v, int | float) and not isinstance(v, bool)
                            and 0 <= v <= 1 for v in pos)):
                raise MapError(f"zone {name!r}: xy must be two numbers in 0..1")
            xy[z] = pos
    for a, b in zip(*np.nonzero(adj & ~adj.T), strict=True):
        raise MapError(f"adjacency is not symmetric: {zones[a]['name']!r} lists "
                       f"{zones[b]['name']!r} but not the other way round")
    seen, frontier = {0}, [0]                      # SE-3.1.2: every zone reachable
    while frontier:
        z = frontier.pop()
        for n in np.flatnonzero(adj[z]):
            if int(n) not in seen:
                seen.add(int(n))
                frontier.append(int(n))
    if len(seen) != num_zones:
        cut = sorted(zones[z]["name"] for z in set(range(num_zones)) - seen)
        raise MapError(f"the sea is not connected: cannot reach {cut} from {zones[0]['name']!r}")
    if any(adj[z].sum() > 62 for z in range(num_zones)):
        raise MapError("too many neighbours")
    zone_port = np.full(num_zones, -1, dtype=np.int64)
    port_names: list[str] = []
    table = {"zone": [], "good": [], "size": [], "start": [], "slot": [], "score": []}
    for p, port in enumerate(ports):
        _keys(port, _PORT_KEYS, _PORT_KEYS - {"start"}, f"port #{p}")
        name = _name(port["name"], f"port #{p}")
        if _key(name) in {_key(other) for other in port_names}:
            raise MapError(f"duplicate port name {name!r}")
        if _GALLEY_NAME.fullmatch(_key(name)) or _key(name) in ("port", "active"):
            # 'recruit g3' names a galley, 'sailor port->g4' a port-less zone: a port
            # named so would give two legal moves one name.
            raise MapError(f"port {name!r}: the name is reserved by the move notation "
                           "(galleys are g1..g15)")
        port_names.append(name)
        z = _ref(port["zone"], zone_index, f"port {name!r} lies on")
        if zone_port[z] >= 0:                        # SE-3.1.1: one port per zone
            raise MapError(f"zone {port['zone']!r} has two ports: "
                           f"{port_names[zone_port[z]]!r} and {name!r}")
        zone_port[z] = p
        if not isinstance(port["good"], str) or port["good"] not in D.GOOD_NAMES:
            raise MapError(f"port {name!r}: unknown good {port['good']!r}; "
                           f"goods are {list(D.GOOD_NAMES)}")
        size = _int(port["size"], f"port {name!r}: size", 1, D.MAX_SIZE)
        start = port.get("start", False)
        if not isinstance(start, bool):
            raise MapError(f"port {name!r}: start must be true or false")
        slots = port["slot_values"]
        if not isinstance(slots, list) or len(slots) != size:
            raise MapError(f"port {name!r}: slot_values needs {size} values (its size)")
        slots = [_int(v, f"port {name!r}: slot value", 2, 6) for v in slots]   # SE-6.5.4
        if slots != sorted(slots):
            raise MapError(f"port {name!r}: slot_values must be ascending, got {slots}")
        score = port["score"]
        if not isinstance(score, list) or len(score) != size + 1:
            raise MapError(f"port {name!r}: score needs {size + 1} values (0..{size} cubes)")
        score = [_int(v, f"port {name!r}: score", 0, 100) for v in score]
        if score[0] != 0 or score != sorted(score):
            raise MapError(f"port {name!r}: score must start at 0 and never decrease, "
                           f"got {score}")
        for key, value in (("zone", z), ("good", D.GOOD_NAMES.index(port["good"])),
                           ("size", size), ("start", int(start)), ("slot", slots),
                           ("score", score)):
            table[key].append(value)
    if sum(table["start"]) < D.MAX_PLAYERS:                 # SE-4.1.4: 4 players pick one
        raise MapError(f"map needs at least {D.MAX_PLAYERS} start ports, has "
                       f"{sum(table['start'])}")
    track = _parse_track(spec["track"])
    return {"zone_names": [z["name"] for z in zones], "port_names": port_names,
            "adj": adj, "xy": xy, "zone_port": zone_port, "track": track,
            "map_id": str(spec.get("map_id", "custom")), "title": str(spec.get("name", "")),
            **table}


def _parse_track(track) -> dict:
    """SE-5.4, SE-5.5, SE-11.1: the game ends right after the third scoring, which is at
    the last space, so each track (4 players; 2/3 players) has exactly three distinct
    scoring spaces, the last one at ``last``."""
    _keys(track, _TRACK_KEYS, _TRACK_KEYS, "track")
    last = _int(track["last"], "track.last", 3, D.MAX_TRACK)
    start = _int(track["start_23p"], "track.start_23p", 0, last - 3)
    out = {"last": last, "start_23p": start}
    for key, low in (("scoring_4p", 1), ("scoring_23p", start + 1)):
        values = track[key]
        if not isinstance(values, list) or not values:
            raise MapError(f"track.{key} must be a non-empty list of spaces")
        values = [_int(v, f"track.{key}", low, last) for v in values]
        if last not in values:                               # SE-5.5.2: the game ends there
            raise MapError(f"track.{key} must contain the last space {last}")
        if len(values) != SCORINGS or len(set(values)) != SCORINGS:     # SE-11.1
            raise MapError(f"track.{key} must list exactly three different scoring spaces "
                           f"(SE-11.1: the game ends after the third scoring), got {values}")
        out[key] = sum(1 << v for v in set(values))
    return out


def map_to_config(parsed: dict, config: np.ndarray) -> None:
    """Write parsed map tables into a config block (offsets ``data.C_*``)."""
    nz, n_ports = len(parsed["zone_names"]), len(parsed["port_names"])
    config[D.C_NUM_ZONES], config[D.C_NUM_PORTS] = nz, n_ports
    track = parsed["track"]
    config[D.C_TRACK_LAST] = track["last"]
    config[D.C_SCORING_4P] = track["scoring_4p"]
    config[D.C_START_23P] = track["start_23p"]
    config[D.C_SCORING_23P] = track["scoring_23p"]
    config[D.C_ZONE_PORT:D.C_ZONE_PORT + D.MAX_ZONES] = -1
    config[D.C_ZONE_PORT:D.C_ZONE_PORT + nz] = parsed["zone_port"]
    for z in range(nz):
        config[D.C_ADJ + z] = sum(1 << int(n) for n in np.flatnonzero(parsed["adj"][z]))
    for p in range(n_ports):
        config[D.C_PORT_ZONE + p] = parsed["zone"][p]
        config[D.C_PORT_GOOD + p] = parsed["good"][p]
        size = parsed["size"][p]
        config[D.C_PORT_SIZE + p] = size
        config[D.C_PORT_START + p] = parsed["start"][p]
        config[D.C_SLOT + D.MAX_SIZE * p:D.C_SLOT + D.MAX_SIZE * p + size] = parsed["slot"][p]
        base = D.C_SCORE + (D.MAX_SIZE + 1) * p
        config[base:base + size + 1] = parsed["score"][p]


# Names are not state (strings); renderers and notation look them up by the map tables.
# Bounded: a distribution of generated maps registers a map per board it builds.
_NAMES: dict[bytes, tuple[list[str], list[str], np.ndarray, str]] = {}
_MAX_NAMED_MAPS = 2048


def _map_key(config_or_state: np.ndarray, offset: int) -> bytes:
    block = np.asarray(config_or_state[offset + D.C_NUM_ZONES:offset + D.C_SUPPLY0], np.int64)
    tables = np.asarray(config_or_state[offset + D.C_ZONE_PORT:offset + D.CONFIG_SIZE],
                        np.int64)
    return block[:6].tobytes() + tables.tobytes()


def remember_names(parsed: dict, config: np.ndarray) -> None:
    xy = parsed["xy"].copy()
    missing = np.isnan(xy[:, 0])
    if missing.any():                               # a circle for zones without positions
        n = len(xy)
        for z in np.flatnonzero(missing):
            angle = 2 * math.pi * z / n
            xy[z] = (0.5 + 0.45 * math.cos(angle), 0.5 + 0.45 * math.sin(angle))
    if parsed["map_id"].startswith("generated_") and len(_NAMES) >= _MAX_NAMED_MAPS:
        oldest = next((key for key, names in _NAMES.items()
                       if names[3].startswith("generated map")), None)
        if oldest is not None:                  # only generated maps are forgotten
            _NAMES.pop(oldest)
    _NAMES[_map_key(config, 0)] = (parsed["zone_names"], parsed["port_names"], xy,
                                   parsed["title"] or parsed["map_id"])


def names_of(state: np.ndarray) -> tuple[list[str], list[str], np.ndarray, str]:
    """Zone names, port names, drawing positions and title of the map in ``state``."""
    found = _NAMES.get(_map_key(state, D.CONFIG_BASE))
    if found is not None:
        return found
    nz, n_ports = int(state[D.K_NUM_ZONES]), int(state[D.K_NUM_PORTS])
    xy = np.array([(0.5 + 0.45 * math.cos(2 * math.pi * z / nz),
                    0.5 + 0.45 * math.sin(2 * math.pi * z / nz)) for z in range(nz)])
    return ([f"Z{z + 1}" for z in range(nz)], [f"P{p + 1}" for p in range(n_ports)], xy,
            "unnamed map")
