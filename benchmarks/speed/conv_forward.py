"""Where the convolutional network's play time goes: arithmetic or torch's dispatch?

    python -m meeplezoo.benchmarks.speed.conv_forward [--game carcassonne_v0] [--calls 200]

Would a NumPy/numba play path for Carcassonne's convolutional network pay, as it does for
the MLP (``agents/az/play_evaluator.py``)?  The MLP's path pays because at a search's
batch of 8 leaves its forward pass is a dozen dispatched operations doing little
arithmetic on ~1-5% nonzero inputs.  This times the shipped ``az:default``'s network on
one torch thread, in one process: the whole evaluator (observation, forward pass,
masked softmax), the forward pass, and the convolutional trunk alone, at 1 and 8 leaves,
and turns the trunk's time into multiply-adds per second; then the same trunk as one
compiled loop per convolution (``compiled_conv``: channels last, zero inputs skipped, as
``play_evaluator.dense_layer`` does), checked against torch's output.  What a compiled path
could win is the dispatch outside the trunk, if its trunk keeps up with torch's.
"""

from __future__ import annotations

import argparse

import numpy as np

from meeplezoo.benchmarks.speed.play_evaluator_load import median_ms
from meeplezoo.envs.core.jit import njit


@njit
def compiled_conv(padded, weight, bias, out, relu):
    """out[b, i, j] = bias + sum over the 3x3 window of padded[b, i + di, j + dj] @
    weight[di, dj] (channels last; ``padded`` has a zero border), then max(., 0) if
    ``relu``; zero inputs skipped."""
    leaves, height, width, outputs = out.shape
    inputs = padded.shape[3]
    for b in range(leaves):
        for i in range(height):
            for j in range(width):
                for o in range(outputs):
                    out[b, i, j, o] = bias[o]
                for di in range(3):
                    for dj in range(3):
                        for c in range(inputs):
                            value = padded[b, i + di, j + dj, c]
                            if value != 0.0:
                                for o in range(outputs):
                                    out[b, i, j, o] += value * weight[di, dj, c, o]
                if relu:
                    for o in range(outputs):
                        out[b, i, j, o] = max(out[b, i, j, o], 0.0)


def trunk_weights(network) -> list:
    """(weight [3, 3, in, out], bias) of the stem and of each block's two convolutions."""
    convs = [network.stem[0]] + [c for block in network.blocks for c in (block.first,
                                                                          block.second)]
    return [(np.ascontiguousarray(c.weight.detach().float().numpy().transpose(2, 3, 1, 0)),
             c.bias.detach().float().numpy().copy()) for c in convs]


def compiled_trunk(layers: list, planes: np.ndarray) -> np.ndarray:
    """The stem and residual blocks (``trunk_weights``) on ``planes`` [B, C, H, W] with
    :func:`compiled_conv`: features [B, H, W, channels]."""
    def conv(x, layer, relu):
        padded = np.zeros((x.shape[0], x.shape[1] + 2, x.shape[2] + 2, x.shape[3]), np.float32)
        padded[:, 1:-1, 1:-1] = x
        weight, bias = layer
        out = np.empty((*x.shape[:3], bias.size), np.float32)
        compiled_conv(padded, weight, bias, out, relu)
        return out

    x = conv(np.ascontiguousarray(planes.transpose(0, 2, 3, 1)), layers[0], True)
    for first, second in zip(layers[1::2], layers[2::2], strict=True):
        x = np.maximum(x + conv(conv(x, first, True), second, False), 0.0)
    return x


def trunk_multiply_adds(layers: list) -> int:
    """Multiply-adds per position of the convolutions ``trunk_weights`` gives (the stem and
    the residual blocks: what the timings below call the trunk), one per weight per cell."""
    from meeplezoo.envs.carcassonne.data import OBS_WINDOW

    return OBS_WINDOW * OBS_WINDOW * sum(weight.size for weight, _ in layers)


def time_leaves(agent, state, mask, leaves: int, calls: int) -> dict:
    """Milliseconds per call at ``leaves`` copies of one position: the evaluator, the
    forward pass, torch's trunk and the compiled trunk (checked to give torch's features)."""
    import torch

    from meeplezoo.agents.az.evaluator import observers
    from meeplezoo.envs.carcassonne.data import OBS_CHANNELS, OBS_PLANES_SIZE, OBS_WINDOW
    from meeplezoo.envs.core.batch import observe_batch

    network, evaluator = agent.network, agent.network_evaluator
    states = np.repeat(state[None, :], leaves, axis=0)
    masks = np.repeat(mask[None, :], leaves, axis=0)
    obs = torch.from_numpy(observe_batch(evaluator.spec, states,
                                         observers(evaluator.spec, states)))
    planes = obs[:, :OBS_PLANES_SIZE].reshape(leaves, OBS_CHANNELS, OBS_WINDOW, OBS_WINDOW)
    layers = trunk_weights(network)
    with torch.no_grad():
        expected = network.blocks(network.stem(planes)).numpy()
        row = {"evaluator": median_ms(lambda: evaluator(states, masks), calls),
               "forward": median_ms(lambda: network(obs), calls),
               "trunk": median_ms(lambda: network.blocks(network.stem(planes)), calls)}
    mine = compiled_trunk(layers, planes.numpy()).transpose(0, 3, 1, 2)
    gap = float(np.abs(mine - expected).max())
    if gap > 1e-3 * max(1.0, float(np.abs(expected).max())):
        raise AssertionError(f"the compiled trunk differs from torch's by {gap}")
    row["compiled_trunk"] = median_ms(lambda: compiled_trunk(layers, planes.numpy()), calls)
    return row


def main(argv: list[str] | None = None) -> int:
    import torch

    from meeplezoo.agents.registry import make_agent
    from meeplezoo.envs import make

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="carcassonne_v0",
                        help="a Carcassonne version whose az:default is convolutional")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    agent = make_agent("az:default", args.game, seed=0)
    if not hasattr(agent.network, "cell_logits"):
        parser.error(f"{args.game}'s az:default is not the convolutional network")
    env = make(args.game, num_players=2)
    env.reset(seed=3)
    for _ in range(20):                          # a board with some tiles on it
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    macs = trunk_multiply_adds(trunk_weights(agent.network))
    print(f"{args.game}: trunk {macs / 1e6:.2f} M multiply-adds a position, one torch thread")
    for leaves in (1, 8):
        row = time_leaves(agent, env.unwrapped.state, np.asarray(env.action_mask(), np.int8),
                          leaves, args.calls)
        whole, trunk, compiled = row["evaluator"], row["trunk"], row["compiled_trunk"]
        rate = macs * leaves / (trunk * 1e-3) / 1e9
        print(f"{leaves} leaves: evaluator {whole:.3f} ms, forward {row['forward']:.3f} ms, "
              f"trunk {trunk:.3f} ms ({rate:.1f} G multiply-adds/s); outside the trunk "
              f"{whole - trunk:.3f} ms ({(whole - trunk) / whole:.0%}); the compiled trunk "
              f"{compiled:.3f} ms ({compiled / trunk:.1f}x torch's)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
