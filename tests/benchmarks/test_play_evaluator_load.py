"""The busy-machine timing of the play evaluator runs and reports both paths."""

import pytest

pytest.importorskip("torch")


def test_it_times_both_paths_and_stops_its_busy_child(capsys, monkeypatch):
    import subprocess

    from meeplezoo.benchmarks.speed import play_evaluator_load

    started = []
    real_popen = subprocess.Popen

    def popen(*args, **kwargs):
        started.append(real_popen(*args, **kwargs))
        return started[-1]

    monkeypatch.setattr(play_evaluator_load.subprocess, "Popen", popen)
    assert play_evaluator_load.main(["--game", "hansa_v0", "--calls", "3"]) == 0
    out = capsys.readouterr().out
    assert "with numpy @" in out and "compiled layers" in out and out.count(" ms") >= 2
    assert started and started[0].wait(timeout=10) is not None    # the busy child is gone
