"""Checks of a training run's options, before anything is built or written.

Shared by the trainers: each option dataclass is checked by the fields it has, so a bad
flag is one clear ``ValueError`` (the CLI prints one line and exits 2), never a crash in
the first update.
"""

from __future__ import annotations

from meeplezoo.envs.core.rewards import scheme_code
from meeplezoo.training.run import flags

# Every numeric option of the trainers and its range: an integer (low, high) or a float
# (low, high, whether low itself is refused).  The ceilings are far above any run this
# project makes (a 2-core machine plays a few thousand games an hour) and catch typos
# that would allocate or run for ever (``--num-envs 10**30``, ``--minutes 1e30``).
INT_RANGES = {
    "total_steps": (1, 10**12), "iterations": (1, 10**9), "num_envs": (1, 65_536),
    "num_steps": (1, 100_000), "update_epochs": (1, 1_000), "num_minibatches": (1, 1_000_000),
    "checkpoint_every": (1, 10**9), "max_updates": (1, 10**9), "eval_every": (0, 10**9),
    "evaluations": (0, 1_000), "eval_search_every": (1, 1_000),
    "eval_games": (1, 100_000), "pool_every": (1, 10**9), "pool_size": (1, 10_000),
    "num_games": (1, 65_536), "simulations": (1, 100_000), "fast_simulations": (1, 100_000),
    "considered": (1, 10_000), "leaf_batch": (1, 1_024), "moves_per_iteration": (1, 100_000),
    "channels": (1, 1_024), "blocks": (1, 64), "batch_size": (1, 65_536),
    "updates_per_iteration": (1, 100_000), "buffer_size": (1, 10_000_000),
    "min_buffer": (0, 10_000_000), "eval_simulations": (0, 100_000), "actors": (1, 1_024),
    "max_actor_restarts": (0, 100_000), "torch_threads": (0, 1_024),
    "lam_iterations": (0, 10**9), "heuristic_rollouts": (1, 64), "explore_moves": (0, 10**6),
    "warm_epochs": (1, 10_000),
}
FLOAT_RANGES = {
    "minutes": (0.0, 1e6, False), "learning_rate": (0.0, 1.0, True),
    "gamma": (0.0, 1.0, True), "gae_lambda": (0.0, 1.0, True), "clip_coef": (0.0, 10.0, True),
    "ent_coef": (0.0, 100.0, False), "vf_coef": (0.0, 100.0, False),
    "max_grad_norm": (0.0, 1e6, True), "target_kl": (0.0, 100.0, True),
    "opponent_fraction": (0.0, 1.0, False), "pool_recency": (0.0, 1.0, True),
    "full_fraction": (0.0, 1.0, False), "value_mix": (0.0, 1.0, False),
    "weight_decay": (0.0, 10.0, False), "margin_scale": (0.0, 1e6, True),
    "margin_coef": (0.0, 100.0, False), "lam_start": (0.0, 1.0, False),
    "lam_end": (0.0, 1.0, False), "prior_mix": (0.0, 1.0, False),
    "late_gumbel": (0.0, 10.0, False), "q_scale": (0.0, 10.0, True),
    "opponent_share": (0.0, 1.0, False), "warm_value_mix": (0.0, 1.0, False),
    "warm_policy_temperature": (0.0, 100.0, True),
}
MAX_BUFFER_BYTES = 16 * 2**30        # the replay buffer's arrays, float32


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def check_options(options, game_spec) -> None:
    """Refuse, with one clear ``ValueError`` naming the flag, a budget, a size or a name
    that cannot train (``--hidden 0``, ``--num-envs 0``, a NaN learning rate, an unknown
    device or opponent...), before anything is built or written."""
    if not game_spec.min_players <= options.players <= game_spec.max_players:
        raise ValueError(f"--players {options.players}: {options.game} is for "
                         f"{game_spec.min_players}-{game_spec.max_players} players")
    counts = getattr(options, "seat_counts", ())
    if any(not game_spec.min_players <= n <= game_spec.max_players for n in counts) or \
            len(set(counts)) != len(counts):
        raise ValueError(f"--seat-counts {' '.join(map(str, counts))}: {options.game} is for "
                         f"{game_spec.min_players}-{game_spec.max_players} players, each "
                         f"count once")
    if counts and getattr(options, "num_games", len(counts)) < len(counts):
        raise ValueError(f"--num-games {options.num_games} cannot seat a game at each of "
                         f"--seat-counts {' '.join(map(str, counts))}")
    if not options.hidden or len(options.hidden) > 16 or \
            any(not 1 <= size <= 65_536 for size in options.hidden):
        raise ValueError(f"--hidden needs 1..16 layer sizes in 1..65,536, got {options.hidden}")
    flags.check_seed("--seed", options.seed)
    for name, (low, high) in INT_RANGES.items():
        if getattr(options, name, None) is not None:
            flags.check_count(_flag(name), getattr(options, name), low, high)
    for name, (low, high, low_open) in FLOAT_RANGES.items():
        if getattr(options, name, None) is not None:
            flags.check_number(_flag(name), getattr(options, name), low, high, low_open)
    if hasattr(options, "num_minibatches") and \
            (options.num_envs * options.num_steps) % options.num_minibatches:
        raise ValueError("--num-minibatches must divide num_envs * num_steps")
    if hasattr(options, "buffer_size"):
        row = 4 * (game_spec.obs_size + game_spec.num_actions + 2 * game_spec.max_players)
        if options.buffer_size * row > MAX_BUFFER_BYTES:
            raise ValueError(f"--buffer-size {options.buffer_size:,} would take "
                             f"{options.buffer_size * row / 2**30:.0f} GiB for "
                             f"{options.game} (at most {MAX_BUFFER_BYTES // 2**30} GiB)")
        if options.min_buffer > options.buffer_size:
            raise ValueError("--min-buffer cannot exceed --buffer-size")
    if hasattr(options, "reward_scheme"):
        scheme_code(options.reward_scheme)
    if hasattr(options, "architecture"):
        check_architecture(options, game_spec)
    check_device(options.device)
    flags.check_output_folder("--run-dir", options.run_dir)
    if getattr(options, "ray", None) is not None:
        from meeplezoo.training.run.ray_cluster import check_address

        check_address(options.ray)
    from meeplezoo.envs.core.boards import first_config

    first_config(game_spec, rule_options(options))    # a game without the option refuses
    check_boards(options)
    check_agents("--eval-opponents", options.eval_opponents, options.game)
    if hasattr(options, "opponent_share"):
        check_agents("--opponents", [o for o in options.opponents if o != "past"],
                     options.game)
        if "past" in options.opponents and getattr(options, "ray", None) is not None:
            raise ValueError("--opponents past plays the learner's earlier networks in this "
                             "process; it does not run with --ray")
        if options.opponent_share > 0 and not options.opponents:
            raise ValueError("--opponent-share needs --opponents (e.g. greedy mcts:64)")
    if hasattr(options, "value_set"):
        from meeplezoo.training.run.value_log import check_value_set

        check_value_set(options.value_set, options.game, options.players)


def check_device(device: str) -> None:
    """A torch device name (``cpu``, ``cuda``, ``cuda:1``, ``mps``)."""
    import torch

    try:
        torch.device(device)
    except (RuntimeError, ValueError, TypeError):
        raise ValueError(f"--device {device!r} is not a torch device: cpu, cuda, cuda:N, "
                         f"mps") from None


def check_agents(flag: str, specs, game: str) -> None:
    """Agent specs an evaluation will play, built once now so a typo fails at the start
    rather than at the first evaluation, an hour in."""
    from meeplezoo.agents.registry import make_agent

    for spec in specs:
        try:
            make_agent(spec, game, seed=0)
        except (ValueError, FileNotFoundError, ImportError) as err:
            raise ValueError(f"{flag} {spec!r}: {err}") from None


def rule_options(options) -> dict:
    """The game rule options a trainer's flags set (``--max-decisions``, ``--board``),
    refused with one clear error by a game that has no such option."""
    cut = flags.check_count("--max-decisions", getattr(options, "max_decisions", 0), 0,
                            1_000_000)
    chosen = {"max_decisions": cut} if cut else {}
    board = getattr(options, "board", None)
    if board is None:
        return chosen
    from meeplezoo.envs import spec
    from meeplezoo.envs.core.boards import board_options

    return {**chosen, **board_options(spec(options.game), board)}


def check_boards(options) -> None:
    """A training distribution that reaches into the held-out test split is allowed (a
    study may want it) but never silent; an evaluation board is checked like a rule."""
    import warnings

    from meeplezoo.envs.core.boards import parse_range, split

    board = getattr(options, "board", None)
    seeds = parse_range(board)
    test = split("test")
    if seeds is not None and seeds.name != "test" and seeds.overlaps(test):
        warnings.warn(f"--board {board} overlaps the held-out {test}: scores on that split "
                      f"no longer measure generalisation", stacklevel=2)
    eval_board = getattr(options, "eval_board", None)
    if eval_board is not None:
        from meeplezoo.envs import spec
        from meeplezoo.envs.core.boards import board_options, first_config

        game_spec = spec(options.game)
        first_config(game_spec, board_options(game_spec, eval_board, "--eval-board"))


def check_architecture(options, game_spec) -> None:
    """``--architecture``: a name the trainer knows, and Carcassonne's convolutions only
    on Carcassonne's frontier layout; one clear error either way."""
    if hasattr(options, "clip_coef"):                       # PPO's options
        from meeplezoo.agents.ppo.network import network_meta

        try:
            network_meta(options.game, game_spec.obs_size, game_spec.num_actions,
                         options.hidden, options.architecture)
        except ValueError as error:
            raise ValueError(f"--architecture {options.architecture!r}: {error}") from None
        return
    from meeplezoo.agents.az.network import ARCHITECTURES

    if options.architecture not in ("auto", *ARCHITECTURES):
        raise ValueError(f"--architecture {options.architecture!r}: choose auto or one "
                         f"of {', '.join(ARCHITECTURES)}")
