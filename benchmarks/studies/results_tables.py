"""The current results as Markdown tables, rendered from the records, so no figure is
typed twice: the shipped bots against ``mcts:1000`` (``agents/bots.json``, itself generated
from ``results/bot_bars``), the frozen ladders (``benchmarks/rating/ladders``) and the
speed records under ``results/`` (``results_speed.py``), each table with the command
that measured it and a link to its record.

    python -m meeplezoo.benchmarks.studies.results_tables            # the results page
    python -m meeplezoo.benchmarks.studies.results_tables --readme   # refresh README.md's table
    python -m meeplezoo.benchmarks.studies.results_tables --check README.md   # exit 1 if stale

Run from the checkout's root (``./results`` by default, ``--results`` to change it).  A
Markdown file holds a generated table between ``<!-- results:NAME:start -->`` and
``<!-- results:NAME:end -->`` (NAME one of :data:`BLOCKS`); ``--readme`` / ``--update FILE``
rewrite every such block, ``--check`` fails where one differs from what the records say
now.  The documentation site renders :func:`page` at build time
(``docs/hooks/results_pages.py``); ``tests/test_figures_from_records.py`` fails when a block
is stale or a figure is typed outside one.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from meeplezoo.agents.catalogue import (
    BAR_GAMES,
    SHIPPED,
    ShippedBot,
    bar_misses,
    best_spec,
    edge_over_search,
    figures,
    key,
    meets_bar,
)
from meeplezoo.benchmarks.common import RESULTS_DIR
from meeplezoo.benchmarks.rating.ladder import LADDER_DIR, changed_bots, ladder_for, shipped
from meeplezoo.benchmarks.studies.results_speed import (
    env_speed_rows,
    link,
    rules_stem,
    speed_sections,
    table,
)
from meeplezoo.benchmarks.studies.results_training import training_section
from meeplezoo.envs.core.files import FileRefused, read_bytes, read_json

COMMAND = "python -m meeplezoo.benchmarks.studies.results_tables"
CATALOGUE = "agents/bots.json"
BLOCK = re.compile(r"(<!-- results:(\w+):start -->\n)(.*?)(<!-- results:\2:end -->)", re.DOTALL)


def bar_record(bot: ShippedBot) -> str | None:
    """The arena summary a catalogue figure was read from, as a path in the checkout."""
    if bot.record is None:
        return None
    return f"results/bot_bars/{bot.record[0]}/{bot.game}_{bot.players}p_summary.json"


def strength_text(figure: dict | None) -> str:
    """One bot's figure against ``mcts:1000``: a score with its Wilson interval (2 players)
    or its OpenSkill mu with its interval beside the search's and greedy's (more)."""
    if not figure:
        return "not measured against `mcts:1000`"
    if figure["kind"] == "score":
        return f"{figure['score']:.3f} [{figure['low']:.3f}, {figure['high']:.3f}]"
    return (f"mu {figure['mu']:+.1f} [{figure['low']:+.1f}, {figure['high']:+.1f}]; "
            f"`mcts:1000` {figure['opponents']['mcts:1000']:+.1f}, "
            f"`greedy` {figure['opponents']['greedy']:+.1f}")


def think_text(figure: dict | None) -> str:
    return f"1/{figure['think_ratio']:.1f}" if figure else ""


def measured(figure: dict | None, bot: ShippedBot) -> str:
    if not figure:
        return ""
    then = f" (then `{figure['measured_as']}`)" if figure["measured_as"] != bot.name else ""
    return f"`{figure['command']}`{then}"


def bots_section(base: str | None) -> list[str]:
    """Every shipped bot by game and player count, with its figure against ``mcts:1000``
    where one was measured (``meeplezoo bots`` prints the same)."""
    found, rows = figures(), []
    for bot in SHIPPED:
        figure = found.get(key(bot))
        rows.append([f"`{bot.game}`", str(bot.players), f"`{bot.name}`", bot.method,
                     strength_text(figure), str(figure["games"]) if figure else "",
                     think_text(figure),
                     link(bar_record(bot), base) if figure else "", measured(figure, bot)])
    return (["## The shipped bots against `mcts:1000`", "",
             "Each shipped bot by game and player count: at two players its score against "
             "`mcts:1000` (a win 1, a draw 1/2) with its Wilson 95% interval, at three its "
             "OpenSkill mu with its interval beside the search's and `greedy`'s (greedy at "
             "0); the games (deals in both seatings), and its think time per decision as a "
             "fraction of the search's.  The arena knew some bots by an earlier name "
             "(\"then\"): the figures are the bot that ships under the new one.  `best` "
             "plays the strongest bot of each game at its player count.", ""]
            + table(["game", "players", "bot", "what it is", "against mcts:1000", "games",
                     "think time", "record", "measured by"], rows)
            + ["", f"Figures: {link(CATALOGUE, base)}, generated from the records by "
               "`python -m meeplezoo.benchmarks.studies.bot_catalogue --out agents/bots.json`;"
               " `meeplezoo bots [GAME]` prints them.", ""])


def lead_text(figure: dict, opponent: str) -> str:
    """The bot's result against one opponent: its score (2 players) or its OpenSkill lead
    with the lead's bootstrap interval (more)."""
    if figure["kind"] == "score":
        return f"{figure['score']:.3f} [{figure['low']:.3f}, {figure['high']:.3f}]" \
            if opponent == "mcts:1000" else ""
    low, high = figure.get("leads", {}).get(opponent, (None, None))
    lead = figure["mu"] - figure["opponents"][opponent]
    return f"{lead:+.1f} [{low:+.1f}, {high:+.1f}]" if low is not None else f"{lead:+.1f}"


def count_bars_section(base: str | None) -> list[str]:
    """Every game at every player count it allows: the strongest measured shipped bot and
    whether it clears the strength bar (:func:`~meeplezoo.agents.catalogue.meets_bar`)."""
    from meeplezoo.envs import spec

    found, rows = figures(), []
    for game in BAR_GAMES:
        for players in range(spec(game).min_players, spec(game).max_players + 1):
            measured = [(bot, found[key(bot)]) for bot in SHIPPED
                        if bot.game == game and bot.players == players and key(bot) in found]
            if not measured:
                rows.append([f"`{game}`", str(players), "", "", "", "", "", "not measured"])
                continue
            bot, figure = max(measured, key=lambda pair: (meets_bar(pair[1]),
                                                          edge_over_search(pair[1])))
            rows.append([f"`{game}`", str(players), f"`{bot.name}`",
                         lead_text(figure, "mcts:1000"), lead_text(figure, "greedy"),
                         str(figure["games"]), think_text(figure),
                         ("met" if meets_bar(figure) else
                          f"missed: {'; '.join(bar_misses(figure))}")
                         + f" ({link(bar_record(bot), base, 'record')})"])
    return (["## The strength bar at every player count", "",
             "Each game at each count it allows, with its strongest measured shipped bot.  "
             "The bar: at most 1/5 of `mcts:1000`'s think time per decision, and at two "
             "players a score of at least 0.55 against `mcts:1000` with the Wilson 95% lower "
             "bound above 0.5 over 400 games; at three or more, over 300 games with the seats "
             "rotated, an OpenSkill lead over both `mcts:1000` and `greedy` whose bootstrap "
             "95% interval is above 0.", ""]
            + table(["game", "players", "bot", "against mcts:1000", "lead over greedy",
                     "games", "think time", "bar"], rows) + [""])


def ladder_names() -> list[str]:
    """The newest ladder of every game and player count that ships one."""
    pairs = sorted({tuple(name.rsplit("-ladder-v", 1)[0].rsplit("-", 1)) for name in shipped()})
    return [ladder_for(game, int(players[:-1])) for game, players in pairs]


def ladders_section(base: str | None) -> list[str]:
    lines = ["## The frozen ladders", "",
             "The anchors of each game's newest ladder with the ratings of its reference "
             "tournament: two players in Bradley-Terry Elo with `random` at 0, more in "
             "OpenSkill mu; the interval is a bootstrap 95% over deals.  `meeplezoo rate "
             "GAME --agent X` places a new agent on it.", ""]
    for name in ladder_names():
        ladder = read_json(LADDER_DIR / f"{name}.json", "ladder")
        unit = "Elo" if ladder["scale"] == "elo" else "OpenSkill mu"
        retired = changed_bots(ladder)
        rows = [[f"`{a['agent']}`", f"{a['rating']:+.0f} [{a['low']:+.0f}, {a['high']:+.0f}]"]
                for a in ladder["anchors"]]
        commands = "; ".join(f"`{ladder[k]}`" for k in ("command", "extend_command",
                                                         "rename_command") if k in ladder)
        lines += ([f"### `{name}`: {ladder['players']} players, {ladder['games']} reference "
                   "games", ""] + table(["anchor", unit], rows)
                  + ["", f"Built by {commands}; record: "
                     f"{link(f'benchmarks/rating/ladders/{name}.json', base)}."
                     + (f" Retired: {', '.join(retired)} changed since." if retired else ""),
                     ""])
    return lines


def summary_rows(results: Path, base: str | None) -> list[list[str]]:
    """The README's table: per game and player count, the shipped bot that was measured
    against ``mcts:1000`` (``best`` where it leads), and at two players the env's speed
    against PettingZoo's connect four."""
    found = figures()
    speed = {stem: bar for stem, bar, _record in env_speed_rows(results)}
    rows = []
    for bot in SHIPPED:
        figure = found.get(key(bot))
        if not figure:
            continue
        bar = speed.get(rules_stem(bot.game)) if bot.players == 2 else None
        rows.append([f"`{bot.game}`", str(bot.players), f"`{bot.name}`"
                     + (" (`best`)" if best_spec(bot.game, bot.players) == bot.name else ""),
                     strength_text(figure), str(figure["games"]), think_text(figure),
                     f"{bar['median_of_rounds']:.1f}x" if bar else "",
                     link(bar_record(bot), base, "summary")])
    return rows


def summary(results: Path = RESULTS_DIR, base: str | None = "") -> str:
    """The README's one table of current results, with where each figure comes from."""
    lines = table(["game", "players", "bot", "against mcts:1000", "games", "think time",
                   "env speed vs connect four", "record"], summary_rows(results, base))
    lines += ["", "Against `mcts:1000`: score with its Wilson 95% interval (3 players: "
              "OpenSkill mu); think time per decision as a fraction of the search's; env "
              "speed: AEC turns per second against PettingZoo's `connect_four_v3` in the "
              "same loop (`results/games_<game>.json`).  Each record holds the command "
              f"that measured it; `meeplezoo bots` prints them.  Regenerate: `{COMMAND} "
              "--readme`."]
    return "\n".join(lines) + "\n"


def section(render):
    """A block of one of the page's sections (record links as paths: a block may sit in a
    site page, which cannot reach the records by a relative link)."""
    return lambda results, base: "\n".join(render(results, None)).rstrip("\n") + "\n"


BLOCKS = {"summary": summary,
          "bots": section(lambda results, base: bots_section(base)),
          "bars": section(lambda results, base: count_bars_section(base)),
          "ladders": section(lambda results, base: ladders_section(base)),
          "speed": section(speed_sections)}


def page(results: Path = RESULTS_DIR, base: str | None = None) -> str:
    """The results page: every table, from the records under ``results``; record links
    from ``base`` (a repository address ending in ``/``), or shown as paths where None."""
    lines = ["# Results", "",
             "The current figures, rendered from the result records when this site was "
             f"built (`{COMMAND}` prints this page).  Each table names the command that "
             "measured it and links its record; the dated studies behind them are under "
             "Studies.", ""]
    lines += (count_bars_section(base) + training_section(results, base) + bots_section(base)
              + ladders_section(base))
    lines += ["## Speed", "",
              "Measured on shared 2-CPU machines: the ratios against a peer measured in the "
              "same run are the figures that travel; absolute rates are the machine's.", ""]
    lines += speed_sections(results, base)
    return "\n".join(lines).rstrip("\n") + "\n"


def render_blocks(text: str, results: Path, base: str | None = "") -> str:
    """``text`` with every generated block re-rendered from the records."""
    def fill(match: re.Match) -> str:
        name = match.group(2)
        if name not in BLOCKS:
            raise ValueError(f"unknown results block {name!r}; known: {', '.join(BLOCKS)}")
        return match.group(1) + BLOCKS[name](results, base) + match.group(4)
    return BLOCK.sub(fill, text)


def read_text(path: Path) -> str:
    return read_bytes(path, "records").decode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS_DIR,
                        help="the folder of the records (default: ./results)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--readme", action="store_true",
                        help="rewrite README.md's generated blocks")
    action.add_argument("--update", type=Path, nargs="+", metavar="FILE",
                        help="rewrite these files' generated blocks")
    action.add_argument("--check", type=Path, nargs="+", metavar="FILE",
                        help="exit 1 naming each file whose generated blocks are stale")
    parser.add_argument("--base", default=None,
                        help="the page's record links: a repository address ending in /")
    args = parser.parse_args(argv)
    try:
        if not (args.readme or args.update or args.check):
            print(page(args.results, args.base), end="")
            return 0
        stale = []
        for path in args.check or args.update or [Path("README.md")]:
            text = read_text(path)
            # Relative record links work from the checkout's root (README); a site page
            # names the records' paths instead.
            fresh = render_blocks(text, args.results, None if "docs" in path.parts else "")
            if fresh != text and args.check:
                stale.append(str(path))
            elif fresh != text:
                path.write_text(fresh)
                print(f"updated {path}")
        for path in stale:
            print(f"{path}: generated results are stale; run {COMMAND} --update {path}")
        return 1 if stale else 0
    except (FileRefused, ValueError, KeyError, json.JSONDecodeError) as err:
        print(f"results_tables: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
