"""Golden playthroughs (OpenSpiel style): every state, mask and observation of a recorded game.

One recording per game lives in ``tests/golden/<game>_3p.json``: per step the move (number
and notation), the legal moves, and SHA-1 digests of the full state and of the observation
of the seat to move, plus the rendered final board.  Any change to the rules, the layout,
the RNG or the observation shows up as a diff at the first step that differs.  Regenerate
only on purpose: ``MEEPLEZOO_REGEN_GOLDEN=1 pytest tests/envs/test_golden.py -k <game>``.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from meeplezoo.envs import make

GOLDEN_DIR = Path(__file__).parents[1] / "golden"
SEED, POLICY_SEED, NUM_PLAYERS = 2026, 7, 3


def random_policy(env, legal, policy):
    return int(policy.choice(legal))


def hansa_teutonica_policy():
    """Heuristic play with 20% random moves (the greedy bot alone is too predictable)."""
    from meeplezoo.agents.hansa_teutonica_greedy import HansaTeutonicaGreedyAgent

    bot = HansaTeutonicaGreedyAgent(seed=5)
    return lambda env, legal, policy: (int(policy.choice(legal)) if policy.random() < 0.2
                                       else bot.act(env))


# game -> a factory of its move chooser (env, legal moves, policy rng) -> action
GAMES = {
    "saint_malo": lambda: random_policy,
    "hansa_teutonica": hansa_teutonica_policy,
    "carcassonne": lambda: random_policy,
    "hansa": lambda: random_policy,
    "serenissima": lambda: random_policy,
}


def digest(array: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def record(game: str) -> dict:
    env = make(f"{game}_v0", num_players=NUM_PLAYERS, render_mode="ansi", start_seat=0)
    env.reset(seed=SEED)
    policy = np.random.default_rng(POLICY_SEED)
    choose = GAMES[game]()
    steps = []
    while not env._game_over:
        agent = env.agent_selection
        observation = env.observe(agent)
        legal = env.legal_actions()
        action = choose(env, legal, policy)
        steps.append({
            "agent": agent, "phase": env.phase, "action": action,
            "move": env.action_to_str(action), "legal": legal,
            "state": digest(env.state), "observation": digest(observation["observation"]),
        })
        env.step(action)
    return {"seed": SEED, "policy_seed": POLICY_SEED, "num_players": NUM_PLAYERS,
            "steps": steps, "final_state": digest(env.state),
            "final_scores": env.scores().tolist(),
            "rewards": [env.rewards[a] for a in env.possible_agents],
            "final_board": env.render().splitlines()}


@pytest.mark.parametrize("game", list(GAMES))
def test_golden_playthrough(game):
    golden_path = GOLDEN_DIR / f"{game}_{NUM_PLAYERS}p.json"
    recorded = record(game)
    if os.environ.get("MEEPLEZOO_REGEN_GOLDEN"):
        golden_path.parent.mkdir(exist_ok=True)
        golden_path.write_text(json.dumps(recorded, indent=0))
    assert golden_path.exists(), "no golden recording: run with MEEPLEZOO_REGEN_GOLDEN=1 once"
    golden = json.loads(golden_path.read_text())
    for index, (want, got) in enumerate(zip(golden["steps"], recorded["steps"], strict=False)):
        assert got == want, f"step {index} differs: {got} != {want}"
    assert len(recorded["steps"]) == len(golden["steps"])
    for key in ("final_state", "final_scores", "rewards", "final_board"):
        assert recorded[key] == golden[key], key
