"""How a pixel-repeating (nearest-neighbour) scaler draws a cell: the phases a cell can start
at, and the cell's tiling so stretched (the banks' stretches of a template, the anchors'
images at a scaled pitch).

>>> nearest_phases(1.5, 1.5)  # 150 %: a cell starts on either pixel of a doubled pair
[(0, 0), (1, 0), (0, 1), (1, 1)]
"""

from __future__ import annotations

import numpy as np

__all__ = ["MOST_PHASES", "nearest_phases", "repeated_part", "repeated_tiling"]


#: Scalings whose pixel-repeating pattern a template is stretched at every phase of: those of
#: a whole number of quarters (125 %, 150 %, 175 %, 200 %, 250 %...), at most this many
#: phases each way (the pattern of a scaling p / q repeats every q source pixels).
MOST_PHASES = 4


def nearest_phases(sx: float, sy: float, spread: bool = False) -> list[tuple[int, int]]:
    """The phases ``(a, b)`` (source pixels before a cell, modulo the scaling's period each
    way) at which a pixel-repeating scaler can draw a cell at scale ``(sx, sy)``; none when a
    scale is under 1.2 or not a whole number of quarters. With ``spread``, at any other scale
    from :data:`LEAST_SPREAD_SCALE` up, :data:`SPREAD_PHASES` phases each way whose cells
    start as evenly spread over a pixel as any (:func:`_spread_phases`): the pattern of such a
    scaling repeats too seldom for every phase, and a cell drawn at one of them differs from the
    nearest by a few pixels.

    >>> nearest_phases(2.0, 2.0), len(nearest_phases(1.25, 1.25)), nearest_phases(1.1, 1.1)
    ([(0, 0)], 16, [])
    >>> len(nearest_phases(1.35, 1.4, spread=True)), nearest_phases(1.1, 1.35, spread=True)
    (16, [])
    """
    per_axis = []
    for scale in (sx, sy):
        quarters = scale * MOST_PHASES
        if scale >= 1.2 and abs(quarters - round(quarters)) <= 4e-3:
            period = MOST_PHASES // int(np.gcd(round(quarters), MOST_PHASES))
            per_axis.append(list(range(period)))
        elif spread and scale >= LEAST_SPREAD_SCALE:
            per_axis.append(_spread_phases(scale))
        else:
            return []
    return [(a, b) for b in per_axis[1] for a in per_axis[0]]


#: Phases each way a scaling no whole number of quarters is drawn at (see :func:`nearest_phases`)
#: and the least such scale, as for whole quarters (below it, a cell repeated at a phase
#: passed for the flat see-through cells of a game drawing bigger cells itself, KMines').
SPREAD_PHASES = 4
LEAST_SPREAD_SCALE = 1.2


def _spread_phases(scale: float) -> list[int]:
    """:data:`SPREAD_PHASES` source-pixel phases whose starts (``a * scale`` past a whole
    pixel) lie nearest quarters of a pixel apart.

    >>> _spread_phases(1.35), _spread_phases(1.1)
    ([0, 1, 10, 5], [0, 2, 5, 7])
    """
    # Fewer phases than the smallest cell has pixels: a phase is a shift within one copy of
    # the cell (repeated_tiling); the first of equally near ones.
    starts = (np.arange(12) * scale) % 1.0
    wanted = np.arange(SPREAD_PHASES) / SPREAD_PHASES
    gap = np.abs(starts[None, :] - wanted[:, None])
    return [int(a) for a in np.round(np.minimum(gap, 1 - gap), 6).argmin(axis=1)]


def repeated_tiling(image: np.ndarray, sx: float, sy: float, phase: tuple[int, int]) -> np.ndarray:
    """A 3x3 tiling of ``image`` (grey or colour) stretched by ``(sx, sy)`` as a pixel-repeating
    scaler that started ``phase`` source pixels before it draws it: output pixel ``(x, y)``
    shows source pixel ``(floor(x / sx) - a, floor(y / sy) - b)``. The middle copy starts at
    ``((w + a) * sx, (h + b) * sy)``.

    >>> cell = np.array([[5, 9]], np.uint8)
    >>> repeated_tiling(cell, 2.0, 1.0, (0, 0))[0].tolist()
    [5, 5, 9, 9, 5, 5, 9, 9, 5, 5, 9, 9]
    >>> repeated_tiling(cell, 1.5, 1.0, (1, 0))[0].tolist()  # before the tiling: its first pixel
    [5, 5, 5, 9, 9, 5, 9, 9, 5, 9, 9]
    """
    h, w = image.shape[:2]
    a, b = phase
    size = (int(np.ceil((3 * w + a) * sx)), int(np.ceil((3 * h + b) * sy)))
    return repeated_part(image, sx, sy, phase, (0, size[0]), (0, size[1]))


def repeated_part(
    image: np.ndarray,
    sx: float,
    sy: float,
    phase: tuple[int, int],
    xs: tuple[int, int],
    ys: tuple[int, int],
) -> np.ndarray:
    """Columns ``xs[0]:xs[1]`` and rows ``ys[0]:ys[1]`` of :func:`repeated_tiling`'s picture
    (only the part around one copy is sampled: drawing all nine cost most of a bank's time)."""
    h, w = image.shape[:2]
    a, b = phase
    cols = np.clip(np.floor(np.arange(*xs) / sx) - a, 0, 3 * w - 1).astype(np.intp)
    rows = np.clip(np.floor(np.arange(*ys) / sy) - b, 0, 3 * h - 1).astype(np.intp)
    # Pixel k of the tiling is the image's k mod its size: taken an axis at a time (indexing
    # a tiled copy by both axes at once cost four times as long).
    return image.take(rows % h, axis=0).take(cols % w, axis=1)
