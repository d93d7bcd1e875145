"""The arena's ratings plot keeps its title and names whole, however long the names."""

import pytest

matplotlib = pytest.importorskip("matplotlib")

from meeplezoo.benchmarks.arena import plot  # noqa: E402

LONG = "az:demo_runs/demo/checkpoint.pt,sims=64"


def summary() -> dict:
    rows = [{"agent": LONG, "rating": 138.0, "low": 85.0, "high": 194.0},
            {"agent": "greedy", "rating": 0.0, "low": 0.0, "high": 0.0}]
    return {"game": "serenissima_v0", "num_players": 2, "games": 200,
            "method": "bradley_terry", "anchor": "greedy", "ratings": rows}


def test_long_names_print_as_letters_and_the_title_fits(tmp_path, monkeypatch):
    import matplotlib.pyplot as plt

    kept = []
    monkeypatch.setattr(plt, "close", kept.append)        # keep the figure to inspect it
    path = plot.plot_ratings(summary(), tmp_path / "ratings.png")
    assert path.stat().st_size > 0
    figure = kept[0]
    axes = figure.axes[0]
    ticks = [t.get_text() for t in axes.get_yticklabels()]
    assert ticks == ["greedy", "A"]                          # bottom-up, the path as a letter
    spelled = [t.get_text() for t in figure.texts]
    assert spelled == [f"A = {LONG}"]
    renderer = figure.canvas.get_renderer()
    title = axes.title.get_window_extent(renderer)
    canvas = figure.bbox
    assert canvas.x0 <= title.x0 and title.x1 <= canvas.x1, (title, canvas)
    plt.close(figure)
