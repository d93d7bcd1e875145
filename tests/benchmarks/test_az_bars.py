"""An arena summary read against the strength target: the bot against ``mcts:1000``."""

from meeplezoo.benchmarks.studies.bot_bars import bar_row


def _summary(score: float, low: float, think_az: float) -> dict:
    return {"head_to_head": [{"agent": "az:default,sims=64", "opponent": "mcts:1000",
                              "games": 400, "score": score, "low": low, "high": 0.7}],
            "timing": {"seconds_per_decision": {"az:default,sims=64": think_az,
                                                "mcts:1000": 0.03}}}


def test_the_bar_needs_the_score_its_lower_bound_and_a_tenth_of_the_time():
    assert bar_row(_summary(0.58, 0.53, 0.002), "az:default,sims=64")["met"]
    assert not bar_row(_summary(0.54, 0.51, 0.002), "az:default,sims=64")["met"]   # score
    assert not bar_row(_summary(0.56, 0.49, 0.002), "az:default,sims=64")["met"]   # bound
    slow = bar_row(_summary(0.60, 0.55, 0.004), "az:default,sims=64")
    assert not slow["met"] and abs(slow["think_ratio"] - 0.004 / 0.03) < 1e-12
    assert bar_row(_summary(0.6, 0.55, 0.002), "az:other") is None
    assert not bar_row(_summary(0.58, 0.53, 0.002), "az:default,sims=64", cut=1)["met"]


def test_games_cut_at_the_cap_are_counted_from_the_records(tmp_path):
    import json

    from meeplezoo.benchmarks.studies.bot_bars import cut_games

    rows = [{"seats": ["az:default", "mcts:1000"], "truncated": True},
            {"seats": ["mcts:1000", "az:default"]},
            {"seats": ["mcts:1000", "greedy"], "truncated": True}]
    path = tmp_path / "g_2p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert cut_games(path, "az:default", "mcts:1000") == 1
    assert cut_games(tmp_path / "missing.jsonl", "az:default", "mcts:1000") == 0


def test_the_methods_table_reads_elo_and_each_pairs_score_off_one_summary():
    from meeplezoo.benchmarks.studies.bot_bars import METHODS, methods_table

    ratings = [{"agent": m, "rating": 100.0 * i, "low": 100.0 * i - 30,
                "high": 100.0 * i + 30} for i, m in enumerate(METHODS)]
    heads = [{"agent": a, "opponent": b, "games": 40 if "az" not in a + b else 400,
              "score": 0.25 + 0.25 * (METHODS.index(a) > METHODS.index(b)),
              "low": 0.1, "high": 0.9} for a in METHODS for b in METHODS if a != b]
    heads = [h for h in heads if {h["agent"], h["opponent"]} != {"greedy", "ppo:default"}]
    lines = methods_table({"hansa_v0": {"ratings": ratings, "head_to_head": heads}})
    assert lines[0] == "| game | greedy Elo | mcts:1000 Elo | PPO Elo | AZ Elo |"
    assert lines[2] == ("| hansa_v0 | 0 [-30, 30] | 100 [70, 130] | 200 [170, 230] | "
                        "300 [270, 330] |")
    header, row = lines[4], lines[6]
    assert header.split(" | ")[1:3] == ["AZ vs PPO", "AZ vs mcts:1000"]
    cells = row.strip("| ").split(" | ")
    assert cells[1] == "0.50 [0.10, 0.90] (400)"          # the later method scores 0.5
    assert cells[-1] == "0.50 [0.10, 0.90] (40)"          # mcts:1000 vs greedy
    assert cells[-2] == "not played"                      # PPO vs greedy missing


def test_learning_curves_keep_only_the_greedy_rows_and_plot_every_game(tmp_path,
                                                                       monkeypatch):
    import meeplezoo.benchmarks.studies.bot_bars as bars

    (tmp_path / "az").mkdir()
    (tmp_path / "az" / "hansa_v0_eval.csv").write_text(
        "update,global_step,elapsed_s,opponent,games,score,wilson_low,wilson_high\n"
        "10,100,60,random,20,1.0,0.8,1.0\n10,100,60,greedy,20,0.25,0.1,0.5\n"
        "20,200,150,greedy,20,0.75,0.5,0.9\n")
    assert bars.greedy_curve(tmp_path / "az" / "hansa_v0_eval.csv") == [
        (1.0, 0.25, 0.1, 0.5), (2.5, 0.75, 0.5, 0.9)]
    assert bars.greedy_curve(tmp_path / "missing.csv") == []
    monkeypatch.setattr(bars, "CURVES", {"AZ": tmp_path / "az", "PPO": tmp_path / "none"})
    out = bars.plot_curves(tmp_path / "curves.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_pretraining_curves_are_drawn_per_bot(tmp_path):
    from meeplezoo.benchmarks.studies.bot_bars import plot_pretraining

    assert plot_pretraining(tmp_path, tmp_path / "p.png") is None      # nothing to draw
    header = "epoch,held-out_policy_loss,held-out_value_loss,held-out_margin_loss," \
             "held-out_value_correlation\n"
    (tmp_path / "g_v0_pretrain.csv").write_text(header + "0,2.5,1,0.1,0.0\n1,1.5,0.9,0.1,0.3\n")
    out = plot_pretraining(tmp_path, tmp_path / "p.png")
    assert out.stat().st_size > 1000 and out.read_bytes()[:4] == b"\x89PNG"
