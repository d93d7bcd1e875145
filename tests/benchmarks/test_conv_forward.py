"""The convolution timing's compiled trunk is the network's trunk, and the script reports
both paths (benchmarks/speed/conv_forward.py)."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from meeplezoo.agents.az.carcassonne_network import CarcassonneNetwork  # noqa: E402
from meeplezoo.benchmarks.speed import conv_forward  # noqa: E402
from meeplezoo.envs.carcassonne.data import OBS_CHANNELS, OBS_WINDOW  # noqa: E402


def test_the_compiled_trunk_gives_torchs_features():
    torch.manual_seed(0)
    network = CarcassonneNetwork(6728, 737, 2, channels=8, blocks=2, hidden=(16,)).eval()
    rng = np.random.default_rng(0)
    planes = (rng.random((3, OBS_CHANNELS, OBS_WINDOW, OBS_WINDOW)) < 0.1).astype(np.float32)
    with torch.no_grad():
        expected = network.blocks(network.stem(torch.from_numpy(planes))).numpy()
    mine = conv_forward.compiled_trunk(conv_forward.trunk_weights(network), planes)
    assert mine.shape == (3, OBS_WINDOW, OBS_WINDOW, 8)
    np.testing.assert_allclose(mine.transpose(0, 3, 1, 2), expected, rtol=1e-4, atol=1e-5)
    # the timed trunk: a 27 -> 8 stem and four 8 -> 8 convolutions, all 3 x 3
    assert conv_forward.trunk_multiply_adds(conv_forward.trunk_weights(network)) == \
        OBS_WINDOW ** 2 * (27 * 8 * 9 + 4 * 8 * 8 * 9)


def test_it_times_the_shipped_convolutional_bot(capsys):
    assert conv_forward.main(["--game", "carcassonne_v0", "--calls", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 leaves:" in out and "8 leaves:" in out and "x torch's" in out


def test_an_mlp_bot_is_refused(capsys):
    with pytest.raises(SystemExit) as stop:
        conv_forward.main(["--game", "carcassonne_v1", "--calls", "2"])
    assert stop.value.code == 2
    assert "not the convolutional network" in capsys.readouterr().err
