"""The tutorial notebooks' cells, written out and executed by ``make_notebooks.py``.

Each notebook is a list of ``(kind, source)``: ``md`` (markdown), ``code``, or ``plot`` (a
code cell that must show a picture inline: ``tests/notebooks`` checks it has an image/png
output, stored and re-executed).  Cell outputs stay short: progress bars off, summaries
printed instead of logs.
"""

from __future__ import annotations

QUICKSTART = [
    ("md", "# MeepleZoo quick start\n\nMake a Saint Malo env, step it, look at it, save and "
           "load it, and run many games at once."),
    ("code", "import numpy as np\n"
             "from meeplezoo.envs import make\n\n"
             "env = make(\"saint_malo_v0\", num_players=3, render_mode=\"ansi\")\n"
             "env.reset(seed=42)\n"
             "print(env.agent_selection, env.phase)\n"
             "print(env.legal_move_names())"),
    ("md", "Play a few moves by notation, then random moves to the end."),
    ("code", "env.step(env.str_to_action(\"stop\"))\n"
             "print(env.phase, env.legal_move_names()[:8])\n"
             "rng = np.random.default_rng(0)\n"
             "for agent in env.agent_iter():\n"
             "    obs, reward, terminated, truncated, info = env.last()\n"
             "    if terminated or truncated:\n"
             "        env.step(None)\n"
             "        continue\n"
             "    env.step(int(rng.choice(np.flatnonzero(obs[\"action_mask\"]))))\n"
             "print(env.render())"),
    ("md", "Save a game in progress and load it into another env: it continues identically."),
    ("code", "env.reset(seed=7)\n"
             "for _ in range(40):\n"
             "    env.step(env.legal_actions()[0])\n"
             "saved = env.state_to_json()\n"
             "twin = make(\"saint_malo_v0\", num_players=3)\n"
             "twin.state_from_json(saved)\n"
             "assert (twin.state == env.state).all()\n"
             "print(len(saved), \"bytes of JSON\")"),
    ("md", "A picture of the cities (`rgb_array`; the plot needs matplotlib, in the `train` "
           "extra)."),
    ("plot", "import matplotlib.pyplot as plt\n\n"
             "picture = make(\"saint_malo_v0\", num_players=3, render_mode=\"rgb_array\")\n"
             "picture.state_from_json(saved)\n"
             "image = picture.render()\n"
             "print(image.shape, image.dtype)\n"
             "plt.figure(figsize=(image.shape[1] / 72, image.shape[0] / 72), dpi=72)  # 1:1\n"
             "plt.imshow(image)\n"
             "plt.axis(\"off\")\n"
             "plt.show()"),
    ("md", "Many games in one compiled call: the batched stepper."),
    ("code", "from meeplezoo.envs import spec\n"
             "from meeplezoo.envs.core.batch import BatchEnv\n\n"
             "batch = BatchEnv(spec(\"saint_malo_v0\"), batch_size=64, num_players=2, seed=0)\n"
             "obs, masks, to_move = batch.reset()\n"
             "finished = 0\n"
             "for _ in range(2000):\n"
             "    rewards, done = batch.step(batch.random_actions())\n"
             "    finished += int(done.sum())\n"
             "print(obs.shape, masks.shape, \"games finished:\", finished)"),
]

TRAIN = [
    ("md", "# Train a bot by self-play\n\n"
           "PPO self-play on 2-player Saint Malo for six minutes of CPU time: the same code as "
           "`meeplezoo train saint_malo --players 2 --minutes 6 --eval-every 3 --eval-games 20 "
           "--eval-opponents random greedy --torch-threads 1`."
           "\n\nWhat to expect: the untrained network loses to random (its greedy moves are "
           "a fixed, poor habit); within a minute it beats random in every game. Against "
           "the greedy heuristic it stays near 0 for about three minutes, then climbs (in "
           "the stored run to 0.2-0.45 over the last two minutes; 20 games a point, so read "
           "the bands). For a bot that beats greedy, raise `MINUTES` in the next cell to 10 "
           "or more (BENCHMARKS.md: 0.74 against greedy over 400 games after a 10-minute "
           "run)."),
    ("code", "# Training budget in minutes: MINUTES. The stored outputs come from a 6-minute run;\n"
             "# the tests re-execute this notebook with MEEPLEZOO_NOTEBOOK_MINUTES=0.3 (a quick\n"
             "# run: smaller updates, each evaluated, few games). Raise it for a stronger bot.\n"
             "import os\n"
             "import shutil\n"
             "from pathlib import Path\n\n"
             "MINUTES = float(os.environ.get(\"MEEPLEZOO_NOTEBOOK_MINUTES\", \"6\"))\n"
             "QUICK = MINUTES < 1\n"
             "NUM_ENVS, EVAL_EVERY, EVAL_GAMES = (64, 1, 4) if QUICK else (256, 3, 20)\n"
             "run = Path(\"runs/notebook\")\n"
             "shutil.rmtree(run, ignore_errors=True)  # a re-run starts afresh\n"
             "print(f\"{MINUTES} minutes, {NUM_ENVS} games per batch; evaluation every \"\n"
             "      f\"{EVAL_EVERY} updates, {EVAL_GAMES} games per anchor\")"),
    ("md", "The options spelled out (the CLI's flags have the same names). Every "
           "`eval_every` updates the policy's greedy moves play `eval_games` games against "
           "each anchor, seats alternated; those rows go to `runs/notebook/eval.csv` and "
           "their time is not charged to the training budget."),
    ("code", "from meeplezoo.training.ppo.loop import Options, train\n\n"
             "options = Options(game=\"saint_malo_v0\", players=2, minutes=MINUTES, seed=1,\n"
             "                  num_envs=NUM_ENVS, num_steps=64, hidden=(256, 256),\n"
             "                  learning_rate=2.5e-4, reward_scheme=\"win_loss\",\n"
             "                  eval_every=EVAL_EVERY, eval_games=EVAL_GAMES,\n"
             "                  eval_opponents=(\"random\", \"greedy\"),\n"
             "                  run_dir=str(run.parent), run_name=run.name, progress=False,\n"
             "                  torch_threads=1)  # a second thread spins on a busy 2-core box\n"
             "result = train(options)\n"
             "print(f\"{result['update']} updates, {result['global_step']:,} decisions in \"\n"
             "      f\"{result['elapsed_s']:.0f} s of training\")"),
    ("md", "The learning curve: score against each anchor (win 1, shared win 1/2) with "
           "Wilson 95% bands, over training minutes (left) and env steps (right)."),
    ("plot", "from IPython.display import Image, display\n"
             "from meeplezoo.training.run.evaluate import plot_learning_curve, read_eval_rows\n\n"
             "rows = read_eval_rows(run / \"eval.csv\")\n"
             "for opponent in options.eval_opponents:  # the scores in order, one line each\n"
             "    print(f\"vs {opponent:6}\", \" \".join(f\"{r['score']:.2f}\" for r in rows\n"
             "                                   if r[\"opponent\"] == opponent))\n"
             "display(Image(filename=plot_learning_curve(run)))"),
    ("md", "The checkpoint is an agent like any other: `ppo:<checkpoint>` in the arena and "
           "the terminal player, or `PPOAgent` in code. A short arena against the anchors "
           "(each pair plays the same deals with seats swapped; a real measurement uses "
           "`games=200`, 400 games per pair):"),
    ("plot", "from meeplezoo.benchmarks.arena.arena import run_arena\n"
             "from meeplezoo.benchmarks.arena.plot import format_table, plot_ratings\n"
             "from meeplezoo.benchmarks.rating import ratings\n\n"
             "agents = [f\"ppo:{result['checkpoint']}\", \"random\", \"greedy\"]\n"
             "_, records = run_arena(\"saint_malo_v0\", agents, num_players=2, games=EVAL_GAMES,\n"
             "                       out=run / \"arena\", seed=5000, workers=1, progress=False)\n"
             "summary = ratings.summarize(records, agents, \"random\", 100, 0)\n"
             "print(format_table(summary))\n"
             "display(Image(filename=plot_ratings(summary, run / \"arena\" / \"ratings.png\")))"),
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
    ("plot", "from IPython.display import Image, display\n\n"
             "display(Image(filename=plot_ratings(summary, \"arena/ratings.png\")))"),
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
    ("code", "import warnings\n"
             "from pettingzoo.test import api_test\n"
             "from meeplezoo.envs import make\n\n"
             "# The checkers warn about what every action-masked env has (a dict observation,\n"
             "# an unbounded Box): expected, so not shown.\n"
             "warnings.filterwarnings(\"ignore\", category=UserWarning,\n"
             "                        module=r\"pettingzoo\\.test|gymnasium\\.utils\")\n"
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

NOTEBOOKS = {"quickstart": QUICKSTART, "train_a_bot": TRAIN, "arena": ARENA,
             "other_libraries": INTEROP}
