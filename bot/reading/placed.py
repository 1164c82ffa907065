"""The lattice a board is searched on, and the lines of an uneven lattice (a game that shares
out spare pixels draws cells of two widths) placed one by one where the skin's cells read best.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from bot.reading.banks import sample_step
from bot.reading.classify import classify_cells
from bot.reading.grid import Grid
from bot.reading.lines import steady_moves
from bot.reading.skins import Skin
from bot.reading.state import ToneCurve

__all__ = ["SearchLattice", "fit_offsets", "lattice_grid", "placed_lines", "read_lines"]


@dataclass(frozen=True)
class SearchLattice:
    """The lattice a board is searched on: phase ``(fx, fy)``, pitch, the lattice indices
    ``(kx0, ky0, kx1, ky1)`` inside the search area and, on uneven lattices, each line's offset
    from the even lattice (index 0: line ``kx0`` / ``ky0``)."""

    fx: float
    fy: float
    px: float
    py: float
    limits: tuple[int, int, int, int]
    col_offsets: tuple[float, ...] = ()
    row_offsets: tuple[float, ...] = ()

    def grid(self, x0: int, y0: int, x1: int, y1: int) -> Grid:
        """The grid of lattice cells ``x0..x1`` by ``y0..y1`` (inclusive), lines offset."""
        kx0, ky0 = self.limits[:2]
        return replace(
            lattice_grid(self.fx, self.fy, self.px, self.py, x0, y0, x1, y1),
            col_offsets=self.col_offsets[x0 - kx0 : x1 - kx0 + 1],
            row_offsets=self.row_offsets[y0 - ky0 : y1 - ky0 + 1],
        )


def placed_lines(frame: np.ndarray, grid: Grid, skin: Skin) -> Grid:
    """``grid`` with each column and row of an uneven lattice moved to where ``skin``'s cells
    read best, the lines placed together (:func:`fit_offsets`); ``grid`` itself for a skin of
    even lattices. A lattice found without a skin is even: GNOME Mines' first four columns of
    37 px before the 36 px ones put every later column of a 36 px lattice 4 px off."""
    if not skin.uneven_px:
        return grid
    window = (0, 0, grid.cols - 1, grid.rows - 1)
    lattice = SearchLattice(
        grid.left,
        grid.top,
        grid.pitch_x,
        grid.pitch_y,
        window,
        grid.col_offsets or (0.0,) * grid.cols,
        grid.row_offsets or (0.0,) * grid.rows,
    )
    reach = skin.uneven_at(grid.pitch_x, grid.pitch_y)
    return fit_offsets(frame, skin, lattice, window, sample_step(skin), reach).grid(*window)


def read_lines(frame: np.ndarray, grid: Grid, skin: Skin, tone: ToneCurve | None = None) -> Grid:
    """``grid`` (an uneven lattice a desktop's scaler stretched) with each row, then each
    column, that holds cells the reader cannot read moved by whole pixels (up to the skin's
    reach at that scale) to where more of its cells read clearly, as the reader reads them
    (as drawn, or through ``tone``, the curve the board was found through; the pixels telling
    a winner from its runner-up judged too); ``grid`` itself when every cell reads or no move
    reads more. The locator reads cells more loosely: GNOME Mines' last two rows, a pixel
    shorter than the rest, stretched to 175 % lay 3 and 4 px off, and their flags read as
    question marks by a margin of 0.04."""
    if not (grid.col_offsets or grid.row_offsets):
        return grid
    reach = skin.uneven_at(grid.pitch_x, grid.pitch_y)

    def clear(trial: Grid) -> np.ndarray:
        scores = classify_cells(frame, trial, skin, through=tone, tell=True)
        return scores.clear(skin)

    if reach <= skin.uneven_px:
        # As the game drew it, the lines placed within its own reach; or a desktop stretched
        # whole-pixel cells to a fraction, which only an even lattice at that pitch reads.
        return _stretched(grid, skin, clear)
    unclear = ~clear(grid)
    if not unclear.any():
        return grid
    most = int(np.ceil(reach))
    moves = [float(m) for m in range(-most, most + 1) if m]
    grid = _lines_moved(grid, 0, clear, moves, unclear)  # rows
    unclear = ~clear(grid)  # the columns holding cells still unclear once the rows moved
    return _lines_moved(grid, 1, clear, moves, unclear) if unclear.any() else grid


def _lines_moved(
    grid: Grid,
    axis: int,
    clear: Callable[[Grid], np.ndarray],
    moves: list[float],
    unclear: np.ndarray,
) -> Grid:
    """``grid`` with each row (``axis`` 0) or column holding ``unclear`` cells moved by the one
    of ``moves`` (px) that reads most of its cells (``clear``: which cells of a grid read
    clearly), if any reads more than where it is."""
    length = grid.cols if axis == 0 else grid.rows
    for k in map(int, np.flatnonzero(unclear.any(axis=1 - axis))):
        best, read = 0.0, int(clear(_line(grid, axis, k)).sum())
        for move in moves if read < length else ():
            trial = int(clear(_line(_moved(grid, axis, k, move), axis, k)).sum())
            if trial > read:
                best, read = move, trial
        grid = _moved(grid, axis, k, best)
    return grid


#: Steps (px) the lines of a stretched lattice are moved by to where its cells read.
STRETCH_STEP = 0.25


def _stretched(grid: Grid, skin: Skin, clear: Callable[[Grid], np.ndarray]) -> Grid:
    """``grid`` (an uneven lattice, lines on whole pixels) when all its cells read (``clear``:
    which cells of a grid read clearly); else, if every cell of it reads so, the lattice as a
    desktop's scaler stretches whole-pixel cells: even at the pitch its lines show (the
    median of their pairwise slopes: a few rows one pixel short in the game leave it), moved
    as a whole, then line by line (the game's shorter lines), in quarter pixels to where most
    cells read. GNOME Mines' 26 px cells at 125 % bilinear are 32.5 px apart: placed on whole
    pixels and read as 33 px cells, 71 of 480 did not read."""
    xs = np.array([grid.col_left(k) for k in range(grid.cols + 1)])
    ys = np.array([grid.row_top(k) for k in range(grid.rows + 1)])
    # (the last line is the far side, at the pitch from the last: not the game's own width)
    if skin.spare_first and all((np.diff(np.round(v[:-1]), 2) <= 0).all() for v in (xs, ys)):
        return grid  # the wider cells first, as the game shares out its spare pixels
    unclear = ~clear(grid)
    if not unclear.any():
        return grid
    (left, px), (top, py) = _even_fit(xs), _even_fit(ys)
    even = Grid(left, top, px, py, grid.cols, grid.rows, stretched=True)
    most = skin.uneven_px
    nudges = np.arange(-0.5, 0.5 + 1e-9, STRETCH_STEP)
    best, read = even, -1
    for dx in nudges:
        for dy in nudges:
            nudged = even.moved(float(dx), float(dy))
            count = int(clear(nudged).sum())
            if count > read:
                best, read = nudged, count
    moves = [float(m) for m in np.arange(-most, most + 1e-9, STRETCH_STEP) if m]
    for axis in (0, 1):  # rows, then columns
        best = _lines_moved(best, axis, clear, moves, ~clear(best))
    return best if clear(best).all() else grid


def _even_fit(lines: np.ndarray) -> tuple[float, float]:
    """``(first line, pitch)`` of the even lattice nearest ``lines``: the median of the pairwise
    slopes (Theil-Sen), so lines a game left a pixel or two off do not tilt it."""
    i, j = np.triu_indices(lines.size, 1)
    pitch = float(np.median((lines[j] - lines[i]) / (j - i)))
    return float(np.median(lines - pitch * np.arange(lines.size))), pitch


def _line(grid: Grid, axis: int, k: int) -> Grid:
    """Row (``axis`` 0) or column ``k`` of ``grid`` as a grid of its own."""
    if axis == 0:
        return replace(grid, top=grid.row_top(k), rows=1, row_offsets=())
    return replace(grid, left=grid.col_left(k), cols=1, col_offsets=())


def _moved(grid: Grid, axis: int, k: int, move: float) -> Grid:
    """``grid`` with row (``axis`` 0) or column ``k`` moved by ``move`` px."""
    if not move:
        return grid
    if axis == 0:
        rows = list(grid.row_offsets or (0.0,) * grid.rows)
        rows[k] += move
        return replace(grid, row_offsets=tuple(rows))
    cols = list(grid.col_offsets or (0.0,) * grid.cols)
    cols[k] += move
    return replace(grid, col_offsets=tuple(cols))


def fit_offsets(
    frame: np.ndarray,
    skin: Skin,
    lattice: SearchLattice,
    window: tuple[int, int, int, int],
    step: int,
    reach: float,
) -> SearchLattice:
    """Each column's, then each row's offset moved by whole pixels (up to ``reach``) to where
    the line's cells read best: the anchor matches place the lines only where they are, and a
    board of few anchors (a lost dense board is nearly all mines) leaves lines guessed between
    matches or beyond the last one."""
    wx0, wy0, wx1, wy1 = window
    kx0, ky0 = lattice.limits[:2]
    most = int(np.ceil(reach))
    moves = np.arange(-most, most + 1)
    for axis in (1, 0):  # columns (a line along axis 0 of the scores), then rows
        name = "col_offsets" if axis == 1 else "row_offsets"
        first, lo, hi = (kx0, wx0, wx1) if axis == 1 else (ky0, wy0, wy1)
        phase, pitch = (lattice.fx, lattice.px) if axis == 1 else (lattice.fy, lattice.py)
        offsets = np.array(getattr(lattice, name))
        # Such lattices are of whole-pixel cells: each line starts on a whole pixel.
        even = phase + (first + np.arange(offsets.size)) * pitch
        offsets = np.round(even + offsets) - even
        part = slice(lo - first, hi - first + 1)
        # Mean confidence of each line with all the window's lines moved by each amount.
        quality = []
        for move in moves:
            moved = offsets.copy()
            moved[part] += move
            changes: dict[str, Any] = {name: tuple(moved)}
            trial = replace(lattice, **changes)
            conf = classify_cells(frame, trial.grid(wx0, wy0, wx1, wy1), skin, step).confidence
            quality.append(conf.mean(axis=1 - axis))
        # Whole-pixel cells are a whole number of pixels wide, all within a pixel of the pitch
        # (more under a desktop's scaling): the lines are placed together, each as well as
        # its neighbours allow. A lossy picture's cells read about as well a pixel or two off,
        # and lines placed one by one then made cells of 31 and 34 px for 32.7.
        starts = (even + offsets)[part]
        spread = reach / skin.uneven_px  # 1, or the scale a desktop stretched them by
        # A desktop's scaler stretches wide and narrow cells alike: no order left then.
        ordered = skin.spare_first and spread <= 1
        best = steady_moves(np.array(quality), starts, moves, pitch, spread, ordered)
        # Lines beyond the window follow the nearest line inside it.
        offsets += np.interp(np.arange(offsets.size), np.arange(lo, hi + 1) - first, best)
        final: dict[str, Any] = {name: tuple(float(v) for v in offsets)}
        lattice = replace(lattice, **final)
    return lattice


def lattice_grid(
    fx: float, fy: float, px: float, py: float, x0: int, y0: int, x1: int, y1: int
) -> Grid:
    """The grid of lattice cells ``x0..x1`` by ``y0..y1`` (inclusive)."""
    return Grid(
        float(fx + x0 * px),
        float(fy + y0 * py),
        float(px),
        float(py),
        int(x1 - x0 + 1),
        int(y1 - y0 + 1),
    )
