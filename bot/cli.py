"""The ``minebot`` command.

Each subcommand lives in its own module under :mod:`bot.commands`, which exposes
``register(subparsers)``; that module imports its heavy dependencies (OpenCV, mss, pyautogui)
only when the subcommand runs, so ``minebot solve`` works without a display.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import re
import sys
from pathlib import Path

# One BLAS thread, set before numpy loads: the reader's matrix products are small, and on a busy
# desktop waking a BLAS thread pool every frame made a read up to 20x slower (a 90th percentile
# of 57 ms against 10 ms, 30x16 GNOME Mines cells, two busy cores). The user's setting wins.
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from solver.errors import MinebotError  # noqa: E402

#: Subcommand modules, in the order ``minebot --help`` lists them.
COMMANDS = ("demo", "play", "replay", "solve", "bench", "speed", "tune")


#: The distribution name the installed package's metadata is under (pyproject's ``name``).
DISTRIBUTION = "minebot"


def version() -> str:
    """minebot's version: the installed package's, else (run from a source tree) the one
    ``pyproject.toml`` beside the package declares.

    >>> re.fullmatch(r"\\d+\\.\\d+.*", version()) is not None
    True
    """
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return "unknown (not installed, no pyproject.toml)"
    match = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
    return f"{match.group(1)} (source tree)" if match else "unknown (not installed)"


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (what is wrong, where to look), exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="minebot",
        description="Plays Minesweeper windows by reading the screen; solves positions exactly.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"bot.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bot.commands.{name}":
                raise
            continue  # a command not built yet
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    # A line as soon as it is printed (a game's result, a progress line), also through a pipe
    # (`minebot play | tee log`), where Python would otherwise hold output back in blocks.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except MinebotError as exc:
        print(f"minebot {args.command}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        # A file, folder or device the run needed and the system refused, not caught nearer
        # (most are: bot/userfiles.py): still one line naming it, not a traceback.
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"minebot {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"minebot {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
