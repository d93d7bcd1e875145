"""Serenissima golden playthrough (OpenSpiel style): every state, mask and observation.

The recording lives in ``tests/golden/serenissima_3p.json``: per step the move (number and
notation), the legal moves, and SHA-1 digests of the full state and of the observation of
the seat to move, plus the rendered final board.  Any change to the rules, the layout, the
RNG or the observation shows up as a diff at the first step that differs.  Regenerate only
on purpose: ``MEEPLEZOO_REGEN_GOLDEN=1 pytest tests/envs/test_serenissima_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

import meeplezoo.envs.serenissima_v0 as serenissima_v0

GOLDEN = Path(__file__).parents[1] / "golden" / "serenissima_3p.json"


def digest(array: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def record() -> dict:
    env = serenissima_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=2026)
    policy = np.random.default_rng(7)
    steps = []
    while not all(env.terminations.values()):
        agent = env.agent_selection
        observation = env.observe(agent)
        legal = env.legal_actions()
        action = int(policy.choice(legal))
        steps.append({
            "agent": agent, "phase": env.phase, "action": action,
            "move": env.action_to_str(action), "legal": legal,
            "state": digest(env.state), "observation": digest(observation["observation"]),
        })
        env.step(action)
    return {"seed": 2026, "policy_seed": 7, "num_players": 3, "steps": steps,
            "final_state": digest(env.state), "final_scores": env.scores().tolist(),
            "rewards": [env.rewards[a] for a in env.possible_agents],
            "final_board": env.render().splitlines()}


def test_golden_playthrough():
    recorded = record()
    if os.environ.get("MEEPLEZOO_REGEN_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(recorded, indent=0))
    assert GOLDEN.exists(), "no golden recording: run with MEEPLEZOO_REGEN_GOLDEN=1 once"
    golden = json.loads(GOLDEN.read_text())
    for index, (want, got) in enumerate(zip(golden["steps"], recorded["steps"], strict=False)):
        assert got == want, f"step {index} differs: {got} != {want}"
    assert len(recorded["steps"]) == len(golden["steps"])
    for key in ("final_state", "final_scores", "rewards", "final_board"):
        assert recorded[key] == golden[key], key
