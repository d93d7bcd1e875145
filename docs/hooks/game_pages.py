"""MkDocs hook: one page per game, generated from the envs at build time.

Each game (the registry's names grouped by game: ``carcassonne_v0`` and ``carcassonne_v1``
are one page) gets ``games/<game>.md``: its player counts, action space and observation
read from an env built at the minimum player count, its options with their defaults (the
env's constructor and the game's ``DEFAULT_OPTIONS``), the versions and what changed
(``envs/versions.py`` and each version's docstring), the shipped bots
(``agents/catalogue.py``), then each version's module docstring and observation layout.
Nothing on these pages is typed by hand, so they cannot drift from the code.

The board pictures of ``docs/images`` are added to the site as they are (README links to
that folder, so they stay there).  The docstrings are written for ``help()``; the few
reStructuredText habits they have (simple tables, ``:func:`` roles) are turned into
Markdown by ``rst_to_markdown.py``, which the API reference uses too.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from pathlib import Path

from mkdocs.structure.files import File

sys.path.insert(0, str(Path(__file__).parent))        # hooks load by path, not as a package
from rst_to_markdown import to_markdown  # noqa: E402

IMAGES = Path(__file__).resolve().parents[1] / "images"
NAV_ENTRY = "Games"


def family_of(name: str) -> str:
    """``carcassonne_v1`` -> ``carcassonne``: the game a registry name is a version of."""
    return re.sub(r"_v\d+$", "", name)


def version_number(name: str) -> int:
    return int(re.search(r"_v(\d+)$", name).group(1))


def title_of(family: str) -> str:
    return family.replace("_", " ").title()


def games() -> dict[str, list[str]]:
    """Each game's registry names, newest version first."""
    from meeplezoo.envs import names

    found: dict[str, list[str]] = {}
    for name in names():
        found.setdefault(family_of(name), []).append(name)
    return {family: sorted(versions, key=version_number, reverse=True)
            for family, versions in sorted(found.items())}


def docstring_markdown(text: str | None) -> str:
    return to_markdown(text) or "*(no docstring)*"


def split_history(text: str) -> tuple[str, str]:
    """A version's docstring without its version history, and that history (every game's
    docstring ends with it)."""
    text = inspect.cleandoc(text or "")
    at = text.find("Version history")
    return (text, "") if at < 0 else (text[:at].rstrip(), text[at:])


# ---- what the envs say about themselves -------------------------------------------------

def env_facts(name: str) -> dict:
    """Sizes read from an env built at the minimum player count, and its options."""
    from meeplezoo.envs import make, spec
    from meeplezoo.play.games import STATUS

    game = spec(name)
    env = make(name, raw=True, num_players=game.min_players)
    agent = env.possible_agents[0]
    observation = env.observation_space(agent)
    module = importlib.import_module(f"meeplezoo.envs.{name}")
    observe = game.kernels["observe"]
    return {
        "players": f"{game.min_players}-{game.max_players}",
        "actions": env.action_space(agent).n,
        "observation": tuple(observation["observation"].shape),
        "observation_dtype": str(observation["observation"].dtype),
        "mask": tuple(observation["action_mask"].shape),
        "status": STATUS.get(name, "complete"),
        "doc": module.__doc__,
        "observe_doc": sys.modules[getattr(observe, "py_func", observe).__module__].__doc__,
        "options": options_of(module, game),
    }


def options_of(module, game) -> list[tuple[str, str, str]]:
    """(option, default, where it goes): the env's constructor arguments (from every class
    up its hierarchy), the game's rule options, and the ``env()`` factory's own."""
    rows, seen = [], {"self", "num_players"}
    rows.append(("num_players", "2", "env"))
    for cls in module.raw_env.__mro__:
        if "__init__" not in vars(cls) or cls.__module__.startswith("pettingzoo"):
            continue
        for parameter in inspect.signature(cls.__init__).parameters.values():
            if parameter.name in seen or parameter.default is inspect.Parameter.empty:
                continue
            seen.add(parameter.name)
            rows.append((parameter.name, repr(parameter.default), "env"))
    defaults = getattr(sys.modules[game.make_config.__module__], "DEFAULT_OPTIONS", {})
    rows += [(key, repr(value), "rule") for key, value in defaults.items() if key not in seen]
    for parameter in inspect.signature(module.env).parameters.values():
        if parameter.default is not inspect.Parameter.empty and parameter.name not in seen:
            rows.append((parameter.name, repr(parameter.default), "env() only"))
    return rows


def version_relation(name: str) -> str:
    from meeplezoo.envs.versions import SAME_RULES, TABLES_FROM

    if name in SAME_RULES:
        return (f"the rules, state, actions, notation and seeds of `{SAME_RULES[name]}`; "
                f"only what a learner sees changed (`SAME_RULES`)")
    if name in TABLES_FROM:
        return (f"the state, actions, notation and observation of `{TABLES_FROM[name]}`, "
                f"whose bots and search tables it plays; a few legal moves differ "
                f"(`TABLES_FROM`)")
    return "its own rules"


def bots_of(name: str) -> list[str]:
    """Markdown lines: the shipped bots by player count, the hand-written ones, ``best``."""
    from meeplezoo.agents.catalogue import SHIPPED, best_spec
    from meeplezoo.agents.registry import HEURISTICS
    from meeplezoo.envs import spec
    from meeplezoo.envs.versions import rules_name

    game = spec(name)
    hand = sorted({kind for kind, key in HEURISTICS if key == rules_name(name)})
    lines = [f"Every game plays `random` and `mcts:N`; hand-written here: "
             f"{', '.join(f'`{k}`' for k in hand) or 'none'}.", ""]
    shipped = [bot for bot in SHIPPED if bot.game == name]
    if shipped:
        lines += ["| players | name | what it is | search |", "|---|---|---|---|"]
        lines += [f"| {bot.players} | `{bot.name}` | {bot.method} | {bot.search} |"
                  for bot in shipped]
    else:
        lines.append("No trained bot ships for this version.")
    best = ", ".join(f"{players} players `{best_spec(name, players)}`"
                     for players in range(game.min_players, game.max_players + 1))
    lines += ["", f"`best` plays, by player count: {best}."]
    return lines


# ---- the pages ------------------------------------------------------------------------

def game_page(family: str, versions: list[str], facts: dict[str, dict]) -> str:
    lines = [f"# {title_of(family)}", "", docstring_markdown(
        inspect.cleandoc(facts[versions[-1]]["doc"] or "").splitlines()[0]), ""]
    header = "| | " + " | ".join(f"`{v}`" for v in versions) + " |"
    rows = [("import", lambda v: f"`from meeplezoo.envs import {v}`"),
            ("players", lambda v: facts[v]["players"]),
            ("action space", lambda v: f"Discrete({facts[v]['actions']})"),
            ("observation", lambda v: f"{facts[v]['observation_dtype']}"
                                      f"[{', '.join(map(str, facts[v]['observation']))}]"),
            ("action mask", lambda v: f"int8[{', '.join(map(str, facts[v]['mask']))}]"),
            ("status", lambda v: facts[v]["status"])]
    lines += [header, "|---|" + "---|" * len(versions)]
    lines += [f"| {label} | " + " | ".join(cell(v) for v in versions) + " |"
              for label, cell in rows]
    lines += ["", "Sizes read from an env built at the minimum player count; every count "
              "has the same spaces (observations are padded to the maximum).", ""]
    if (IMAGES / f"{family}.png").is_file():
        lines += [f"![{title_of(family)}, mid-game](../images/{family}.png)", ""]
    if (IMAGES / f"web_{family}.png").is_file():
        lines += [f"In the browser (`meeplezoo serve`): "
                  f"[screenshot](../images/web_{family}.png).", ""]

    for name in versions:
        body = split_history(facts[name]["doc"])[0]
        lines += [f"## `{name}`" if len(versions) > 1 else "## Actions, rewards and rules",
                  "", docstring_markdown(body), "",
                  f"### Observation layout{f' of `{name}`' if len(versions) > 1 else ''}", "",
                  docstring_markdown(facts[name]["observe_doc"]), ""]

    lines += ["## Options", "", "Pass them to `make(name, **options)` or "
              f"`{versions[0]}.env(**options)`; each is checked when the env is built. "
              "*env*: the environment's own, *rule*: a rule the spec marks uncertain "
              "(what each does is in the docstring above).", ""]
    table: dict[str, tuple[str, str]] = {}
    for name in reversed(versions):
        for key, default, kind in facts[name]["options"]:
            table[key] = (default, kind)
    lines += ["| option | default | kind |", "|---|---|---|"]
    lines += [f"| `{key}` | `{default}` | {kind} |" for key, (default, kind) in table.items()]
    lines += [""]

    lines += ["## Version history", ""]
    for name in versions:
        history = split_history(facts[name]["doc"])[1]
        history = re.sub(r"^Version history:?\s*", "", history)
        lines += [f"### `{name}`", "", f"Plays {version_relation(name)}.", "",
                  docstring_markdown(history) if history else "*(no version history)*", ""]

    lines += ["## Bots", "", "Their measured strength is on the [results page](../results.md) "
              "and in `meeplezoo bots`.", ""]
    for name in versions:
        heading = f"### Bots of `{name}`" if len(versions) > 1 else ""
        lines += [heading, "", *bots_of(name), ""]
    return "\n".join(lines)


def index_page(by_game: dict[str, list[str]], facts: dict[str, dict]) -> str:
    lines = ["# Games", "",
             "Every game is a PettingZoo AEC environment: a flat `Discrete(N)` action space "
             "with an `int8` mask in the observation dict, and a float observation from the "
             "observer's seat, padded to the game's maximum player count. Each page is "
             "generated from the env itself when the site is built.", "",
             "| game | registry names | players | action space | status |",
             "|---|---|---|---|---|"]
    for family, versions in by_game.items():
        newest = facts[versions[0]]
        lines.append(f"| [{title_of(family)}]({family}.md) | "
                     + ", ".join(f"`{v}`" for v in versions)
                     + f" | {newest['players']} | Discrete({newest['actions']}) | "
                     f"{newest['status']} |")
    lines += ["", "`meeplezoo games` prints the same list in the terminal."]
    return "\n".join(lines)


# ---- MkDocs events ------------------------------------------------------------------------

def on_config(config):
    """The nav's ``Games`` entry becomes the index and a page per game."""
    pages = ["games/index.md", *({title_of(f): f"games/{f}.md"} for f in games())]
    for index, entry in enumerate(config.nav or []):
        if isinstance(entry, dict) and NAV_ENTRY in entry:
            config.nav[index] = {NAV_ENTRY: pages}
    return config


def on_files(files, config):
    by_game = games()
    facts = {name: env_facts(name) for versions in by_game.values() for name in versions}
    files.append(File.generated(config, "games/index.md", content=index_page(by_game, facts)))
    for family, versions in by_game.items():
        files.append(File.generated(config, f"games/{family}.md",
                                    content=game_page(family, versions, facts)))
    for picture in sorted(IMAGES.glob("*.png")):
        files.append(File(f"images/{picture.name}", str(IMAGES.parent), config.site_dir,
                          config.use_directory_urls))
    return files

