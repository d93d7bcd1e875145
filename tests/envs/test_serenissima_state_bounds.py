"""A loaded Serenissima state is memory-safe.

``FIELD_BOUNDS`` covers every saved field; values outside are refused by the loader, and
``validate_state`` refuses what one range cannot express: indices bounded by the map in
the state's own config (zones, ports), by ``num_players`` (seats) and by the phase (the
active galley, a battle's target, a pending sale, claim or landing).  The values that used
to crash ``observe()`` are replayed in a subprocess (a regression would kill it, not the
test run), and a small run of the cross-game fuzzer runs every field's junk values.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.core.contract import CHANCE, H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import StateFormatError, state_from_json, state_to_json
from meeplezoo.envs.serenissima import SPEC, rules
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima.options import make_config
from meeplezoo.envs.serenissima.validate import validate_state

SMALL_MAP = {   # 4 zones, 4 ports: indices valid on the placeholder are not valid here
    "zones": [{"name": f"A{i}", "adjacent": [f"A{(i + 1) % 4}", f"A{(i + 3) % 4}"]}
              for i in range(4)],
    "ports": [{"name": f"Port{i}", "zone": f"A{i}", "good": D.GOOD_NAMES[i], "size": 3,
               "start": True, "slot_values": [2, 4, 6], "score": [0, 2, 5, 9]}
              for i in range(4)],
    "track": {"last": 4, "scoring_4p": [2, 3, 4], "start_23p": 1, "scoring_23p": [2, 3, 4]}}


def saved_game(players=3, steps=60, seed=3, **options) -> tuple[object, dict]:
    env = serenissima_v0.env(num_players=players, start_seat=0, **options)
    env.reset(seed=seed)
    policy = np.random.default_rng(seed)
    for _ in range(steps):
        env.step(int(policy.choice(env.legal_actions())))
    return env, json.loads(env.state_to_json())


def refused(env, data, field, value, element=None, match=None):
    edited = json.loads(json.dumps(data))
    if element is None:
        edited["fields"][field] = value
    else:
        edited["fields"][field][element] = value
    before = env.unwrapped.state.copy()
    with pytest.raises(StateFormatError, match=match):
        env.state_from_json(json.dumps(edited))
    assert np.array_equal(env.unwrapped.state, before)       # the env is untouched


def test_field_bounds_cover_every_saved_field():
    assert set(D.FIELD_BOUNDS) == set(D.STATE_FIELDS)
    assert SPEC.field_bounds == D.FIELD_BOUNDS
    for name, (low, high) in D.FIELD_BOUNDS.items():
        assert -(2 ** 62) < low <= high < 2 ** 62, name


REPRO = r"""
import json, sys
import numpy as np
import meeplezoo.envs.serenissima_v0 as serenissima_v0
from meeplezoo.envs.core.state_io import StateFormatError
from meeplezoo.envs.serenissima import data as D
fields = [f for f in D.STATE_FIELDS if f.startswith(("g_", "a_"))] + [
    "galley_zone", "galley_owner", "port_owner", "header", "config", "doge_pile"]
env = serenissima_v0.env(num_players=3, start_seat=0)
policy = np.random.default_rng(7)
counts = [0, 0]
for depth in (0, 40, 90, 150):
    env.reset(seed=depth)
    for _ in range(depth):
        if not env.agents or all(env.terminations.values()):
            break
        env.step(int(policy.choice(env.legal_actions())))
    data = json.loads(env.state_to_json())
    for field in fields:
        length = D.STATE_FIELDS[field][1]
        for element in sorted({0, length - 1}):
            for value in (2**61, -5, 9, 49, 999, -1, 1, 23, 24):
                edited = json.loads(json.dumps(data))
                if length == 1:
                    edited["fields"][field] = value
                else:
                    edited["fields"][field][element] = value
                try:
                    env.state_from_json(json.dumps(edited))
                except StateFormatError:
                    counts[0] += 1
                    continue
                counts[1] += 1
                for agent in env.possible_agents:
                    env.observe(agent)
                env.scores(); env.render() if env.render_mode else None
                if env.agents and not all(env.terminations.values()):
                    env.step(int(policy.choice(env.legal_actions())))
                    env.unwrapped.spec.validate_state(env.unwrapped.state)
print(counts[0], counts[1])
"""


def test_values_that_once_crashed_observe_are_refused_or_play_safely():
    """a_start_zone, a_opt, a_owner, the g_* fields, galley_zone set to 2**61, -5, 9, 49,
    999 (and more) used to end the process in observe(); now each is refused with
    StateFormatError or plays on with every invariant."""
    result = subprocess.run([sys.executable, "-c", REPRO], capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    rejected, played = (int(v) for v in result.stdout.split())
    assert rejected > 1000 and played > 100


def test_zone_and_port_indices_are_bounded_by_the_map_in_the_state():
    """Zone 5 exists on the placeholder (20 zones) but not on a 4-zone map: refused there,
    though inside FIELD_BOUNDS (which only knows MAX_ZONES)."""
    env, data = saved_game(players=2, steps=30, map=SMALL_MAP)
    g = next(i for i, owner in enumerate(data["fields"]["galley_owner"]) if owner >= 0)
    refused(env, data, "galley_zone", 5, element=g, match="not a zone of this map")
    refused(env, data, "a_start_zone", 4, match="not a zone of this map")
    refused(env, data, "port_owner", 0, element=4, match="not on the map")
    config = list(data["fields"]["config"])
    for offset, value in ((D.C_ZONE_PORT + 2, 7), (D.C_PORT_ZONE + 1, 9), (D.C_NUM_ZONES, 30),
                          (D.C_NUM_PORTS, 5), (D.C_PORT_GOOD + 5, 1), (D.C_ADJ + 3, 1 << 9)):
        bad = list(config)
        bad[offset] = value
        refused(env, data, "config", bad)


@pytest.mark.parametrize("field, element, value, match", [
    ("galley_owner", "owned", 2, "not in the game"),
    ("g_turn_owner", None, 3, "not a seat"),
    ("g_first", None, 2, "not a seat"),
    ("a_owner", None, 3, "not a seat"),
    ("ducats", 3, 4, "not in the game"),
    ("doge_pile", 3, 0, "shuffle card"),
    ("g_chance_kind", None, 3, "chance kind"),
    ("g_scorings", None, 2, "scorings"),
    ("g_truncated", None, 1, "truncated"),
    ("a_unmanned", None, 0, "newly bought galley"),
    ("capture_goods", 0, 1, "capture"),
    ("g_last_roll", None, 50, "roll code"),
])
def test_cross_field_checks_in_a_two_player_game(field, element, value, match):
    env, data = saved_game(players=2, steps=40)
    if element == "owned":
        element = next(i for i, o in enumerate(data["fields"]["galley_owner"]) if o >= 0)
    refused(env, data, field, value, element=element, match=match)


def test_the_decision_count_cannot_pass_the_cap():
    env, data = saved_game(players=2, steps=40, max_decisions=500)
    header = list(data["fields"]["header"])
    header[4] = 500                                       # H_PLY at the cap, game not over
    refused(env, data, "header", header, match="cap")
    config = list(data["fields"]["config"])
    config[D.C_MAX_DECISIONS] = 99                        # below what make_config allows
    refused(env, data, "config", config, match="max_decisions")


def phase_states(players: int, game: int, options: dict):
    """Every state of a random game, chance states included (kernels, no resolving)."""
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    rng, policy = new_rng(game), np.random.default_rng(game)
    rules.init_state(state, players, make_config(**options), game % players)
    while state[H_TO_MOVE] != TERMINAL:
        yield state, rng
        if state[H_TO_MOVE] == CHANCE:
            rules.apply_chance(state, rules.sample_chance(state, rng))
            continue
        rules.legal_mask(state, mask)
        rules.apply_action(state, int(policy.choice(np.flatnonzero(mask))))
    yield state, rng


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_reached_state_validates_and_round_trips(players):
    """Each state of play (decisions and pending chance events, every phase) passes the
    new cross-field checks, so the env's own saves always load."""
    phases = set()
    for game, options in enumerate(({}, {"block_in_start_zone": True, "close_ports": "choose",
                                         "new_galley_acts_this_round": False},
                                        {"map": "generated:11", "galley_capacity": 4})):
        for state, rng in phase_states(players, game, options):
            phases.add(int(state[3]))
            validate_state(state)
            loaded, _ = state_from_json(SPEC, state_to_json(SPEC, state, rng))
            assert np.array_equal(loaded, state)
    assert D.PH_CHANCE in phases and D.PH_GAME_OVER in phases and len(phases) >= 12


def test_a_small_fuzz_run_finds_no_crash_hang_or_failure():
    """The cross-game fuzzer (subprocesses, junk and boundary values of every field, then
    several in-range fields at once), one mid-game state per player count."""
    from meeplezoo.benchmarks.studies.fuzz import fuzz

    for players in (2, 4):
        report = fuzz("serenissima_v0", players, states=1, seed=players, steps=4, multi=100,
                      hang_s=120.0)
        assert report["tried"] == report["mutations"] > 1000
        assert report["crash"] == report["hang"] == report["failure"] == 0, report["findings"]
