"""PPO with Carcassonne's convolutional policy (``--architecture carcassonne-conv``):
a run trains, resumes and plays through ``ppo:PATH``; its placement logits move with the
board; a wrong game or a corrupt checkpoint is refused in one line."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("tyro")

from meeplezoo.agents.ppo import PPOAgent, make_network, network_meta  # noqa: E402
from meeplezoo.envs import make, spec  # noqa: E402
from meeplezoo.envs.carcassonne.data import (  # noqa: E402
    FRONTIER_SLOTS,
    OBS_CHANNELS,
    OBS_WINDOW,
    V_SLOTS,
)
from meeplezoo.training.ppo.loop import Options, train  # noqa: E402
from meeplezoo.training.run.checkpoint import load_checkpoint  # noqa: E402

GAME = "carcassonne_v1"


def tiny(tmp_path, **changes) -> Options:
    options = Options(game=GAME, num_envs=4, num_steps=8, hidden=(16,), channels=4, blocks=1,
                      architecture="carcassonne-conv", update_epochs=1, num_minibatches=2,
                      max_updates=2, checkpoint_every=1, progress=False, run_dir=str(tmp_path),
                      seed=3, torch_threads=1, evaluations=0)
    for key, value in changes.items():
        setattr(options, key, value)
    return options


def test_a_conv_run_trains_resumes_and_plays_legal_moves(tmp_path):
    result = train(tiny(tmp_path))
    game = spec(GAME)
    meta = network_meta(GAME, game.obs_size, game.num_actions, [16], "carcassonne-conv",
                        channels=4, blocks=1)
    payload = load_checkpoint(result["checkpoint"], expect=meta)
    assert payload["meta"]["architecture"] == "carcassonne-conv"
    with pytest.raises(ValueError, match="architecture"):          # the MLP's meta differs
        load_checkpoint(result["checkpoint"],
                        expect=network_meta(GAME, game.obs_size, game.num_actions, [16]))
    assert train(tiny(tmp_path, resume=True, max_updates=3))["update"] == 3

    agent = PPOAgent(str(result["checkpoint"]))
    env = make(GAME, num_players=2)
    env.reset(seed=11)
    for _ in range(30):
        if all(env.terminations.values()):
            break
        action = agent.act(env)
        assert env.action_mask()[action] == 1
        env.step(action)


def test_placement_logits_follow_the_tile_they_name():
    """Two slots that name the same window cell get the same four rotation logits, and
    moving the board one cell right moves each slot's logits with it: the policy reads
    placements off the board, which the MLP over the flat vector cannot."""
    game = spec(GAME)
    torch.manual_seed(0)
    net = make_network(network_meta(GAME, game.obs_size, game.num_actions, [8],
                                    "carcassonne-conv", channels=4, blocks=1))
    obs = torch.zeros(1, game.obs_size)
    planes = obs[0, :OBS_CHANNELS * OBS_WINDOW * OBS_WINDOW].view(OBS_CHANNELS, OBS_WINDOW,
                                                                 OBS_WINDOW)
    generator = np.random.default_rng(1)
    planes[:, 3:8, 3:8] = torch.from_numpy(generator.random((OBS_CHANNELS, 5, 5))
                                           .astype(np.float32))
    unit = net.slot_unit
    slots = obs[0, V_SLOTS:V_SLOTS + 3 * FRONTIER_SLOTS].view(FRONTIER_SLOTS, 3)
    slots[0] = torch.tensor([1.0, 5 / unit, 6 / unit])        # cell (column 5, row 6)
    slots[1] = torch.tensor([1.0, 5 / unit, 6 / unit])
    slots[2] = torch.tensor([1.0, 6 / unit, 6 / unit])
    moved = obs.clone()
    moved_planes = moved[0, :OBS_CHANNELS * OBS_WINDOW * OBS_WINDOW].view(
        OBS_CHANNELS, OBS_WINDOW, OBS_WINDOW)
    moved_planes.zero_()
    moved_planes[:, 3:8, 4:9] = planes[:, 3:8, 3:8]
    moved_slots = moved[0, V_SLOTS:V_SLOTS + 3 * FRONTIER_SLOTS].view(FRONTIER_SLOTS, 3)
    moved_slots[0, 1] = 6 / unit
    with torch.no_grad():
        logits, value = net(torch.cat([obs, moved]))
    assert torch.equal(logits[0, 0:4], logits[0, 4:8])
    assert not torch.allclose(logits[0, 0:4], logits[0, 8:12])
    # The board moved one cell right and slot 0 with it: its logits come from its cell's
    # features alone, which see three cells around it, away from the window's padding.
    assert torch.allclose(logits[0, 0:4], logits[1, 0:4], atol=1e-5)
    assert value.shape == (2,)


def test_the_conv_architecture_is_refused_off_carcassonne_and_from_a_corrupt_meta(tmp_path):
    with pytest.raises(ValueError, match="--architecture 'carcassonne-conv'.*frontier"):
        train(tiny(tmp_path, game="saint_malo_v0"))
    with pytest.raises(ValueError, match="--architecture 'resnet'.*unknown"):
        train(tiny(tmp_path, architecture="resnet"))
    assert not list(tmp_path.iterdir())                       # nothing was written
    game = spec(GAME)
    meta = network_meta(GAME, game.obs_size, game.num_actions, [8], "carcassonne-conv")
    with pytest.raises(ValueError, match="channels"):
        make_network(meta | {"channels": 10**9})
    with pytest.raises(ValueError, match="unknown network architecture"):
        make_network(meta | {"architecture": "transformer"})
