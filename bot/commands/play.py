"""``minebot play``: find a Minesweeper window on the screen and play it.

The board is looked for on the whole desktop (every monitor), in every installed skin unless
``--skin`` names one. ``--hint`` clicks nothing: it prints the move and writes an overlay.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bot.commands.args import nonnegative_int, positive_int


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play the Minesweeper window on screen",
        description="Find a Minesweeper board on the screen, read it, and play it with the "
        "mouse: safe cells first, the least risky guess otherwise. Throw the pointer into a "
        "screen corner (pyautogui's failsafe) or press Ctrl-C to stop.",
    )
    parser.add_argument("--skin", help="look only for this skin (default: every skin)")
    parser.add_argument(
        "--games", type=positive_int, default=1, metavar="N", help="games to play (1)"
    )
    parser.add_argument(
        "--mines",
        type=nonnegative_int,
        metavar="N",
        help="total mines (default: from the screen or level)",
    )
    parser.add_argument(
        "--hint", action="store_true", help="click nothing: print the move, write an overlay"
    )
    parser.add_argument(
        "--overlay",
        type=Path,
        default=Path("minebot-hint.png"),
        metavar="OUT.png",
        help="where --hint writes its picture (minebot-hint.png)",
    )
    parser.add_argument(
        "--log", type=Path, metavar="DIR", help="keep each game's frames and moves in DIR"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.set_defaults(func=run)


def skins_for(name: str | None) -> list | None:
    """The skins to search: the one named, or None (the reader's full list)."""
    if name is None:
        return None
    from bot.reading.skins import find_skin

    return [find_skin(name)]


def run(args: argparse.Namespace) -> int:
    from bot.live.capture import ScreenCapture
    from bot.userfiles import check_image_output, check_output_folder

    skins = skins_for(args.skin)
    # Outputs are checked before the screen is touched.
    if args.hint:
        check_image_output(args.overlay, "overlay")
    if args.log is not None:
        check_output_folder(args.log, "game logs")
    with ScreenCapture() as capture:
        if args.hint:
            return hint(capture, skins, args)
        from bot.live.attach import attach
        from bot.live.mouse import Mouse

        out = (lambda line: print(line, file=sys.stderr)) if args.json else print
        attached = attach(
            capture, Mouse(), skins=skins, mines=args.mines, log_dir=args.log, out=out
        )
        where = attached.window.name if attached.window is not None else "the screen"
        grid = attached.player.located.grid
        out(f"playing {attached.skin.name} {grid.cols}x{grid.rows} in {where!r}")
        summary = attached.player.run(args.games)
    report(summary, args.json)
    return 0


def report(summary, as_json: bool) -> None:
    if as_json:
        d = summary.as_dict()
        print(json.dumps(d))
    else:
        print(summary.line())


def hint(capture, skins, args: argparse.Namespace) -> int:
    """Read the board once, print the move the bot would make, write the overlay."""
    from bot.live.attach import attach

    attached = attach(capture, None, skins=skins, mines=args.mines)
    player = attached.player
    frame, _ = player.settle()
    frame, reading, plan = player.read(frame)
    mines = player.mine_count(reading)
    if plan is None:
        message = f"the game is over ({reading.state}): nothing to do"
        move = None
    else:
        first = plan[0]
        kind = "safe" if first.p_mine == 0 else f"guess, P(mine) = {first.p_mine:.3f}"
        more = f" (and {len(plan) - 1} more safe cells)" if len(plan) > 1 else ""
        message = f"open ({first.x}, {first.y}): {kind}{more}"
        move = first
    write_overlay(args.overlay, frame, reading, mines, move)
    if args.json:
        print(
            json.dumps(
                {
                    "skin": attached.skin.name,
                    "board": str(reading.board),
                    "state": reading.state,
                    "mines": mines,
                    "move": None
                    if move is None
                    else {"action": "open", "x": move.x, "y": move.y, "p_mine": move.p_mine},
                    "safe": [] if plan is None else [[c.x, c.y] for c in plan if c.p_mine == 0],
                    "overlay": str(args.overlay),
                }  # fmt: skip
            )
        )
    else:
        print(reading.board)
        print(message)
        print(f"overlay written to {args.overlay}")
    return 0


def write_overlay(path: Path, frame, reading, mines: int, move) -> None:
    """Write the reader's overlay picture: covered cells tinted by mine probability, the move
    framed (an error if it cannot be written)."""
    from bot.reading.overlay import draw_overlay
    from bot.userfiles import write_image
    from solver.probability import mine_probabilities

    probabilities = mine_probabilities(reading.board, mines).grid if move is not None else None
    marked = None if move is None else _OverlayMove("open", move.x, move.y)
    picture = draw_overlay(frame.image, reading.located.grid, probabilities, marked)
    write_image(path, picture, "overlay")


class _OverlayMove:
    def __init__(self, action: str, x: int, y: int) -> None:
        self.action, self.x, self.y = action, x, y
