"""Building Serenissima positions by hand for the rule tests (worked examples, edge cases).

Positions use the placeholder map (spec Appendix A) only for facts the spec states about
the real board (Valencia wood/5 on Z1 next to Algiers' Z2, Antioch gold/3) or that the
test itself fixes; seats: Red 0, Blue 1, Orange 2, Black 3.
"""

from __future__ import annotations

import numpy as np
from envtest import legal_set

from meeplezoo.envs.core.contract import CHANCE, H_PHASE, H_TO_MOVE
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima import flow, rules
from meeplezoo.envs.serenissima.invariants import ERRORS, check_invariants
from meeplezoo.envs.serenissima.maps import PLACEHOLDER_MAP
from meeplezoo.envs.serenissima.masks import legal_mask
from meeplezoo.envs.serenissima.options import make_config

RED, BLUE, ORANGE, BLACK = 0, 1, 2, 3
PORT = {port["name"]: i for i, port in enumerate(PLACEHOLDER_MAP["ports"])}
ZONE = {zone["name"]: i for i, zone in enumerate(PLACEHOLDER_MAP["zones"])}
GOOD = {name: i for i, name in enumerate(D.GOOD_NAMES)}


def empty_game(num_players: int = 4, **options) -> np.ndarray:
    """After setup, an empty board: every port neutral, no galleys, 5 ducats each, full
    sailor supplies, round 1 begun with no galley active yet.  The setup counter stays at
    0 so that INV-4 (everyone owns a port) is not demanded of hand-built positions."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    rules.init_state(state, num_players, make_config(**options), 0)
    for p in range(int(state[D.K_NUM_PORTS])):
        state[D.S_P_OWNER + p] = D.NEUTRAL
    state[D.G_CLOSE_STEP] = 4
    state[D.G_ROUND] = 1
    return state


def own(state, seat: int, port: str, sailors: int, goods=()) -> None:
    p = PORT[port]
    state[D.S_P_OWNER + p] = seat
    state[D.S_P_SAIL + p] = sailors
    state[D.S_SUPPLY + seat] -= sailors
    stock(state, port, goods)


def stock(state, port: str, goods) -> None:
    """Put goods in a port's warehouse (taken from the supply)."""
    p = PORT[port]
    for name in goods:
        state[D.S_P_WH + p] |= 1 << GOOD[name]
        state[D.S_GOODS + GOOD[name]] -= 1


def galley(state, number: int, seat: int, zone: str, sailors: int, goods=()) -> None:
    g = number - 1
    state[D.S_G_OWNER + g] = seat
    state[D.S_G_ZONE + g] = ZONE[zone]
    state[D.S_G_SAIL + g] = sailors
    state[D.S_SUPPLY + seat] -= sailors
    for name in goods:
        state[D.S_G_GOODS + D.NUM_GOODS * g + GOOD[name]] += 1
        state[D.S_GOODS + GOOD[name]] -= 1


def set_ducats(state, seat: int, amount: int) -> None:
    """Set a purse, booking the difference in the ledger so the invariants still hold."""
    diff = amount - int(state[D.S_DUCATS + seat])
    kind = D.L_SALES if diff > 0 else D.L_RECRUIT
    state[D.S_LEDGER + D.LEDGER_KINDS * seat + kind] += abs(diff)
    state[D.S_DUCATS + seat] = amount


def activate(state, number: int) -> None:
    """Move the black marker to galley ``number`` and start its activation."""
    check(state)
    flow.start_activation(state, number - 1)


def legal(state) -> set[int]:
    return legal_set(state, legal_mask, D.NUM_ACTIONS)


def play(state, *actions: int) -> None:
    for action in actions:
        assert state[H_TO_MOVE] >= 0, "a chance event is pending"
        options = legal(state)
        assert action in options, (f"action {action} illegal in phase "
                                   f"{D.PHASE_NAMES[int(state[H_PHASE])]}; legal {sorted(options)}")
        rules.apply_action(state, action)
        check(state)


def roll(state, code: int) -> None:
    """Force the pending chance event's outcome (dice: 6 * attacker skulls + defender's)."""
    assert state[H_TO_MOVE] == CHANCE, "no chance event pending"
    rules.apply_chance(state, code)
    check(state)


def check(state) -> None:
    error = int(check_invariants(state))
    assert error == 0, ERRORS[error]


def sailors(state, number: int) -> int:
    return int(state[D.S_G_SAIL + number - 1])


def cargo(state, number: int) -> dict[str, int]:
    base = D.S_G_GOODS + D.NUM_GOODS * (number - 1)
    return {name: int(state[base + t]) for t, name in enumerate(D.GOOD_NAMES) if state[base + t]}


def ducats(state, seat: int) -> int:
    return int(state[D.S_DUCATS + seat])


def phase(state) -> str:
    return D.PHASE_NAMES[int(state[H_PHASE])]


def galley_action(number: int) -> int:
    return D.A_GALLEY + number - 1


def move(zone: str) -> int:
    return D.A_MOVE + ZONE[zone]


def sell(good: str) -> int:
    return D.A_SELL + GOOD[good]


def attack_setup(**options):
    """Blue's galley 4 (3 sailors, 1 wood) in Algiers' zone with Red's galleys 7 (2) and
    8 (1), at step 3 of its activation."""
    state = empty_game(4, **options)
    galley(state, 4, BLUE, "Z2", 3, goods=["wood"])
    galley(state, 7, RED, "Z2", 2)
    galley(state, 8, RED, "Z2", 1)
    activate(state, 4)
    play(state, D.A_ACTION, D.A_PASS, D.A_PASS)
    return state
