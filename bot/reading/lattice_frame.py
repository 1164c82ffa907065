"""Where a lattice found in a picture ends at the board's frame (see :mod:`bot.reading.lattice`):
the checks of :mod:`bot.reading.whole` on a lattice, and the pixel or two a lattice found is
moved by to pass them."""

from __future__ import annotations

import numpy as np

from bot.reading.grid import Grid
from bot.reading.lattice_lines import Lattice
from bot.reading.whole import GOES_ON, board_problem

#: Farthest a lattice found is moved (share of the pitch, at least :data:`FRAME_SHIFT_PX`) to
#: where the board ends at its frame. The fixtures, also at 200 and 300 %, were found whole
#: at most 2 px off at 16 px and 4 px at 93 px; each shift tried costs a whole-board check
#: (tens of ms on big cells), and a cut board tries them all (841 at 113 px: 33 s).
FRAME_SHIFT = 0.06
#: Farthest a lattice found is moved at any pitch (px): a boundary put on the wrong side of a
#: grid line or bevel (Wine's Minesweeper at 16 px: 1 and 2 px).
FRAME_SHIFT_PX = 2


def framed_lattice(image: np.ndarray, lattice: Lattice) -> Lattice:
    """``lattice``, or the same lattice moved by a pixel or two to where the board ends at its
    frame on all four sides (:func:`bot.reading.whole.board_problem`) when it does not as
    found (the nearest such place): a boundary put on the wrong side of a grid line or a
    bevel leaves a strip of the edge cells outside the board, or takes in a strip of what
    lies beyond (winemine's counters, four pixels above its board, for the top row)."""
    rx = max(FRAME_SHIFT_PX, int(FRAME_SHIFT * lattice.pitch_x + 0.5))
    ry = max(FRAME_SHIFT_PX, int(FRAME_SHIFT * lattice.pitch_y + 0.5))
    shifts = sorted(
        ((dx, dy) for dx in range(-rx, rx + 1) for dy in range(-ry, ry + 1) if dx or dy),
        key=lambda d: (abs(d[0]) + abs(d[1]), d),
    )
    # The lattice where it was found first, then moved; sides ending at a plain frame first:
    # with a header taken for the end of a side, Wine's Minesweeper's lattice two pixels up
    # (the counters' lower edge in its top row) passed. Only places whose top side alone was
    # in doubt are tried again with a header beyond it.
    headed = []
    for dx, dy in [(0, 0), *shifts]:
        moved = lattice.shifted(dx, dy) if dx or dy else lattice
        problem = lattice_problem(image, moved, headers=False)
        if problem is None:
            return moved
        if problem.startswith(GOES_ON.format("top")):
            headed.append(moved)
    for moved in headed:
        if lattice_problem(image, moved) is None:
            return moved
    return lattice


def whole_lattice(image: np.ndarray, lattice: Lattice) -> bool:
    """Whether ``lattice`` lies inside ``image`` and ends at a frame on all four sides
    (:func:`bot.reading.whole.board_problem`)."""
    return lattice_problem(image, lattice) is None


def lattice_problem(image: np.ndarray, lattice: Lattice, headers: bool = True) -> str | None:
    """Why ``lattice`` is not a whole board in ``image`` (outside it, or
    :func:`bot.reading.whole.board_problem`, ``headers`` as there), or None."""
    frame = image[..., :3] if image.ndim == 3 else np.repeat(image[..., None], 3, axis=2)
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = lattice.box
    if not (x0 >= 0 and y0 >= 0 and x1 <= w and y1 <= h):
        return "the lattice runs off the picture"
    return board_problem(frame, Grid.from_lines(lattice.xs, lattice.ys), headers)
