"""Arena results for people: a terminal table and a ratings plot (PNG, matplotlib Agg)."""

from __future__ import annotations

from pathlib import Path

from meeplezoo.benchmarks.arena.labels import WIDTH, legend, short_labels, wrap


def _scale_name(summary: dict) -> str:
    return "Elo" if summary["method"] == "bradley_terry" else "PL mu"


def format_table(summary: dict) -> str:
    """Ratings (sorted) with intervals, then each agent's head-to-head scores.

    In the head-to-head grid ``*`` marks a score whose Wilson 95% interval excludes 1/2.
    """
    scale = _scale_name(summary)
    h2h = {(r["agent"], r["opponent"]): r for r in summary["head_to_head"]}
    names = [row["agent"] for row in summary["ratings"]]
    for longest in (18, 14, 10, 0):      # the longest names kept that let the grid fit
        label = short_labels(names, longest)          # longer specs print as A, B, ...
        width = max(12, *(len(label[n]) + 2 for n in names))
        if width + len(names) * max(9, *(len(label[n]) + 1 for n in names)) <= WIDTH:
            break
    anchor = label.get(summary["anchor"], summary["anchor"])
    title = (f"{summary.get('game', '')} {summary['num_players']} players: "
             f"{summary['games']} games, {scale} ({anchor} = 0), "
             f"95% bootstrap intervals ({summary['resamples']} resamples)")
    lines = [title.strip(), ""]
    header = f"{'#':>2}  {'agent':<{width}}{scale:>8}  {'95% interval':>17}{'games':>8}"
    if summary["method"] == "plackett_luce":
        header += f"{'sigma':>8}{'ordinal':>9}"
    header += f"  vs {anchor} (Wilson 95%)"
    lines.append(header)
    for k, row in enumerate(summary["ratings"], 1):
        line = (f"{k:>2}  {label[row['agent']]:<{width}}{row['rating']:>8.1f}  "
                f"[{row['low']:>7.1f}, {row['high']:>7.1f}]{row['games']:>8}")
        if summary["method"] == "plackett_luce":
            line += f"{row['sigma']:>8.2f}{row['ordinal']:>9.2f}"
        vs = h2h.get((row["agent"], summary["anchor"]))
        if vs:
            line += f"  {vs['score']:.3f} [{vs['low']:.3f}, {vs['high']:.3f}]"
        lines.append(line)
    lines += ["", "head-to-head score of the row agent against the column agent "
              "(* = Wilson 95% interval excludes 0.5)"]
    cell = max(9, *(len(label[n]) + 1 for n in names))
    lines.append(" " * width + "".join(f"{label[n]:>{cell}}" for n in names))
    for a in names:
        cells = []
        for b in names:
            r = h2h.get((a, b))
            text = "-" if r is None else f"{r['score']:.2f}{'*' if r['better'] else ' '}"
            cells.append(f"{text:>{cell}}")
        lines.append(f"{label[a]:<{width}}" + "".join(cells))
    perfect = [f"{label.get(a, a)} over {label.get(b, b)}"
               for a, b in summary.get("perfect_records", [])]
    if perfect:
        cause = (f"the prior ({summary['prior_draws_per_pair']:g} virtual draw per pair)"
                 if summary["method"] == "bradley_terry" else "the number of games")
        lines += wrap(f"note: never finished behind ({', '.join(perfect)}): each such gap "
                      f"rests on {cause}, and resampling cannot show its uncertainty; read "
                      f"the Wilson interval")
    timing = summary.get("timing")
    if timing:
        per = ", ".join(f"{label.get(s, s)} {1e3 * t:.2f} ms" for s, t in
                        timing["seconds_per_decision"].items())
        lines += ["", *wrap(f"{timing['seconds_per_game']:.3f} s per game, "
                            f"{timing['decisions_per_game']:.0f} decisions per game; "
                            f"per decision: {per} (medians)")]
    return "\n".join([*lines, *(["", *legend(label)] if legend(label) else [])])


def plot_ratings(summary: dict, path: str | Path) -> Path:
    """Ratings as points with 95% interval bars, strongest at the top; saved as a PNG."""
    from meeplezoo.envs.core.extras import require

    matplotlib = require("matplotlib", "train", "arena plots")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = summary["ratings"][::-1]                      # barh draws bottom-up
    # A checkpoint path as a tick label squeezed the axes and pushed the title off the
    # canvas: long names print as letters, spelled out under the plot.
    label = short_labels([r["agent"] for r in rows])
    spelled = legend(label)[1:]
    values = [r["rating"] for r in rows]
    below = [max(0.0, r["rating"] - r["low"]) for r in rows]
    above = [max(0.0, r["high"] - r["rating"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.5 * len(rows) + 0.2 * len(spelled)), dpi=120)
    ax.errorbar(values, range(len(rows)), xerr=[below, above], fmt="o", color="tab:blue",
                ecolor="tab:gray", elinewidth=2, capsize=5, markersize=7)
    for y, v in enumerate(values):
        ax.annotate(f"{v:.0f}" if summary["method"] == "bradley_terry" else f"{v:.1f}", (v, y),
                    textcoords="offset points", xytext=(0, 8), ha="center", fontsize=9)
    anchor = label.get(summary["anchor"], summary["anchor"])
    ax.axvline(0.0, color="tab:red", linewidth=1, linestyle="--", label=f"anchor: {anchor}")
    ax.set_yticks(range(len(rows)), [label[r["agent"]] for r in rows])
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(f"{_scale_name(summary)} (95% bootstrap interval)")
    title = (f"{summary.get('game', '')} · {summary['num_players']} players · "
             f"{summary['games']} games")
    ax.set_title(title.strip(" ·"))
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    if spelled:
        fig.text(0.01, 0.0, "\n".join(line.strip() for line in spelled), fontsize=8,
                 va="top", ha="left", family="monospace")
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, bbox_inches="tight")              # the title and the names kept whole
    plt.close(fig)
    return path
