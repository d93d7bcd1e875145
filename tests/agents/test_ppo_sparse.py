"""The sparse-input first layer computes exactly what nn.Linear computes."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from meeplezoo.agents.layers import SparseInputLinear  # noqa: E402
from meeplezoo.agents.ppo.network import MLPPolicy  # noqa: E402
from meeplezoo.agents.sparse import nonzero_rows  # noqa: E402


def _sparse_batch(rows: int, cols: int, density: float, seed: int) -> torch.Tensor:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(rows, cols)).astype(np.float32)
    x[rng.random((rows, cols)) > density] = 0.0
    x[0] = 0.0                                   # an all-zero row (an empty bag)
    return torch.from_numpy(x)


def test_nonzero_rows_matches_numpy():
    x = _sparse_batch(7, 33, 0.2, seed=1).numpy()
    cols, values, offsets = nonzero_rows(x)
    rows_np, cols_np = np.nonzero(x)
    np.testing.assert_array_equal(cols, cols_np)
    np.testing.assert_array_equal(values, x[rows_np, cols_np])
    np.testing.assert_array_equal(offsets, np.searchsorted(rows_np, np.arange(7)))


@pytest.mark.parametrize("density", [0.0, 0.01, 0.1, 0.6])
def test_sparse_layer_equals_dense(density):
    torch.manual_seed(0)
    layer = SparseInputLinear(50, 8)
    x = _sparse_batch(64, 50, density, seed=2)
    with torch.no_grad():
        sparse = layer(x)
    dense = torch.nn.functional.linear(x, layer.weight, layer.bias).detach()
    torch.testing.assert_close(sparse, dense, rtol=1e-5, atol=1e-5)


def test_cache_follows_weight_updates_and_training_uses_dense_gradients():
    torch.manual_seed(0)
    net = MLPPolicy(40, 5, hidden=(16,))
    x = _sparse_batch(8, 40, 0.1, seed=3)
    optimiser = torch.optim.SGD(net.parameters(), lr=0.5)
    with torch.no_grad():
        before = net(x)[0]
    logits, value = net(x)                       # gradients on: the dense path
    (logits.sum() + value.sum()).backward()
    assert net.trunk[0].weight.grad is not None
    optimiser.step()
    with torch.no_grad():
        after = net(x)[0]
        reference = net.policy(net.trunk[1](torch.nn.functional.linear(
            x, net.trunk[0].weight, net.trunk[0].bias)))
    assert not torch.allclose(before, after)     # the cached transposed weight was refreshed
    torch.testing.assert_close(after, reference, rtol=1e-5, atol=1e-5)
