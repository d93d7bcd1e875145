"""``carcassonne_v1``: v0's game with a fixed observation (``observe_v1.py``).

v1 must play exactly v0's game (same states, masks, names and rewards for the same seed
and moves), and its observation must be v0's with the slot columns and rows divided by 14
(clipped to [-1, 2]) plus the placed tile one-hot in the meeple phase: checked here
against a plain-Python reference built from v0's observation, at every step of random
games, through the AEC env, ``observe_batch`` and ``BatchEnv``.
"""

from __future__ import annotations

import numpy as np
import pytest
from carcassonne_setup import draw, new_game, placements, play
from pettingzoo.test import api_test

from meeplezoo.envs import make, names, spec
from meeplezoo.envs.carcassonne import data as D
from meeplezoo.envs.carcassonne import observe as observe_v0
from meeplezoo.envs.carcassonne import observe_v1
from meeplezoo.envs.carcassonne.env_v1 import GRID_SPEC, spec_for
from meeplezoo.envs.core.batch import BatchEnv, observe_batch
from meeplezoo.envs.core.contract import H_PHASE
from meeplezoo.envs.versions import rules_name

V0, V1 = "carcassonne_v0", "carcassonne_v1"
SLOT_COORDINATES = [D.V_SLOTS + 3 * j + k for j in range(D.FRONTIER_SLOTS) for k in (1, 2)]


def reference_v1(v0_observation: np.ndarray, state: np.ndarray) -> np.ndarray:
    """v1's observation from v0's, as the module docstring of ``observe_v1.py`` says."""
    out = np.zeros(6773, dtype=np.float32)
    out[:6728] = v0_observation
    for j in range(180):
        if v0_observation[6188 + 3 * j] == 1.0:                      # slot j is present
            for k in (1, 2):
                value = float(v0_observation[6188 + 3 * j + k]) / 14.0
                out[6188 + 3 * j + k] = min(max(value, -1.0), 2.0)
    if int(state[H_PHASE]) == D.PH_MEEPLE:
        last = int(state[D.G_PLACED]) - 1
        out[6728 + int(state[D.T_TYPE + last])] = 1.0
        out[6728 + 41 + int(state[D.T_ROT + last])] = 1.0
    return out


def twin_games(players: int, seed: int, **options):
    """v0 and v1 envs stepped with the same random moves; yields (v0, v1) before each move
    and once at the end."""
    old = make(V0, num_players=players, **options)
    new = make(V1, num_players=players, **options)
    old.reset(seed=seed)
    new.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not old.game_over:
        yield old, new
        action = int(rng.choice(old.legal_actions()))
        old.step(action)
        new.step(action)
    yield old, new


def test_registry_sizes_and_rules_name():
    from meeplezoo.envs import resolve_game

    assert V1 in names() and len(names()) == 7
    assert resolve_game("carcassonne") == V1                  # a bare name: the newest
    assert rules_name(V1) == V0 and rules_name(V0) == V0 and rules_name("hansa_v0") == "hansa_v0"
    old, new = spec(V0), spec(V1)
    assert new.obs_size == observe_v1.OBS_SIZE_V1 == 6773 and old.obs_size == D.OBS_SIZE == 6728
    assert (new.num_actions, new.state_size, new.game_id) == (
        old.num_actions, old.state_size, old.game_id)
    assert new.kernels["observe"] is observe_v1.observe
    assert {k: f for k, f in new.kernels.items() if k != "observe"} == \
        {k: f for k, f in old.kernels.items() if k != "observe"}
    env = make(V1, num_players=3)
    assert env.metadata["name"] == V1 and env.unwrapped.spec is spec(V1)
    grid = make(V1, num_players=2, placement_layout="grid")
    assert grid.unwrapped.spec is GRID_SPEC is spec_for("grid")
    assert GRID_SPEC.name == V1 and GRID_SPEC.obs_size == 6773
    assert GRID_SPEC.num_actions == D.GRID_NUM_ACTIONS and spec_for() is spec(V1)
    with pytest.raises(ValueError, match="placement_layout"):
        spec_for("hex")


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 2), (5, 3)])
def test_v1_plays_v0s_game_for_the_same_seed_and_moves(players, seed):
    steps = 0
    for old, new in twin_games(players, seed):
        assert np.array_equal(old.state, new.state) and np.array_equal(old.rng, new.rng)
        assert np.array_equal(old.action_mask(), new.action_mask())
        assert old.agent_selection == new.agent_selection and old.phase == new.phase
        assert old.legal_move_names() == new.legal_move_names()
        steps += 1
    assert new.game_over and old.rewards == new.rewards and steps > 100
    assert old.scores().tolist() == new.scores().tolist()


@pytest.mark.parametrize("players, seed, options", [
    (2, 11, {}), (3, 12, {}), (4, 13, {"farmers": False}), (6, 14, {}),
    (3, 15, {"placement_layout": "grid", "auto_pass_meeple": False}),
])
def test_observation_is_v0s_rescaled_plus_the_placed_tile(players, seed, options):
    """Every seat's observation at every step equals the reference; the placed tile's
    one-hots are set exactly in the meeple phase."""
    meeple_steps = 0
    for old, new in twin_games(players, seed, **options):
        meeple = int(new.state[H_PHASE]) == D.PH_MEEPLE
        meeple_steps += meeple
        for agent in new.possible_agents:
            seen = new.observe(agent)["observation"]
            expected = reference_v1(old.observe(agent)["observation"], old.state)
            assert seen.dtype == np.float32 and seen.shape == (6773,)
            assert np.array_equal(seen, expected), (agent, new.phase)
            assert seen[6728:].sum() == (2.0 if meeple else 0.0)
    assert meeple_steps > 10


@pytest.mark.parametrize("players, seed", [(2, 21), (4, 22)])
def test_slot_entries_stay_within_the_documented_bounds(players, seed):
    """Present is 0 or 1; a cell in the window reads k / 14 in [0, 1]; every entry is in
    [-1, 2]; an absent slot is all zeros; and ``slot_positions`` gives v0's window cells
    back from either version."""
    for old, new in twin_games(players, seed):
        seen = new.observe(new.agent_selection)["observation"]
        slots = seen[D.V_SLOTS:D.V_SLOTS + 540].reshape(180, 3)
        assert set(np.unique(slots[:, 0])) <= {0.0, 1.0}
        assert (slots[:, 1:] >= -1.0).all() and (slots[:, 1:] <= 2.0).all()
        assert not slots[slots[:, 0] == 0].any()
        cells = np.rint(slots[:, 1:] * 14)
        inside = ((cells >= 0) & (cells <= 14)).all(axis=1) & (slots[:, 0] == 1)
        assert np.array_equal(slots[inside, 1:], (cells[inside] / 14).astype(np.float32))
        old_seen = old.observe(old.agent_selection)["observation"]
        stored = observe_v0.slot_positions(old_seen)
        assert np.array_equal(observe_v1.slot_positions(seen), stored)
        assert np.array_equal(observe_v1.slot_positions(old_seen), stored)
    with pytest.raises(ValueError, match="observation size"):
        observe_v1.slot_positions(np.zeros(100, dtype=np.float32))


def test_cells_far_beyond_the_window_are_clipped():
    """A line of 45 tiles eastward (legal placements, forced draws) puts frontier cells
    16 columns west of the window and 31 east of it: they read -1 and 2."""
    state = new_game(2, start_seat=0)
    for x in range(1, 46):
        for name in D.TYPE_OF:
            if state[D.G_PILE + D.TYPE_OF[name]] == 0:
                continue
            fits = sorted(r for px, py, r in placements(state, name) if (px, py) == (x, 0))
            if fits:
                play(state, name, x, 0, fits[0])
                break
        else:
            raise AssertionError(f"no tile extends the line to x={x}")
    draw(state, next(name for name, t in D.TYPE_OF.items() if state[D.G_PILE + t] > 0))
    old = np.empty(6728, dtype=np.float32)
    new = np.empty(6773, dtype=np.float32)
    observe_v0.observe(state, 0, old)
    observe_v1.observe(state, 0, new)
    columns = old[D.V_SLOTS + 1:D.V_SLOTS + 540:3][old[D.V_SLOTS:D.V_SLOTS + 540:3] == 1]
    assert columns.min() == -16 and columns.max() == 31          # v0: plain integers
    assert np.array_equal(new, reference_v1(old, state))
    scaled = new[SLOT_COORDINATES]
    assert scaled.min() == -1.0 and scaled.max() == 2.0


def test_pettingzoo_api():
    api_test(make(V1, num_players=3), num_cycles=100)


def test_batch_env_and_observe_batch_give_the_aec_observation():
    states, seats, expected = [], [], []
    for _, new in twin_games(3, 31):
        if new.game_over:
            break
        states.append(new.state.copy())
        seats.append(new.agent_name_mapping[new.agent_selection])
        expected.append(new.observe(new.agent_selection)["observation"])
    batched = observe_batch(spec(V1), np.array(states), np.array(seats))
    assert batched.shape == (len(states), 6773) and np.array_equal(batched, np.array(expected))
    old = observe_batch(spec(V0), np.array(states), np.array(seats))    # v0's copy apart
    assert old.shape[1] == 6728 and np.array_equal(old[:, :6188], batched[:, :6188])
    batch = BatchEnv(spec(V1), 4, num_players=3, seed=5)
    batch.reset()
    env = make(V1, num_players=3)
    env.reset(seed=0)
    meeple = 0
    for _ in range(120):
        for row in range(4):
            env.state[:] = batch.states[row]
            agent = env.possible_agents[int(batch.to_move[row])]
            assert np.array_equal(batch.obs[row], env.observe(agent)["observation"])
            meeple += int(batch.states[row, H_PHASE]) == D.PH_MEEPLE
        batch.step(batch.random_actions())
    assert meeple > 0


def test_saved_states_load_across_the_two_versions():
    """Same state, same game id: a v0 save loads into v1 and plays on identically, and
    back; other games' saves are still refused."""
    old = make(V0, num_players=3)
    new = make(V1, num_players=3)
    old.reset(seed=41)
    new.reset(seed=99)
    rng = np.random.default_rng(0)
    for _ in range(40):
        old.step(int(rng.choice(old.legal_actions())))
    new.state_from_json(old.state_to_json())
    assert np.array_equal(new.state, old.state) and new.agent_selection == old.agent_selection
    for _ in range(30):
        action = int(rng.choice(old.legal_actions()))
        old.step(action)
        new.step(action)
    assert np.array_equal(new.state, old.state)
    again = make(V0, num_players=3)
    again.reset(seed=1)
    again.state_from_json(new.state_to_json())
    assert np.array_equal(again.state, new.state)
    assert '"game":"carcassonne_v1"' in new.state_to_json()
    hansa = make("hansa_v0", num_players=3)
    hansa.reset(seed=1)
    with pytest.raises(ValueError, match="not 'carcassonne_v1'"):
        new.state_from_json(hansa.state_to_json())


def test_agents_keyed_by_the_rules_play_v1():
    """The greedy bot and the search's tuned defaults are v0's (no compile needed)."""
    from meeplezoo.agents.registry import make_agent

    old_search, new_search = make_agent("mcts:8", V0, seed=0), make_agent("mcts:8", V1, seed=0)
    assert np.array_equal(old_search.params, new_search.params)
    assert new_search.leaf_value is old_search.leaf_value is not None
    old, new = make(V0, num_players=2), make(V1, num_players=2)
    old.reset(seed=3)
    new.reset(seed=3)
    greedy_old, greedy_new = make_agent("greedy", V0, seed=1), make_agent("greedy", V1, seed=1)
    for _ in range(20):
        action = greedy_old.act(old)
        assert greedy_new.act(new) == action
        old.step(action)
        new.step(action)


def test_the_convolutional_network_reads_v1s_slots():
    """Built with the same trunk weights, the v0 and v1 networks give every placement the
    same logit on the same positions (v1's slots are scaled back to window cells)."""
    torch = pytest.importorskip("torch")
    from meeplezoo.agents.az import az_network_meta, make_az_network
    from meeplezoo.agents.az.network import CONV_GAMES

    assert CONV_GAMES[V1] == 737
    networks = {}
    for game in (V0, V1):
        torch.manual_seed(0)
        meta = az_network_meta(game, spec(game).obs_size, 737, 6, (16,), channels=8, blocks=1)
        assert meta["architecture"] == "az-carcassonne-conv"
        networks[game] = make_az_network(meta)
    networks[V1].load_state_dict({k: v for k, v in networks[V0].state_dict().items()
                                  if not k.startswith("head.")}, strict=False)
    with torch.no_grad():
        networks[V1].outside_logits.copy_(torch.tensor([-7.0, -8.0, -9.0, -10.0]))
        networks[V0].outside_logits.copy_(networks[V1].outside_logits)
    states, seats = [], []
    for _, new in twin_games(4, 51):
        if not new.game_over:
            states.append(new.state.copy())
            seats.append(new.agent_name_mapping[new.agent_selection])
    logits = {}
    for game in (V0, V1):
        obs = torch.from_numpy(observe_batch(spec(game), np.array(states), np.array(seats)))
        with torch.no_grad():
            logits[game], values, margins = networks[game](obs)
        assert logits[game].shape == (len(states), 737) and values.shape == (len(states), 6)
    assert torch.equal(logits[V0][:, :D.NUM_PLACEMENTS], logits[V1][:, :D.NUM_PLACEMENTS])
