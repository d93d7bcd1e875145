"""The AEC envs unchanged in other libraries: SuperSuit's wrappers and TorchRL.

The RL libraries guide (`docs/pages/guides/rl_libraries.md`) lists what applies; these tests
keep that list honest.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from meeplezoo.envs import make, names, spec

from .playing import PolicyChooser

supersuit = pytest.importorskip("supersuit")

# Wrappers that apply to a turn-based game with masked Dict observations.
APPLICABLE = {
    "clip_reward_v0": lambda env: supersuit.clip_reward_v0(env, -0.5, 0.5),
    "reward_lambda_v0": lambda env: supersuit.reward_lambda_v0(env, lambda r: 2 * r),
    "pad_action_space_v0": lambda env: supersuit.pad_action_space_v0(env),
    "action_lambda_v1": lambda env: supersuit.action_lambda_v1(env, lambda a, s: a,
                                                              lambda s: s),
}
# Observation wrappers expect a Box, not {"observation", "action_mask"} (as for every
# PettingZoo classic game); sticky/delayed wrappers replay stale, now illegal actions.
NOT_APPLICABLE = {
    "frame_stack_v1": lambda env: supersuit.frame_stack_v1(env, 2),
    "normalize_obs_v0": lambda env: supersuit.normalize_obs_v0(env),
    "sticky_actions_v0": lambda env: supersuit.sticky_actions_v0(env, 0.25),
}


@pytest.mark.parametrize("wrapper", sorted(APPLICABLE))
@pytest.mark.parametrize("name", names())
def test_supersuit_wrappers_that_apply(name, wrapper):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(APPLICABLE[wrapper](make(name, num_players=2)), num_cycles=100)


@pytest.mark.parametrize("wrapper", sorted(NOT_APPLICABLE))
def test_supersuit_wrappers_that_do_not_apply(wrapper):
    with pytest.raises((AssertionError, AttributeError, ValueError)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            api_test(NOT_APPLICABLE[wrapper](make("saint_malo_v0", num_players=2)),
                     num_cycles=100)


@pytest.mark.parametrize("name", names())
def test_torchrl_pettingzoo_wrapper_plays_whole_games(name):
    torch = pytest.importorskip("torch")
    pettingzoo_lib = pytest.importorskip("torchrl.envs.libs.pettingzoo")
    env = make(name, num_players=2)
    wrapped = pettingzoo_lib.PettingZooWrapper(env=env, use_mask=True,
                                               categorical_actions=True, return_state=False)
    choose = PolicyChooser(spec(name), 0)
    for seed in range(1):
        tensordict = wrapped.reset(seed=seed)
        steps = 0
        while not bool(tensordict["done"].all()):
            for group in wrapped.group_map:
                group_td = tensordict[group]
                legal = group_td["action_mask"][0].numpy()
                action = choose(env.state, env.action_mask()) if group_td["mask"][0] else 0
                group_td["action"] = torch.tensor([action])
                if group_td["mask"][0]:
                    # the wrapper shows exactly the env's mask to the agent on turn
                    assert np.array_equal(legal, env.action_mask().astype(bool))
            tensordict = wrapped.step(tensordict)["next"]
            steps += 1
        final = {agent: env.rewards[agent] for agent in env.possible_agents}
        assert sorted(final.values()) == [-1.0, 1.0] or set(final.values()) == {0.0}
        got = [float(tensordict[group]["reward"].sum()) for group in wrapped.group_map]
        assert sorted(got) == sorted(final.values())
        assert steps > 10
