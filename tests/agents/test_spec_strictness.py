"""An agent spec, a seed or a board range means one thing or is refused with one line:
no Unicode digits read as numbers, no settings silently ignored, no option given twice,
no seed reduced modulo 2**64, no board range built without a ceiling."""

from __future__ import annotations

import pytest

from meeplezoo.agents.mcts.uct import P_ROLLOUT_DEPTH
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs import make, spec
from meeplezoo.envs.core.batch import BatchEnv
from meeplezoo.envs.core.boards import MAX_BANK_BOARDS, BoardRangeError
from meeplezoo.envs.core.rng import new_rng

GAME = "hansa_v0"


@pytest.mark.parametrize("agent, words", [
    ("mcts:٥", "bad MCTS spec"), ("mcts:５", "bad MCTS spec"), ("mcts:1٠s", "bad MCTS spec"),
    ("mcts:20,depth=٣", "bad MCTS spec"), ("mcts:20,c=１", "bad MCTS spec"),
    ("mcts:20,rollout=junk", "bad MCTS spec"), ("mcts:20,chance=never", "bad MCTS spec"),
    ("mcts:20,backup=median", "bad MCTS spec"), ("mcts:20,horizon=week", "bad MCTS spec"),
    ("mcts:20,cut=half", "bad MCTS spec"), ("mcts:20,reuse=maybe", "bad MCTS spec"),
    ("mcts:20,c=1,c=2", "c given more than once"),
    ("mcts:20,leaf=sideways", "no leaf value 'sideways'"),
    ("random:anything", "random takes no settings"), ("greedy:x", "greedy takes no settings"),
    ("az:default,sims=٥", "bad az option"), ("az:default,sims=4,sims=8", "sims given more"),
    ("az:default,fpu=parent-０", "bad az option")])
def test_a_spec_that_means_nothing_is_refused(agent, words):
    with pytest.raises(ValueError, match=words):
        make_agent(agent, GAME)


@pytest.mark.parametrize("agent", ["mcts:20,reuse=yes", "mcts:20,reuse=no",
                                   "mcts:20,rollout=random", "mcts:1.5s,c=0.7",
                                   "mcts:20,backup=max,chance=stratified,cut=score"])
def test_every_documented_setting_is_still_read(agent):
    assert make_agent(agent, GAME).name == agent


def test_a_game_default_may_be_overridden_once():
    # Serenissima's tuned defaults name depth=60: the user's own depth replaces it.
    assert make_agent("mcts:20", "serenissima_v0").params[P_ROLLOUT_DEPTH] == 60
    assert make_agent("mcts:20,depth=12", "serenissima_v0").params[P_ROLLOUT_DEPTH] == 12


@pytest.mark.parametrize("seed", [2**64, 2**64 + 5, -1, 10**30])
def test_a_seed_outside_64_bits_is_refused_not_reduced(seed):
    with pytest.raises(ValueError, match="0..2\\*\\*64-1"):
        new_rng(seed)
    env = make(GAME)
    with pytest.raises(ValueError, match="0..2\\*\\*64-1"):
        env.reset(seed=seed)
    env.reset(seed=2**64 - 1)                       # the largest seed still plays
    assert not env.game_over


def test_a_board_range_beyond_the_ceiling_is_refused_before_building():
    for board in ("generated:0-3999999", "generated:0-99999999"):
        with pytest.raises(BoardRangeError, match=f"at most {MAX_BANK_BOARDS:,}"):
            BatchEnv(spec(GAME), 2, 2, board=board)
    env = make(GAME, board="generated:0-99999999")     # the AEC env draws one board a reset
    env.reset(seed=1)
    assert not env.game_over
