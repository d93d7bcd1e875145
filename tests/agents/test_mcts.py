"""The compiled MCTS: determinism, tree invariants, chance nodes, reuse, the leaf hook."""

from __future__ import annotations

import numpy as np
import pytest

from meeplezoo.agents.mcts import MCTSAgent, Tree
from meeplezoo.agents.mcts.tree import CHILD, FIRST_EDGE, MAX_SEATS, NUM_EDGES, PLAYER, VISITS
from meeplezoo.agents.random_agent import RandomAgent
from meeplezoo.agents.registry import make_agent
from meeplezoo.envs import make
from meeplezoo.envs.core.contract import CHANCE
from meeplezoo.play.table import play_game


def fresh_env(players=2, seed=0, steps=0):
    env = make("saint_malo_v0", num_players=players)
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(env.legal_actions()[0])
    return env


def children(tree, node):
    first, count = tree.nodes[node, FIRST_EDGE], tree.nodes[node, NUM_EDGES]
    return [int(tree.edges[e, CHILD]) for e in range(first, first + max(count, 0))]


def test_same_seed_same_search():
    env = fresh_env()
    first = MCTSAgent(simulations=300, seed=5)
    second = MCTSAgent(simulations=300, seed=5)
    assert first.act(env) == second.act(env)
    assert first.tree.root_children() == second.tree.root_children()


@pytest.mark.parametrize("players", [2, 3, 5])
def test_tree_invariants_after_search(players):
    env = fresh_env(players, seed=players, steps=7)
    agent = MCTSAgent(simulations=400, seed=1, rollout_depth=20)
    action = agent.act(env)
    assert action in env.legal_actions()
    tree = agent.tree
    root = tree.root
    assert tree.nodes[root, VISITS] == 400
    for node in range(tree.num_nodes):
        visits = tree.nodes[node, VISITS]
        kids = [c for c in children(tree, node) if c >= 0]
        through = sum(int(tree.nodes[c, VISITS]) for c in kids)
        assert through <= visits and visits - through <= 1     # the node was a leaf once
        # zero-sum values (win/loss, ties shared): the seats' sums cancel
        assert abs(tree.values[node, :players].sum()) < 1e-6
        assert not tree.values[node, players:MAX_SEATS].any()


def test_stratified_chance_visits_follow_the_probabilities():
    env = fresh_env(2, seed=3)
    agent = MCTSAgent(simulations=3000, seed=2, rollout_depth=4, chance="stratified", c=8.0)
    agent.act(env)
    tree = agent.tree
    chance_nodes = [n for n in range(tree.num_nodes) if tree.nodes[n, PLAYER] == CHANCE
                    and tree.nodes[n, VISITS] >= 50]
    assert chance_nodes
    node = max(chance_nodes, key=lambda n: tree.nodes[n, VISITS])
    first, count = tree.nodes[node, FIRST_EDGE], tree.nodes[node, NUM_EDGES]
    total = tree.nodes[node, VISITS]
    for edge in range(first, first + count):
        child = tree.edges[edge, CHILD]
        seen = tree.nodes[child, VISITS] if child >= 0 else 0
        assert abs(seen - tree.priors[edge] * total) <= 2.0


def placing_position():
    """A position where the player to move places the first of several crates."""
    from meeplezoo.envs.saint_malo.data import A_CRATE, G_PENDING_LEFT

    rng = np.random.default_rng(0)
    for seed in range(50):
        env = fresh_env(2, seed=seed)
        for _ in range(400):
            legal = env.legal_actions()
            crates = [a for a in legal if A_CRATE + 1 <= a < A_CRATE + 5]
            if env.phase == "score" and crates:
                env.step(crates[-1])
                assert env.phase == "place" and env.state[G_PENDING_LEFT] >= 2
                return env
            env.step(int(rng.choice(legal)))
    raise AssertionError("no crate placement found")


def test_subtree_reuse_keeps_the_statistics_of_the_chosen_move():
    env = placing_position()
    agent = MCTSAgent(simulations=500, seed=3, rollout_depth=20)
    action = agent.act(env)
    edge = [a for a, _, _ in agent.tree.root_children()].index(action)
    child = children(agent.tree, agent.tree.root)[edge]
    kept_visits = int(agent.tree.nodes[child, VISITS])
    kept_size = sum(1 for n in range(agent.tree.num_nodes) if agent.tree.nodes[n, VISITS] > 0)
    env.step(action)                                    # the same player places the next crate
    agent._prepare_root(env.spec, env.state.copy())
    assert agent.tree.root == 0 and agent.tree.nodes[0, VISITS] == kept_visits > 1
    assert 1 < agent.tree.num_nodes < kept_size
    agent._search(env.spec, env.state.copy())
    assert agent.tree.nodes[0, VISITS] == kept_visits + 500


def test_memory_per_node_and_budget():
    tree = Tree(100_000)
    assert tree.nbytes < 256 * 2**20                      # two copies (reuse), well under 1 GiB
    env = fresh_env()
    agent = MCTSAgent(simulations=2000, max_nodes=50, seed=0, rollout_depth=5)
    assert agent.act(env) in env.legal_actions()
    assert agent.tree.num_nodes == 50                      # stops growing, keeps searching


def test_leaf_evaluator_hook_drives_puct():
    env = fresh_env(2, seed=6)
    legal = env.legal_actions()
    favourite = legal[-1]
    calls = []

    def evaluator(states, masks):
        calls.append(states.shape[0])
        priors = np.full(masks.shape, 1e-3)
        priors[:, favourite] = 1.0
        return np.zeros((states.shape[0], 2)), priors

    agent = MCTSAgent(simulations=256, evaluator=evaluator, leaf_batch=16, seed=0)
    assert agent.act(env) == favourite
    assert sum(calls) == 256 and max(calls) == 16


def test_mcts_beats_random_at_saint_malo():
    wins = 0
    for game in range(6):
        mcts = make_agent("mcts:200,depth=30", "saint_malo_v0", seed=game)
        seats = [mcts, RandomAgent(seed=game)] if game % 2 == 0 else [RandomAgent(seed=game), mcts]
        record, _ = play_game("saint_malo_v0", seats, seed=100 + game)
        wins += record.rewards[seats.index(mcts)] > 0
    assert wins >= 5


def test_bad_mcts_specs_are_rejected():
    for spec in ("mcts:lots", "mcts:100,depth=x", "mcts:100,colour=red"):
        with pytest.raises(ValueError, match="bad MCTS spec"):
            make_agent(spec, "saint_malo_v0")
    with pytest.raises(ValueError, match="chance"):
        MCTSAgent(chance="average")


def connect_four_after(moves):
    from meeplezoo.benchmarks.speed.connect_four.env import raw_env

    env = raw_env()
    env.reset(seed=0)
    for column in moves:
        env.step(column)
    return env


@pytest.mark.parametrize("moves, expected", [
    ([0, 6, 0, 6, 0, 5], 0),          # seat 0 to move: complete the column (win now)
    ([0, 1, 0, 1, 0], 0),             # seat 1 to move: block the column
    ([3, 0, 4, 0, 5, 6], 2),          # seat 0: the open end of the row wins (2 or 6)
])
def test_connect_four_tactics(moves, expected):
    env = connect_four_after(moves)
    agent = MCTSAgent(simulations=2000, seed=0)
    action = agent.act(env)
    if expected == 2:
        assert action in (2, 6)
    else:
        assert action == expected


def test_connect_four_mcts_beats_random():
    from meeplezoo.benchmarks.speed.connect_four.env import raw_env

    wins = 0
    for game in range(10):
        env = raw_env()
        env.reset(seed=game)
        mcts, rand = MCTSAgent(simulations=300, seed=game), RandomAgent(seed=game)
        seats = [mcts, rand] if game % 2 == 0 else [rand, mcts]
        while not all(env.terminations.values()):
            env.step(seats[env.agent_name_mapping[env.agent_selection]].act(env))
        wins += env.rewards[env.possible_agents[seats.index(mcts)]] > 0
    assert wins >= 9


def test_max_backup_is_max_at_decisions_and_expectation_at_chance():
    env = fresh_env(2, seed=8)
    agent = MCTSAgent(simulations=600, seed=4, backup="max", leaf_value=None, rollout_depth=8)
    agent.act(env)
    tree, backed = agent.tree, MAX_SEATS
    checked = 0
    for node in range(tree.num_nodes):
        kids = [(e, c) for e, c in zip(range(tree.nodes[node, FIRST_EDGE],
                                             tree.nodes[node, FIRST_EDGE]
                                             + max(tree.nodes[node, NUM_EDGES], 0)),
                                       children(tree, node), strict=True)
                if c >= 0 and tree.nodes[c, VISITS] > 0]
        if not kids:
            continue
        player = tree.nodes[node, PLAYER]
        got = tree.values[node, backed:backed + 2]
        if player == CHANCE:
            weights = np.array([tree.priors[e] for e, _ in kids], dtype=np.float64)
            want = sum(w * tree.values[c, backed:backed + 2] for w, (_, c) in
                       zip(weights, kids, strict=True)) / weights.sum()
        else:
            want = max((tree.values[c, backed:backed + 2] for _, c in kids),
                       key=lambda v: v[player])
        assert np.allclose(got, want, atol=1e-5)
        checked += 1
    assert checked > 10


def test_turn_horizon_never_expands_past_the_turn():
    from meeplezoo.agents.mcts.tree import ACTION, NOT_EXPANDED
    from meeplezoo.envs.saint_malo.data import G_ACTIVE

    env = fresh_env(2, seed=9)
    agent = MCTSAgent(simulations=800, seed=1, horizon="turn", rollout_depth=5)
    agent.act(env)
    tree, spec = agent.tree, env.spec
    owner = env.state[G_ACTIVE]
    # replay every expanded node's state from the root and check whose turn it is
    stack, seen_leaves_past_turn = [(tree.root, env.state.copy())], 0
    while stack:
        node, state = stack.pop()
        expanded = tree.nodes[node, NUM_EDGES] != NOT_EXPANDED
        if state[G_ACTIVE] != owner:
            assert not expanded
            seen_leaves_past_turn += tree.nodes[node, VISITS] > 0
            continue
        first = tree.nodes[node, FIRST_EDGE]
        for k, child in enumerate(children(tree, node)):
            if child < 0:
                continue
            nxt = state.copy()
            code = int(tree.edges[first + k, ACTION])
            if tree.nodes[node, PLAYER] == CHANCE:
                spec.kernels["apply_chance"](nxt, code)
            else:
                spec.kernels["apply_action"](nxt, code)
            stack.append((child, nxt))
    assert seen_leaves_past_turn > 0


def test_heuristic_prior_puts_its_weight_on_the_heuristic_move():
    """prior=w: each decision node's priors are (1 - w) / n plus w on the move the game's
    heuristic policy picks, and the priors of every node sum to 1."""
    from meeplezoo.agents.mcts.tree import ACTION
    env = make("hansa_teutonica_v0", num_players=3)
    env.reset(seed=4)
    agent = MCTSAgent(simulations=300, seed=2, rollout="heuristic", rollout_depth=4,
                      prior=0.6)
    agent.act(env)
    tree = agent.tree
    assert agent.params[1] == 1.0                              # PUCT is on
    checked = 0
    for node in range(tree.num_nodes):
        count = int(tree.nodes[node, NUM_EDGES])
        if count <= 0 or tree.nodes[node, PLAYER] < 0:
            continue
        first = int(tree.nodes[node, FIRST_EDGE])
        priors = tree.priors[first:first + count].astype(np.float64)
        assert priors.sum() == pytest.approx(1.0, abs=1e-5)
        favourite = np.flatnonzero(priors > (1 - 0.6) / count + 1e-6)
        assert len(favourite) == 1 and priors[favourite[0]] == pytest.approx(
            0.4 / count + 0.6, abs=1e-5)
        checked += 1
    assert checked > 10
    # The root's favourite is a legal move of the position searched.
    root_first = int(tree.nodes[tree.root, FIRST_EDGE])
    root_count = int(tree.nodes[tree.root, NUM_EDGES])
    root_priors = tree.priors[root_first:root_first + root_count]
    favourite = int(tree.edges[root_first + int(np.argmax(root_priors)), ACTION])
    assert env.action_mask()[favourite]


def test_bad_prior_is_rejected():
    with pytest.raises(ValueError, match="prior"):
        MCTSAgent(prior=1.0)
    with pytest.raises(ValueError, match="bad MCTS spec"):
        make_agent("mcts:10,prior=x", "hansa_teutonica_v0")
    with pytest.raises(ValueError, match="no rollout policy"):
        MCTSAgent(simulations=10, prior=0.5).act(connect_four_after([]))
