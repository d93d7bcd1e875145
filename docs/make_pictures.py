"""Remake the board pictures in docs/images: a mid-game frame of each game from a greedy bot game.

    python docs/make_pictures.py [--out docs/images]

Each game is played by its ``greedy`` bot at every seat (Carcassonne, Hansa, Saint Malo: 3
players) to 60% of the game's length, and that position's ``render_rgb`` frame is a PNG
(the stdlib writer of the browser's server, no imaging package).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from meeplezoo.agents.registry import make_agent
from meeplezoo.envs import make
from meeplezoo.play.web.board import png_bytes

# game, players, seed: the players of each frame
GAMES = (("hansa_teutonica_v0", 2, 4), ("carcassonne_v0", 3, 4), ("saint_malo_v0", 3, 4),
         ("serenissima_v0", 2, 4), ("hansa_v0", 3, 4))
SHARE = 0.6            # how far into the game the frame is (by moves)


def mid_game_frame(game: str, players: int, seed: int):
    """The frame ``SHARE`` of the way through a greedy game (its length measured by playing
    it once)."""
    def play(stop: int | None):
        env = make(game, num_players=players, render_mode="rgb_array")
        env.reset(seed=seed)
        bots = [make_agent("greedy", game, seed=seed + k) for k in range(players)]
        moves = 0
        while not env.unwrapped.game_over and moves != stop:
            env.step(bots[env.agent_name_mapping[env.agent_selection]].act(env))
            moves += 1
        return env, moves

    _, length = play(None)
    env, _ = play(int(length * SHARE))
    return env.render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "images"))
    args = parser.parse_args(argv)
    Path(args.out).mkdir(parents=True, exist_ok=True)
    for game, players, seed in GAMES:
        path = Path(args.out) / f"{game.removesuffix('_v0')}.png"
        path.write_bytes(png_bytes(mid_game_frame(game, players, seed)))
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
