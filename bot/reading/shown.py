"""Boards no game shows: what a part of a bigger board read as a whole can look like."""

from __future__ import annotations

import numpy as np

from solver.board import COVERED, EXPLODED, MINE, NUMBERS, WRONG_FLAG
from solver.constraints import neighbour_counts

__all__ = ["shown_nowhere", "zeros_beside_covered"]


def shown_nowhere(chars: np.ndarray) -> str | None:
    """Why no game shows the board of cell characters ``chars`` (``[rows, cols]``), or None.

    Every game has a mine, and every number says how many of its neighbours are mines: a mine
    is covered, flagged or shown (a wrong flag is not one). So a board with no cell that may
    hold a mine, or a number with fewer such neighbours than it says, or with more mines shown
    round it, cannot be a whole board; a part of a bigger one read as a whole can be (its edge
    numbers' mines lie beyond it; a patch of empty cells shows none).

    >>> shown_nowhere(np.array([list("1."), list("11")]))
    >>> shown_nowhere(np.array([list("00"), list("00")]))
    'no cell could hold a mine (covered, flagged or shown), and every game has one'
    >>> shown_nowhere(np.array([list("2."), list("11")]))
    'the 2 at (0, 0) has only 1 cell round it that could hold a mine'
    >>> shown_nowhere(np.array([list("1*"), list("**")]))
    'the 1 at (0, 0) has 3 mines shown round it'
    """
    may = ~np.isin(chars, list(NUMBERS + WRONG_FLAG))
    if not may.any():
        return "no cell could hold a mine (covered, flagged or shown), and every game has one"
    shown = np.isin(chars, [MINE, EXPLODED])
    numbers = np.isin(chars, list(NUMBERS))
    value = np.zeros(chars.shape, np.int16)
    value[numbers] = chars[numbers].astype(np.int16)
    around_may, around_shown = neighbour_counts(may), neighbour_counts(shown)
    ys, xs = np.nonzero(numbers & (value > around_may))
    if xs.size:
        x, y, n = int(xs[0]), int(ys[0]), int(around_may[ys[0], xs[0]])
        cells = "cell" if n == 1 else "cells"
        what = f"the {chars[y, x]} at ({x}, {y})"
        return f"{what} has only {n} {cells} round it that could hold a mine"
    ys, xs = np.nonzero(numbers & (value < around_shown))
    if xs.size:
        x, y, n = int(xs[0]), int(ys[0]), int(around_shown[ys[0], xs[0]])
        return f"the {chars[y, x]} at ({x}, {y}) has {n} mines shown round it"
    return None


def zeros_beside_covered(chars: np.ndarray) -> list[tuple[int, int]]:
    """The cells ``(x, y)`` of ``chars`` (``[rows, cols]``) showing 0 beside a covered cell, row
    by row. A game that opens every cell round a 0 at once shows none; one there is a cell
    still held down (most games draw it as an opened empty cell) or a misread either way (a
    number read as 0, a 0 read as covered). Flagged and question-marked cells are not counted:
    the opening passes them by in some games.

    >>> zeros_beside_covered(np.array([list("01."), list("01.")]))
    []
    >>> zeros_beside_covered(np.array([list("0.."), list("1F."), list("0F.")]))
    [(0, 0)]
    """
    zero = chars == "0"
    ys, xs = np.nonzero(zero & (neighbour_counts(chars == COVERED) > 0))
    return [(int(x), int(y)) for x, y in zip(xs, ys, strict=True)]
