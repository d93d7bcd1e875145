"""Readable move notation for Serenissima (logs, replays, the terminal player).

Galleys are named by their printed number (``g1`` .. ``g15``), zones and ports by the map's
names.  Moves read as a player would say them: ``action``, ``invest``, ``block``,
``pass``, ``sailor Valencia->g4``, ``sailor g6->g4``, ``load wood``, ``good g6->g4 wine``,
``move Z2``, ``sell wood``, ``attack g7``, ``attack port``, ``claim``, ``land 2``,
``take marble``, ``recruit Valencia``, ``recruit g12``, ``buy g11``, ``place Venice``,
``fort Antioch``, ``basilica Antioch``, ``start Venice``, ``close U3``, ``pick g5``.
"""

from __future__ import annotations

import numpy as np

from ..core.contract import H_PHASE
from . import data as D
from .maps import names_of

_SIMPLE = {D.A_ACTION: "action", D.A_INVEST: "invest", D.A_BLOCK: "block",
           D.A_CONTINUE: "continue", D.A_WITHDRAW: "withdraw", D.A_ATTACK_PORT: "attack port",
           D.A_CLAIM: "claim", D.A_LOAD: "load"}
_PASS_NAMES = {D.PH_LOAD: "end load", D.PH_MOVE: "stop", D.PH_BLOCK: "let pass",
               D.PH_STEP3: "end", D.PH_CAPTURE: "done", D.PH_INVEST: "done",
               D.PH_SPECIAL: "done"}


def galley_name(g: int) -> str:
    return f"g{int(g) + 1}"


def _active_port(state, ports) -> str:
    g = int(state[D.A_GAL])
    zone = int(state[D.S_G_ZONE + g]) if g >= 0 else -1
    if zone < 0:                          # no active galley, or it sank (a capture)
        return "port"
    p = int(state[D.K_ZONE_PORT + zone])
    return ports[p] if 0 <= p < len(ports) else "port"


def action_to_str(state: np.ndarray, action: int) -> str:
    """The notation of ``action`` in the phase of ``state``."""
    action, phase = int(action), int(state[H_PHASE])
    zones, ports, _, _ = names_of(state)
    if action == D.A_PASS:
        return _PASS_NAMES.get(phase, "pass")
    if action in _SIMPLE:
        zone = int(state[D.S_G_ZONE + int(state[D.A_GAL])]) if state[D.A_GAL] >= 0 else -1
        if action == D.A_LOAD and zone >= 0:
            p = int(state[D.K_ZONE_PORT + zone])
            if p >= 0:
                return f"load {D.GOOD_NAMES[int(state[D.K_PORT_GOOD + p])]}"
        return _SIMPLE[action]
    here = _active_port(state, ports)
    active = galley_name(int(state[D.A_GAL])) if state[D.A_GAL] >= 0 else "active"
    if action == D.A_PORT_TO_ACTIVE:
        return f"sailor {here}->{active}"
    if action == D.A_ACTIVE_TO_PORT:
        return f"sailor {active}->{here}"
    for first, verb in ((D.A_JETTISON, "jettison"), (D.A_SELL, "sell"), (D.A_TAKE, "take")):
        if first <= action < first + D.NUM_GOODS:
            return f"{verb} {D.GOOD_NAMES[action - first]}"
    if D.A_LAND <= action < D.A_GALLEY:
        return f"land {action - D.A_LAND}"
    if D.A_GALLEY <= action < D.A_SAILOR_FROM:
        verb = {D.PH_SETUP_GALLEY: "pick", D.PH_STEP3: "attack"}.get(phase, "buy")
        return f"{verb} {galley_name(action - D.A_GALLEY)}"
    if D.A_SAILOR_FROM <= action < D.A_SAILOR_TO:
        return f"sailor {galley_name(action - D.A_SAILOR_FROM)}->{active}"
    if D.A_SAILOR_TO <= action < D.A_GOOD_FROM:
        return f"sailor {active}->{galley_name(action - D.A_SAILOR_TO)}"
    if D.A_GOOD_FROM <= action < D.A_MOVE:
        into = action >= D.A_GOOD_TO
        g, t = divmod(action - (D.A_GOOD_TO if into else D.A_GOOD_FROM), D.NUM_GOODS)
        pair = f"{active}->{galley_name(g)}" if into else f"{galley_name(g)}->{active}"
        return f"good {pair} {D.GOOD_NAMES[t]}"
    if D.A_MOVE <= action < D.A_PORT:
        z = action - D.A_MOVE
        return f"move {zones[z] if z < len(zones) else z}"
    for first, verb in ((D.A_PORT, None), (D.A_RECRUIT_PORT, "recruit"), (D.A_FORT, "fort"),
                        (D.A_BASILICA, "basilica")):
        if first <= action < first + D.MAX_PORTS:
            p = action - first
            name = ports[p] if p < len(ports) else f"P{p + 1}"
            if verb is None:
                verb = {D.PH_CLOSE: "close", D.PH_SETUP_PORT: "start"}.get(phase, "place")
            return f"{verb} {name}"
    if D.A_RECRUIT_GALLEY <= action < D.A_FORT:
        return f"recruit {galley_name(action - D.A_RECRUIT_GALLEY)}"
    return f"#{action}"
