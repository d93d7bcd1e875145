"""A bot's name is not its identity: results keep the sha256 of the checkpoint behind each
``az:`` / ``ppo:`` seat, so a retrained or re-shipped bot is never scored with the games
of the one before it (the arena and the generalisation protocol play it again)."""

from __future__ import annotations

import hashlib
import json

import pytest

torch = pytest.importorskip("torch")

from meeplezoo.agents.az.agent import shipped_checkpoint  # noqa: E402
from meeplezoo.agents.ppo import make_network, network_meta  # noqa: E402
from meeplezoo.agents.ppo.agent import shipped_policy  # noqa: E402
from meeplezoo.benchmarks.arena import arena  # noqa: E402
from meeplezoo.benchmarks.arena.fingerprints import bot_fingerprint, fingerprints  # noqa: E402
from meeplezoo.benchmarks.studies import generalisation  # noqa: E402
from meeplezoo.envs import spec  # noqa: E402
from meeplezoo.training.run.checkpoint import save_checkpoint  # noqa: E402

GAME = "saint_malo_v0"


def save_policy(path, game: str = GAME, seed: int = 0):
    torch.manual_seed(seed)
    game_spec = spec(game)
    meta = network_meta(game, game_spec.obs_size, game_spec.num_actions, (8,))
    return save_checkpoint(path, meta=meta, model=make_network(meta))


def test_fingerprints_name_the_file_behind_the_spec(tmp_path):
    path = save_policy(tmp_path / "policy.pt")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert bot_fingerprint(f"ppo:{path}", GAME) == digest
    assert bot_fingerprint(f"az:{path},sims=8", GAME) == digest          # options ignored
    shipped = shipped_policy(GAME, 2, "distilled")
    assert bot_fingerprint("ppo:distilled", GAME) == \
        hashlib.sha256(shipped.read_bytes()).hexdigest()
    shipped = shipped_checkpoint("hansa_v0")
    assert bot_fingerprint("az:default", "hansa_v0") == \
        hashlib.sha256(shipped.read_bytes()).hexdigest()
    assert bot_fingerprint("mcts:200", GAME) is None
    assert bot_fingerprint("greedy", GAME) is None
    assert bot_fingerprint(f"ppo:{tmp_path / 'missing.pt'}", GAME) is None
    assert fingerprints(["random", f"ppo:{path}"], GAME) == {f"ppo:{path}": digest}


def test_a_fitted_search_is_fingerprinted_by_its_weight_file(tmp_path):
    """``mcts:N,leaf=fitted[:source]`` plays whatever its weight file says: a refit under
    the same name is another player, so the file's sha256 goes with its games."""
    from meeplezoo.agents.fitted_values import shipped_path

    game = "serenissima_v0"
    shipped = hashlib.sha256(shipped_path(game).read_bytes()).hexdigest()
    assert bot_fingerprint("mcts:300,leaf=fitted,depth=12,cut=leaf", game) == shipped
    gen = hashlib.sha256(shipped_path(game, "gen").read_bytes()).hexdigest()
    assert bot_fingerprint("mcts:300,leaf=fitted:gen", game) == gen != shipped
    own = tmp_path / "fit.json"
    own.write_text(shipped_path(game).read_text().replace('"weights"', '"weights" '))
    assert bot_fingerprint(f"mcts:8,leaf=fitted:{own}", game) == \
        hashlib.sha256(own.read_bytes()).hexdigest() != shipped
    assert bot_fingerprint("mcts:8,leaf=heuristic", game) is None
    assert bot_fingerprint(f"mcts:8,leaf=fitted:{tmp_path / 'missing.json'}", game) is None
    assert bot_fingerprint("mcts:8,leaf=fitted:gen", "carcassonne_v0") is None  # none ships


def test_a_retrained_checkpoint_is_played_again_not_scored_with_the_old_games(tmp_path):
    path = save_policy(tmp_path / "policy.pt", seed=0)
    agent = f"ppo:{path}"
    out = tmp_path / "arena"
    records_path, first = arena.run_arena(GAME, [agent, "random"], 2, games=2, out=out,
                                          workers=1, progress=False)
    assert len(first) == 4
    old = hashlib.sha256(path.read_bytes()).hexdigest()
    assert all(r["bots"] == {agent: old} for r in first)
    _, again = arena.run_arena(GAME, [agent, "random"], 2, games=2, out=out, workers=1,
                               progress=False)
    assert len(records_path.read_text().splitlines()) == 4          # resumed: nothing new

    save_policy(path, seed=1)                                        # the same name, retrained
    new = hashlib.sha256(path.read_bytes()).hexdigest()
    assert new != old
    _, retrained = arena.run_arena(GAME, [agent, "random"], 2, games=2, out=out, workers=1,
                                   progress=False)
    lines = [json.loads(line) for line in records_path.read_text().splitlines()]
    assert len(lines) == 8                                           # all four played again
    assert len(retrained) == 4 and all(r["bots"] == {agent: new} for r in retrained)
    # games without a checkpoint agent keep the record form they always had
    _, searches = arena.run_arena(GAME, ["greedy", "random"], 2, games=1, out=out, workers=1,
                                  progress=False)
    assert all("bots" not in r for r in searches)


def test_the_generalisation_protocol_replays_a_changed_bot(tmp_path):
    path = save_policy(tmp_path / "policy.pt", game="hansa_v0", seed=0)
    agent = f"ppo:{path}"
    kwargs = dict(game="hansa_v0", agent=agent, opponents=["random"], deals=1, seed=0,
                  out=tmp_path / "gen", train=generalisation.seed_range("train", "--train-split"),
                  test=generalisation.seed_range("test", "--test-split"),
                  sets=["test"], workers=1, progress=False)
    first = generalisation.run(**kwargs)
    save_policy(path, game="hansa_v0", seed=1)
    second = generalisation.run(**kwargs)
    records = (tmp_path / "gen").glob("*.jsonl")
    lines = [line for file in records for line in file.read_text().splitlines()]
    assert len(lines) == 4                                   # two games, each played twice
    assert first["rows"][0]["games"] == second["rows"][0]["games"] == 2
