"""The single-agent Gymnasium view: check_env, masks, opponents, seeding, MaskablePPO."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.envs import names, spec
from meeplezoo.envs.interop.gymnasium_view import SingleAgentEnv

from .playing import PolicyAgent, PolicyChooser


def _play(env: SingleAgentEnv, seed: int, policy_seed: int = 0):
    obs, info = env.reset(seed=seed)
    choose = PolicyChooser(env.game_spec, policy_seed)
    trace, reward, terminated = [], 0.0, False
    while not terminated:
        mask = env.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"].astype(bool))
        assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
        action = choose(env.env.state, mask)
        trace.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        assert terminated or reward == 0.0
    assert not env.action_masks().any()
    return trace, reward, info


@pytest.mark.parametrize("name", names())
def test_check_env_passes(name):
    check_env(SingleAgentEnv(name, opponents=["random"]), skip_render_check=True)
    check_env(SingleAgentEnv(name, opponents=["random"], render_mode="rgb_array"))


@pytest.mark.parametrize("name", names())
def test_full_games_end_with_the_learner_reward(name):
    players = spec(name).min_players + 1 if spec(name).max_players > 2 else 2
    opponents = [PolicyAgent(spec(name), seed) for seed in range(players - 1)]
    env = SingleAgentEnv(name, opponents=opponents, seat="random")
    seats = set()
    for seed in range(6):
        _, reward, info = _play(env, seed)
        seats.add(info["seat"])
        learner = env.env.possible_agents[env.seat]
        assert reward == env.env.rewards[learner]
        assert len(info["scores"]) == players
    assert len(seats) > 1                       # seat="random" really varies the seat


def test_same_seed_same_game():
    env = SingleAgentEnv("saint_malo_v0", opponents=["greedy"], seat="random")
    assert _play(env, seed=3) [0] == _play(env, seed=3)[0]
    assert _play(env, seed=3)[0] != _play(env, seed=4)[0]


def test_illegal_action_penalty_or_raise():
    env = SingleAgentEnv("saint_malo_v0", opponents=[RandomAgent()])
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    strict = SingleAgentEnv("saint_malo_v0", opponents=["random"], illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        strict.step(illegal)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="opponent"):
        SingleAgentEnv("saint_malo_v0", opponents=[])
    with pytest.raises(ValueError, match="needs 2 opponents"):
        SingleAgentEnv("saint_malo_v0", opponents=["random"], num_players=3)
    with pytest.raises(ValueError, match="unknown agent"):
        SingleAgentEnv("saint_malo_v0", opponents=["nobody"])
    with pytest.raises(ValueError, match="seat"):
        SingleAgentEnv("saint_malo_v0", opponents=["random"], seat=5)
    with pytest.raises(ValueError, match="unknown environment"):
        SingleAgentEnv("chess_v0")


def test_maskable_ppo_trains_and_plays_legal_moves():
    pytest.importorskip("sb3_contrib")
    from meeplezoo.training.libraries.sb3_example import train, win_rate

    model, env = train("saint_malo_v0", "random", steps=128, n_steps=64, n_epochs=2)
    obs, _ = env.reset(seed=0)
    terminated = False
    while not terminated:
        mask = env.action_masks()
        action, _ = model.predict(obs, action_masks=mask, deterministic=False)
        assert mask[int(action)]
        obs, _, terminated, _, _ = env.step(int(action))
    assert 0.0 <= win_rate(model, env, games=2) <= 1.0


def test_a_game_cut_at_its_cap_is_truncated_not_terminated():
    """A learner that bootstraps must see the cut as a truncation."""
    env = SingleAgentEnv("hansa_v0", opponents=["random"], max_turns=3)
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, info = env.step(action)
        steps += 1
    assert truncated and not terminated and steps > 1
    assert reward in (-1.0, 0.0, 1.0) and "scores" in info
    played_out = SingleAgentEnv("hansa_v0", opponents=["random"])
    played_out.reset(seed=1)
    terminated = truncated = False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(played_out.action_masks())))
        _, _, terminated, truncated, _ = played_out.step(action)
    assert terminated and not truncated
