"""A game's points per seat, as the evaluations, the demo and the results table count them."""

from meeplezoo.play.table import GameRecord, results_table


def record(rewards):
    return GameRecord(seats=["a", "b", "c"][:len(rewards)], scores=[0] * len(rewards),
                      rewards=rewards, decisions=1)


def test_a_win_is_one_a_shared_win_a_fraction_a_loss_nothing():
    assert [record([1.0, -1.0]).points(s) for s in (0, 1)] == [1.0, 0.0]
    assert [record([1.0, 1.0, -1.0]).points(s) for s in (0, 1, 2)] == [0.5, 0.5, 0.0]
    assert [record([0.0, 0.0]).points(s) for s in (0, 1)] == [0.5, 0.5]


def test_the_table_counts_shared_wins_as_fractions():
    table = results_table([record([1.0, 1.0, -1.0]), record([-1.0, 1.0, -1.0])])
    rows = {line.split()[0]: line.split() for line in table.splitlines()[1:]}
    assert rows["a"][2] == "0.5" and rows["b"][2] == "1.5" and rows["c"][2] == "0.0"
