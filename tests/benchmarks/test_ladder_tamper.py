"""A tampered ladder is refused before anything is built from it: a shipped
ladder copied, changed in one way with its records' checksum made valid again, and handed
to ``meeplezoo rate``, which must answer with one line and exit status 2.

The checksum only ties the records to the JSON; whoever edits one can rewrite the other,
so each case below recomputes it and the content checks (``benchmarks/rating/ladder_check.py``)
are what refuse it.  The arena's game loop is stubbed, so a ladder wrongly accepted fails
fast instead of playing, while its agents are still built as they would be for real (an
anchor naming a file would run it there).
"""

from __future__ import annotations

import gzip
import hashlib
import json

import pytest

from meeplezoo.benchmarks.arena import run as arena_run
from meeplezoo.benchmarks.rating import ladder
from meeplezoo.benchmarks.rating.ladder_check import check_anchor_spec
from meeplezoo.play import cli

NAME = "hansa_teutonica_v0-2p-ladder-v5"      # the smallest 2-player ladder: 120 games
NAME_3P = "hansa_v0-3p-ladder-v1"


class Played(BaseException):
    """Raised by the stubbed game loop: the ladder got past every check."""


@pytest.fixture(autouse=True)
def no_games(monkeypatch):
    def played(*args, **kwargs):
        raise Played

    monkeypatch.setattr(arena_run, "_drain", played)


def tampered(folder, name=NAME, fields=None, records=None):
    """A copy of ladder ``name`` in ``folder``, its JSON changed by ``fields(ladder)`` and
    its records by ``records(list)``, with the checksum recomputed; the JSON's path."""
    source = ladder.LADDER_DIR / f"{name}.json"
    data = json.loads(source.read_text())
    rows = [json.loads(line) for line in gzip.decompress(
        source.with_name(data["records"]).read_bytes()).decode().splitlines()]
    if records is not None:
        records(rows)
    raw = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows).encode()
    (folder / data["records"]).write_bytes(gzip.compress(raw, mtime=0))
    data["records_sha256"] = hashlib.sha256(raw).hexdigest()
    if fields is not None:
        fields(data)
    path = folder / f"{name}.json"
    path.write_text(json.dumps(data, indent=2))
    return path


def refused(path, capsys, tmp_path, game="hansa_teutonica", players=2) -> str:
    """Rate with ladder ``path`` through the CLI: exit 2, one line, nothing written."""
    out = tmp_path / "rated"
    try:
        status = cli.main(["rate", game, "--agent", "random", "--ladder", str(path),
                           "--players", str(players), "--out", str(out), "--quiet"])
    except Played:
        pytest.fail(f"{path} was accepted and its games started")
    err = capsys.readouterr().err
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("meeplezoo: error: "), err
    assert "Traceback" not in err and not out.exists()
    return lines[0]


def rename(old, new):
    """Anchor ``old`` renamed ``new`` in the JSON and in every record: all consistent,
    checksum included, so only the name itself can be refused."""
    def fields(data):
        for row in data["anchors"]:
            row["agent"] = new if row["agent"] == old else row["agent"]

    def records(rows):
        for row in rows:
            for key in ("seats", "table"):
                row[key] = [new if s == old else s for s in row[key]]
    return fields, records


def test_every_shipped_ladder_loads():
    for name in ladder.shipped():
        frozen = ladder.load_ladder(name, check_bots=False)
        assert len(frozen["records"]) == frozen["games"]
        if ladder.ladder_for(frozen["game"], frozen["players"]) == name:
            assert not ladder.changed_bots(frozen), name      # the newest rates today's bots


def test_a_ladder_whose_bot_changed_is_refused(tmp_path):
    """A ladder keeps the sha256 of the shipped checkpoints its ``az:default`` /
    ``ppo:default`` anchors played; once a bot is re-shipped, rating against the old
    ratings would be wrong, so the ladder is refused (and listed as retired)."""
    path = tampered(tmp_path)
    fields = json.loads(path.read_text())
    anchors = [row["agent"] for row in fields["anchors"]]
    bot = next(a for a in anchors if a.startswith(("az:default", "ppo:default")))
    assert fields["bots"][bot] == ladder.bot_fingerprint(bot, fields["game"])
    fields["bots"][bot] = "0" * 64
    path.write_text(json.dumps(fields))
    with pytest.raises(ValueError, match=f"{bot} shipped since it was built is another bot"):
        ladder.load_ladder(str(path))
    assert ladder.load_ladder(str(path), check_bots=False)["name"] == fields["name"]
    for bad in ({"mcts:200": "0" * 64}, {bot: "abc"}, ["x"]):
        fields["bots"] = bad
        path.write_text(json.dumps(fields))
        with pytest.raises(ValueError, match="bots must map"):
            ladder.load_ladder(str(path), check_bots=False)


def test_an_untampered_copy_is_accepted(tmp_path):
    frozen = ladder.load_ladder(str(tampered(tmp_path)))
    assert frozen["name"] == NAME and len(frozen["records"]) == frozen["games"]


EVIL = "import pathlib\npathlib.Path({marker!r}).write_text('ran')\nclass Bot:\n    pass\n"


@pytest.mark.parametrize("spec", ["process:{file}:Bot", "{file}:Bot", "process:random"])
@pytest.mark.parametrize("everywhere", [True, False], ids=["records-too", "json-only"])
def test_an_anchor_naming_code_is_refused_and_never_run(tmp_path, capsys, spec, everywhere):
    marker = tmp_path / "marker"
    evil = tmp_path / "evil.py"
    evil.write_text(EVIL.format(marker=str(marker)))
    fields, records = rename("greedy", spec.format(file=evil))
    path = tampered(tmp_path, fields=fields, records=records if everywhere else None)
    assert "not an agent a ladder may name" in refused(path, capsys, tmp_path)
    assert not marker.exists()


@pytest.mark.parametrize("spec", ["az:/some/path.pt", "ppo:/some/path.pt", "az:bots/x.pt",
                                  "ppo:/x.pt,sample", "az:default,/x.pt", "mcts:200,x=y",
                                  "mcts:999999999", "greedy ", "agents.evil:Bot", ""])
def test_an_anchor_not_built_by_the_registry_alone_is_refused(tmp_path, capsys, spec):
    fields, records = rename("greedy", spec)
    path = tampered(tmp_path, fields=fields, records=records)
    assert "not an agent a ladder may name" in refused(path, capsys, tmp_path)


@pytest.mark.parametrize("spec", ["random", "greedy", "expert", "mcts:200", "mcts:1.5s",
                                  "mcts:400,leaf=heuristic,c=0.5", "az:default",
                                  "az:default3p,sims=64,root=gumbel", "ppo:default",
                                  "ppo:default4p,sample", "az:all", "az:all,sims=16"])
def test_the_registrys_own_agents_may_be_anchors(spec):
    check_anchor_spec(spec)


def _anchor(field, value, index=1):
    def fields(data):
        data["anchors"][index][field] = value
    return fields


@pytest.mark.parametrize("field, value, message", [
    ("rating", "abc", "rating 'abc' is not a number"),
    ("rating", None, "rating None is not a number"),
    ("rating", float("nan"), "NaN is not a number JSON allows"),
    ("low", float("inf"), "Infinity is not a number JSON allows"),
    ("low", 1e300, "low 1e+300 is not a number"),
    ("high", True, "high True is not a number"),
    ("rating", 10**400, "is not a number within +-1e+06"),
    ("rating", 1e9, "is not a number within +-1e+06"),
    ("high", -5000.0, "outside its interval"),
    ("games", "many", "games must be a whole number")])
def test_an_anchor_with_a_bad_rating_is_refused(tmp_path, capsys, field, value, message):
    assert message in refused(tampered(tmp_path, fields=_anchor(field, value)), capsys,
                              tmp_path)


@pytest.mark.parametrize("field, value", [("mu", "abc"), ("sigma", -1.0),
                                          ("sigma", 0.0), ("mu", None)])
def test_a_three_player_anchor_needs_its_mu_and_sigma(tmp_path, capsys, field, value):
    path = tampered(tmp_path, NAME_3P, fields=_anchor(field, value))
    assert field in refused(path, capsys, tmp_path, game="hansa", players=3)


def _set(key, value, inner=None):
    def fields(data):
        if inner is None:
            data[key] = value
        else:
            data[key][inner] = value
    return fields


@pytest.mark.parametrize("fields, message", [
    (_set("players", "2"), "players '2'"), (_set("players", 3), "is not hansa_teutonica"),
    (_set("players", 2.0), "players 2.0"), (_set("players", 99), "players 99"),
    (_set("players", True), "players True"),
    (_set("deals", "ten"), "deals must be a JSON object"),
    (_set("deals", "ten", "count"), "deals.count 'ten'"),
    (_set("deals", 10**12, "count"), "deals.count"),
    (_set("deals", 0, "count"), "deals.count 0"),
    (_set("deals", -1, "first_seed"), "deals.first_seed -1"),
    (_set("deals", 1.5, "first_seed"), "deals.first_seed 1.5"),
    (_set("rating_deals", {"first_seed": 0, "count": "all"}), "rating_deals.count"),
    (_set("anchors", "greedy"), "anchors must be a list"),
    (_set("anchors", []), "anchors must be a list"),
    (_set("anchor", "mcts:200,c=1"), "scale anchor"),
    (_set("name", "../../elsewhere"), "name '../../elsewhere'"),
    (_set("game", "Hansa Teutonica"), "game 'Hansa Teutonica'"),
    (_set("game_options", []), "game_options"),
    (_set("game_options", {"junk": 1}), "game_options must be {}"),
    (_set("game_options", {"board": "/etc/passwd"}), "game_options must be {}"),
    (_set("format", 1.0), "format 1.0"), (_set("format", True), "format True"),
    (lambda data: data.pop("bots"), "bots must map each"),
    (lambda data: data["bots"].popitem(), "bots must map each"),
    (_set("method", "plackett_luce"), "method 'plackett_luce'"),
    (_set("scale", "openskill_mu"), "scale 'openskill_mu'"),
    (_set("records", "../elsewhere.jsonl.gz"), "is not a file name beside it"),
    (_set("records_sha256", 7), "records_sha256"),
    (_set("format", 2), "format 2"),
    (_set("games", 119), "games 119 is not its 120 records")])
def test_a_ladder_with_a_bad_field_is_refused(tmp_path, capsys, fields, message):
    assert message in refused(tampered(tmp_path, fields=fields), capsys, tmp_path)


def _each(change):
    def records(rows):
        for row in rows:
            change(row)
    return records


def _first(change):
    def records(rows):
        change(rows[0])
    return records


def _drop_one(rows):
    rows.pop()


def _repeat_one(rows):
    rows[-1] = dict(rows[0])


@pytest.mark.parametrize("records, fields, message", [
    (_each(lambda r: r.pop("seats")), None, "seats None are not 2 of its anchors"),
    (_first(lambda r: r.update(seats=["random", "mcts:201"])), None, "'mcts:201'"),
    (_first(lambda r: r.update(seats=["random"])), None, "are not 2 of its anchors"),
    (_first(lambda r: r.update(seats="random,greedy")), None, "are not 2 of its anchors"),
    (_first(lambda r: r.update(seed=10**6)), None, "seed 1000000 is not one of the "
     "reference deals 0..5"),
    (_first(lambda r: r.update(seed="0")), None, "seed '0'"),
    (_first(lambda r: r.update(seed=-1)), None, "seed -1"),
    (_first(lambda r: r.pop("ranks")), None, "ranks None"),
    (_first(lambda r: r.update(ranks=[1, 2, 3])), None, "ranks [1, 2, 3]"),
    (_first(lambda r: r.update(ranks=[0, 2])), None, "ranks [0, 2]"),
    (_first(lambda r: r.update(ranks=["1", 2])), None, "ranks ['1', 2]"),
    (_first(lambda r: r.update(scores=[1, "x"])), None, "scores [1, 'x']"),
    (_first(lambda r: r.update(rewards=[1e300, 1.0])), None, "rewards [1e+300, 1.0]"),
    (_first(lambda r: r.update(rewards=[float("nan"), 1.0])), None,
     "NaN is not a number JSON allows"),
    (_first(lambda r: r.update(game="saint_malo_v0")), None, "'saint_malo_v0'"),
    (_first(lambda r: r.update(seats=["greedy", "greedy"])), None, "are not the 120 games"),
    (_repeat_one, None, "are not the 120 games"),
    (_drop_one, _set("games", 119), "are not the 120 games"),
    (lambda rows: rows.append(7), _set("games", 121), "record 121 is not a JSON object")])
def test_a_ladder_with_bad_records_is_refused(tmp_path, capsys, records, fields, message):
    path = tampered(tmp_path, records=records, fields=fields)
    assert message in refused(path, capsys, tmp_path)
