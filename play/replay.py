"""Replay files: a whole game as its seed and moves, and ``meeplezoo replay`` to watch one.

A replay is a JSON object, written by ``meeplezoo play --save-to`` and by
:func:`record_game` for bot games:

| key          | meaning                                                              |
|--------------|----------------------------------------------------------------------|
| format       | ``"meeplezoo-replay"``                                                |
| version      | :data:`VERSION` (bumped when the layout changes)                      |
| game         | registered env name, e.g. ``saint_malo_v0``                           |
| num_players  | seats at the table                                                   |
| options      | the env's rule options (``make(game, **options)``)                    |
| seats        | who played each seat: an agent spec (``mcts:200``) or ``human``       |
| seed         | the env's ``reset(seed=...)``: every die and draw follows from it     |
| actions      | action ids in the order played                                       |
| scores       | final score per seat                                                 |
| rewards      | final reward per seat                                                |

Moves are stored as ids, not notation, because ids are what the kernels replay exactly (the
viewer shows notation).  States are not stored: the viewer re-simulates from the seed and
checks the recorded final scores, so a replay made under other rules fails loudly instead
of showing a different game.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from meeplezoo.envs import make, resolve_game
from meeplezoo.envs.core import files
from meeplezoo.envs.core.draw import pad_even

FORMAT = "meeplezoo-replay"
VERSION = 1
# No game's score comes near this (Carcassonne's highest are a few hundred); a file that
# claims more is corrupt, and an infinite one would not even convert to an integer.
MAX_SCORE = 10**6


# --------------------------------------------------------------------------- files


def read_json(path: str | Path, what: str) -> dict:
    """A JSON object from the regular file ``path`` (bounded and shallow, read through
    ``envs/core/files.py``); every failure is a ``ValueError`` saying what is wrong."""
    kind = "saved game" if "saved game" in what else "replay"
    return as_object(files.read_json(path, kind), path, what)


def parse_json(text: str, path, what: str) -> dict:
    """A JSON object from ``text`` (named ``path`` in messages); else a ``ValueError``."""
    return as_object(files.parse_json(text, f"{path} ({what})"), path, what)


def as_object(data, path, what: str) -> dict:
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a {what} (not a JSON object)")
    return data


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_game_fields(data: dict, path, what: str, fmt: str, version: int) -> dict:
    """Validate the fields a replay and a saved game share; returns them normalised."""
    if data.get("format") != fmt:
        raise ValueError(f"{path} is not a {what} (format {data.get('format')!r}, "
                         f"expected {fmt!r})")
    if type(data.get("version")) is not int or data["version"] != version:
        raise ValueError(f"{path} is {what} version {data.get('version')!r}; this code reads "
                         f"version {version}")
    problems = []
    game = data.get("game")
    if not isinstance(game, str):
        problems.append("'game' must be a game name")
    players, seats = data.get("num_players"), data.get("seats")
    if not _is_int(players) or players < 1:
        problems.append("'num_players' must be a positive integer")
    if not (isinstance(seats, list) and all(isinstance(s, str) and s for s in seats)):
        problems.append("'seats' must be a list of seat specs")
    elif _is_int(players) and len(seats) != players:
        problems.append(f"{len(seats)} seats for {players} players")
    if not _is_int(data.get("seed")) or not 0 <= data["seed"] < 2**64:
        problems.append("'seed' must be an integer in 0..2**64-1")
    if not isinstance(data.get("options", {}), dict):
        problems.append("'options' must be an object")
    actions = data.get("actions")
    if not (isinstance(actions, list) and all(_is_int(a) and a >= 0 for a in actions)):
        problems.append("'actions' must be a list of action ids")
    if problems:
        raise ValueError(f"{path} is a corrupt {what}: " + "; ".join(problems))
    try:
        game = resolve_game(game)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None
    return {"game": game, "num_players": players, "options": dict(data.get("options", {})),
            "seats": list(seats), "seed": data["seed"], "actions": list(actions)}


def dump_json(record: dict) -> str:
    """One key a line: readable and diffable, with the long action list kept on one line."""
    body = ",\n".join(f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in record.items())
    return "{\n" + body + "\n}\n"


def make_record(game: str, options: dict, seats: Sequence[str], seed: int,
                actions: Sequence[int], env) -> dict:
    """The replay of a finished game played in ``env``."""
    return {"format": FORMAT, "version": VERSION, "game": game, "num_players": len(seats),
            "options": dict(options), "seats": list(seats), "seed": int(seed),
            "actions": [int(a) for a in actions],
            "scores": [int(s) for s in env.scores()],
            "rewards": [float(env.rewards[a]) for a in env.possible_agents]}


def write_replay(path: str | Path, record: dict) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dump_json(record), encoding="utf-8")
    return path


def record_game(game: str, agents: Sequence, seed: int, **options) -> dict:
    """Play one bot game (``agents[i]`` in seat i, seeded as ``play.play_game``) and return
    its replay record (write it with :func:`write_replay`)."""
    game = resolve_game(game)
    env = make(game, raw=True, num_players=len(agents), **options)
    env.reset(seed=seed)
    for index, agent in enumerate(agents):
        agent.reset(seed=seed * 1000 + index)
    actions, evaluations = [], []
    while not env.game_over:
        agent = agents[env.agent_name_mapping[env.agent_selection]]
        action = int(agent.act(env))
        evaluations.append(search_evaluation(agent, env))
        env.step(action)
        actions.append(action)
    record = make_record(game, options, [a.name for a in agents], seed, actions, env)
    if any(e is not None for e in evaluations):
        record["evaluations"] = evaluations
    return record


def search_evaluation(agent, env, top: int = 5) -> dict | None:
    """What a search agent thought of the move it just chose, for a replay: its root value
    for the mover and its most visited moves; None for an agent that does not search."""
    tree = getattr(agent, "tree", None) or getattr(getattr(agent, "search", None), "tree", None)
    if tree is None:
        return None
    children = sorted(tree.root_children(), key=lambda c: (-c[1], c[0]))
    if not children:
        return None
    visits = sum(c[1] for c in children)
    return {"value": round(float(children[0][2]), 4), "visits": visits,
            "moves": [{"move": env.action_to_str(a), "action": int(a), "visits": int(n),
                       "value": round(float(v), 4)} for a, n, v in children[:top]]}


def read_replay(path: str | Path) -> dict:
    """A validated replay record (``ValueError`` with one clear line if not)."""
    return check_replay(read_json(path, "meeplezoo replay"), path)


def check_replay(data: dict, path="replay") -> dict:
    """``data`` (a parsed JSON object) checked as a replay; its fields normalised."""
    record = check_game_fields(data, path, "meeplezoo replay", FORMAT, VERSION)
    players = record["num_players"]
    for key in ("scores", "rewards"):
        values = data.get(key)
        if not (isinstance(values, list) and len(values) == players
                and all(isinstance(v, int | float) and not isinstance(v, bool)
                        and -MAX_SCORE <= v <= MAX_SCORE for v in values)):
            raise ValueError(f"{path} is a corrupt meeplezoo replay: '{key}' must hold one "
                             f"number per seat, each within +-{MAX_SCORE:,}")
        record[key] = values
    evaluations = data.get("evaluations")
    if evaluations is not None:
        if not (isinstance(evaluations, list) and len(evaluations) == len(record["actions"])
                and all(e is None or isinstance(e, dict) for e in evaluations)):
            raise ValueError(f"{path} is a corrupt meeplezoo replay: 'evaluations' must hold "
                             f"one object (or null) per move")
        record["evaluations"] = evaluations
    return record


# --------------------------------------------------------------------------- re-simulation


def simulate(record: dict, path="replay"):
    """Re-play a record from its seed: ``(env, states, moves)`` with ``states[0]`` the start
    and ``moves[i]`` the move that led to ``states[i + 1]``, in notation with its seat."""
    try:
        env = make(record["game"], raw=True, num_players=record["num_players"],
                   **record["options"])
    except (ValueError, TypeError) as err:
        raise ValueError(f"{path}: cannot set up {record['game']}: {err}") from None
    env.reset(seed=record["seed"])
    states, moves = [env.state.copy()], []
    for index, action in enumerate(record["actions"]):
        if env.game_over:
            raise ValueError(f"{path}: the re-simulated game ends after {index} moves, but the "
                             f"file lists {len(record['actions'])}")
        if action >= env.spec.num_actions or not env.action_mask()[action]:
            raise ValueError(f"{path}: move {index + 1} (action {action}) is illegal in the "
                             f"re-simulated game; the file does not match this version of "
                             f"{record['game']}")
        seat = env.agent_name_mapping[env.agent_selection]
        moves.append(f"P{seat} ({record['seats'][seat]}) {env.action_to_str(action)}")
        env.step(action)
        states.append(env.state.copy())
    return env, states, moves


def check_result(record: dict, env, path="replay") -> None:
    """The re-simulated game must end where the file says: the same final scores and the
    same rewards, both derived again from the moves (a file's own claims are not shown)."""
    if not env.game_over:
        raise ValueError(f"{path}: the re-simulated game is not over after its "
                         f"{len(record['actions'])} moves")
    scores = [int(s) for s in env.scores()]
    if scores != [int(s) for s in record["scores"]]:
        raise ValueError(f"{path}: re-simulating gives final scores {scores}, the file says "
                         f"{record['scores']} (edited, or recorded under other rules)")
    rewards = [float(env.rewards[agent]) for agent in env.possible_agents]
    claimed = record.get("rewards")
    if not isinstance(claimed, list) or len(claimed) != len(rewards) or not all(
            isinstance(r, (int, float)) and not isinstance(r, bool) and
            math.isclose(r, mine, abs_tol=1e-9) for r, mine in zip(claimed, rewards, strict=True)):
        raise ValueError(f"{path}: re-simulating gives rewards {rewards}, the file says "
                         f"{claimed!r} (edited, or recorded under other rules)")


# --------------------------------------------------------------------------- showing


def board_text(spec, state: np.ndarray) -> str:
    if spec.render_ansi is None:
        return f"({spec.name} has no text board)"
    return spec.render_ansi(state)


def position_text(record: dict, spec, states, moves, index: int) -> str:
    last = len(states) - 1
    what = "start" if index == 0 else f"after {moves[index - 1]}"
    return f"--- position {index}/{last}: {what}\n{board_text(spec, states[index])}"


def final_text(record: dict) -> str:
    return "final: " + ", ".join(
        f"P{seat} ({name}) score {score} reward {reward:g}" for seat, (name, score, reward)
        in enumerate(zip(record["seats"], record["scores"], record["rewards"], strict=True)))


def step_through(record, spec, states, moves, input_fn: Callable[[str], str], out,
                 first: int = 0, last: int | None = None) -> None:
    """Interactive viewer: Enter or n next, b back, q quit (end of input quits too)."""
    last = len(states) - 1 if last is None else last
    index = first
    while True:
        print(position_text(record, spec, states, moves, index), file=out)
        if index == last:
            print(final_text(record) if last == len(states) - 1 else "(end of range)", file=out)
        try:
            key = input_fn("[Enter/n] next  [b] back  [q] quit > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        if key == "q":
            return
        if key == "b":
            index = max(first, index - 1)
        elif key in ("", "n"):
            if index == last:
                return
            index += 1
        else:
            print("keys: Enter or n (next), b (back), q (quit)", file=out)


def frames_of(spec, states: Sequence[np.ndarray], progress: bool = False):
    """One rgb frame per position (a generator), with a progress bar under the board.

    The bar's colour alternates between frames so that two consecutive frames are never
    identical: Pillow merges identical GIF frames, which would lose positions.  Frames are
    padded to even sides (H.264 needs them).  ``progress`` shows a tqdm bar on a terminal.
    """
    if spec.render_rgb is None:
        raise ValueError(f"{spec.name} has no rgb_array render, so no video")
    indices = range(len(states))
    if progress:
        try:
            from tqdm import tqdm
        except ImportError:
            pass
        else:
            indices = tqdm(indices, desc="frames", unit="frame", disable=None, leave=False)
    for index in indices:
        image = np.asarray(spec.render_rgb(states[index]), dtype=np.uint8)
        bar = np.full((6, image.shape[1], 3), 40, dtype=np.uint8)
        filled = max(1, image.shape[1] * (index + 1) // len(states))
        bar[:, :filled] = (230, 160, 40) if index % 2 == 0 else (220, 150, 30)
        yield pad_even(np.concatenate([image, bar], axis=0))


VIDEO_EXTRA = ("writing .mp4 needs imageio and imageio-ffmpeg: pip install 'meeplezoo[video]' "
               "(or write a .gif)")


def check_video_args(path: Path, fps: float) -> None:
    if fps <= 0:
        raise ValueError("--fps must be positive")
    if path.suffix.lower() not in (".gif", ".mp4"):
        raise ValueError(f"cannot write {path.name}: use a .gif or .mp4 file name")


def _imageio():
    """``imageio.v2`` with its ffmpeg plugin, or a ``ValueError`` naming the extra."""
    try:
        import imageio.v2 as imageio
        import imageio_ffmpeg  # noqa: F401  (the bundled ffmpeg binary)
    except ImportError:
        raise ValueError(VIDEO_EXTRA) from None
    return imageio


def write_video(frames: Iterable[np.ndarray], path: str | Path, fps: float) -> int:
    """Write an animated GIF (Pillow) or an MP4 (imageio-ffmpeg); returns the frame count.

    The format follows the file name: ``.mp4`` for MP4, ``.gif`` for GIF.
    """
    path = Path(path)
    check_video_args(path, fps)
    if path.suffix.lower() == ".gif":
        from PIL import Image

        images = [Image.fromarray(frame) for frame in frames]
        path.parent.mkdir(parents=True, exist_ok=True)
        images[0].save(path, save_all=True, append_images=images[1:], loop=0,
                       duration=max(20, round(1000 / fps)))
        return len(images)
    imageio = _imageio()                # first: a missing extra leaves nothing behind
    path.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    try:
        # macro_block_size=1: frames are already even-sized, so imageio must not rescale.
        with imageio.get_writer(path, format="FFMPEG", mode="I", fps=fps, codec="libx264",
                                pixelformat="yuv420p", macro_block_size=1,
                                quality=8) as writer:
            for frame in frames:
                writer.append_data(frame)
                count += 1
    except (RuntimeError, OSError) as err:
        raise ValueError(f"could not write {path} ({err})") from None
    return count


def parse_range(text: str | None, last: int) -> tuple[int, int]:
    """``A:B`` (positions A..B, either side may be empty) within 0..last."""
    if not text:
        return 0, last
    try:
        start, _, end = text.partition(":")
        first = int(start) if start else 0
        final = int(end) if end else last
    except ValueError:
        raise ValueError(f"--positions {text!r}: write A:B, e.g. 0:20") from None
    if not 0 <= first <= final <= last:
        raise ValueError(f"--positions {text!r}: positions run 0..{last}")
    return first, final


def replay_command(args, input_fn: Callable[[str], str] | None = None, out=None) -> int:
    """``meeplezoo replay FILE [--all] [--video out.gif] [--fps N] [--positions A:B]``."""
    out, input_fn = out or sys.stdout, input_fn or input
    if args.video:                       # bad arguments fail before the re-simulation
        check_video_args(Path(args.video), args.fps)
    record = read_replay(args.file)
    env, states, moves = simulate(record, args.file)
    check_result(record, env, args.file)
    spec = env.spec
    first, last = parse_range(args.positions, len(states) - 1)
    print(f"{record['game']}, {record['num_players']} players: "
          + " vs ".join(record["seats"]) + f", seed {record['seed']}, "
          f"{len(moves)} moves (re-simulated; final scores match)", file=out)
    if args.video:
        count = write_video(frames_of(spec, states[first:last + 1], progress=True), args.video,
                            args.fps)
        print(f"wrote {count} frames to {args.video}", file=out)
    elif args.all:
        for index in range(first, last + 1):
            print(position_text(record, spec, states, moves, index), file=out)
        print(final_text(record), file=out)
    else:
        step_through(record, spec, states, moves, input_fn, out, first, last)
    return 0


def add_arguments(parser) -> None:
    parser.add_argument("file", help="a replay written by meeplezoo play --save-to")
    parser.add_argument("--all", action="store_true", help="print every position and exit")
    parser.add_argument("--video", help="write the game to an animated .gif, or an .mp4 "
                        "(needs pip install 'meeplezoo[video]')")
    parser.add_argument("--fps", type=float, default=4.0, help="video frames per second")
    parser.add_argument("--positions", help="only positions A:B (0 is the start)")
