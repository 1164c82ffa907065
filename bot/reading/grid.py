"""The cell lattice of a board in frame pixels: where each cell is, and which cell a pixel is in.

Its own module so that locating, classifying, reading and drawing all use it without importing
each other.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Grid:
    """The cell lattice in frame pixels.

    ``left``, ``top``: where cell (0, 0)'s top-left corner is; ``pitch_x``, ``pitch_y``: distance
    from one cell to the next (float: desktop scaling makes it fractional).

    >>> g = Grid(left=10, top=20, pitch_x=16, pitch_y=16, cols=9, rows=9)
    >>> g.cell_rect(1, 2)
    (26, 52, 16, 16)
    >>> g.cell_center(0, 0)
    (18.0, 28.0)
    >>> g.bounds
    (10.0, 20.0, 154.0, 164.0)
    >>> g.cell_at(27.5, 53), g.cell_at(5, 5)
    ((1, 2), None)
    >>> uneven = Grid(0, 0, 32.5, 32.5, 3, 1, col_offsets=(0.0, 0.5, -0.5))
    >>> uneven.cell_rect(1, 0), uneven.cell_at(33, 10), uneven.cell_at(32.4, 10)
    ((33, 0, 33, 32), (1, 0), (0, 0))
    """

    left: float
    top: float
    pitch_x: float
    pitch_y: float
    cols: int
    rows: int
    #: Games that share out spare pixels between cells (GNOME Mines: some cells one pixel wider)
    #: put each column and row a little off the even lattice: these are those offsets in px
    #: (empty: an even lattice).
    col_offsets: tuple[float, ...] = ()
    row_offsets: tuple[float, ...] = ()
    #: Cells of a game that draws them in whole pixels (uneven lattices), as a desktop's scaler
    #: stretched them: read at the pitch itself, not at the wider whole-pixel size the game
    #: drew (GNOME Mines' 26 px cells at 125 % are 32.5 px, not 33).
    stretched: bool = False

    @classmethod
    def from_lines(cls, xs: tuple[int, ...], ys: tuple[int, ...]) -> Grid:
        """The grid whose column lines are at ``xs`` and row lines at ``ys`` (a lattice found
        without a skin, :class:`bot.reading.lattice.Lattice`): the mean pitch, each line's
        offset from it.

        >>> g = Grid.from_lines((0, 33, 65, 98), (0, 32))
        >>> g.cols, g.rows, g.pitch_x, g.col_left(1), g.col_left(2)
        (3, 1, 32.666666666666664, 33.0, 65.0)
        """
        px = (xs[-1] - xs[0]) / (len(xs) - 1)
        py = (ys[-1] - ys[0]) / (len(ys) - 1)
        cols = tuple(float(x - xs[0] - i * px) for i, x in enumerate(xs[:-1]))
        rows = tuple(float(y - ys[0] - j * py) for j, y in enumerate(ys[:-1]))
        return cls(float(xs[0]), float(ys[0]), px, py, len(xs) - 1, len(ys) - 1, cols, rows)

    def col_left(self, x: int) -> float:
        """Frame x of column ``x``'s left edge (``x`` may be ``cols``: the right edge)."""
        off = self.col_offsets[min(x, self.cols - 1)] if self.col_offsets else 0.0
        return self.left + x * self.pitch_x + off

    def row_top(self, y: int) -> float:
        """Frame y of row ``y``'s top edge (``y`` may be ``rows``: the bottom edge)."""
        off = self.row_offsets[min(y, self.rows - 1)] if self.row_offsets else 0.0
        return self.top + y * self.pitch_y + off

    def cell_rect(self, x: int, y: int) -> tuple[int, int, int, int]:
        """``(left, top, width, height)`` of cell ``(x, y)`` in whole frame pixels."""
        left = round(self.col_left(x))
        top = round(self.row_top(y))
        right = round(self.col_left(x) + self.pitch_x)
        bottom = round(self.row_top(y) + self.pitch_y)
        return left, top, right - left, bottom - top

    def cell_center(self, x: int, y: int) -> tuple[float, float]:
        """The middle of cell ``(x, y)`` in frame pixels (where to click)."""
        return (self.col_left(x) + 0.5 * self.pitch_x, self.row_top(y) + 0.5 * self.pitch_y)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """``(left, top, right, bottom)`` of the whole board in frame pixels."""
        return (
            self.col_left(0),
            self.row_top(0),
            self.col_left(self.cols - 1) + self.pitch_x,
            self.row_top(self.rows - 1) + self.pitch_y,
        )

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        """The cell holding frame pixel ``(px, py)``, or None outside the board."""
        x = int(np.floor((px - self.left) / self.pitch_x))
        y = int(np.floor((py - self.top) / self.pitch_y))
        # Uneven lattices: the pixel may sit in a neighbour of the even guess.
        x = next((c for c in (x, x - 1, x + 1) if 0 <= c < self.cols
                  and self.col_left(c) <= px < self.col_left(c) + self.pitch_x), x)  # fmt: skip
        y = next((r for r in (y, y - 1, y + 1) if 0 <= r < self.rows
                  and self.row_top(r) <= py < self.row_top(r) + self.pitch_y), y)  # fmt: skip
        return (x, y) if 0 <= x < self.cols and 0 <= y < self.rows else None

    def part(self, x: int, y: int, cols: int, rows: int) -> Grid:
        """The grid of the ``cols`` x ``rows`` cells from cell ``(x, y)`` on, lines offset as here.

        >>> Grid(10, 20, 16, 16, 9, 9).part(2, 1, 3, 4).bounds
        (42.0, 36.0, 90.0, 100.0)
        """
        return replace(
            self,
            left=float(self.left + x * self.pitch_x),
            top=float(self.top + y * self.pitch_y),
            cols=cols,
            rows=rows,
            col_offsets=self.col_offsets[x : x + cols],
            row_offsets=self.row_offsets[y : y + rows],
        )

    def moved(self, dx: float, dy: float) -> Grid:
        """The same grid shifted by ``(dx, dy)`` pixels (a crop or an offset desktop)."""
        return replace(self, left=self.left + dx, top=self.top + dy)
