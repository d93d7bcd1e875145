"""A trained PPO policy as an agent: ``PPOAgent("runs/x/checkpoint.pt")``, ``ppo:<path>``
or ``ppo:default`` (the policy shipped for the game, trained for as many minutes as its
``az:default``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ..base import Agent
from ..layers import masked_logits
from ..shipped import shipped_bot
from .network import make_network

PPO_BOTS_DIR = Path(__file__).resolve().parent / "bots"    # the shipped policies


def shipped_policy(game: str, players: int = 2, variant: str = "") -> Path:
    """The checkpoint ``ppo:default`` (or ``ppo:default<N>p``, a variant) loads for ``game``."""
    return shipped_bot(PPO_BOTS_DIR, game, players, "PPO", "ppo", variant)


def load_policy(path, device: str = "cpu",
                payload: dict | None = None) -> tuple[torch.nn.Module, dict]:
    """A PPO checkpoint's network, on ``device`` in eval mode, and the checkpoint
    (``payload``: the checkpoint at ``path``, already loaded)."""
    from meeplezoo.training.run.checkpoint import load_checkpoint, load_weights

    if payload is None:
        payload = load_checkpoint(path, map_location=device)
    network = make_network(payload["meta"]).to(device)
    load_weights(network, payload["model"], str(path))
    network.eval()
    return network, payload


class PPOAgent(Agent):
    """Plays the seat to move with a checkpointed policy, from that seat's observation.

    ``greedy=True`` takes the most probable legal action; otherwise it samples from the
    masked policy with the agent's own seeded generator (reproducible from ``seed``).
    """

    def __init__(self, checkpoint_path: str, greedy: bool = True, seed: int | None = None,
                 device: str = "cpu"):
        super().__init__(seed)
        self.network, payload = load_policy(checkpoint_path, device)
        self.meta = payload["meta"]
        self.game = self.meta["game"]
        self.greedy, self.device = greedy, torch.device(device)
        self.name = f"ppo:{checkpoint_path}" + ("" if greedy else ",sample")

    @torch.no_grad()
    def logits_and_value(self, env) -> tuple[torch.Tensor, np.ndarray, float]:
        """For the seat to move: the policy's masked logits (double; illegal moves at the
        dtype's smallest finite value), the action mask and the value head's estimate."""
        game = getattr(env.unwrapped, "spec", None)
        if game is not None and getattr(game, "name", self.game) != self.game:
            raise ValueError(f"{self.name} was trained on {self.game}, not {game.name}")
        seen = env.observe(env.agent_selection)
        mask = np.asarray(seen["action_mask"])
        if not mask.any():
            raise ValueError(f"no legal action for {env.agent_selection} (is the game over?)")
        obs = torch.as_tensor(seen["observation"], dtype=torch.float32, device=self.device)
        logits, value = self.network(obs[None])
        return masked_logits(logits[0].double().cpu(), torch.from_numpy(mask)), mask, \
            float(value[0])

    @staticmethod
    def probabilities(logits: torch.Tensor, mask: np.ndarray) -> np.ndarray:
        """The move distribution of masked logits, exactly 0 on illegal moves."""
        probs = torch.softmax(logits, dim=0).numpy()
        probs[mask == 0] = 0.0
        return probs

    def act(self, env) -> int:
        logits, mask, _ = self.logits_and_value(env)
        if self.greedy:
            return int(torch.argmax(logits))
        probs = self.probabilities(logits, mask)
        return int(self.rng.choice(probs.size, p=probs / probs.sum()))
