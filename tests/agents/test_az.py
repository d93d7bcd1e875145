"""The AlphaZero-style network, its evaluator (seat rotation, masked priors, chance
leaves), the ``az:`` agent and its checkpoints."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from meeplezoo.agents.az import (  # noqa: E402
    AZAgent,
    NetworkEvaluator,
    az_network_meta,
    make_az_network,
)
from meeplezoo.agents.az.evaluator import (  # noqa: E402
    absolute_to_rotated,
    observers,
    rotated_to_absolute,
)
from meeplezoo.agents.registry import make_agent  # noqa: E402
from meeplezoo.envs import make, spec  # noqa: E402
from meeplezoo.envs.core.batch import observe_batch  # noqa: E402
from meeplezoo.envs.core.contract import CHANCE, H_TO_MOVE  # noqa: E402
from meeplezoo.training.run.checkpoint import save_checkpoint  # noqa: E402


def _network(game: str, hidden=(16,), seed: int = 0):
    torch.manual_seed(seed)
    s = spec(game)
    meta = az_network_meta(game, s.obs_size, s.num_actions, s.max_players, hidden)
    return make_az_network(meta), meta


def _save(tmp_path, game: str, **meta_changes):
    network, meta = _network(game)
    path = tmp_path / f"{game}.pt"
    save_checkpoint(path, meta=meta | meta_changes, model=network)
    return path


def _states(game: str, players: int, count: int, seed: int = 0):
    """States met along random games, with the mask of each."""
    env = make(game, num_players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states, masks = [], []
    while len(states) < count:
        if env.game_over:
            env.reset(seed=int(rng.integers(1 << 30)))
        states.append(env.state.copy())
        masks.append(env.action_mask().copy())
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    return np.array(states), np.array(masks, dtype=np.int8)


def test_seat_rotation_matches_brute_force_and_inverts():
    rng = np.random.default_rng(0)
    for players in range(2, 7):
        seats = rng.integers(0, players, size=9)
        rotated = rng.normal(size=(9, 6))
        absolute = rotated_to_absolute(rotated, seats, players)
        for b in range(9):
            for k in range(players):
                assert absolute[b, (seats[b] + k) % players] == rotated[b, k]
        back = absolute_to_rotated(absolute, seats, 6)
        np.testing.assert_allclose(back[:, :players], rotated[:, :players], rtol=1e-6)
        assert not back[:, players:].any()


@pytest.mark.parametrize("game", ["saint_malo_v0", "hansa_v0"])
def test_batched_observations_equal_the_envs_own(game):
    env = make(game, num_players=3)
    env.reset(seed=4)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.action_mask())[0]))
    states = np.repeat(env.state[None, :], 3, axis=0)
    obs = observe_batch(env.unwrapped.spec, states, np.arange(3))
    for seat, agent in enumerate(env.possible_agents):
        np.testing.assert_array_equal(obs[seat], env.observe(agent)["observation"])
    with pytest.raises(ValueError, match="one of its game's seats"):
        observe_batch(env.unwrapped.spec, states, np.array([0, 1, 3]))


def test_the_evaluator_gives_masked_priors_and_values_for_the_observer():
    game = "saint_malo_v0"
    network, _ = _network(game)
    with torch.no_grad():                     # value head: +1 for the observer, -1 others
        network.value.weight.zero_()
        network.value.bias.copy_(torch.tensor([20.0] + [-20.0] * 4))
    states, masks = _states(game, 3, 40)
    values, priors = NetworkEvaluator(network, spec(game))(states, masks)
    np.testing.assert_allclose(priors.sum(axis=1), 1.0)
    assert not priors[masks == 0].any()
    seats = observers(spec(game), states)
    for b, seat in enumerate(seats):
        assert values[b, seat] == pytest.approx(1.0)
        assert np.delete(values[b], seat) == pytest.approx(-1.0)


@pytest.mark.parametrize("game", ["hansa_v0", "saint_malo_v0", "hansa_teutonica_v0",
                                  "serenissima_v0"])
def test_the_numpy_play_evaluator_equals_the_torch_one(game):
    """Play's evaluator (compiled sparse first layer, NumPy after) gives the torch
    evaluator's values and priors on the same weights, at 2 and 3 seats."""
    from meeplezoo.agents.az.play_evaluator import MLPPlayEvaluator

    network, _ = _network(game, hidden=(32, 16), seed=3)
    with torch.no_grad():                     # values away from tanh's flat ends
        network.value.weight.mul_(50.0)
        network.policy.weight.mul_(50.0)
    for players in (2, 3):
        states, masks = _states(game, players, 60, seed=players)
        want_values, want_priors = NetworkEvaluator(network, spec(game))(states, masks)
        values, priors = MLPPlayEvaluator(network, spec(game))(states, masks)
        assert np.ptp(want_values) > 0.01 and want_priors.max() > 0.1     # not trivial
        np.testing.assert_allclose(values, want_values, atol=1e-5)
        np.testing.assert_allclose(priors, want_priors, atol=1e-5)


def test_a_chance_leaf_is_observed_by_the_turns_owner():
    """Saint Malo rolls dice before each turn: the network values that position for the
    seat about to roll, and offers no priors (the search takes the dice's exact odds)."""
    game = "saint_malo_v0"
    s = spec(game)
    states, masks = _states(game, 2, 30)
    chance = states.copy()
    chance[:, H_TO_MOVE] = CHANCE
    seats = observers(s, chance)
    np.testing.assert_array_equal(seats, chance[:, s.turn_owner_slot])
    network, _ = _network(game)
    values, priors = NetworkEvaluator(network, s)(chance, np.zeros_like(masks))
    assert np.isfinite(values).all() and not priors.any()


def test_a_finished_game_without_a_turn_owner_is_observed_by_seat_zero():
    """Serenissima clears its turn owner when the game ends; a terminal leaf must still go
    through the batch (the search then ignores its value) instead of raising."""
    game = "serenissima_v0"
    s = spec(game)
    env = make(game, num_players=2)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    while not env.game_over:
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    final = env.unwrapped.state.copy()[None, :]
    assert final[0, s.turn_owner_slot] < 0           # what made the batch raise
    assert observers(s, final).tolist() == [0]
    network, _ = _network(game)
    values, priors = NetworkEvaluator(network, s)(final, np.zeros((1, s.num_actions), np.int8))
    assert np.isfinite(values).all() and not priors.any()


@pytest.mark.parametrize("game", ["hansa_v0", "carcassonne_v0"])
def test_az_agent_searches_and_plays_legal_moves(tmp_path, game):
    path = _save(tmp_path, game)
    env = make(game, num_players=2)
    env.reset(seed=1)
    searcher = make_agent(f"az:{path},sims=24", game, seed=0)
    policy_only = make_agent(f"az:{path},sims=0", game, seed=0)
    for _ in range(6):
        for agent in (searcher, policy_only):
            if env.game_over:
                return
            action = agent.act(env)
            assert env.action_mask()[action] == 1
            env.step(action)
    assert searcher.search.last_simulations == 24
    priors, values = searcher.policy_and_value(env)
    assert priors.shape == (spec(game).num_actions,) and values.shape == (2,)


def _moves(path, plies: int, simulations: int, env_seed: int, agent_seed: int) -> list[int]:
    """The moves an ``AZAgent`` plays in a fresh Hansa game (it plays every seat)."""
    env = make("hansa_v0", num_players=2)
    env.reset(seed=env_seed)
    agent = AZAgent(path, simulations=simulations, seed=agent_seed)
    played = []
    for _ in range(plies):
        played.append(agent.act(env))
        env.step(played[-1])
    return played


def test_the_gumbel_root_plays_legal_deterministic_moves(tmp_path):
    """``root=gumbel`` (no noise at play): legal moves, the same ones for any seed."""
    path = _save(tmp_path, "hansa_v0")
    moves = []
    for seed in (0, 1):
        env = make("hansa_v0", num_players=2)
        env.reset(seed=3)
        agent = make_agent(f"az:{path},sims=16,root=gumbel", "hansa_v0", seed=seed)
        played = []
        for _ in range(5):
            action = agent.act(env)
            assert env.action_mask()[action] == 1
            played.append(action)
            env.step(action)
        moves.append(played)
    assert moves[0] == moves[1]


def test_the_same_seed_gives_the_same_moves(tmp_path):
    path = _save(tmp_path, "hansa_v0")
    assert _moves(path, 8, 16, 3, 5) == _moves(path, 8, 16, 3, 5)


def test_bad_checkpoints_and_specs_get_one_clear_error(tmp_path, monkeypatch):
    import meeplezoo.agents.az.agent as az_agent

    path = _save(tmp_path, "hansa_v0")
    with pytest.raises(ValueError, match="trained on hansa_v0, not saint_malo_v0"):
        make_agent(f"az:{path}", "saint_malo_v0")
    monkeypatch.setattr(az_agent, "BOTS_DIR", tmp_path / "no_bots")
    with pytest.raises(ValueError, match="no shipped AlphaZero bot for serenissima_v0"):
        make_agent("az:default", "serenissima_v0")
    with pytest.raises(ValueError, match="no shipped AlphaZero bot trained at 4 players"):
        make_agent("az:default4p", "serenissima_v0")
    monkeypatch.undo()
    with pytest.raises(ValueError, match="the options are sims=N, root=puct|gumbel"):
        make_agent(f"az:{path},simz=3", "hansa_v0")
    with pytest.raises(ValueError, match="the options are sims=N, root=puct|gumbel"):
        make_agent(f"az:{path},root=uct", "hansa_v0")
    with pytest.raises(ValueError, match="sims must be in 0..100,000"):
        make_agent(f"az:{path},sims=-1", "hansa_v0")
    with pytest.raises(FileNotFoundError):
        make_agent(f"az:{tmp_path / 'missing.pt'}", "hansa_v0")
    with pytest.raises(ValueError, match="seats"):
        AZAgent(_save(tmp_path, "hansa_v0", seats=2))
    ppo = tmp_path / "ppo.pt"
    from meeplezoo.agents.ppo import make_network, network_meta

    s = spec("hansa_v0")
    ppo_meta = network_meta("hansa_v0", s.obs_size, s.num_actions, (8,))
    save_checkpoint(ppo, meta=ppo_meta, model=make_network(ppo_meta))
    with pytest.raises(ValueError, match="not an AlphaZero network"):
        AZAgent(ppo)
    from meeplezoo.agents.ppo import PPOAgent

    with pytest.raises(ValueError, match="unknown network architecture 'az-mlp'"):
        PPOAgent(str(path))
    corrupt = tmp_path / "corrupt.pt"
    corrupt.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="not a readable checkpoint"):
        AZAgent(corrupt)


def test_sequential_halving_spends_the_budget_and_never_more():
    import math

    from meeplezoo.agents.az.gumbel import halving_phases

    for simulations in range(0, 300, 7):
        for considered in (1, 2, 3, 4, 7, 8, 16, 32):
            shares = halving_phases(simulations, considered)
            remaining, total = considered, 0
            for share in shares:
                total += share * remaining
                remaining = math.ceil(remaining / 2)
            assert total <= simulations
            assert len(shares) <= max(1, math.ceil(math.log2(considered))) + 1
            if simulations >= considered * max(1, math.ceil(math.log2(considered))):
                assert total == simulations          # a budget that fits is all used
    assert halving_phases(64, 16) == [1, 2, 4, 8]
    assert halving_phases(7, 2) == [3, 1]


def test_gumbel_root_plays_legal_moves_and_gives_an_improved_policy(tmp_path):
    from meeplezoo.agents.az.gumbel import GumbelMCTS

    game = "hansa_v0"
    network, _ = _network(game)
    env = make(game, num_players=2)
    env.reset(seed=2)
    agent = GumbelMCTS(simulations=32, evaluator=NetworkEvaluator(network, spec(game)),
                       considered=8, leaf_batch=4, seed=0)
    for _ in range(4):
        action = agent.act(env)
        assert env.action_mask()[action] == 1
        actions, policy = agent.improved_policy()
        assert set(actions) == set(np.flatnonzero(env.action_mask()))
        assert policy.sum() == pytest.approx(1.0) and (policy >= 0).all()
        assert agent.last_simulations <= 32
        env.step(action)
    with pytest.raises(ValueError, match="needs a network evaluator"):
        GumbelMCTS(simulations=8, evaluator=None)


def test_the_compiled_completed_q_equals_the_formula():
    """The Gumbel root's completed q (compiled) against the paper's formula in numpy,
    on a root after a few phases of sequential halving (some moves never visited)."""
    from meeplezoo.agents.az.gumbel import GumbelMCTS
    from meeplezoo.agents.mcts.tree import CHILD, VISITS

    game = "hansa_v0"
    network, _ = _network(game)
    env = make(game, num_players=2)
    env.reset(seed=6)
    agent = GumbelMCTS(simulations=20, evaluator=NetworkEvaluator(network, spec(game)),
                       considered=2, seed=1)
    agent.act(env)
    actions, edges, player, root_value, logits = agent._root_stats
    tree = agent.tree
    children = tree.edges[edges, CHILD]
    visits = np.array([tree.nodes[c, VISITS] if c >= 0 else 0 for c in children])
    q = np.array([tree.values[c, player] / n if n else 0.0
                  for c, n in zip(children, visits, strict=True)])
    prior = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    seen = visits > 0
    assert seen.any() and not seen.all()
    mixed = (root_value + visits.sum() * (prior[seen] @ q[seen]) / prior[seen].sum()) / \
        (1 + visits.sum())
    expected = np.where(seen, q, mixed)
    got_q, got_visits = agent._completed_q(edges, player, root_value, logits)
    np.testing.assert_array_equal(got_visits, visits)
    np.testing.assert_allclose(got_q, expected, rtol=1e-12)


def test_a_forced_root_action_takes_every_simulation():
    """The search's root-action parameter (sequential halving's lever): all visits go
    below the forced move."""
    from meeplezoo.agents.mcts import MCTSAgent
    from meeplezoo.agents.mcts.search import P_ROOT_ACTION

    env = make("hansa_v0", num_players=2)
    env.reset(seed=0)
    legal = np.flatnonzero(env.action_mask())
    agent = MCTSAgent(simulations=50, seed=0)
    agent.params[P_ROOT_ACTION] = legal[-1]
    agent.act(env)
    visits = {a: v for a, v, _ in agent.tree.root_children()}
    assert visits[legal[-1]] == 49 and sum(visits.values()) == 49   # the first expands the root


@pytest.mark.parametrize("game", ["carcassonne_v0", "carcassonne_v1"])
def test_carcassonne_gets_the_convolutional_network_and_gathers_slot_logits(game):
    """Placement action 4 * j + r takes rotation r's logit at frontier slot j's cell
    (checked against the trunk's cell logits, slot by slot), and every legal placement's
    slot is present in the window.  (v1 stores the slots' cells divided by 14.)"""
    from meeplezoo.agents.az.carcassonne_network import CarcassonneNetwork
    from meeplezoo.envs.carcassonne.data import NUM_PLACEMENTS, OBS_WINDOW
    from meeplezoo.envs.carcassonne.observe_v1 import slot_positions

    network, meta = _network(game)
    assert meta["architecture"] == "az-carcassonne-conv"
    assert isinstance(network, CarcassonneNetwork)
    with torch.no_grad():
        network.outside_logits.copy_(torch.tensor([-7.0, -8.0, -9.0, -10.0]))
    states, masks = _states(game, 2, 60, seed=3)
    obs = observe_batch(spec(game), states, observers(spec(game), states))
    tensor = torch.from_numpy(obs)
    with torch.no_grad():
        logits, values, margins = network(tensor)
        planes = tensor[:, :27 * 225].reshape(-1, 27, 15, 15)
        cells = network.cell_logits(network.blocks(network.stem(planes)))
    assert logits.shape == (60, 737) and values.shape == margins.shape == (60, 6)
    checked = 0
    for b in range(60):
        slots = slot_positions(obs[b])                     # in window cells
        for j, (present, column, row) in enumerate(slots):
            legal = masks[b, 4 * j:4 * j + 4].any()
            assert not legal or present == 1.0              # a legal slot is described
            if present != 1.0:
                continue
            for r in range(4):
                if 0 <= column < OBS_WINDOW and 0 <= row < OBS_WINDOW:
                    expected = cells[b, r, int(row), int(column)]
                else:
                    expected = network.outside_logits[r]
                assert logits[b, 4 * j + r] == pytest.approx(float(expected), abs=1e-5)
                checked += 1
    assert checked > 200
    assert logits[:, NUM_PLACEMENTS:].shape[1] == 737 - NUM_PLACEMENTS
    with pytest.raises(ValueError, match="channels"):
        make_az_network(meta | {"channels": 0})


def test_a_checkpoint_exported_for_play_is_smaller_and_plays_the_same(tmp_path):
    from torch import optim

    from meeplezoo.training.run.checkpoint import export_for_play

    network, meta = _network("hansa_v0", hidden=(64, 64))
    optimizer = optim.AdamW(network.parameters())
    network(torch.zeros(2, meta["obs_size"]))[0].sum().backward()
    optimizer.step()                                  # the optimizer now holds its moments
    full = save_checkpoint(tmp_path / "full.pt", meta=meta, model=network,
                           optimizer=optimizer)
    slim = export_for_play(full, tmp_path / "bots" / "hansa_v0.pt")
    assert slim.stat().st_size < 0.5 * full.stat().st_size
    assert _moves(full, 5, 8, 4, 1) == _moves(slim, 5, 8, 4, 1)


def test_a_half_precision_export_is_half_the_size_and_loads_as_float32(tmp_path):
    from meeplezoo.agents.az import load_az_network
    from meeplezoo.training.run.checkpoint import export_for_play

    network, meta = _network("hansa_v0", hidden=(64, 64))
    full = save_checkpoint(tmp_path / "full.pt", meta=meta, model=network)
    single = export_for_play(full, tmp_path / "single.pt")
    half = export_for_play(full, tmp_path / "half.pt", half=True)
    assert half.stat().st_size < 0.6 * single.stat().st_size
    loaded, _ = load_az_network(half)
    for name, tensor in loaded.state_dict().items():
        assert tensor.dtype == network.state_dict()[name].dtype
        np.testing.assert_allclose(tensor.numpy(), network.state_dict()[name].numpy(),
                                   rtol=1e-3, atol=1e-4)          # float16's precision
    env = make("hansa_v0", num_players=2)
    env.reset(seed=3)
    agent = make_agent(f"az:{half},sims=8", "hansa_v0", seed=0)
    assert env.action_mask()[agent.act(env)] == 1


def test_sigma_rescales_q_so_the_target_is_not_one_hot_on_noise():
    """mctx's completed-by-mix transform: q rescaled to [0, 1] over the moves, scaled by
    (50 + max visits) * 0.1; a shift or scale of all q changes nothing."""
    from meeplezoo.agents.az.gumbel import sigma

    q = np.array([-0.2, 0.1, 0.4])
    np.testing.assert_allclose(sigma(q, 10, 50.0, 0.1), [0.0, 3.0, 6.0])
    np.testing.assert_allclose(sigma(3 * q + 1, 10, 50.0, 0.1), sigma(q, 10, 50.0, 0.1))
    assert not sigma(np.full(4, 0.3), 5, 50.0, 0.1).any()        # equal q: the prior decides
