"""The MLP network as a leaf evaluator without torch at play time: NumPy and one compiled
kernel, for the small batches a single game's search asks (8-16 leaves).

At those sizes torch's per-operation overhead, not arithmetic, is the cost: a forward
pass of the 256-256 MLP on 8 leaves spends about 150 us in a dozen dispatched
operations, and the masked softmax in double and the seat rotation as many again.  Here
every layer is one compiled loop that gathers the weight rows of each leaf's nonzero
inputs (observations are ~1-5% nonzero), single-threaded on purpose (``dense_layer``), and
the softmax runs over the legal moves in NumPy.  Same function as
:class:`~meeplezoo.agents.az.evaluator.NetworkEvaluator` on the same weights (tested to
float32 rounding); training and self-play's big batches keep torch.
"""

from __future__ import annotations

import numpy as np

from meeplezoo.envs.core.batch import observe_batch
from meeplezoo.envs.core.contract import H_NUM_PLAYERS, GameSpec
from meeplezoo.envs.core.jit import njit

from .evaluator import margin_utility, observers, rotated_to_absolute


@njit
def dense_layer(x, weight, bias, relu, out):
    """out = x @ weight + bias (then max(., 0) if ``relu``), in one compiled loop that skips
    the zero entries of ``x`` (observations are ~1-5% nonzero; after a ReLU about half).

    NumPy's ``@`` hands these small products to a multithreaded BLAS, whose threads wait
    on each other when other processes hold the cores: a Carcassonne leaf batch (8 x 256
    by 256 x 737) took 7.1 ms a call with a second process busy on the 2-core machine,
    0.25 ms with BLAS on one thread.  A single-threaded loop costs the same on a quiet
    machine and stays there on a busy one, which is where arenas time their bots."""
    for b in range(x.shape[0]):
        for j in range(out.shape[1]):
            out[b, j] = bias[j]
        for k in range(x.shape[1]):
            value = x[b, k]
            if value != 0.0:
                for j in range(out.shape[1]):
                    out[b, j] += value * weight[k, j]
        if relu:
            for j in range(out.shape[1]):
                if out[b, j] < 0.0:
                    out[b, j] = 0.0


def _dense(x, layer, relu: bool = False):
    weight, bias = layer
    out = np.empty((x.shape[0], bias.size), dtype=np.float32)
    dense_layer(x, weight, bias, relu, out)
    return out


class MLPPlayEvaluator:
    """``(states, masks) -> (values by absolute seat, priors)`` from an ``AZNetwork``'s
    weights, copied to float32 NumPy arrays (a float16 shipped bot too)."""

    def __init__(self, network, spec: GameSpec, margin_weight: float = 0.0):
        def array(tensor):
            return np.ascontiguousarray(tensor.detach().float().cpu().numpy())

        linears = [layer for layer in network.trunk if hasattr(layer, "weight")]
        self.first_rows = array(linears[0].weight.t())
        self.first_bias = array(linears[0].bias)
        self.hidden = [(array(layer.weight.t()), array(layer.bias)) for layer in linears[1:]]
        self.policy = (array(network.policy.weight.t()), array(network.policy.bias))
        self.value = (array(network.value.weight.t()), array(network.value.bias))
        self.margin = (array(network.margin.weight.t()), array(network.margin.bias))
        self.spec, self.margin_weight = spec, float(margin_weight)

    def __call__(self, states: np.ndarray, masks: np.ndarray):
        seats = observers(self.spec, states)
        obs = observe_batch(self.spec, states, seats)
        features = _dense(obs, (self.first_rows, self.first_bias), relu=True)
        for layer in self.hidden:
            features = _dense(features, layer, relu=True)
        logits = _dense(features, self.policy).astype(np.float64)
        values = np.tanh(_dense(features, self.value)).astype(np.float64)
        if self.margin_weight:
            margins = _dense(features, self.margin).astype(np.float64)
            values = margin_utility(values, margins, self.margin_weight)
        legal = masks != 0
        logits[~legal] = -np.inf
        top = logits.max(axis=1, keepdims=True)
        top[~np.isfinite(top)] = 0.0                 # no legal move (chance, end): no priors
        priors = np.exp(logits - top)
        totals = priors.sum(axis=1, keepdims=True)
        priors = np.divide(priors, totals, out=np.zeros_like(priors), where=totals > 0)
        players = int(states[0, H_NUM_PLAYERS])
        return rotated_to_absolute(values, seats, players), priors


def play_evaluator(network, spec: GameSpec, device: str = "cpu", margin_weight: float = 0.0):
    """The evaluator a single game's search plays with: this NumPy path for the MLP on the
    CPU, torch's :class:`~meeplezoo.agents.az.evaluator.NetworkEvaluator` otherwise (the
    convolutional network, a GPU)."""
    from .evaluator import NetworkEvaluator
    from .network import AZNetwork

    if isinstance(network, AZNetwork) and device == "cpu":
        return MLPPlayEvaluator(network, spec, margin_weight)
    return NetworkEvaluator(network, spec, device, margin_weight)
