"""Board tools from the command line (see ``main``)."""

from __future__ import annotations

from .board import BoardError, generate_board, load_board


def main(argv: list[str] | None = None) -> int:
    """``python -m meeplezoo.envs.hansa [--generate SEED | --check PATH]``: print the
    reconstruction (a template to copy and correct from the printed board), print a
    generated board, or validate a board file."""
    import argparse

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--generate", type=int, metavar="SEED")
    parser.add_argument("--check", metavar="PATH")
    args = parser.parse_args(argv)
    if args.check:
        try:
            board = load_board(args.check)
        except BoardError as err:
            print(f"invalid board: {err}")
            return 1
        print(f"valid board: {board.name}")
        return 0
    board = load_board(None if args.generate is None else generate_board(args.generate))
    print(board.to_json())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
