"""``minebot demo``: play a real game on a virtual display, no desktop needed.

Starts Xvfb, launches the game (Simon Tatham's Mines by default, whose boards never need a
guess), plays a few games with real mouse events, prints the result and saves the final
screenshot.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.commands.args import board_size, nonnegative_int, positive_int


def parse_size(text: str) -> tuple[int, int, int]:
    """``"30x16n99"`` -> ``(30, 16, 99)``; a level name (beginner, intermediate, expert) gives
    its size (an argparse type: a bad size exits 2 with one line).

    >>> parse_size("16x16n40"), parse_size("expert")
    ((16, 16, 40), (30, 16, 99))
    """
    from solver.game import LEVELS

    level = LEVELS.get(text.strip().lower())
    if level is not None:
        return level.width, level.height, level.mines
    try:
        return board_size(text)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{exc}; or one of {', '.join(LEVELS)}") from exc


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
        type=parse_size,
        default="16x16n40",
        metavar="COLSxROWSnMINES",
        help="board, or beginner, intermediate, expert (16x16n40)",
    )
    parser.add_argument(
        "--display",
        type=nonnegative_int,
        metavar="N",
        help="run Xvfb on display :N (default: the first free one from :100)",
    )
    parser.add_argument(
        "--games", type=positive_int, default=3, metavar="N", help="games to play (3)"
    )
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
    from bot.errors import ProgramError
    from bot.live.programs import RunningGame, load_program
    from bot.live.xvfb import VirtualDisplay
    from bot.userfiles import check_image_output, check_output_folder, write_image

    cols, rows, mines = args.size
    program = load_program(args.skin)
    # Outputs are checked before any game is played: none is played for nothing.
    check_image_output(args.screenshot, "screenshot")
    if args.log is not None:
        check_output_folder(args.log, "game logs")
    out = (lambda line: print(line, file=sys.stderr)) if args.json else print
    with (
        VirtualDisplay(display=args.display) as display,
        RunningGame(program, cols, rows, mines, display.env) as game,
    ):
        # Everything that talks to X (mss, pyautogui) is set up only now, on the new display.
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
            if game.window is None:
                raise ProgramError("the game window is gone: no final screenshot")
            final = capture.grab(game.window.region)
            write_image(args.screenshot, final.image, "screenshot")
    report(summary, args.json)
    # The full path: the picture is saved in the current folder, wherever bot/demo.sh is run.
    out(f"final screenshot: {args.screenshot.resolve()}")
    return 0
