"""A board of flat cells is read only where the picture shows its lattice.

A skin whose cells are flat tones (a web clone's covered cells: squares of two greens a few
levels apart, no bevel, no line between them) matches a stretch of those cells at any pitch:
its flat covered image fits a block of four of them as well as one (such a fresh board of
13x13 cells read as 5x5 cells of twice the pitch). Where every cell of the board found reads
as such a flat class, nothing in the cells tells the pitch; the picture does only if its
colour steps line up with the board's lines and not with the middles of its cells.

>>> import numpy as np
>>> from bot.reading.grid import Grid
>>> shades = (np.indices((6, 6)).sum(axis=0) % 2) * 8 + 120   # a checkerboard, 8 levels apart
>>> board = np.repeat(np.repeat(shades, 10, 0), 10, 1).astype(np.uint8)
>>> frame = np.repeat(board[:, :, None], 3, axis=2)
>>> lattice_shown(frame, Grid(0, 0, 10, 10, 6, 6)), lattice_shown(frame, Grid(0, 0, 20, 20, 3, 3))
(True, False)
"""

from __future__ import annotations

import numpy as np

from bot.reading.anchors import FLAT_VARIANCE
from bot.reading.grid import Grid
from bot.reading.skins import Skin

__all__ = [
    "colour_steps",
    "drawn_classes",
    "flat_classes",
    "lattice_shown",
    "line_unseen",
    "unseen_lattice",
]

#: The colour steps along a board's lines must be this many times those through its cells'
#: middles ...
SHOWN_RATIO = 2.0
#: ... and this many levels more (a flat picture shows no lattice at all).
SHOWN_LEVELS = 2.0
#: The outer line of cells along a side of a board shows the lines between its cells when the
#: colour steps on them are at least this many times the line's quiet steps (this percentile
#: of its steps: what noise or JPEG leave where nothing is drawn; numbers' glyphs and bevels
#: make the rest) ...
EDGE_RATIO = 1.25
FLOOR_PERCENTILE = 25
#: ... and this many levels more: a margin has no steps at all, or noise's everywhere alike ...
EDGE_LEVELS = 4.0
#: ... at this share of the lines at least (a side panel's buttons meet a few of them).
EDGE_SHARE = 0.5
#: How far from where the lattice puts a line its step is looked for (a share of the pitch;
#: at least a pixel).
LINE_REACH = 0.03
#: Only a line quiet along most of its length (the median step, levels) is judged so: a line
#: of numbers and mines is busy everywhere, and the faint lines between KMines' cells (16
#: levels) stand out from no quiet stretch; a margin or a panel is quiet but for a few marks.
QUIET_LEVELS = 4.0


def _flat(skin: Skin, grid: Grid) -> np.ndarray:
    """Whether each class's image (in the skin's template bank at ``grid``'s scale) is one
    flat tone: its grey variance below the anchors' :data:`FLAT_VARIANCE` (``[classes]``)."""
    from bot.reading.banks import sample_step, template_bank
    from bot.reading.matching import cell_scale

    bank = template_bank(skin, *cell_scale(grid, skin), sample_step(skin))
    shown = bank.mask.reshape(-1, 3)[:, 0]
    return np.array([bank.u8[start].reshape(-1, 3)[shown].mean(axis=1).var() < FLAT_VARIANCE
                     for start in bank.starts[:-1]], bool)  # fmt: skip


def drawn_classes(skin: Skin, grid: Grid) -> np.ndarray:
    """The classes (indices into the skin's template bank at ``grid``'s scale) whose image is
    not one flat tone: its grey variance at least the anchors' :data:`FLAT_VARIANCE`."""
    return np.flatnonzero(~_flat(skin, grid))


def flat_classes(skin: Skin, grid: Grid) -> np.ndarray:
    """The classes (indices, as :func:`drawn_classes`) whose image is one flat tone."""
    return np.flatnonzero(_flat(skin, grid))


def _near_steps(profile: np.ndarray, at: np.ndarray, reach: int = 1) -> np.ndarray:
    """The largest step of ``profile`` (steps between neighbouring pixels; index i: between
    pixels i and i + 1) within ``reach`` pixels of each position of ``at`` (position i: the
    boundary before pixel i, step i - 1); 0 where none lies in reach.

    >>> _near_steps(np.array([0.0, 5.0, 1.0, 0.0]), np.array([-1, 0, 1, 4, 5, 6])).tolist()
    [0.0, 0.0, 5.0, 1.0, 0.0, 0.0]
    """
    padded = np.r_[np.zeros(reach + 1), profile, np.zeros(2 * reach)]
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * reach + 1)
    near = windows.max(axis=1)  # position i's, for i in 0 .. profile.size + reach
    inside = (at >= 0) & (at < len(near))
    return np.where(inside, near[np.clip(at, 0, len(near) - 1)], 0.0)


def _steps(profile: np.ndarray, at: np.ndarray) -> float:
    """The mean over positions ``at`` of the largest step of ``profile`` within a pixel of
    each (see :func:`_near_steps`)."""
    return float(np.mean(_near_steps(profile, at))) if at.size else 0.0


def colour_steps(area: np.ndarray, axis: int) -> np.ndarray:
    """The mean over ``area`` (BGR) of the largest channel's step between neighbouring pixels
    along ``axis`` (0: down, 1: across), one value per step (levels).

    >>> area = np.zeros((2, 3, 3), np.uint8); area[:, 2] = (0, 9, 4); area[1, 1, 0] = 3
    >>> colour_steps(area, 1).tolist(), colour_steps(area, 0).tolist()
    ([1.5, 9.0], [1.0])
    """
    import cv2

    area = area[..., :3]
    # OpenCV's saturating absolute difference of uint8 pixels: no int16 copy of the area.
    step = cv2.absdiff(area[:, 1:], area[:, :-1]) if axis == 1 else cv2.absdiff(area[1:], area[:-1])
    largest = np.maximum(np.maximum(step[..., 0], step[..., 1]), step[..., 2])
    mean: np.ndarray = largest.mean(axis=1 - axis)
    return mean


def _axis_shown(steps: np.ndarray, start: float, pitch: float, cells: int) -> bool:
    """Whether the colour steps ``steps`` (along one axis of the board's box, from ``start``)
    are stronger along the lines between its ``cells`` cells of ``pitch`` than through the
    cells' middles."""
    inner = np.arange(1, cells)
    lines = np.rint(inner * pitch + start).astype(int)
    middles = np.rint((np.arange(cells) + 0.5) * pitch + start).astype(int)
    on, off = _steps(steps, lines), _steps(steps, middles)
    return on >= SHOWN_RATIO * off + SHOWN_LEVELS


def line_unseen(frame: np.ndarray, grid: Grid, side: str) -> str | None:
    """Why the outer line of ``grid``'s cells along ``side`` (``"left"``, ``"top"``,
    ``"right"`` or ``"bottom"``) is not known to be cells: the picture shows no lines between
    them along it (a margin of the covered cells' face colour read as covered cells where the
    skin's bevel, stretched, falls within the ring a scaled cell is not judged on; a side panel
    as open cells through a tone curve); else None. Every game draws its cells apart (a
    line, a gap, a bevel or a shade), so a line of a real board shows them.

    >>> tile = np.full((10, 10, 3), 200, np.uint8); tile[0] = 90
    >>> frame = np.full((40, 60, 3), 200, np.uint8); frame[:, 20:] = np.tile(tile, (4, 4, 1))
    >>> line_unseen(frame, Grid(20, 0, 10, 10, 4, 4), "left") is None
    True
    >>> line_unseen(frame, Grid(10, 0, 10, 10, 5, 4), "left")
    'the left column of cells at x 10..19, y 0..39 shows no lines between its cells'
    """
    if min(grid.cols, grid.rows) < 2:
        return None
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in grid.bounds)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    # A column is a row of the picture turned on its side.
    column = side in ("left", "right")
    (lo, hi), (start, end) = ((x0, x1), (y0, y1)) if column else ((y0, y1), (x0, x1))
    cut, along = (grid.col_left, grid.row_top) if column else (grid.row_top, grid.col_left)
    lines_across, cells = (grid.cols, grid.rows) if column else (grid.rows, grid.cols)
    k = 0 if side in ("left", "top") else lines_across - 1
    a, b = max(int(round(cut(k))), lo), min(int(round(cut(k + 1))), hi)
    if min(b - a, end - start) < 3:
        return None
    # The steps along the line (down a column, across a row), averaged across its width.
    steps = (
        colour_steps(frame[start:end, a:b], 0) if column else colour_steps(frame[a:b, start:end], 1)
    )
    edges = [along(i) - start for i in range(cells + 1)]
    where = (a, start, b, end) if column else (start, a, end, b)
    what = f"{side} {'column' if column else 'row'}"
    # The step on each line (an uneven lattice's where it is) against the line's quiet steps
    # (not those through the cells' middles, where numbers' glyphs step).
    lines = np.rint(edges[1:-1]).astype(int)
    # Within a pixel of each line, or more in big cells: a lattice still to be placed to the
    # pixel (a desktop's bilinear 300 % blurs GNOME Mines' gap over a few) may sit that far off.
    reach = max(1, int(round(LINE_REACH * (grid.pitch_y if column else grid.pitch_x))))
    # Each position's along the line whose window lies over it (index j: position j + 1 +
    # reach), and each line's (the nearest such position's where a line lies beyond them).
    near = _near_steps(steps, np.arange(1 + reach, steps.size + reach + 1), reach)
    on = near[np.clip(lines - 1 - reach, 0, len(near) - 1)]
    if float(np.median(near)) > QUIET_LEVELS:
        return None  # busy along most of it: numbers, mines, bevels (KMines' faint lines)
    floor = float(np.percentile(near, FLOOR_PERCENTILE))
    if (on >= EDGE_RATIO * floor + EDGE_LEVELS).mean() >= EDGE_SHARE:
        return None
    return (
        f"the {what} of cells at x {where[0]}..{where[2] - 1}, y {where[1]}..{where[3] - 1} "
        "shows no lines between its cells"
    )


def lattice_shown(frame: np.ndarray, grid: Grid) -> bool:
    """Whether the picture's colour steps inside ``grid``'s box fall on its lines, not
    through its cells' middles, along both axes (a board of one cell a side: no)."""
    if grid.cols < 2 or grid.rows < 2:
        return False
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in grid.bounds)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    box = frame[y0:y1, x0:x1]
    if min(box.shape[:2]) < 3:
        return False
    across, down = colour_steps(box, 1), colour_steps(box, 0)  # steps along x, along y
    return _axis_shown(across, grid.left - x0, grid.pitch_x, grid.cols) and _axis_shown(
        down, grid.top - y0, grid.pitch_y, grid.rows
    )


def unseen_lattice(
    frame: np.ndarray, skin: Skin, grid: Grid, classes: np.ndarray, flat: np.ndarray
) -> str | None:
    """Why the board of ``skin`` found at ``grid`` (its cells read as ``classes``, indices
    into the skin's bank) cannot be told from a board of other cells: every cell reads as one
    of the ``flat`` classes (:func:`flat_classes`) and the picture shows no lattice there;
    else None."""
    if not np.isin(classes, flat).all() or lattice_shown(frame, grid):
        return None
    x0, y0, x1, y1 = grid.bounds
    return (
        f"the {skin.name} cells read ({grid.cols}x{grid.rows} at x {x0:.0f}..{x1:.0f}, "
        f"y {y0:.0f}..{y1:.0f}) are all flat tones and the picture shows no lines between "
        "them: the board's size cannot be told"
    )
