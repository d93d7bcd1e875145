"""Golden playthrough (OpenSpiel style): every state, mask and observation of a recorded
game (heuristic play with 20% random moves, 3 players), checked step by step.  Regenerate
only on purpose: ``MEEPLEZOO_REGEN_GOLDEN=1 pytest tests/envs/test_hansa_teutonica_golden.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np

import meeplezoo.envs.hansa_teutonica_v0 as hansa_teutonica_v0
from meeplezoo.agents.hansa_teutonica_greedy import HansaTeutonicaGreedyAgent

GOLDEN = Path(__file__).parents[1] / "golden" / "hansa_teutonica_3p.json"


def digest(array: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def record() -> dict:
    env = hansa_teutonica_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=2026)
    policy = np.random.default_rng(7)
    bot = HansaTeutonicaGreedyAgent(seed=5)
    steps = []
    while not all(env.terminations.values()):
        agent = env.agent_selection
        observation = env.observe(agent)
        legal = env.legal_actions()
        action = int(policy.choice(legal)) if policy.random() < 0.2 else bot.act(env)
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
