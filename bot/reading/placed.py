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

__all__ = ["SearchLattice", "fit_offsets", "lattice_grid", "placed_lines"]


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
