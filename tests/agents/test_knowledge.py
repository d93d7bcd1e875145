"""The search's knowledge in the network search: the batched heuristic against
the search's own one-leaf code, the mixing arithmetic, first-play urgency from the parent,
and play settings recorded in a checkpoint."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from meeplezoo.agents.az import az_network_meta
from meeplezoo.agents.az.agent import PLAY_DEFAULTS, AZAgent
from meeplezoo.agents.az.knowledge import HeuristicLeaves, Knowledge, KnowledgeEvaluator
from meeplezoo.agents.az.network import make_az_network
from meeplezoo.agents.mcts import MCTSAgent
from meeplezoo.agents.mcts_spec import LEAF_VALUES
from meeplezoo.agents.registry import make_agent
from meeplezoo.agents.spec_values import load_object
from meeplezoo.envs import make, spec
from meeplezoo.training.run.checkpoint import save_checkpoint


def _meta(game: str, hidden: tuple[int, ...]) -> dict:
    game_spec = spec(game)
    return az_network_meta(game, game_spec.obs_size, game_spec.num_actions,
                           game_spec.max_players, hidden)


def _positions(game: str, count: int, seed: int = 0):
    env = make(game, raw=True, num_players=2)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states, masks = [], []
    while len(states) < count:
        if env.game_over:
            env.reset(seed=int(rng.integers(1 << 30)))
        states.append(env.state.copy())
        masks.append(np.asarray(env.action_mask(), np.int8).copy())
        env.step(int(rng.choice(env.legal_actions())))
    return np.array(states), np.array(masks)


@pytest.mark.parametrize("game", ["saint_malo_v0", "carcassonne_v0"])
def test_batched_heuristic_values_are_the_games_leaf_value(game):
    """Where the tuned search values leaves with the compiled leaf value (its defaults;
    the other games' tuned search rolls out), the batch gives exactly that value."""
    assert make_agent("mcts:1", game).leaf_value is not None
    states, _ = _positions(game, 40)
    batched = HeuristicLeaves(spec(game)).values(states)
    leaf_value = load_object(LEAF_VALUES[game])
    for row, state in enumerate(states):
        one = np.zeros(2)
        leaf_value(state.copy(), np.zeros(0), one)
        assert np.allclose(batched[row], one), row


def test_batched_fitted_values_are_the_fitted_leaf_with_the_shipped_weights():
    """``leaf=fitted``'s weights travel in the search's params to the batched values."""
    from meeplezoo.agents.fitted_values import fitted_leaf

    game = "carcassonne_v1"
    states, _ = _positions(game, 40, seed=2)
    batched = HeuristicLeaves(spec(game), leaf="fitted").values(states)
    leaf_value, weights = fitted_leaf(game)
    hand_set = HeuristicLeaves(spec(game)).values(states)
    for row, state in enumerate(states):
        one = np.zeros(2)
        leaf_value(state.copy(), weights, one)
        assert np.allclose(batched[row], one), row
    assert not np.allclose(batched, hand_set)


def test_rollout_games_average_their_rollouts_and_stay_in_range():
    states, _ = _positions("hansa_v0", 30, seed=2)
    values = HeuristicLeaves(spec("hansa_v0"), rollouts=8, seed=1).values(states)
    assert values.shape == (30, 2) and np.all(np.abs(values) <= 1.0)
    assert np.allclose(values.sum(axis=1), 0.0)                    # zero-sum per position
    # eight rollouts of win/loss/tie values: multiples of 1/16
    assert np.allclose(values * 16, np.round(values * 16))


@pytest.mark.parametrize("game", ["saint_malo_v0", "hansa_teutonica_v0", "serenissima_v0"])
def test_heuristic_moves_are_legal_and_are_the_rollout_policy(game):
    states, masks = _positions(game, 40, seed=3)
    moves = HeuristicLeaves(spec(game)).moves(states, masks)
    for row in range(len(states)):
        if states[row, 2] >= 0:                                     # a seat decides
            assert masks[row, moves[row]] == 1
        else:
            assert moves[row] == -1


def test_mixing_is_the_stated_convex_combination():
    game = "saint_malo_v0"
    states, masks = _positions(game, 12, seed=4)
    legal = masks.astype(np.float64)
    net_priors = legal / legal.sum(axis=1, keepdims=True)
    net_values = np.tile([0.3, -0.3], (12, 1))
    evaluator = KnowledgeEvaluator(lambda s, m: (net_values, net_priors), spec(game),
                                   Knowledge(lam=0.25, prior_mix=0.4))
    values, priors = evaluator(states, masks)
    heuristic = HeuristicLeaves(spec(game))
    assert np.allclose(values, 0.25 * net_values + 0.75 * heuristic.values(states))
    moves = heuristic.moves(states, masks)
    for row in range(12):
        expected = 0.6 * net_priors[row]
        if moves[row] >= 0:
            expected[moves[row]] += 0.4
        assert np.allclose(priors[row], expected)
        assert np.isclose(priors[row].sum(), 1.0) or moves[row] < 0


@pytest.mark.parametrize("fields", [{"lam": 1.5}, {"lam": float("nan")}, {"prior_mix": -0.1},
                                    {"rollouts": 0}, {"rollouts": 1.5}])
def test_knowledge_out_of_range_is_refused(fields):
    with pytest.raises(ValueError):
        Knowledge(**fields)


def test_first_play_urgency_from_the_parent_changes_what_puct_tries():
    """A side that is behind (every visited move valued below 0) tries unvisited moves
    first with a fixed urgency of 0, and its best visited moves with urgency from the
    parent; both searches stay legal and deterministic."""
    env = make("saint_malo_v0", raw=True, num_players=2)
    env.reset(seed=5)
    chosen = {}
    for mode in ("fixed", "parent"):
        agent = MCTSAgent(simulations=300, prior=0.5, fpu_mode=mode, fpu=0.2,
                          leaf_value=load_object(LEAF_VALUES["saint_malo_v0"]), seed=1)
        first = agent.act(env)
        again = MCTSAgent(simulations=300, prior=0.5, fpu_mode=mode, fpu=0.2,
                          leaf_value=load_object(LEAF_VALUES["saint_malo_v0"]), seed=1).act(env)
        assert first == again and env.action_mask()[first]
        chosen[mode] = sorted(n for _, n, _ in agent.tree.root_children())
    assert chosen["fixed"] != chosen["parent"]          # the visits are spread differently
    with pytest.raises(ValueError, match="fpu_mode"):
        MCTSAgent(simulations=10, fpu_mode="sideways")


def test_a_checkpoints_play_settings_are_the_bots_defaults(tmp_path):
    game = "hansa_v0"
    meta = _meta(game, (32,))
    torch.manual_seed(0)
    network = make_az_network(meta)
    play = {"simulations": 24, "c": 1.7, "fpu_mode": "parent", "fpu": 0.15, "lam": 0.5,
            "prior_mix": 0.25}
    path = save_checkpoint(tmp_path / "bot.pt", meta=meta, model=network, play=play)
    agent = make_agent(f"az:{path}", game)
    assert agent.settings == {**PLAY_DEFAULTS, **play}
    assert isinstance(agent.evaluator, KnowledgeEvaluator)
    assert agent.search.params[0] == 1.7 and agent.search.simulations == 24
    overridden = make_agent(f"az:{path},sims=8,lam=1,pmix=0,fpu=0", game)
    assert overridden.settings["fpu_mode"] == "fixed" and overridden.simulations == 8
    assert overridden.evaluator is overridden.network_evaluator        # nothing mixed
    env = make(game, num_players=2)
    env.reset(seed=1)
    assert env.action_mask()[agent.act(env)]
    bad = save_checkpoint(tmp_path / "bad.pt", meta=meta, model=network, play={"speed": 3})
    with pytest.raises(ValueError, match="'play' must hold only"):
        AZAgent(bad)


@pytest.mark.parametrize("play, message", [
    ({"simulations": 10**9}, "sims must be"),
    ({"simulations": 2.5}, "simulations=2.5"),
    ({"c": float("nan")}, "c must be"),
    ({"lam": 1.5}, "lam must be"),
    ({"margin": -0.1}, "margin must be"),
    ({"backup": "evil"}, "backup='evil'"),
    ({"fpu_mode": 3}, "fpu_mode=3"),
    ({"rollouts": True}, "rollouts=True"),
])
def test_a_play_record_out_of_bounds_is_refused_on_load(tmp_path, play, message):
    """A checkpoint file sets the bot's search: a value no ``az:`` option may take (a
    search that would run for hours, a NaN) is refused before the bot is built."""
    game = "hansa_v0"
    meta = _meta(game, (16,))
    path = save_checkpoint(tmp_path / "bot.pt", meta=meta, model=make_az_network(meta),
                           play=play)
    with pytest.raises(ValueError, match=message):
        AZAgent(path)


def test_the_margin_utility_mixes_the_predicted_margin_into_the_values():
    """``margin=w``: each seat's value is (1 - w) * value + w * tanh(margin), in both the
    torch and the NumPy evaluator; w = 0 leaves the values alone."""
    from meeplezoo.agents.az.evaluator import NetworkEvaluator, observers, rotated_to_absolute
    from meeplezoo.agents.az.play_evaluator import MLPPlayEvaluator
    from meeplezoo.envs.core.batch import observe_batch

    game = "hansa_v0"
    game_spec = spec(game)
    meta = _meta(game, (32,))
    torch.manual_seed(1)
    network = make_az_network(meta)
    with torch.no_grad():
        network.margin.weight.mul_(100.0)
        network.value.weight.mul_(30.0)
    env = make(game, num_players=2)
    env.reset(seed=2)
    states = env.unwrapped.state[None, :].repeat(3, axis=0)
    masks = np.asarray(env.action_mask(), np.int8)[None, :].repeat(3, axis=0)
    seats = observers(game_spec, states)
    with torch.no_grad():
        _, values, margins = network(torch.from_numpy(observe_batch(game_spec, states, seats)))
    mixed = 0.7 * values.double().numpy() + 0.3 * np.tanh(margins.double().numpy())
    want = rotated_to_absolute(mixed, seats, 2)
    plain = rotated_to_absolute(values.double().numpy(), seats, 2)
    assert np.abs(want - plain).max() > 0.01                       # the margin shows
    for evaluator in (NetworkEvaluator(network, game_spec, margin_weight=0.3),
                      MLPPlayEvaluator(network, game_spec, margin_weight=0.3)):
        np.testing.assert_allclose(evaluator(states, masks)[0], want, atol=1e-5)
    np.testing.assert_allclose(MLPPlayEvaluator(network, game_spec)(states, masks)[0], plain,
                               atol=1e-5)


def test_the_backup_option_reaches_the_search(tmp_path):
    game = "hansa_v0"
    meta = _meta(game, (16,))
    path = save_checkpoint(tmp_path / "bot.pt", meta=meta, model=make_az_network(meta),
                           play={"backup": "max"})
    from meeplezoo.agents.mcts.uct import P_BACKUP

    assert make_agent(f"az:{path},sims=4", game).search.params[P_BACKUP] == 1.0
    assert make_agent(f"az:{path},sims=4,backup=mean", game).search.params[P_BACKUP] == 0.0
    with pytest.raises(ValueError, match="bad az option"):
        make_agent(f"az:{path},backup=median", game)
