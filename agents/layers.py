"""Network building blocks that both network families (PPO's policies in ``agents/ppo``,
AlphaZero's networks in ``agents/az``) are made of: the CleanRL initialisation, masked
logits and distributions, and a first layer that reads sparse observations fast.

Illegal actions get the smallest finite logit of the dtype (``torch.finfo(dtype).min``),
never ``-inf``: the softmax gives them probability 0, yet log-probabilities, entropies and
their gradients stay finite (``-inf`` turns ``0 * -inf`` into NaN).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical
from torch.nn import functional as F

from .sparse import nonzero_rows


def layer_init(layer: nn.Linear, std: float = float(np.sqrt(2)), bias: float = 0.0) -> nn.Linear:
    """Orthogonal weights, constant bias (the CleanRL PPO initialisation)."""
    nn.init.orthogonal_(layer.weight, std)
    nn.init.constant_(layer.bias, bias)
    return layer


def masked_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """``logits`` with every action where ``mask`` is 0 set to ``finfo(dtype).min``."""
    return torch.where(mask.bool(), logits, torch.finfo(logits.dtype).min)


def masked_distribution(logits: torch.Tensor, mask: torch.Tensor) -> Categorical:
    """A categorical distribution that never samples an illegal action."""
    return Categorical(logits=masked_logits(logits, mask))


class SparseInputLinear(nn.Linear):
    """``nn.Linear`` that, when no gradient is needed, multiplies only the nonzero inputs.

    Board observations are mostly zeros (about 1% nonzero for Saint Malo), so inference
    gathers the weight rows of the nonzero inputs (``embedding_bag`` with the input values
    as weights) instead of a dense matmul: the same function, several times faster at
    batch 1024.  Training (gradients on) uses the dense product; parameters and
    checkpoints are those of ``nn.Linear``.
    """

    DENSE_ABOVE = 0.2          # fraction of nonzeros above which the dense product wins

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dim() != 2 or x.device.type != "cpu" or x.dtype != torch.float32 or (
                torch.is_grad_enabled() and self.weight.requires_grad):
            return super().forward(x)
        cols, values, offsets = nonzero_rows(np.ascontiguousarray(x.detach().numpy()))
        if cols.size > self.DENSE_ABOVE * x.numel():
            return super().forward(x)
        out = F.embedding_bag(torch.from_numpy(cols), self._input_rows(),
                              torch.from_numpy(offsets), mode="sum",
                              per_sample_weights=torch.from_numpy(values))
        return out + self.bias

    def _input_rows(self) -> torch.Tensor:
        """The weight transposed (one row per input), cached until the weight changes."""
        key = (self.weight._version, self.weight.data_ptr(), self.weight.device)
        if getattr(self, "_rows_key", None) != key:
            self._rows = self.weight.detach().t().contiguous()
            self._rows_key = key
        return self._rows
