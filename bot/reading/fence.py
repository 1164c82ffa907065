"""A frame drawn cell by cell: a fence round the board (see :mod:`bot.reading.whole`).

A frame beyond a board's side is flat along it, or at least has no marks at the cells' pitch:
where the picture beyond a side repeats cell by cell, the board's cells go on (a fragment, or
cells under a translucent window). KMines' "Gardens of Danger" theme breaks that rule: its
see-through fence has a post by every cell on all four sides. :func:`fenced` tells such a
fence from more cells by what more cells would show: something like the board's own cells, and
still repeating, or crossed by the lattice's lines, a whole cell beyond the side.
"""

from __future__ import annotations

import numpy as np

from bot.reading.grid import Grid
from bot.reading.header import repeats
from bot.reading.strips import (
    LINE_CONTRAST,
    LINE_SHARE,
    SIDES,
    Strip,
    band,
    bounds,
    lines_along,
    running_median,
    strip_beyond,
)

#: Most a strip drawn cell by cell may correlate with the board's cells at the same place for
#: it to be a frame (:func:`is_fence`): cells under a translucent window correlate nearly fully.
FENCE_LIKENESS = 0.5
#: Where beyond a side a fence has ended but more cells would go on (in cells from the side).
PAST_FENCE = (0.5, 1.0)


def lines_marked(pixels: np.ndarray, lines: np.ndarray, pitch: float) -> bool:
    """Whether at most of the lattice's ``lines`` the band ``pixels`` differs from its running
    median over two cells along the side (more cells' lines or gaps): the median of the whole
    band would not do where a landscape behind it changes along the side."""
    profile = pixels.mean(axis=0)  # [along, channels]
    n = profile.shape[0]
    lines = lines[(lines >= 1) & (lines < n - 1)]
    if lines.size < 2:
        return False
    local = running_median(profile, max(1, int(round(pitch))), axis=0)  # [along, channels]
    near = np.stack([lines + d for d in (-1, 0, 1)])
    off = np.abs(profile[near] - local[near]).max(axis=2).max(axis=0)
    return bool((off > LINE_CONTRAST).mean() >= LINE_SHARE)


def is_fence(frame: np.ndarray, grid: Grid, strip: Strip) -> bool:
    """Whether ``strip`` is a thin frame drawn cell by cell, not more cells: it repeats at the
    pitch along the side (KMines' "Gardens of Danger" fence has a post by every cell), it looks
    nothing like the board's own cells a pitch inside, at the same place in their cell (cells
    under a translucent window correlate with those), and half a cell to a cell beyond the
    side nothing repeats any more, nor do the lattice's lines run on there (more cells,
    whatever they show, go on a whole cell)."""
    side = strip.side
    across = grid.pitch_x if side in ("left", "right") else grid.pitch_y
    along = grid.pitch_y if side in ("left", "right") else grid.pitch_x
    if not repeats(strip.pixels, along):
        return False
    start, stop = (int(round(f * across)) for f in PAST_FENCE)
    past = band(frame, grid, side, start, stop)
    if past is None or repeats(past, along):
        return False
    if lines_marked(past, lines_along(grid, side), along):
        return False
    x0, y0, x1, y1 = bounds(grid)
    bx0, by0, bx1, by1 = strip.box
    first = {"left": x0 - bx1, "right": bx0 - x1, "top": y0 - by1, "bottom": by0 - y1}[side]
    shift = int(round(across))
    inner = band(frame, grid, side, first - shift, first - shift + strip.pixels.shape[0])
    if inner is None or inner.shape != strip.pixels.shape:
        return False
    a = strip.pixels - strip.pixels.mean(axis=(0, 1))
    b = inner - inner.mean(axis=(0, 1))
    energy = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return energy > 0 and float((a * b).sum()) < FENCE_LIKENESS * energy


def fenced(frame: np.ndarray, grid: Grid) -> dict[str, Strip] | None:
    """The strips beyond the four sides when every one is a fence (:func:`is_fence`), else
    None: a theme draws its fence all round the board, and one side alike would be more
    cells."""
    out = {}
    for side in SIDES:
        strip = strip_beyond(frame, grid, side)
        if isinstance(strip, str) or not is_fence(frame, grid, strip):
            return None
        # Its posts need not keep off the lattice's lines, and its corners are not judged (a
        # see-through fence shows what lies behind it, unlike at each corner).
        out[side] = Strip(side, strip.pixels, strip.box, strip.thin, fence=True)
    return out
