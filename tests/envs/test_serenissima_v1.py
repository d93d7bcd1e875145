"""serenissima_v1: v0's game with the spec's special investment and an uncut Load step.

Two recorded games (``cases/*.json``: env options, reset seed, moves) replay on both
versions: v1 follows the spec (SE-10.1 / SE-7.3 / A-23: a second galley may be bought
before the first is manned while every sailor stays payable; SE-6.2: no limit on Load
micro-actions), v0 keeps its old legal moves.  Hand-built positions check the money and
sailor reserve of the special investment, random v1 games keep every invariant and end by
the rules, and the version plumbing (saved states, tables, shipped networks) is pinned.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from serenissima_setup import (
    BLUE,
    PORT,
    check,
    ducats,
    empty_game,
    galley,
    galley_action,
    legal,
    own,
    phase,
    play,
    sailors,
    set_ducats,
)

from meeplezoo.envs import make, serenissima_v0, serenissima_v1
from meeplezoo.envs.core.contract import H_TO_MOVE, TERMINAL
from meeplezoo.envs.core.rng import new_rng
from meeplezoo.envs.core.state_io import StateFormatError
from meeplezoo.envs.serenissima import data as D
from meeplezoo.envs.serenissima import flow
from meeplezoo.envs.serenissima.invariants import ERRORS, check_invariants
from meeplezoo.envs.versions import rules_name, same_rules

CASES = Path(__file__).parent / "cases"
VALENCIA = PORT["Valencia"]


def case(name: str) -> dict:
    return json.loads((CASES / f"{name}.json").read_text())


def replay(version: str, recorded: dict):
    """The env after the recorded moves, each checked legal on ``version``."""
    env = make(version, **recorded["setup"]["make"])
    env.reset(seed=recorded["setup"]["reset_seed"])
    for number, action in enumerate(recorded["moves"]):
        assert action in env.legal_actions(), (version, number, env.action_to_str(action))
        env.step(action)
    return env


def names(env) -> set[str]:
    return {env.action_to_str(a) for a in env.legal_actions()}


# --- the recorded games --------------------------------------------------------------------

def test_second_galley_before_manning_the_first_is_legal_on_v1():
    """SE-10.1, SE-7.3, A-23: the player owns g7, just bought and unmanned, and can pay a
    second galley and both sailors: buying it first is his choice."""
    env = replay("serenissima_v1", case("serenissima_second_galley_before_manning"))
    assert env.agent_selection == "player_0" and env.phase == "special_investment"
    state, seat = env.state, 0
    waiting = int(state[D.A_UNMANNED])
    assert waiting == 6 and state[D.S_G_SAIL + waiting] == 0          # g7
    buys = [a for a in env.legal_actions() if D.A_GALLEY <= a < D.A_GALLEY + D.NUM_GALLEYS]
    assert buys and {"recruit P4", "recruit g7"} <= names(env)
    assert D.A_PASS not in env.legal_actions()
    money = int(state[D.S_DUCATS + seat])
    env.step(buys[0])                                     # galley price 1 (owns one)
    env.step(env.legal_actions()[0])                      # place it at an own port
    second = buys[0] - D.A_GALLEY
    assert env.phase == "special_investment" and int(env.state[D.S_DUCATS + seat]) == money - 1
    assert env.state[D.S_G_SAIL + second] == 0 and env.state[D.S_G_SAIL + waiting] == 0
    assert D.A_PASS not in env.legal_actions()            # two galleys wait for a sailor
    assert not any(D.A_GALLEY <= a < D.A_GALLEY + D.NUM_GALLEYS for a in env.legal_actions())
    env.step(D.A_RECRUIT_GALLEY + waiting)
    assert D.A_PASS not in env.legal_actions()            # the new one still waits
    env.step(D.A_RECRUIT_GALLEY + second)
    assert env.state[D.S_G_SAIL + waiting] == 1 and env.state[D.S_G_SAIL + second] == 1
    assert int(env.state[D.S_DUCATS + seat]) == money - 3
    assert env.state[D.A_UNMANNED] == -1
    env.unwrapped.spec.validate_state(env.state)


def test_v0_still_masks_the_second_galley_until_the_first_is_manned():
    env = replay("serenissima_v0", case("serenissima_second_galley_before_manning"))
    assert env.phase == "special_investment" and names(env) == {"recruit P4", "recruit g7"}


def test_load_step_is_not_cut_on_v1():
    """SE-6.2 sets no limit: after 40 micro-actions the player may still pass, jettison
    and transfer, and goes on shuffling as long as he likes."""
    recorded = case("serenissima_load_step_cap")
    env = replay("serenissima_v1", recorded)
    assert env.agent_selection == "player_1" and env.phase == "load"
    assert env.state[D.A_LOAD_STEPS] == D.MAX_LOAD_STEPS  # v0 would have cut here
    legal = set(env.legal_actions())
    assert D.A_PASS in legal and legal & set(range(D.A_JETTISON, D.A_SELL))
    assert legal & set(range(D.A_SAILOR_FROM, D.A_MOVE))  # sailor and goods transfers
    g = int(env.state[D.A_GAL])
    for _ in range(30):                                   # 60 more micro-actions
        sailor_to = [a for a in env.legal_actions() if D.A_SAILOR_TO <= a < D.A_GOOD_FROM]
        env.step(sailor_to[0])
        env.step(D.A_SAILOR_FROM + sailor_to[0] - D.A_SAILOR_TO)
        assert env.phase == "load" and int(env.state[D.A_GAL]) == g
    assert env.state[D.A_LOAD_STEPS] == D.MAX_LOAD_STEPS  # saturated, limits nothing
    env.unwrapped.spec.validate_state(env.state)
    env.step(D.A_PASS)
    assert env.phase == "move" and env.agent_selection == "player_1"


def test_v0_still_ends_the_load_step_after_40_micro_actions():
    env = replay("serenissima_v0", case("serenissima_load_step_cap"))
    assert env.agent_selection == "player_1" and env.phase == "move"


# --- hand-built special investments ----------------------------------------------------------

def special_investment(money: int, galleys: int = 0, rules: int = D.RULES_V1):
    """Blue (Valencia, 1 sailor) owns ``galleys`` manned galleys and ``money`` ducats, and
    is asked in the special investment (Red owns no port and is skipped)."""
    state = empty_game(4)
    state[D.G_RULES] = rules
    own(state, BLUE, "Valencia", 1)
    for number in range(1, galleys + 1):
        galley(state, number, BLUE, "Z1", 1)
    set_ducats(state, BLUE, money)
    state[D.G_SPECIAL_INDEX] = 0
    flow.advance_special(state)
    assert phase(state) == "special_investment" and state[H_TO_MOVE] == BLUE
    return state


PLACE = D.A_PORT + VALENCIA


def test_two_galleys_bought_before_either_is_manned():
    """EX-25's purchase (0 + 1 ducats, a sailor each) in the other order."""
    state = special_investment(3)
    play(state, galley_action(3), PLACE, galley_action(5), PLACE)
    assert ducats(state, BLUE) == 2 and sailors(state, 3) == sailors(state, 5) == 0
    assert legal(state) == {D.A_RECRUIT_GALLEY + 2, D.A_RECRUIT_GALLEY + 4}   # 2 ducats, 2 owed
    play(state, D.A_RECRUIT_GALLEY + 4)
    assert legal(state) == {D.A_RECRUIT_GALLEY + 2}
    play(state, D.A_RECRUIT_GALLEY + 2)
    assert ducats(state, BLUE) == 0 and sailors(state, 3) == sailors(state, 5) == 1
    assert phase(state) != "special_investment"           # nothing left: the phase moved on


def test_second_purchase_needs_the_price_and_every_sailor():
    for money, can_buy in ((2, False), (3, True)):        # price 1 + 2 sailors
        state = special_investment(money)
        play(state, galley_action(3), PLACE)
        assert (galley_action(5) in legal(state)) is can_buy, money
    state = special_investment(9)
    for port, crew in (("Genoa", 5), ("Venice", 5), ("Constantinople", 5), ("Algiers", 1)):
        own(state, BLUE, port, crew)
    state[D.S_P_SAIL + VALENCIA] += 4                     # Valencia full too
    state[D.S_SUPPLY + BLUE] -= 4
    assert state[D.S_SUPPLY + BLUE] == 1                  # one sailor left: only for g3
    play(state, galley_action(3), PLACE)
    assert legal(state) == {D.A_RECRUIT_GALLEY + 2}


def test_spending_that_would_strand_a_waiting_galley_stays_masked():
    state = special_investment(4, galleys=1)
    play(state, galley_action(5), PLACE)                  # price 1: 3 left, 1 owed
    assert D.A_RECRUIT_PORT + VALENCIA in legal(state)    # 3 >= 1 + 1
    assert D.A_RECRUIT_GALLEY + 0 in legal(state)
    set_ducats(state, BLUE, 1)
    assert legal(state) == {D.A_RECRUIT_GALLEY + 4}       # the last ducat is g5's
    assert galley_action(6) not in legal(state)           # owns 2 (SE-10.2)


def test_v0_order_in_the_special_investment():
    state = special_investment(3, rules=D.RULES_V0)
    play(state, galley_action(3), PLACE)
    assert galley_action(5) not in legal(state)
    play(state, D.A_RECRUIT_GALLEY + 2, galley_action(5), PLACE, D.A_RECRUIT_GALLEY + 4)
    assert ducats(state, BLUE) == 0


def test_the_ordinary_investment_still_buys_one_galley():
    """SE-7.3 is unchanged: one galley per Investment, on either version."""
    state = empty_game(4)
    state[D.G_RULES] = D.RULES_V1
    own(state, BLUE, "Valencia", 1)
    galley(state, 1, BLUE, "Z1", 1)
    set_ducats(state, BLUE, 9)
    flow.start_activation(state, 0)
    play(state, D.A_INVEST, galley_action(11), PLACE)
    assert not any(galley_action(n) in legal(state) for n in range(1, 16))
    play(state, D.A_RECRUIT_GALLEY + 10, D.A_PASS)
    check(state)


def test_load_shuffles_past_40_on_a_hand_built_galley():
    for rules, still_loading in ((D.RULES_V0, False), (D.RULES_V1, True)):
        state = empty_game(4)
        state[D.G_RULES] = rules
        own(state, BLUE, "Valencia", 3)
        galley(state, 4, BLUE, "Z1", 2)
        flow.start_activation(state, 3)
        play(state, D.A_ACTION)
        for _ in range(D.MAX_LOAD_STEPS // 2):
            play(state, D.A_PORT_TO_ACTIVE, D.A_ACTIVE_TO_PORT)
        assert (phase(state) == "load") is still_loading


# --- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_v1_games_keep_every_invariant_and_end_by_the_rules(players):
    kernels = serenissima_v1.SPEC.kernels
    configs = [serenissima_v1.SPEC.make_config(**options)
               for options in ({}, {"map": "generated:7"}, {"block_in_start_zone": True})]
    state = np.zeros(D.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(D.NUM_ACTIONS, dtype=np.int8)
    longest = 0
    for game in range(40):
        rng = new_rng(1000 * players + game)
        policy = np.random.default_rng(game)
        config = configs[game % len(configs)]
        kernels["env_reset"](state, players, config, game % players, rng, mask)
        assert state[D.G_RULES] == D.RULES_V1
        steps = 0
        while state[H_TO_MOVE] != TERMINAL:
            kernels["env_step"](state, int(policy.choice(np.flatnonzero(mask))), rng, mask)
            steps += 1
            error = int(check_invariants(state))
            assert error == 0, ERRORS[error]
        assert state[D.G_TRUNCATED] == 0 and state[D.G_TRACK] == state[D.K_TRACK_LAST]
        serenissima_v1.SPEC.validate_state(state)
        longest = max(longest, steps)
    assert longest < D.DEFAULT_MAX_DECISIONS // 4


def test_same_seed_same_start_on_both_versions():
    v0, v1 = make("serenissima_v0", num_players=3), make("serenissima_v1", num_players=3)
    v0.reset(seed=4)
    v1.reset(seed=4)
    differ = np.flatnonzero(v0.state != v1.state)
    assert list(differ) == [D.G_RULES] and v1.state[D.G_RULES] == D.RULES_V1
    assert np.array_equal(v0.observe(v0.agent_selection)["observation"],
                          v1.observe(v1.agent_selection)["observation"])


# --- versions --------------------------------------------------------------------------------

def test_a_saved_state_loads_only_into_its_own_version():
    v0, v1 = make("serenissima_v0", num_players=2), make("serenissima_v1", num_players=2)
    for env in (v0, v1):
        env.reset(seed=3)
        for _ in range(20):
            env.step(env.legal_actions()[0])
    v1.clone().state_from_json(v1.state_to_json())
    v0.clone().state_from_json(v0.state_to_json())
    with pytest.raises(StateFormatError, match="serenissima_v0's rules"):
        v1.state_from_json(v0.state_to_json())
    with pytest.raises(StateFormatError, match="serenissima_v1's rules"):
        v0.state_from_json(v1.state_to_json())


def test_v1_shares_v0s_tables_but_not_its_rules():
    assert rules_name("serenissima_v1") == "serenissima_v0"
    assert not same_rules("serenissima_v1", "serenissima_v0")
    assert same_rules("carcassonne_v1", "carcassonne_v0")
    assert serenissima_v1.SPEC.obs_size == serenissima_v0.SPEC.obs_size
    assert serenissima_v1.SPEC.num_actions == serenissima_v0.SPEC.num_actions
    assert serenissima_v1.raw_env.metadata["name"] == "serenissima_v1"


def test_bots_of_v0_play_v1_and_its_networks_are_refused():
    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import resolve_game

    assert resolve_game("serenissima") == "serenissima_v1"
    env = make("serenissima_v1", num_players=2)
    env.reset(seed=1)
    bots = [make_agent(spec, "serenissima_v1", seed=0)
            for spec in ("greedy", "mcts:8", "mcts:8,leaf=fitted", "mcts:8,leaf=fitted:gen")]
    for turn in range(60):
        env.step(bots[turn % len(bots)].act(env))
    for spec in ("az:default", "ppo:default"):
        with pytest.raises(ValueError, match="serenissima_v1"):
            make_agent(spec, "serenissima_v1", seed=0)
