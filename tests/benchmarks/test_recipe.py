"""The recipe comparison's command lines are ones the trainers accept, variant by variant,
and its table reads its rows."""

from __future__ import annotations

import pytest

from meeplezoo.benchmarks.studies import recipe
from meeplezoo.play import cli
from meeplezoo.training.az import loop as az
from meeplezoo.training.expert import loop as expert


class Started(BaseException):
    pass


def _start(*args, **kwargs):
    raise Started


@pytest.mark.parametrize("variant", recipe.VARIANTS)
def test_every_variants_commands_are_accepted(variant, tmp_path, monkeypatch):
    monkeypatch.setattr(az, "make_selfplay", _start)
    monkeypatch.setattr(expert, "generate", _start)
    commands = recipe.train_commands("saint_malo_v0", variant, 40, tmp_path, 3, 0.5)
    assert len(commands) == (2 if variant in ("expert", "all") else 1)
    for command in commands:
        if "--resume" in command:                 # needs the warm start's folder: not here
            continue
        with pytest.raises(Started):
            cli.main(["train", *command])
    flags = commands[-1]
    assert ("--lam-start" in flags) == (variant in ("knowledge", "explore", "all"))
    assert ("--explore-moves" in flags) == (variant in ("explore", "all"))
    assert flags[flags.index("--iterations") + 1] == "40"


def test_the_table_has_a_row_per_variant():
    row = {"value_middle": 0.31, "value_all": 0.4, "vs_mcts:1000": 0.25, "think_ratio": 0.08,
           "vs_greedy": 0.6}
    text = recipe.table({"baseline": row, "all": {**row, "vs_mcts:1000": 0.55}})
    assert text.splitlines()[1].split() == ["baseline", "0.31", "0.40", "0.250", "0.08x",
                                            "0.600"]
    assert "0.550" in text.splitlines()[2]
