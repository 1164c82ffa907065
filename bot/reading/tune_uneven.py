"""Tuning from cells a fraction of a pixel apart: a game that shares out spare pixels, or a
desktop scaled by a fraction (see :mod:`bot.reading.tune`).

GNOME Mines fills its window with whole-pixel cells, the spare pixels shared out (a 30x16 board
in a 1200x700 window: 20 columns 33 px apart, then 10 at 32 px), and a browser snaps a web
clone's cells to whole pixels (56 and 55 px cells alternate): the cells are a fraction of a
pixel apart on average but each is drawn crisp, at its own size. A desktop scaled by a
fraction with smoothing resamples every cell differently (each edge spread over two pixels,
its shade set by where the cell falls): those do not group, and the capture is refused. The
two are told apart by the edges: on a crisp picture a good share of the strong colour steps
is made within one pixel, on a smoothed one almost none.

>>> lattice = Lattice(xs=(0, 33, 66, 98, 130), ys=(0, 33, 65))
>>> uneven_reach([lattice]), spare_first([lattice])
(2, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from bot.errors import TuneError
from bot.reading.lattice_lines import Lattice
from bot.reading.tune_cells import Shot, fractional

#: A strong colour step (0-255, largest channel) over three pixels...
STRONG_STEP = 48
#: ... made within one pixel where that pixel's step is this share of it or more.
SHARP = 0.85
#: Share of the strong steps inside a board made within one pixel above which its cells are
#: drawn crisp: 0.24-0.67 on the fixtures (GNOME Mines' antialiased tiles are the lowest), at
#: most 0.10 on them scaled by 125-175 % with smoothing.
CRISP_SHARE = 0.2


def crisp_share(image: np.ndarray, lattice: Lattice) -> float:
    """The share of the strong left-to-right colour steps inside ``lattice``'s board that
    are made within one pixel (1.0 where there are none)."""
    x0, y0, x1, y1 = lattice.box
    part = image[max(y0, 0) : y1, max(x0, 0) : x1, :3].astype(np.int16)
    if part.ndim != 3 or part.shape[1] < 4:
        return 1.0
    one = np.abs(part[:, 2:-1] - part[:, 1:-2]).max(axis=2)
    three = np.abs(part[:, 3:] - part[:, :-3]).max(axis=2)
    strong = three >= STRONG_STEP
    if not strong.any():
        return 1.0
    return float((one[strong] >= SHARP * three[strong]).mean())


def check_unscaled(shots: Sequence[Shot]) -> None:
    """Refuse captures from a desktop scaled by a fraction with smoothing (a fractional cell
    pitch, edges spread over two pixels): their cells are resampled differently from one
    column to the next and do not group. Whole-pixel cells a fraction apart on average, drawn
    crisp, are the game's own (:func:`uneven_reach`)."""
    for shot in shots:
        apart = [p for p in (shot.lattice.pitch_x, shot.lattice.pitch_y) if fractional(p)]
        if apart and crisp_share(shot.image, shot.lattice) < CRISP_SHARE:
            raise TuneError(
                f"{shot.path}: the cells are {apart[0]:.2f} px apart and their edges are "
                "smoothed, a desktop scaled by a fraction; capture the game at 100% (or "
                "200%) display scaling and tune from that"
            )


def _off_even(lines: Sequence[int]) -> float:
    """How far (px) the furthest of ``lines`` lies off the even lattice fitted to them."""
    k = np.arange(len(lines), dtype=np.float64)
    pitch, start = np.polyfit(k, np.asarray(lines, np.float64), 1)
    return float(np.abs(np.asarray(lines) - (start + pitch * k)).max())


def _uneven_axes(lattices: Sequence[Lattice]) -> list[tuple[int, ...]]:
    """The line positions of every axis whose cells lie a fraction of a pixel apart."""
    return [
        axis
        for lat in lattices
        for axis, pitch in ((lat.xs, lat.pitch_x), (lat.ys, lat.pitch_y))
        if len(axis) >= 3 and fractional(pitch)
    ]


def uneven_reach(lattices: Sequence[Lattice]) -> int:
    """How far (px) the lines of cells drawn a fraction apart may lie off an even lattice
    (skin.json ``cell.uneven_px``): the furthest seen, rounded up, and a pixel more; 0 where
    every lattice's cells are whole pixels apart."""
    axes = _uneven_axes(lattices)
    return math.ceil(max(_off_even(axis) for axis in axes)) + 1 if axes else 0


def spare_first(lattices: Sequence[Lattice]) -> bool:
    """Whether, where cells lie a fraction apart, the wider ones always come first (GTK's
    grids; skin.json ``cell.spare_px_first``)."""
    axes = _uneven_axes(lattices)
    return bool(axes) and all((np.diff(np.diff(axis)) <= 0).all() for axis in axes)
