"""Helpers shared by the env tests of every game (imported as ``from envtest import ...``)."""

from __future__ import annotations

import json

import numpy as np

from meeplezoo.envs.core.contract import H_PHASE


def play_random(env, seed, policy_seed=0, max_steps=10_000):
    """Reset with ``seed`` and play uniformly random legal moves through ``agent_iter``.

    Returns the trace of ``(agent, action, phase)`` of every decision taken.
    """
    env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    trace = []
    for agent in env.agent_iter(max_steps):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, env.phase))
        env.step(action)
    return trace


def corrupt(saved: str, edit) -> str:
    """``saved`` (a state JSON) with ``edit(data)`` applied to its parsed form."""
    data = json.loads(saved)
    edit(data)
    return json.dumps(data)


def legal_set(state, legal_mask, num_actions: int) -> set[int]:
    """The legal actions of a raw kernel state, as a set (for the hand-built rule tests)."""
    mask = np.zeros(num_actions, dtype=np.int8)
    legal_mask(state, mask)
    return {int(a) for a in np.flatnonzero(mask)}


def play_legal(state, actions, legal, apply_action) -> None:
    """Apply ``actions`` to a raw kernel state, each of which must be legal at its turn."""
    for action in actions:
        allowed = legal(state)
        assert action in allowed, f"action {action} illegal in phase {state[H_PHASE]}: {allowed}"
        apply_action(state, action)


def assert_move_names(env, parse: bool = True) -> None:
    """At the current position: one name per legal action, exactly what
    ``action_to_str`` writes, distinct even ignoring case and spacing, and (``parse``)
    each read back by ``str_to_action`` as typed, lower-cased and upper-cased with spaces."""
    from meeplezoo.envs.core.notation import normalise

    legal, names = env.legal_actions(), env.legal_move_names()
    assert names == [env.action_to_str(a) for a in legal], env.phase
    assert len(set(names)) == len({normalise(n) for n in names}) == len(legal), \
        (env.phase, names)
    if parse:
        for action, name in zip(legal, names, strict=True):
            assert env.str_to_action(name) == action
            assert env.str_to_action(name.lower()) == action
            assert env.str_to_action(f"  {name.upper()} ") == action
