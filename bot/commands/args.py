"""Argument types shared by the subcommands: a bad value is refused by argparse (one line,
exit 2) before any work starts.

>>> positive_int("3")
3
>>> positive_int("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: must be a whole number of at least 1, got '0'
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable


def _int(text: str, least: int, most: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if most is not None and not least <= value <= most:
        raise argparse.ArgumentTypeError(
            f"must be a whole number from {least} to {most}, got {text!r}"
        )
    if value < least:
        raise argparse.ArgumentTypeError(
            f"must be a whole number of at least {least}, got {text!r}"
        )
    return value


def int_from(least: int, most: int) -> Callable[[str], int]:
    """An argparse type for a whole number in ``least..most``.

    >>> int_from(1, 10)("11")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number from 1 to 10, got '11'
    """

    def parse(text: str) -> int:
        return _int(text, least, most)

    return parse


def positive_int(text: str) -> int:
    """A count that must be at least 1 (games, positions)."""
    return _int(text, 1)


def nonnegative_int(text: str) -> int:
    """A number that may be 0 but not negative (mines, display numbers).

    >>> nonnegative_int("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a whole number of at least 0, got '-1'
    """
    return _int(text, 0)


def board_size(text: str) -> tuple[int, int, int]:
    """``"30x16n99"`` -> ``(30, 16, 99)``: at least one cell, and 0 < mines < cells.

    >>> board_size("30x16n99")
    (30, 16, 99)
    >>> board_size("3x3n9")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: board size '3x3n9': need at least one cell and 0 < mines < cells
    """
    match = re.fullmatch(r"(\d+)x(\d+)n(\d+)", text.strip())
    if not match:
        raise argparse.ArgumentTypeError(
            f"board size {text!r} is not COLSxROWSnMINES (e.g. 30x16n99)"
        )
    cols, rows, mines = (int(v) for v in match.groups())
    if cols < 1 or rows < 1 or not 0 < mines < cols * rows:
        raise argparse.ArgumentTypeError(
            f"board size {text!r}: need at least one cell and 0 < mines < cells"
        )
    return cols, rows, mines
