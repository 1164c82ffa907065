"""Find the cell grid of a Minesweeper board in a screenshot without knowing the skin.

A board is a regular lattice of equal cells: whatever the skin draws, the edges between and
inside cells repeat with the cell pitch, in both directions, over a large rectangle; nothing
else on a desktop does that over such an area. :func:`find_lattice` uses only that:

1. smooth the image (2x2 box, which flattens the one-pixel dithering some skins use) and mark
   the pixels where the colour jumps left-to-right (vertical edges) and top-to-bottom;
2. the pitch along each axis is the lag whose *harmonics* (p, 2p, 3p) gather the most edge
   coincidences (autocorrelation by FFT), refined to a fraction of a pixel so that boards on a
   scaled desktop (125%: 16 px -> 20 px, 21 px -> 26.25 px) are found too;
3. the board's area is where edges repeat at that pitch densely (largest connected blob);
4. the cell boundary is the strongest periodic edge (the line between cells, or the bright
   bevel of a covered cell), and the board runs from the first to the last cell whose block
   shows the skin's periodic edge pattern in both directions.

>>> import numpy as np
>>> tile = np.full((20, 20, 3), 190, np.uint8); tile[:2] = 0; tile[:, :2] = 0
>>> board = np.tile(tile, (8, 12, 1))                     # 12 x 8 cells of 20 px
>>> desk = np.full((300, 400, 3), 230, np.uint8); desk[50:210, 60:300] = board
>>> desk[210:212, 60:302] = 0; desk[50:212, 300:302] = 0  # the closing grid lines
>>> lat = find_lattice(desk)
>>> (lat.cols, lat.rows, round(lat.pitch_x, 2), round(lat.left), round(lat.top))
(12, 8, 20.0, 60, 50)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bot.errors import LatticeError
from bot.reading.lattice_extent import best_extent, even_ends
from bot.reading.lattice_lines import fit_axis, px
from bot.reading.lattice_pitch import EDGE_STEP, edge_maps, estimate_pitch, refine_pitch, repeating

__all__ = ["EDGE_STEP", "MIN_CELLS", "Lattice", "edge_maps", "estimate_pitch", "find_lattice",
           "refine_pitch"]  # fmt: skip

#: Fewest cells along each axis for a lattice to count as a board.
MIN_CELLS = 4


@dataclass(frozen=True)
class Lattice:
    """A board's cell grid in image pixels: the x of every column line, the y of every row line.

    Cell (x, y) spans ``xs[x] <= px < xs[x+1]`` and ``ys[y] <= py < ys[y+1]``. Lines are kept
    one by one because toolkits spread leftover pixels unevenly (gnome-mines: 33 px columns,
    then 32 px ones) and scaled desktops round each line on its own.

    >>> lat = Lattice.regular(left=10, top=20, pitch_x=16, pitch_y=16, cols=9, rows=9)
    >>> lat.cell_box(0, 0), lat.cell_box(8, 8)
    ((10, 20, 26, 36), (138, 148, 154, 164))
    >>> lat.center(1, 0), lat.cols, lat.rows
    ((34.0, 28.0), 9, 9)
    """

    xs: tuple[int, ...]
    ys: tuple[int, ...]

    @classmethod
    def regular(
        cls, left: float, top: float, pitch_x: float, pitch_y: float, cols: int, rows: int
    ) -> Lattice:
        """Evenly spaced lines (rounded half up)."""
        return cls(
            xs=tuple(px(left + i * pitch_x) for i in range(cols + 1)),
            ys=tuple(px(top + j * pitch_y) for j in range(rows + 1)),
        )

    @property
    def cols(self) -> int:
        return len(self.xs) - 1

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def pitch_x(self) -> float:
        return (self.xs[-1] - self.xs[0]) / self.cols

    @property
    def pitch_y(self) -> float:
        return (self.ys[-1] - self.ys[0]) / self.rows

    @property
    def left(self) -> int:
        return self.xs[0]

    @property
    def top(self) -> int:
        return self.ys[0]

    def cell_box(self, x: int, y: int) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)`` pixel box of cell (x, y), x1/y1 exclusive."""
        return self.xs[x], self.ys[y], self.xs[x + 1], self.ys[y + 1]

    def center(self, x: int, y: int) -> tuple[float, float]:
        """Pixel centre of cell (x, y)."""
        return (self.xs[x] + self.xs[x + 1]) / 2, (self.ys[y] + self.ys[y + 1]) / 2

    @property
    def box(self) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)`` of the whole board."""
        return self.xs[0], self.ys[0], self.xs[-1], self.ys[-1]

    def cells(self, image: np.ndarray, size: tuple[int, int] | None = None) -> np.ndarray:
        """All cells cut out as one array ``[rows, cols, h, w, channels]``.

        ``size`` (w, h) defaults to the most common cell size; a cell of another size (a
        wider column, a scaled desktop) is resized to it, so every cell has the same shape.
        """
        import cv2

        if size is None:
            widths = np.diff(self.xs)
            heights = np.diff(self.ys)
            size = (int(np.bincount(widths).argmax()), int(np.bincount(heights).argmax()))
        w, h = size
        img = image if image.ndim == 3 else image[:, :, None]
        out = np.empty((self.rows, self.cols, h, w, img.shape[2]), img.dtype)
        for y in range(self.rows):
            for x in range(self.cols):
                x0, y0, x1, y1 = self.cell_box(x, y)
                cell = img[y0:y1, x0:x1]
                if cell.shape[:2] != (h, w):
                    cell = cv2.resize(cell, (w, h), interpolation=cv2.INTER_AREA)
                    if cell.ndim == 2:
                        cell = cell[:, :, None]
                out[y, x] = cell
        return out

    def shifted(self, dx: int, dy: int) -> Lattice:
        """The same lattice with every line moved by ``dx``, ``dy`` pixels.

        >>> Lattice(xs=(0, 20, 40), ys=(5, 25)).shifted(1, -1)
        Lattice(xs=(1, 21, 41), ys=(4, 24))
        """
        return Lattice(tuple(x + dx for x in self.xs), tuple(y + dy for y in self.ys))

    def describe(self) -> str:
        """One line for people: ``30x16 cells, pitch 20.00x20.00 px, at (4, 28)``."""
        return (
            f"{self.cols}x{self.rows} cells, pitch {self.pitch_x:.2f}x{self.pitch_y:.2f} px, "
            f"at ({self.left}, {self.top})"
        )


def _largest_blob(mask: np.ndarray, weight: np.ndarray) -> tuple[int, int, int, int]:
    import cv2

    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        mask.astype(np.uint8), connectivity=8
    )
    if count <= 1:
        raise LatticeError("no repeating cell pattern found")
    sums = np.bincount(labels.ravel(), weights=weight.ravel(), minlength=count)
    sums[0] = -1
    k = int(np.argmax(sums))
    x, y, w, h = (int(v) for v in stats[k, :4])
    return x, y, x + w, y + h


def find_lattice(
    image: np.ndarray,
    min_pitch: int = 8,
    max_pitch: int = 100,
    min_cells: int = MIN_CELLS,
) -> Lattice:
    """The board's lattice in a screenshot (BGR, BGRA or grey), or :class:`LatticeError`.

    ``min_pitch``/``max_pitch`` bound the cell size in pixels; ``min_cells`` is the fewest
    cells along each axis. The error says what was missing, so the caller can tell the user
    what to capture instead.
    """
    import cv2

    vertical, horizontal = edge_maps(image)
    ev = vertical >= EDGE_STEP
    eh = horizontal >= EDGE_STEP
    if ev.sum() < 4 * min_cells or eh.sum() < 4 * min_cells:
        raise LatticeError("no board in the image: it has almost no edges")
    h, w = ev.shape
    max_pitch = max(min(max_pitch, w // min_cells, h // min_cells), min_pitch)
    px = estimate_pitch(ev, min_pitch, max_pitch)
    py = estimate_pitch(eh.T, min_pitch, max_pitch)

    # Where do the edges repeat at the pitch? Dense there = the board.
    rv, rh = repeating(ev, px, 1), repeating(eh, py, 0)
    repeat = (rv | rh).astype(np.float32)
    density = cv2.boxFilter(repeat, -1, (px, py), normalize=True)
    if density.max() <= 0:
        raise LatticeError("no repeating cell pattern found")
    x0, y0, x1, y1 = _largest_blob(density >= 0.3 * density.max(), repeat)

    # Only edges that repeat at the pitch speak for the lattice (not counters, text, frames).
    axs = fit_axis((rv[y0:y1] * vertical[y0:y1]).sum(axis=0), px, x0, x1)
    ays = fit_axis((rh[:, x0:x1] * horizontal[:, x0:x1]).sum(axis=1), py, y0, y1)
    ax, (first_col, ncols) = best_extent(ev, eh, axs, ays[0], (y0, y1))
    ay, (first_row, nrows) = best_extent(eh.T, ev.T, ays, axs[0], (x0, x1))
    if ncols < min_cells or nrows < min_cells:
        raise LatticeError(
            f"the repeating pattern found is only {ncols}x{nrows} cells: no board in the image"
        )
    return Lattice(
        xs=even_ends(ax.lines[first_col : first_col + ncols + 1]),
        ys=even_ends(ay.lines[first_row : first_row + nrows + 1]),
    )
