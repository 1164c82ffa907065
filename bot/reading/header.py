"""A header close to the board's top side, told from a next row of cells.

Games draw a mine counter and a button above the board, some a few pixels above it in the
colour of their open cells (ace-minesweeper: 5 px above its 36 px cells), where a board found a
row short shows the bottom of its next row. The strip beyond the side varies in its first lines
either way; two things tell them apart:

1. Cells repeat cell by cell along the side (:func:`repeats`); a counter and a button do not.
2. Every cell of a next row looks, round its edge, like some cell of the board's own top rows
   (a number, a flag or a mine changes a cell's middle; the bevel, the lines between cells and
   a see-through cell's background stay); a header's counter, its button and the window's
   edge beyond it do not (:func:`cells_unlike_above`).

>>> tile = np.full((20, 20, 3), 200, np.uint8); tile[:2] = 255; tile[:, :2] = 255
>>> window = np.full((100, 100, 3), 120, np.uint8); window[30:90, 10:90] = np.tile(tile, (3, 4, 1))
>>> from bot.reading.grid import Grid
>>> cells_unlike_above(window, Grid(10, 50, 20, 20, 4, 2))  # a row short: the next row is cells
0
>>> window[10:28, 10:90] = 40; window[12:26, 16:40] = (0, 220, 255)  # a header 2 px above
>>> cells_unlike_above(window, Grid(10, 30, 20, 20, 4, 3))
4
"""

from __future__ import annotations

import numpy as np

from bot.reading.grid import Grid

#: The share of a profile's variation that one cell's lag must keep for it to repeat cell by
#: cell (:func:`repeats`).
CELL_REPEAT = 0.5
#: How much of a cell round its edge is compared (:func:`cells_unlike_above`), as a share of
#: the pitch on each side.
EDGE_BAND = 0.2
#: Least variation (0-255, root mean square of the profile less its running mean) for a profile
#: to show anything repeating (:func:`repeats`): a JPEG rings beside a fence's posts over a flat
#: sky in under a level (0.2-0.3 at quality 75-95), at the posts' pitch, where the clean
#: picture is flat; the cells of a board vary by tens of levels.
REPEAT_FLOOR = 1.0
#: Largest mean difference (0-255) round the edge between a cell beyond the side and the
#: board's own cell it looks like most (noise of sigma 8 gives about 9).
EDGE_TOLERANCE = 20.0
#: Board rows a cell beyond the top side is compared with (the outer ones: a gradient behind
#: see-through cells changes slowly).
ROWS_COMPARED = 2


def repeats(pixels: np.ndarray, pitch: float) -> bool:
    """Whether ``pixels`` (``[depth, along, channels]``) repeat cell by cell along a side: their
    profile along it (the mean over the depth, less its running mean over a cell, so a wide
    block counts by its edges only) correlates with itself a ``pitch`` on by at least
    :data:`CELL_REPEAT` (more cells do; a header's counter and button do not); True where the
    profile is under three cells long (too short to tell).

    >>> cells = np.tile(np.r_[np.zeros(4), np.full(12, 200.0)], 8)[None, :, None]
    >>> header = np.r_[np.zeros(30), np.full(40, 200.0), np.zeros(58)][None, :, None]
    >>> repeats(cells, 16), repeats(header, 16), repeats(cells / 400, 16)  # (under a level)
    (True, False, False)
    """
    import cv2

    profile = pixels.mean(axis=0).astype(np.float64)
    lag = int(round(pitch))
    if lag < 1 or profile.shape[0] < 3 * lag:
        return True
    mean = cv2.blur(profile[None], (lag, 1), borderType=cv2.BORDER_REFLECT)[0]
    detrended = (profile - mean.reshape(profile.shape))[lag:-lag]
    if float(np.sqrt((detrended * detrended).mean())) < REPEAT_FLOOR:
        return False
    a, b = detrended[:-lag], detrended[lag:]
    energy = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return energy > 0 and float((a * b).sum()) >= CELL_REPEAT * energy


def cells_unlike_above(frame: np.ndarray, grid: Grid) -> int:
    """How many of the cells a next row above the board would hold look, round their edge,
    like none of the board's cells in its top :data:`ROWS_COMPARED` rows (a mean difference
    over :data:`EDGE_TOLERANCE` along one of their edges). Where less than a cell of picture
    lies above, the cells' lower parts are compared."""
    size = int(round(grid.pitch_y))
    width = int(round(grid.pitch_x))
    top = int(round(grid.row_top(0)))
    depth = min(size, top)
    if depth < 2 or width < 2:
        return 0
    band_x = max(1, int(round(EDGE_BAND * width)))
    band_y = max(1, int(round(EDGE_BAND * size)))
    every = slice(None)
    bands = [(every, slice(None, band_x)), (every, slice(-band_x, None))]
    bands.append((slice(-band_y, None), every))
    if depth == size:
        bands.append((slice(None, band_y), every))
    lefts = [int(round(grid.col_left(k))) for k in range(grid.cols)]

    def row(bottom: int) -> np.ndarray:  # [cols, depth, width, channels]: cells' lower parts
        return np.stack([frame[bottom - depth : bottom, x : x + width, :3] for x in lefts])

    beyond = row(top).astype(np.float32)
    rows = range(min(ROWS_COMPARED, grid.rows))
    board = np.concatenate([row(int(round(grid.row_top(r + 1)))) for r in rows]).astype(np.float32)
    # Each band round the edge on its own: a window's edge or the desktop beyond a header
    # fills one band, and would be diluted over the whole ring.
    distance = np.max(
        [
            np.abs(beyond[:, None, ys, xs] - board[None, :, ys, xs]).mean(axis=(2, 3, 4))
            for ys, xs in bands
        ],
        axis=0,
    )  # [cells beyond, board cells]
    return int((distance.min(axis=1) > EDGE_TOLERANCE).sum())
