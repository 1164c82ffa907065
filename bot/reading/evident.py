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

__all__ = ["drawn_classes", "flat_classes", "lattice_shown", "unseen_lattice"]

#: The colour steps along a board's lines must be this many times those through its cells'
#: middles ...
SHOWN_RATIO = 2.0
#: ... and this many levels more (a flat picture shows no lattice at all).
SHOWN_LEVELS = 2.0


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


def _steps(profile: np.ndarray, at: np.ndarray) -> float:
    """The mean over positions ``at`` of the largest step of ``profile`` (steps between
    neighbouring pixels; index i: between pixels i and i + 1) within a pixel of each."""
    n = profile.size
    picked = [profile[max(i - 2, 0) : min(i + 1, n)].max(initial=0.0) for i in at.tolist()]
    return float(np.mean(picked)) if picked else 0.0


def _axis_shown(steps: np.ndarray, start: float, pitch: float, cells: int) -> bool:
    """Whether the colour steps ``steps`` (along one axis of the board's box, from ``start``)
    are stronger along the lines between its ``cells`` cells of ``pitch`` than through the
    cells' middles."""
    inner = np.arange(1, cells)
    lines = np.rint(inner * pitch + start).astype(int)
    middles = np.rint((np.arange(cells) + 0.5) * pitch + start).astype(int)
    on, off = _steps(steps, lines), _steps(steps, middles)
    return on >= SHOWN_RATIO * off + SHOWN_LEVELS


def lattice_shown(frame: np.ndarray, grid: Grid) -> bool:
    """Whether the picture's colour steps inside ``grid``'s box fall on its lines, not
    through its cells' middles, along both axes (a board of one cell a side: no)."""
    if grid.cols < 2 or grid.rows < 2:
        return False
    h, w = frame.shape[:2]
    x0, y0, x1, y1 = (int(round(v)) for v in grid.bounds)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    box = frame[y0:y1, x0:x1, :3].astype(np.int16)
    if min(box.shape[:2]) < 3:
        return False
    across = np.abs(np.diff(box, axis=1)).max(axis=2).mean(axis=0)  # steps along x
    down = np.abs(np.diff(box, axis=0)).max(axis=2).mean(axis=1)  # steps along y
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
