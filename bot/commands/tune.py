"""``minebot tune``: learn a skin minebot has never seen from a few screenshots.

``minebot tune SHOT.png... --name NAME [--out DIR]``: finds the board lattice in each
screenshot, groups identical-looking cells, names the groups (from ``SHOT.txt`` text boards
beside the screenshots, the fresh-board rule, or a groups file the user fills in), writes the
skin folder and prints a report. Exit 0: skin written; 1: groups left to name (a contact sheet
and a groups file were written; fill it in and run again); 2: an error saying what to capture.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from bot.commands.args import board_size
from bot.live.program_schema import FIRST_CLICK_RULES


def dialog_arg(text: str) -> dict[str, str]:
    """``TITLE=KEY`` -> a program.json dialog (the title matched literally, from its start).

    >>> d = dialog_arg("Fastest Times (1)=Return")
    >>> d["key"], re.search(d["title"], "Fastest Times (1)") is not None
    ('Return', True)
    """
    title, sep, key = text.rpartition("=")
    if not sep or not title.strip() or not key.strip():
        raise argparse.ArgumentTypeError(f"--dialog {text!r}: expected TITLE=KEY")
    return {"title": "^" + re.escape(title.strip()), "key": key.strip()}


def seconds_arg(text: str) -> float:
    """A number of seconds from 0 to 60.

    >>> seconds_arg("1.5")
    1.5
    """
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise argparse.ArgumentTypeError(f"must be a number of seconds from 0 to 60, got {text!r}")
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="learn a new skin from screenshots (and text boards beside them)",
        description="Find the board in each screenshot without knowing the skin, group "
        "identical-looking cells, name the groups and write a skin folder that replay and "
        "play then use. A text board NAME.txt beside NAME.png names that screenshot's cells.",
    )
    parser.add_argument("images", nargs="+", metavar="SCREENSHOT", help="PNG screenshots")
    parser.add_argument("--name", required=True, help="skin name: letters, digits, - and _")
    parser.add_argument(
        "--out", type=Path, help="folder to write the skin into (default: the user's skin dir)"
    )
    parser.add_argument(
        "--groups",
        type=Path,
        metavar="FILE",
        help="groups file to read/write (default: NAME.groups.txt beside the first screenshot)",
    )
    parser.add_argument(
        "--level",
        action="append",
        type=board_size,
        default=[],
        metavar="COLSxROWSnMINES",
        help="a standard board size of the game, e.g. 30x16n99 (repeatable)",
    )
    play = parser.add_argument_group(
        "what play needs (written to the skin's program.json; see the README's keys)"
    )
    restart = play.add_mutually_exclusive_group()
    restart.add_argument("--restart-key", metavar="KEY", help="key that starts a new game: n, F2")
    restart.add_argument(
        "--restart-button",
        type=Path,
        metavar="BUTTON.png",
        help="picture of the button that starts a new game (a face), cut from a screenshot",
    )
    play.add_argument(
        "--restart-interval",
        type=seconds_arg,
        metavar="SECONDS",
        help="fewest seconds between two restarts (a game that deals its layout from the "
        "clock deals the same board again when restarted within the same second)",
    )
    play.add_argument(
        "--first-click",
        choices=FIRST_CLICK_RULES,
        help="what the game guarantees about the first click",
    )
    play.add_argument(
        "--dialog",
        action="append",
        type=dialog_arg,
        default=[],
        metavar="TITLE=KEY",
        help="a window the game opens by itself and the key that closes it (repeatable)",
    )
    play.add_argument(
        "--pointer-inside",
        action="store_true",
        help="the game pauses or drops keys when the pointer leaves its window",
    )
    play.add_argument(
        "--program",
        type=Path,
        metavar="PROGRAM.json",
        help="a program.json to start from (how to launch the game); the options above add to it",
    )
    parser.add_argument("--game", default="", help="what the game is, for skin.json")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bot.commands.teach import check_button, program_for, write_program
    from bot.reading.tune import tune

    start = time.perf_counter()
    # What play needs, checked before the work (a bad option or file: one line, exit 2).
    program = program_for(args)
    button = check_button(args.restart_button) if args.restart_button else None
    result = tune(
        args.images,
        args.name,
        out=args.out,
        groups_file=args.groups,
        levels=args.level,
        game=args.game,
    )
    seconds = time.perf_counter() - start
    for shot in result.shots:
        labels = "labels from " + shot.path.with_suffix(".txt").name if shot.labels else "no labels"
        print(f"{shot.path}: {shot.lattice.describe()}; {labels}")
    seen = len(result.groups) - len(result.derived)
    made = (
        f", {len(result.derived)} variants made (other grid-line colours, the board's frame)"
        if result.derived
        else ""
    )
    print(f"cell {result.size[0]}x{result.size[1]} px; {seen} groups of cells{made}")
    for (w, h), shots in result.sizes:
        many = "screenshot" if shots == 1 else "screenshots"
        print(f"also cells of {w}x{h} px, as the game draws them there ({shots} {many})")
    if result.folder is None:
        print(
            f"{len(result.unnamed)} groups are not named yet: see the contact sheet "
            f"{result.sheet}, write a class after each '=' in {result.groups_file}, then run "
            "the same command again.",
            file=sys.stderr,
        )
        return 1
    print(f"{'class':<11} {'samples':>7} {'variants':>8} {'worst margin':>12}  nearest (alike)")
    for r in result.reports:
        print(
            f"{r.name:<11} {r.samples:>7} {r.variants:>8} {r.worst_margin:>12.3f}  "
            f"{r.nearest} ({r.alike:.3f})"
        )
    alike = [r for r in result.reports if r.alike >= 0.97]
    for r in alike:
        print(f"warning: {r.name} and {r.nearest} look too alike ({r.alike:.1%} of pixels agree)")
    if result.missing:
        print(
            "not seen (the reader refuses such cells until you tune again with a screenshot "
            f"showing them): {', '.join(result.missing)}"
        )
    write_program(result.folder, program, button)
    print(f"skin tolerance {result.tolerance}; wrote {result.folder} in {seconds:.2f} s")
    for file, why in result.unread:
        print(f"warning: the skin does not read {file} back, as replay and play will: {why}")
    if "restart" not in program:
        print(
            "warning: no --restart-key or --restart-button: play cannot start the next game "
            'by itself (a --program with a "restart" would do too)'
        )
    return 0
