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
from bot.reading.lattice import FAINT_STEP, MIN_CELLS, find_lattices
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
    found: list[Lattice] = []
    for ax, ay, bx, by in _edged_areas(rest, (x0, y0, x1, y1)):
        try:
            lattices = find_lattices(rest[ay:by, ax:bx], min_pitch=MIN_PITCH)
        except LatticeError:
            continue
        found += [Lattice(tuple(x + ax for x in lat.xs), tuple(y + ay for y in lat.ys))
                  for lat in lattices]  # fmt: skip
    return [
        lat
        for lat in found
        if lat.cols * lat.rows >= MIN_BOARD_CELLS
        and not _overlaps(lat.box, (x0, y0, x1, y1))
        and lattice_problem(rest, lat) is None
    ]


#: Side (px) of the squares a picture is sorted into before the lattice search: only areas of
#: squares with a colour step in them are searched (a flat desktop costs next to nothing).
TILE = 16


def _edged_areas(
    image: np.ndarray, blank: tuple[int, int, int, int]
) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` round the areas of ``image`` whose squares of :data:`TILE`
    px show a colour step of :data:`~bot.reading.lattice.FAINT_STEP` (between neighbours, before
    the finder's smoothing: never fewer steps than it sees), a square apart at most, padded by
    two squares, each cut to the part of the picture left of, right of, above and below the box
    ``blank`` (a board beside it lies wholly in one of them: the window round the board read
    is looked at as its four margins); those too small to hold :data:`MIN_CELLS` cells each way
    are left out.

    >>> desk = np.full((200, 300, 3), 90, np.uint8); desk[40:120, 100:180] = 200
    >>> _edged_areas(desk, (0, 0, 0, 0))
    [(64, 0, 224, 160)]
    >>> _edged_areas(desk, (90, 30, 190, 130))  # its margins: only the right one is wide enough
    [(190, 0, 224, 160)]
    """
    import cv2

    h, w = image.shape[:2]
    rows, cols = -(-h // TILE), -(-w // TILE)
    edged = np.zeros((rows, cols), np.uint8)
    for dx, dy in ((1, 0), (0, 1)):
        # Each square's share of pixels a step of FAINT_STEP in a channel from the one left of or
        # above them (OpenCV's threshold and area mean over whole squares: a whole desktop in a
        # few milliseconds): any share is some.
        marked = np.zeros((rows * TILE, cols * TILE, 3), np.uint8)
        marked[dy:h, dx:w] = cv2.absdiff(image[dy:, dx:], image[: h - dy, : w - dx])
        _, marked = cv2.threshold(marked, FAINT_STEP - 1, 255, cv2.THRESH_BINARY)
        share = cv2.resize(marked, (cols, rows), interpolation=cv2.INTER_AREA)
        edged |= (share.max(axis=2) > 0).astype(np.uint8)
    edged = cv2.dilate(edged, np.ones((3, 3), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(edged, connectivity=8)
    bx0, by0, bx1, by1 = blank
    margins = [(0, 0, bx0, h), (bx1, 0, w, h), (0, 0, w, by0), (0, by1, w, h)]
    if bx1 <= bx0 or by1 <= by0:
        margins = [(0, 0, w, h)]
    boxes = []
    for left, top, width, height, _ in stats[1:count]:
        x0, y0 = max(0, (left - 1) * TILE), max(0, (top - 1) * TILE)
        x1, y1 = min(w, (left + width + 1) * TILE), min(h, (top + height + 1) * TILE)
        for mx0, my0, mx1, my1 in margins:
            ax, ay, bx, by = (
                int(v) for v in (max(x0, mx0), max(y0, my0), min(x1, mx1), min(y1, my1))
            )
            if min(bx - ax, by - ay) >= MIN_CELLS * MIN_PITCH:
                boxes.append((ax, ay, bx, by))
    return boxes


def _overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def describe_unread(lattice: Lattice) -> str:
    """``a board of 9x9 cells no skin reads at x 726..987, y 127..388`` (for messages)."""
    x0, y0, x1, y1 = lattice.box
    size = f"{lattice.cols}x{lattice.rows}"
    return f"a board of {size} cells no skin reads at x {x0}..{x1}, y {y0}..{y1}"
