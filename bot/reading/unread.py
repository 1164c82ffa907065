"""Whole boards beside the one read that no skin reads: another game's board in the picture.

A skin finds only boards drawn with its own images, so a user's one tuned skin is blind to
another game's board beside its own, and reading one of two boards silently is what
:mod:`bot.reading.choose` refuses. What every board is does not depend on the skin: a lattice
of equal cells ending at a frame on all four sides (:mod:`bot.reading.lattice`,
:mod:`bot.reading.whole`). With the board read blanked out, such a lattice elsewhere in the
picture is another board.

Looked for in a screenshot read on its own (:func:`bot.reading.read.read_image`), where nothing
but the picture says which board is meant; not in the play loop, which reads the board of the
game window it plays, on every relocation (a whole desktop's lattice search takes a second or
two).

>>> tile = np.full((20, 20, 3), 190, np.uint8); tile[:2] = 0; tile[:, :2] = 0
>>> def board(cols, rows):
...     cells = np.tile(tile, (rows, cols, 1))
...     framed = np.zeros((rows * 20 + 2, cols * 20 + 2, 3), np.uint8)  # the closing lines
...     framed[: rows * 20, : cols * 20] = cells
...     return framed
>>> desk = np.full((260, 620, 3), 230, np.uint8)
>>> desk[40:202, 30:272] = board(12, 8)
>>> read = Grid(left=30, top=40, pitch_x=20, pitch_y=20, cols=12, rows=8)
>>> unread_boards_beside(desk, read)
[]
>>> desk[40:182, 340:562] = board(11, 7)
>>> [describe_unread(lat) for lat in unread_boards_beside(desk, read)]
['a board of 11x7 cells no skin reads at x 340..560, y 40..180']
"""

from __future__ import annotations

import numpy as np

from bot.errors import LatticeError
from bot.reading.choose import describe_board, two_boards_error
from bot.reading.extent import MIN_BOARD_CELLS, Located
from bot.reading.grid import Grid
from bot.reading.lattice import MIN_CELLS, find_lattices
from bot.reading.lattice_frame import lattice_problem
from bot.reading.lattice_lines import Lattice

__all__ = ["check_alone", "describe_unread", "unread_boards_beside"]

#: Smallest cell pitch (px) a board beside is looked for at: the lattice finder's own floor.
MIN_PITCH = 8

#: The colour the board read is blanked out with (BGR): flat, so it holds no lattice.
BLANK = (255, 0, 255)


def check_alone(frame: np.ndarray, located: Located) -> None:
    """Raise :class:`~bot.errors.TwoBoardsError` naming both when a whole board no skin reads
    lies beside the board ``located`` in the picture ``frame`` (BGR)."""
    unread = unread_boards_beside(frame, located.grid)
    if unread:
        raise two_boards_error([describe_board(located), *map(describe_unread, unread)])


def unread_boards_beside(frame: np.ndarray, grid: Grid) -> list[Lattice]:
    """The whole lattices (at least :data:`MIN_BOARD_CELLS` cells, each side at a frame) in
    ``frame`` (BGR) outside the board ``grid``, blanked out with a cell round it (its own
    window's bevels and counters are no board)."""
    h, w = frame.shape[:2]
    pad = int(np.ceil(max(grid.pitch_x, grid.pitch_y)))
    x0, y0, x1, y1 = (int(round(v)) for v in grid.bounds)
    x0, y0, x1, y1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    # No side has room for the smallest lattice the finder takes: nothing to look at (a
    # window's own capture round its board).
    room = max(x0, w - x1, y0, h - y1)
    if room < MIN_CELLS * MIN_PITCH:
        return []
    rest = frame[..., :3].copy() if frame.ndim == 3 else np.repeat(frame[..., None], 3, axis=2)
    rest[y0:y1, x0:x1] = BLANK
    try:
        found = find_lattices(rest, min_pitch=MIN_PITCH)
    except LatticeError:
        return []
    return [
        lat
        for lat in found
        if lat.cols * lat.rows >= MIN_BOARD_CELLS
        and not _overlaps(lat.box, (x0, y0, x1, y1))
        and lattice_problem(rest, lat) is None
    ]


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def describe_unread(lattice: Lattice) -> str:
    """``a board of 9x9 cells no skin reads at x 726..987, y 127..388`` (for messages)."""
    x0, y0, x1, y1 = lattice.box
    size = f"{lattice.cols}x{lattice.rows}"
    return f"a board of {size} cells no skin reads at x {x0}..{x1}, y {y0}..{y1}"
