"""Writes the tutorial notebooks from the cells below (``python notebooks/make_notebooks.py``).

The notebooks are executed by ``tests/notebooks``, so each keeps a small budget; the
markdown says which number to raise for a real run.  Outputs are not stored.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

TRAIN = [
    ("md", "# Train a bot by self-play\n\nPPO self-play on 2-player Saint Malo, the same code "
           "as `meeplezoo train saint_malo --players 2 --minutes 10`. The budget here is two "
           "updates so the notebook runs in seconds; set `minutes=10` (and drop "
           "`max_updates`) for a bot that beats the greedy heuristic."),
    ("code", "from meeplezoo.training.ppo.loop import Options, train\n\n"
             "options = Options(game=\"saint_malo_v0\", players=2, num_envs=64, num_steps=16,\n"
             "                  hidden=(64, 64), max_updates=2, eval_every=2, eval_games=4,\n"
             "                  run_dir=\"runs\", run_name=\"notebook\", progress=False,\n"
             "                  torch_threads=1, seed=1)\n"
             "result = train(options)\n"
             "print(result[\"update\"], \"updates,\", result[\"global_step\"], \"decisions\")\n"
             "print(\"checkpoint:\", result[\"checkpoint\"])"),
    ("md", "The checkpoint is an agent like any other: `ppo:<checkpoint>` in the arena and the "
           "terminal player, or `PPOAgent` in code."),
    ("code", "from meeplezoo.agents.ppo import PPOAgent\n"
             "from meeplezoo.agents.registry import make_agent\n"
             "from meeplezoo.play.table import play_game\n\n"
             "bot = PPOAgent(str(result[\"checkpoint\"]), greedy=True, seed=0)\n"
             "record, env = play_game(\"saint_malo_v0\", [bot, make_agent(\"random\", "
             "\"saint_malo_v0\", seed=1)], seed=3)\n"
             "print(record)"),
    ("md", "The run folder holds `progress.csv` (one row per update), TensorBoard events, and "
           "`eval.csv` (score against random and greedy at each evaluation). The learning "
           "curve plot:"),
    ("code", "import csv\n"
             "from meeplezoo.training.run.evaluate import plot_learning_curve\n\n"
             "rows = list(csv.DictReader(open(\"runs/notebook/progress.csv\")))\n"
             "print(rows[-1][\"global_step\"], rows[-1][\"steps_per_s\"], \"steps/s\")\n"
             "print(\"plot:\", plot_learning_curve(\"runs/notebook\"))"),
]

ARENA = [
    ("md", "# Measure strength in the arena\n\nRound-robin matches with seats rotated and "
           "the same dice for every seat order; Elo fitted by maximum likelihood (random "
           "pinned at 0) with bootstrap intervals, and Wilson intervals against the anchor. "
           "A real measurement uses `games=200` (400 games per pair); here 2 deals per pair."),
    ("code", "from meeplezoo.benchmarks.rating import ratings\n"
             "from meeplezoo.benchmarks.arena.arena import run_arena\n"
             "from meeplezoo.benchmarks.arena.plot import format_table, plot_ratings\n\n"
             "agents = [\"random\", \"greedy\", \"expert\"]  # add \"mcts:200\" for the search\n"
             "path, records = run_arena(\"saint_malo_v0\", agents, num_players=2, games=2,\n"
             "                          out=\"arena\", workers=1, progress=False)\n"
             "summary = ratings.summarize(records, agents, \"random\", 100, 0)\n"
             "print(format_table(summary))"),
    ("md", "Ratings with their intervals as a picture (saved beside the records):"),
    ("code", "png = plot_ratings(summary, \"arena/ratings.png\")\nprint(png)"),
    ("md", "Three or more players: OpenSkill (Plackett-Luce) on finishing ranks."),
    ("code", "path3, records3 = run_arena(\"saint_malo_v0\", [\"random\", \"greedy\"], "
             "num_players=3,\n"
             "                            games=1, out=\"arena\", workers=1, progress=False)\n"
             "print(format_table(ratings.summarize(records3, [\"random\", \"greedy\"], "
             "\"random\", 50, 0)))"),
]

INTEROP = [
    ("md", "# Plug a game into other RL code\n\n* PettingZoo AEC: every env *is* one "
           "(`api_test` passes).\n* Gymnasium single-agent view: the learner holds one seat, "
           "agents play the others; `action_masks()` for masked algorithms.\n* OpenSpiel: "
           "every game is a pyspiel game, so OpenSpiel's algorithms run on it."),
    ("code", "from pettingzoo.test import api_test\n"
             "from meeplezoo.envs import make\n\n"
             "api_test(make(\"saint_malo_v0\", num_players=3), num_cycles=20)"),
    ("code", "from gymnasium.utils.env_checker import check_env\n"
             "from meeplezoo.envs.interop.gymnasium_view import SingleAgentEnv\n\n"
             "gym_env = SingleAgentEnv(\"saint_malo_v0\", opponents=[\"greedy\"], "
             "seat=\"random\")\n"
             "check_env(gym_env, skip_render_check=True)\n"
             "obs, info = gym_env.reset(seed=0)\n"
             "print(obs.shape, gym_env.action_masks().sum(), \"legal actions\")"),
    ("md", "`sb3_contrib.MaskablePPO` on the view (a few hundred steps here; "
           "`python -m meeplezoo.training.libraries.sb3_example --steps 200000` for a real run):"),
    ("code", "from meeplezoo.training.libraries.sb3_example import train as sb3_train, win_rate\n\n"
             "model, sb3_env = sb3_train(\"saint_malo_v0\", \"random\", steps=128, n_steps=64,"
             " n_epochs=1)\n"
             "print(\"win rate\", win_rate(model, sb3_env, games=2))"),
    ("md", "OpenSpiel: load the game, play with OpenSpiel's MCTS bot."),
    ("code", "import numpy as np\n"
             "from open_spiel.python.algorithms import mcts\n"
             "from meeplezoo.envs.interop.openspiel_game import load_game\n\n"
             "game = load_game(\"saint_malo_v0\", players=2)\n"
             "state = game.new_initial_state()\n"
             "while state.is_chance_node():\n"
             "    outcomes = state.chance_outcomes()\n"
             "    state.apply_action(outcomes[np.random.default_rng(0).integers("
             "len(outcomes))][0])\n"
             "bot = mcts.MCTSBot(game, 2.0, 8, mcts.RandomRolloutEvaluator(1, "
             "np.random.RandomState(0)))\n"
             "action = bot.step(state)\n"
             "print(state.action_to_string(state.current_player(), action))"),
]


def notebook(cells: list[tuple[str, str]]) -> dict:
    def cell(kind: str, text: str) -> dict:
        lines = text.splitlines(keepends=True)
        if kind == "md":
            return {"cell_type": "markdown", "metadata": {}, "source": lines}
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                "source": lines}

    return {"cells": [cell(kind, text) for kind, text in cells],
            "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                        "name": "python3"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


def main() -> None:
    for name, cells in (("train_a_bot", TRAIN), ("arena", ARENA), ("other_libraries", INTEROP)):
        path = HERE / f"{name}.ipynb"
        path.write_text(json.dumps(notebook(cells), indent=1) + "\n")
        print(path)


if __name__ == "__main__":
    main()
