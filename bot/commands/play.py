"""``minebot play``: find a Minesweeper window on the screen and play it.

The board is looked for on the whole desktop (every monitor), in every installed skin unless
``--skin`` names one. ``--hint`` clicks nothing: it prints the move and writes an overlay.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bot.commands.args import nonnegative_int, positive_int
from bot.live.interrupts import STOP_SIGNALS, handlers_swapped


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
    if args.hint:
        with ScreenCapture() as capture:
            return hint(capture, skins, args)
    out = (lambda line: print(line, file=sys.stderr)) if args.json else print

    def play(summary: Any) -> None:
        from bot.live.attach import attach
        from bot.live.mouse import Mouse

        with ScreenCapture() as capture:
            attached = attach(
                capture, Mouse(), skins=skins, mines=args.mines, log_dir=args.log, out=out
            )
            where = attached.window.name if attached.window is not None else "the screen"
            grid = attached.player.located.grid
            out(f"playing {attached.skin.name} {grid.cols}x{grid.rows} in {where!r}")
            attached.player.run(args.games, summary)

    return play_and_report(args.games, args.json, play)


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """While the block runs, whatever is written to stdout goes to stderr: Python's prints
    (python-xlib warns on stdout about an empty Xauthority file) and C code writing to file
    descriptor 1 alike, so that stdout ends up holding only what is printed after the block."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 1)
        os.close(saved)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP while playing (``kill``, ``timeout``, the terminal closed): the run
    stops as on Ctrl-C (no mouse button left pressed) and its summary is printed."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP raise :class:`Terminated` (a signal ignored
    when minebot started, SIGHUP under ``nohup``, stays ignored). Only in the main thread,
    where Python runs signal handlers."""

    def stop(signum: int, frame: Any) -> None:
        raise Terminated(signum)

    with handlers_swapped(STOP_SIGNALS, stop, lambda handler: handler is not signal.SIG_IGN):
        yield


def stop_reason(exc: BaseException) -> str:
    """What the summary says stopped the run early.

    >>> stop_reason(KeyboardInterrupt()), stop_reason(ValueError("bad"))
    ('interrupted (Ctrl-C)', 'error: ValueError: bad')
    >>> stop_reason(Terminated(signal.SIGTERM))
    'terminated (SIGTERM)'
    """
    from solver.errors import MinebotError

    if isinstance(exc, Terminated):
        return f"terminated ({exc.args[0]})"
    if isinstance(exc, KeyboardInterrupt):
        return "interrupted (Ctrl-C)"
    if isinstance(exc, MinebotError):
        return str(exc)
    return f"error: {type(exc).__name__}: {exc}"


def play_and_report(games: int, as_json: bool, play: Callable[[Any], None]) -> int:
    """Run ``play(summary)`` and print the summary however it ends (done, an error, Ctrl-C,
    SIGTERM or SIGHUP): with ``as_json`` stdout holds that one JSON object and nothing else. An
    error is raised again after the summary (the CLI prints it on stderr and exits 2, or 130 on
    Ctrl-C); a SIGTERM or SIGHUP returns 128 + its number, as a process it killed would."""
    from bot.live.summary import Summary

    summary = Summary(games_wanted=games)
    try:
        with stop_on_signals(), stdout_to_stderr() if as_json else contextlib.nullcontext():
            play(summary)
    except Terminated as exc:
        summary.stopped_because = stop_reason(exc)
        report(summary, as_json)
        print(f"minebot: stopped by {exc.args[0]}", file=sys.stderr)
        return 128 + exc.signum
    except BaseException as exc:
        summary.stopped_because = stop_reason(exc)
        report(summary, as_json)
        raise
    report(summary, as_json)
    return 0


def report(summary: Any, as_json: bool) -> None:
    if as_json:
        print(json.dumps(summary.as_dict()), flush=True)
    else:
        print(summary.line(), flush=True)


def hint(capture, skins, args: argparse.Namespace) -> int:
    """Read the board once, print the move the bot would make, write the overlay."""
    from bot.live.attach import attach

    attached = attach(capture, None, skins=skins, mines=args.mines)
    player = attached.player
    frame, _ = player.settle()
    frame, reading, plan = player.read(frame, want_plan=False)
    mines = player.mine_count(reading)
    position = None  # the board checked: flags that contradict the numbers are left out
    if plan is not None:
        from solver.position import analyse_position

        position = analyse_position(reading.board, mines)
        plan = [] if position.won else player.plan_for(position.board, mines)
    if plan is None:
        message = f"the game is over ({reading.state}): nothing to do"
        move = None
    elif not plan:
        message = "the game is won: every covered cell is a mine, only flags are left"
        move = None
    else:
        first = plan[0]
        kind = "safe" if first.p_mine == 0 else f"guess, P(mine) = {first.p_mine:.3f}"
        more = f" (and {len(plan) - 1} more safe cells)" if len(plan) > 1 else ""
        message = f"open ({first.x}, {first.y}): {kind}{more}"
        message += position.on_dropped_flag(first.x, first.y) if position else ""
        move = first
    board = reading.board if position is None else position.board
    write_overlay(args.overlay, frame, reading, mines, move, board)
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
                    "flags": None if position is None else position.as_dict(),
                }  # fmt: skip
            )
        )
    else:
        print(reading.board)
        if position is not None and position.note:
            print(f"FLAGS: {position.note}")
        print(message)
        print(f"overlay written to {args.overlay}")
    return 0


def write_overlay(path: Path, frame, reading, mines: int, move, board=None) -> None:
    """Write the reader's overlay picture: covered cells tinted by mine probability (of
    ``board``, default the board read), the move framed (an error if it cannot be written)."""
    from bot.reading.overlay import draw_overlay
    from bot.userfiles import write_image
    from solver.probability import mine_probabilities

    board = reading.board if board is None else board
    probabilities = mine_probabilities(board, mines).grid if move is not None else None
    marked = None if move is None else _OverlayMove("open", move.x, move.y)
    picture = draw_overlay(frame.image, reading.located.grid, probabilities, marked)
    write_image(path, picture, "overlay")


class _OverlayMove:
    def __init__(self, action: str, x: int, y: int) -> None:
        self.action, self.x, self.y = action, x, y
