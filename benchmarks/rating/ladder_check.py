"""What a ladder file may say, checked before ``rate`` trusts it (``ladder.load_ladder``).

A ladder is data someone hands in: ``rate`` builds its anchors and plays them, and fits
ratings from its fields.  Its checksum only says the records are those the JSON names, not
that either is what ``ladder build`` wrote, so everything is checked on its own:

* **anchors** name only agents the registry itself builds from the string (``random``,
  ``greedy``, ``expert``, ``mcts:N``, the shipped ``az:default`` and ``ppo:default``),
  checked on the string before anything is imported: a ``path.py:Class``, a ``process:``
  seat or an ``az:``/``ppo:`` checkpoint path would run code or read a file the ladder
  names, and a path is no part of a frozen ladder anyway.  Their ratings are finite.
* **fields** (players, deals, names, method) have the types and ranges the code assumes.
* **records** are exactly the reference tournament: every table of the anchors on every
  reference deal in each seating, once, each with a result of the right length.

Each failure is one ``ValueError`` line; ``load_ladder`` adds the file's path.
"""

from __future__ import annotations

import math
import re

from meeplezoo.agents.mcts_spec import MCTS_OPTIONS

# Budgets are bounded so a ladder cannot make ``rate`` think for ever: the shipped anchors
# use mcts:200 and mcts:1000.
_MCTS = (r"mcts:(?:\d{1,6}|\d{1,3}(?:\.\d{1,3})?s)"
         rf"(?:,(?:{'|'.join(map(re.escape, MCTS_OPTIONS))})=[A-Za-z0-9_.]{{1,12}})*")
ANCHOR_SPEC = re.compile(rf"random|greedy|expert|{_MCTS}"
                         r"|az:(?:default|all)(?:[2-6]p)?(?:,sims=\d{1,6}|,root=(?:puct|gumbel))*"
                         r"|ppo:default(?:[2-6]p)?(?:,sample)?|ppo:distilled(?:[2-6]p)?")
METHODS = {"bradley_terry": "elo", "plackett_luce": "openskill_mu"}
MAX_PLAYERS = 6
MAX_ANCHORS = 24             # C(24, 6) tables is still quick to list at every load
MAX_DEALS = 100_000          # rate plays up to this many deals per anchor table
MAX_SEED = 2**32             # deal seeds stay within the CLI's --seed range
MAX_RATING = 1e6             # far past any Elo or mu; keeps the fits' arithmetic finite
MAX_RESULT = 1e9             # a score or reward: any game's fit in far less


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _integer(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _number(value, limit: float) -> bool:
    # Bool is an int to Python, and NaN and Infinity are valid JSON to its parser.
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return (isinstance(value, int) or math.isfinite(value)) and abs(value) <= limit


def check_anchor_spec(spec) -> None:
    if not isinstance(spec, str) or not ANCHOR_SPEC.fullmatch(spec):
        raise ValueError(f"anchor {_show(spec)} is not an agent a ladder may name (random, "
                         f"greedy, expert, mcts:N[,...], az:default[,...], az:all[,...], "
                         f"ppo:default[,...])")


def check_fields(ladder, version: int) -> None:
    """The JSON's own fields, before its records are read; ``version``: the format read."""
    if not isinstance(ladder, dict):
        raise ValueError(f"it holds {type(ladder).__name__}, not a JSON object")
    if type(ladder.get("format")) is not int or ladder["format"] != version:
        raise ValueError(f"format {_show(ladder.get('format'))}, this code reads {version}")
    game, players = ladder["game"], ladder["players"]
    if not isinstance(game, str) or not re.fullmatch(r"[a-z][a-z0-9_]*_v\d+", game):
        raise ValueError(f"game {_show(game)} is not a game name like hansa_v0")
    if not _integer(players, 2, MAX_PLAYERS):
        raise ValueError(f"players {_show(players)} must be a whole number 2..{MAX_PLAYERS}")
    name = ladder["name"]
    # The name is a folder of rate's output: nothing but the pattern ``build`` writes.
    if not isinstance(name, str) or not re.fullmatch(
            rf"{re.escape(game)}-{players}p-ladder-v\d+", name):
        raise ValueError(f"name {_show(name)} is not {game}-{players}p-ladder-vN")
    if ladder.get("game_version") != game.rsplit("_v", 1)[-1]:
        raise ValueError(f"game_version {_show(ladder.get('game_version'))} is not {game}'s")
    # Ladders are built, and ``rate`` plays, on the game's default rules: a ladder that
    # names options would be rated under rules it was not played under, so it is refused.
    if ladder["game_options"] != {}:
        raise ValueError("game_options must be {}: a ladder is built and rated on the "
                         "game's default rules, and rate cannot play others")
    method = ladder["method"]
    expected = "bradley_terry" if players == 2 else "plackett_luce"
    if method != expected or ladder["scale"] != METHODS[expected]:
        raise ValueError(f"method {_show(method)} and scale {_show(ladder['scale'])}: a "
                         f"{players}-player ladder is {expected} on {METHODS[expected]}")
    if not isinstance(ladder["records"], str) or not re.fullmatch(
            r"[A-Za-z0-9][A-Za-z0-9_.-]*\.jsonl\.gz", ladder["records"]):
        raise ValueError(f"records {_show(ladder['records'])} is not a file name beside it")
    if not isinstance(ladder["records_sha256"], str) or not re.fullmatch(
            r"[0-9a-f]{64}", ladder["records_sha256"]):
        raise ValueError("records_sha256 is not a sha256 in hex")
    _check_deals("deals", ladder["deals"])
    if "rating_deals" in ladder:                     # only in a ladder made by ``extend``
        _check_deals("rating_deals", ladder["rating_deals"])
    _check_anchors(ladder["anchors"], ladder["anchor"], method)
    # The shipped bots the anchors were (see ladder.py): every anchor that loads a
    # checkpoint has its fingerprint, so a ladder cannot skip the check by leaving it out.
    bots = ladder.get("bots", {})
    names = {row["agent"] for row in ladder["anchors"]}
    files = {name for name in names if re.match(r"(az|ppo):", name) or "leaf=fitted" in name}
    if not isinstance(bots, dict) or set(bots) != files or not all(
            isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v) for v in bots.values()):
        raise ValueError("bots must map each anchor that loads a file (az:, ppo:, "
                         "leaf=fitted), and nothing else, to the sha256 of its file")


def _check_deals(key: str, deals) -> None:
    if not isinstance(deals, dict):
        raise ValueError(f"{key} must be a JSON object with first_seed and count")
    if not _integer(deals.get("first_seed"), 0, MAX_SEED - MAX_DEALS):
        raise ValueError(f"{key}.first_seed {_show(deals.get('first_seed'))} must be a whole "
                         f"number 0..{MAX_SEED - MAX_DEALS}")
    if not _integer(deals.get("count"), 1, MAX_DEALS):
        raise ValueError(f"{key}.count {_show(deals.get('count'))} must be a whole number "
                         f"1..{MAX_DEALS}")


def _check_anchors(anchors, scale_anchor, method: str) -> None:
    if not isinstance(anchors, list) or not 2 <= len(anchors) <= MAX_ANCHORS:
        raise ValueError(f"anchors must be a list of 2..{MAX_ANCHORS} agents")
    fields = ("rating", "low", "high") + (("mu", "sigma") if method == "plackett_luce" else ())
    for row in anchors:
        if not isinstance(row, dict):
            raise ValueError(f"anchor {_show(row)} is not a JSON object")
        check_anchor_spec(row.get("agent"))
        for field in fields:
            if not _number(row.get(field), MAX_RATING):
                raise ValueError(f"anchor {row['agent']}'s {field} {_show(row.get(field))} "
                                 f"is not a number within +-{MAX_RATING:g}")
        if not row["low"] <= row["rating"] <= row["high"]:
            raise ValueError(f"anchor {row['agent']}'s rating is outside its interval")
        if method == "plackett_luce" and not row["sigma"] > 0:
            raise ValueError(f"anchor {row['agent']}'s sigma must be > 0")
        if "games" in row and not _integer(row["games"], 0, 10**9):
            raise ValueError(f"anchor {row['agent']}'s games must be a whole number")
    names = [row["agent"] for row in anchors]
    if len(set(names)) != len(names):
        raise ValueError(f"an anchor is listed twice in {names}")
    if scale_anchor not in names:
        raise ValueError(f"its scale anchor {_show(scale_anchor)} is not one of its anchors")


def check_records(ladder: dict, records: list) -> None:
    """Each record well formed, and all together exactly the reference tournament."""
    from meeplezoo.benchmarks.arena.arena import arrangements, tables_for

    players, game = ladder["players"], ladder["game"]
    names = {row["agent"] for row in ladder["anchors"]}
    first, count = ladder["deals"]["first_seed"], ladder["deals"]["count"]
    for k, record in enumerate(records):
        _check_record(k, record, game, players, names, first, count)
    tables = tables_for(sorted(names), players)
    expected = len(tables) * len(arrangements(tables[0])) * count
    if not _integer(ladder.get("games"), 0, 10**9) or ladder["games"] != len(records):
        raise ValueError(f"games {_show(ladder.get('games'))} is not its {len(records)} records")
    played = {(tuple(r["seats"]), r["seed"]) for r in records}
    if len(records) != expected or len(played) != expected or played != {
            (seats, first + deal) for deal in range(count) for table in tables
            for seats in arrangements(table)}:
        raise ValueError(f"its {len(records)} records ({len(played)} different) are not the "
                         f"{expected} games of every anchor table on each reference deal")


def _check_record(k: int, record, game: str, players: int, names: set, first: int,
                  count: int) -> None:
    if not isinstance(record, dict):
        raise ValueError(f"record {k + 1} is not a JSON object")
    seats = record.get("seats")
    if not isinstance(seats, list) or len(seats) != players or not all(
            isinstance(s, str) and s in names for s in seats):
        raise ValueError(f"record {k + 1}: seats {_show(seats)} are not {players} of its "
                         f"anchors")
    if not _integer(record.get("seed"), first, first + count - 1):
        raise ValueError(f"record {k + 1}: seed {_show(record.get('seed'))} is not one of "
                         f"the reference deals {first}..{first + count - 1}")
    for key in ("scores", "rewards", "ranks"):
        value = record.get(key)
        if not isinstance(value, list) or len(value) != players or not all(
                _integer(v, 1, players) if key == "ranks" else _number(v, MAX_RESULT)
                for v in value):
            raise ValueError(f"record {k + 1}: {key} {_show(value)} is not {players} "
                             f"{'ranks 1..' + str(players) if key == 'ranks' else 'numbers'}")
    if record.get("game", game) != game or record.get("num_players", players) != players:
        raise ValueError(f"record {k + 1} is of {_show(record.get('game'))} at "
                         f"{_show(record.get('num_players'))} players, not {game} at {players}")


# What a ladder built before the shipped bots were named for what they are meant by its
# anchors (``ladder_names.py`` re-issues such a ladder under today's names).
NAMING = 2                        # anchors named as ``agents/catalogue.py`` names the bots
# By game: an anchor's name in a ladder built before, and the bot's name today.
RENAMED = {
    "saint_malo_v0": {"az:default": "ppo:distilled", "az:default3p": "ppo:distilled3p"},
    "hansa_teutonica_v0": {"az:default": "ppo:distilled"},
    "carcassonne_v1": {"az:default": "mcts:100,leaf=fitted"},
    "serenissima_v0": {"az:default": "mcts:300,leaf=fitted,depth=12,cut=leaf"},
}


def renamed_anchors(ladder: dict) -> dict[str, str]:
    """``{name in the ladder: name today}`` for a ladder built before the renaming."""
    if ladder.get("naming") == NAMING:
        return {}
    table = RENAMED.get(ladder["game"], {})
    return {row["agent"]: table[row["agent"]] for row in ladder["anchors"]
            if row["agent"] in table}


def meaning(ladder: dict) -> str:
    """One line: what the ladder's renamed anchors are called today ('' if none)."""
    names = renamed_anchors(ladder)
    return "; ".join(f"its {old} is the bot now named {new}" for old, new in names.items())
