"""``minebot demo``: play a real game on a virtual display, no desktop needed.

Starts Xvfb, launches the game (Simon Tatham's Mines by default, whose boards never need a
guess), plays a few games with real mouse events, prints the result and saves the final
screenshot.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from solver.errors import MinebotError


def parse_size(text: str) -> tuple[int, int, int]:
    """``"30x16n99"`` -> ``(30, 16, 99)``; a level name (beginner, intermediate, expert) gives
    its size.

    >>> parse_size("16x16n40"), parse_size("expert")
    ((16, 16, 40), (30, 16, 99))
    """
    from solver.game import LEVELS

    level = LEVELS.get(text.strip().lower())
    if level is not None:
        return level.width, level.height, level.mines
    match = re.fullmatch(r"(\d+)x(\d+)n(\d+)", text.strip())
    if not match:
        raise MinebotError(
            f"board size {text!r} is not COLSxROWSnMINES (e.g. 16x16n40) or one of "
            + ", ".join(LEVELS)
        )
    cols, rows, mines = (int(v) for v in match.groups())
    if cols < 1 or rows < 1 or not 0 < mines < cols * rows:
        raise MinebotError(f"board size {text!r}: need at least one cell and 0 < mines < cells")
    return cols, rows, mines


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "demo",
        help="play a real game on a virtual display (Xvfb)",
        description="Start a virtual display with a real Minesweeper program, play a few "
        "games with real mouse events, print the result and save the final screenshot.",
    )
    parser.add_argument("--skin", default="sgt-mines", help="game to run (sgt-mines)")
    parser.add_argument(
        "--size",
        default="16x16n40",
        metavar="COLSxROWSnMINES",
        help="board, or beginner, intermediate, expert (16x16n40)",
    )
    parser.add_argument(
        "--display",
        type=int,
        metavar="N",
        help="run Xvfb on display :N (default: the first free one from :100)",
    )
    parser.add_argument("--games", type=int, default=3, metavar="N", help="games to play (3)")
    parser.add_argument(
        "--screenshot",
        type=Path,
        default=Path("minebot-demo.png"),
        metavar="OUT.png",
        help="where to save the final screenshot (minebot-demo.png)",
    )
    parser.add_argument("--log", type=Path, metavar="DIR", help="keep each game's frames/moves")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.errors import PlayError

    if args.games < 1:
        raise PlayError("--games must be at least 1")
    cols, rows, mines = parse_size(args.size)
    out = (lambda line: print(line, file=sys.stderr)) if args.json else print
    from bot.live.programs import RunningGame, load_program
    from bot.live.xvfb import VirtualDisplay

    program = load_program(args.skin)
    with (
        VirtualDisplay(display=args.display) as display,
        RunningGame(program, cols, rows, mines, display.env) as game,
    ):
        # Everything that talks to X (mss, pyautogui) is set up only now, on the new display.
        import cv2

        from bot.commands.play import report, skins_for
        from bot.live.attach import attach
        from bot.live.capture import ScreenCapture
        from bot.live.mouse import Mouse

        out(f"virtual display {display.name}: {args.skin} {cols}x{rows} with {mines} mines")
        with ScreenCapture() as capture:
            attached = attach(
                capture,
                Mouse(),
                skins=skins_for(args.skin),
                window=game.window,
                program=program,
                mines=mines,
                log_dir=args.log,
                out=out,
            )
            summary = attached.player.run(args.games)
            final = capture.grab(game.window.region)
            args.screenshot.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(args.screenshot), final.image)
    report(summary, args.json)
    out(f"final screenshot: {args.screenshot.resolve()}")
    return 0
