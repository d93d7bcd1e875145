"""Periodic evaluation of a training run and its learning curve.

``evaluate_checkpoint`` plays the checkpoint's policy (greedy actions) against fixed
anchors, seats alternated, and returns each score (win 1, shared win 1/2) with its
Wilson 95% interval.  During training these rows go to ``eval.csv`` (and TensorBoard);
``plot_learning_curve`` draws them against wall-clock training time and env steps.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from meeplezoo.agents.registry import make_agent
from meeplezoo.benchmarks.rating.ratings import wilson
from meeplezoo.play.table import play_game
from meeplezoo.training.run.seats import trained_counts

EVAL_FIELDS = ("update", "global_step", "elapsed_s", "opponent", "games", "score",
               "wilson_low", "wilson_high", "players")


def evaluate_checkpoint(checkpoint: str | Path, game: str, opponents: Sequence[str],
                        games: int, players: int = 2, seed: int = 0,
                        agent: str = "ppo:{checkpoint}", env_options: dict | None = None
                        ) -> list[dict]:
    """Score of the checkpoint's agent (``agent`` with ``{checkpoint}`` filled in: the PPO
    policy's greedy moves by default, ``az:{checkpoint},sims=32`` for AlphaZero) against
    each opponent over ``games`` games (seats alternated), on the board ``env_options``
    name (a distribution gives each game its own board, drawn from its seed)."""
    rows = []
    ours = make_agent(agent.format(checkpoint=checkpoint), game, seed=seed)
    for opponent in opponents:
        points = 0.0
        for index in range(games):
            others = [make_agent(opponent, game, seed=seed + 1000 * k + index)
                      for k in range(1, players)]
            seat = index % players
            seats = others[:seat] + [ours] + others[seat:]
            record, _ = play_game(game, seats, seed=seed + index, **(env_options or {}))
            points += record.points(seat)
        low, high = wilson(points, games)
        rows.append({"opponent": opponent, "games": games, "score": points / games,
                     "wilson_low": low, "wilson_high": high})
    return rows


def append_eval_rows(path: Path, rows: Sequence[dict], fields: Sequence[str] = EVAL_FIELDS,
                     extras: str = "raise") -> None:
    """Rows appended to a CSV log (its header written first when the file is new);
    ``extras``: csv's ``extrasaction`` for keys outside ``fields``."""
    new = not path.exists() or path.stat().st_size == 0
    with path.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields, extrasaction=extras)
        if new:
            writer.writeheader()
        writer.writerows(rows)


def evaluate_run(checkpoint: Path, options, stamp: dict, opponents: Sequence[str],
                 log, agent: str = "ppo:{checkpoint}", step: int | None = None) -> list[dict]:
    """One periodic evaluation of a run: ``opponents`` played by the checkpoint's
    ``agent``, the rows (``stamp``: update, global_step, elapsed_s) appended to
    ``eval.csv`` and TensorBoard (at ``step``, default the global step), the learning
    curve redrawn, and one line said."""
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.boards import board_options

    env_options = board_options(spec(options.game), options.eval_board, "--eval-board")
    rows = []
    # a run at several seat counts is measured at each: the opponent in every other seat
    for players in trained_counts(options):
        rows += [{**row, "players": players} for row in evaluate_checkpoint(
            checkpoint, options.game, opponents, options.eval_games, players,
            seed=10_000 * int(stamp["update"]), agent=agent, env_options=env_options)]
    append_eval_rows(log.eval_path, [{**stamp, **row} for row in rows])
    several = len({row["players"] for row in rows}) > 1
    for row in rows:
        log.writer.add_scalar(f"eval/score_vs_{rung_label(row, several)}", row["score"],
                              stamp["global_step"] if step is None else step)
    scores = ", ".join(f"{rung_label(r, several)} {r['score']:.2f} [{r['wilson_low']:.2f}, "
                       f"{r['wilson_high']:.2f}]" for r in rows)
    log.say(f"eval at {stamp['elapsed_s'] / 60:.1f} min of training ({options.eval_games} "
            f"games each): {scores}")
    redraw_curve(log.eval_path.parent, log.say)
    return rows


def rung_label(row: dict, several_counts: bool) -> str:
    """An evaluation row's opponent, with its seat count where a run has several."""
    if not several_counts:
        return row["opponent"]
    return f"{row['opponent']}@{int(row.get('players', 2))}p"   # old rows: the 2 they were


def redraw_curve(run_folder: Path, say=print) -> Path | None:
    """``learning_curve.png`` from ``eval.csv`` (None and a line said without matplotlib)."""
    from meeplezoo.envs.core.extras import MissingExtra

    try:
        return plot_learning_curve(run_folder)
    except MissingExtra as err:
        say(f"(no learning_curve.png: {err})")
        return None


def announce_evaluations(log, options, schedule, unit: str = "updates") -> None:
    """One line at the start: what the run is measured against, how often, and where."""
    if not schedule.on:
        return
    from meeplezoo.training.run.schedule import is_search

    when = (f"every {options.eval_every} {unit}" if options.eval_every else
            f"{options.evaluations} times over the run")
    sparse = options.eval_search_every > 1 and any(map(is_search, options.eval_opponents))
    searches = f"; searches every {options.eval_search_every} evaluations" if sparse else ""
    log.say(f"evaluating against {', '.join(options.eval_opponents)} ({options.eval_games} "
            f"games each{searches}) {when}, into\n    {log.eval_path} and "
            f"learning_curve.png")


def evaluation_files(log) -> dict:
    """``eval_csv`` and ``learning_curve`` of a run's result, where it wrote them."""
    curve = log.eval_path.parent / "learning_curve.png"
    return {"eval_csv": str(log.eval_path) if log.eval_path.exists() else None,
            "learning_curve": str(curve) if curve.exists() else None}


def evaluation_summary(result: dict) -> str:
    """The closing line's pointer to the curve (nothing when the run did not evaluate)."""
    if not result.get("eval_csv"):
        return ""
    curve = result.get("learning_curve")
    return f"\nevaluations: {result['eval_csv']}" + (f"; learning curve: {curve}" if curve
                                                     else "")


def read_eval_rows(path: Path) -> list[dict]:
    with Path(path).open(newline="") as handle:
        # logs written before rows kept their seat count hold no ``players`` column
        return [{k: (v if k == "opponent" else float(v)) for k, v in row.items()
                 if v not in (None, "")} for row in csv.DictReader(handle)]


def curve_title(run_folder: Path) -> str:
    """The plot's title: the run's name and, where its checkpoint records an evaluation
    board other than the printed one (``--eval-board generated:test``), that board, so a
    held-out curve does not read as one on the printed board."""
    from meeplezoo.training.run.checkpoint import load_checkpoint

    title = f"learning curve: {run_folder.name}"
    try:
        options = load_checkpoint(run_folder / "checkpoint.pt").get("options") or {}
    except (FileNotFoundError, ValueError):          # no checkpoint (yet): the name alone
        return title
    board = options.get("eval_board") if isinstance(options, dict) else None
    return f"{title} (evaluated on {board})" if board else title


def plot_learning_curve(run_folder: str | Path, out: str | Path | None = None) -> Path:
    """Score against each anchor over training time and env steps, with Wilson bands."""
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "learning-curve plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run_folder = Path(run_folder)
    rows = read_eval_rows(run_folder / "eval.csv")
    if not rows:
        raise ValueError(f"{run_folder / 'eval.csv'} has no evaluations yet")
    figure, axes = plt.subplots(1, 2, figsize=(10, 3.6), sharey=True)
    several = len({r.get("players", 2.0) for r in rows}) > 1
    # the rungs' order; at several seat counts one line per rung and count, whose even
    # share is 1/count (dotted) beside two players' 0.5 (dashed)
    for rung in dict.fromkeys(rung_label(r, several) for r in rows):
        mine = [r for r in rows if rung_label(r, several) == rung]
        for axis, key, scale in ((axes[0], "elapsed_s", 60.0), (axes[1], "global_step", 1e6)):
            x = [r[key] / scale for r in mine]
            y = [r["score"] for r in mine]
            # error bars as well as the band: a band of one point is invisible
            below = [max(s - r["wilson_low"], 0.0) for s, r in zip(y, mine, strict=True)]
            above = [max(r["wilson_high"] - s, 0.0) for s, r in zip(y, mine, strict=True)]
            drawn = axis.errorbar(x, y, yerr=[below, above], marker="o", capsize=3,
                                  linewidth=1.5, elinewidth=0.8, label=f"vs {rung}")
            axis.fill_between(x, [r["wilson_low"] for r in mine],
                              [r["wilson_high"] for r in mine], alpha=0.12,
                              color=drawn.lines[0].get_color())
    axes[0].set_xlabel("training time (minutes)")
    axes[1].set_xlabel("env steps (millions)")
    axes[0].set_ylabel("score (win = 1), Wilson 95%")
    axes[0].set_xlim(left=0)
    axes[1].set_xlim(left=0)
    counts = sorted({int(r.get("players", 2)) for r in rows} - {2}) if several else []
    for axis in axes:
        axis.axhline(0.5, color="grey", linestyle="--", linewidth=1)
        for count in counts:                    # the even share at each larger table
            axis.axhline(1 / count, color="grey", linestyle=":", linewidth=1)
        axis.set_ylim(-0.02, 1.02)
        axis.grid(alpha=0.3)
    axes[1].legend(loc="best", fontsize="small")
    figure.suptitle(curve_title(run_folder))
    figure.tight_layout()
    out = Path(out) if out else run_folder / "learning_curve.png"
    figure.savefig(out, dpi=110)
    plt.close(figure)
    return out
