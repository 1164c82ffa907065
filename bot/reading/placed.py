"""The lattice a board is searched on, and the lines of an uneven lattice (a game that shares
out spare pixels draws cells of two widths) placed one by one where the skin's cells read best.
"""

from __future__ import annotations

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
    if reach <= skin.uneven_px:
        return grid  # as the game drew it: the lines were placed within its own reach

    def clear(trial: Grid) -> np.ndarray:
        scores = classify_cells(frame, trial, skin, through=tone, tell=True)
        return scores.clear(skin)

    unclear = ~clear(grid)
    if not unclear.any():
        return grid
    most = int(np.ceil(reach))
    moves = [m for m in range(-most, most + 1) if m]
    for axis in (0, 1):  # rows, then columns
        length = grid.cols if axis == 0 else grid.rows
        for k in map(int, np.flatnonzero(unclear.any(axis=1 - axis))):
            best, read = 0, int(clear(_line(grid, axis, k)).sum())
            for move in moves if read < length else ():
                trial = int(clear(_line(_moved(grid, axis, k, move), axis, k)).sum())
                if trial > read:
                    best, read = move, trial
            grid = _moved(grid, axis, k, best)
        if axis == 0:  # the columns holding cells still unclear once the rows moved
            unclear = ~clear(grid)
            if not unclear.any():
                break
    return grid


def _line(grid: Grid, axis: int, k: int) -> Grid:
    """Row (``axis`` 0) or column ``k`` of ``grid`` as a grid of its own."""
    if axis == 0:
        return replace(grid, top=grid.row_top(k), rows=1, row_offsets=())
    return replace(grid, left=grid.col_left(k), cols=1, col_offsets=())


def _moved(grid: Grid, axis: int, k: int, move: int) -> Grid:
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
