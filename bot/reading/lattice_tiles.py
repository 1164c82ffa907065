"""A board found where its cells repeat one picture, not where edges line up (see
:mod:`bot.reading.lattice`).

Some themes draw no line between cells: KMines' "Gardens of Danger" paints every cell, covered
or open, with one grass tile, and tells them apart only by what stands on it. The edge finder
gets the pitch from the grass's faint strokes but no boundary (no edge runs along a cell side).
What still marks the board is that its pixels repeat one pitch away, both ways, where the
landscape round it does not: the board is the rectangle where a pixel matches the one a pitch
beside it *and* the one a pitch above or below it, and not the ones half a pitch away (which a
flat or smoothly shaded area matches too). Its ends are where that stops, a whole number of
pitches apart.

>>> rng = np.random.default_rng(1)
>>> tile = rng.integers(90, 160, (16, 16, 3), dtype=np.uint8)      # one textured tile
>>> desk = np.full((240, 320, 3), 200, np.uint8)
>>> desk[40:40 + 9 * 16, 60:60 + 12 * 16] = np.tile(tile, (9, 12, 1))
>>> lat = tiled_lattice(desk, 16, 16)
>>> (lat.cols, lat.rows, lat.xs[0], lat.ys[0])
(12, 9, 60, 40)
"""

from __future__ import annotations

import numpy as np

from bot.errors import LatticeError
from bot.reading.lattice_lines import Lattice

#: Most a channel may differ (0-255) for two pixels a pitch apart to count as the same.
SAME_LEVEL = 4
#: Share of a cell-sized window whose pixels repeat a pitch away (both ways) for the window to
#: lie on the board: cells with a sign or a number on them repeat only round it.
REPEAT_SHARE = 0.6
#: Most of that share that may repeat half a pitch away too: flat or smoothly shaded areas
#: repeat at every distance, a board's tile only at its pitch.
HALF_SHARE = 0.6
#: Share of the board's median repeat, along a row or column, at which the board ends.
END_SHARE = 0.5
#: Most a board's width or height may lie off a whole number of pitches (a fraction of one).
WHOLE_CELLS = 0.15


def _repeats(image: np.ndarray, lag: int, axis: int) -> np.ndarray:
    """Pixels within :data:`SAME_LEVEL` of the pixel ``lag`` before or after along ``axis``."""
    import cv2

    h, w = image.shape[:2]
    out = np.zeros((h, w), bool)
    if lag <= 0 or lag >= image.shape[axis]:
        return out
    a = image[:, lag:] if axis == 1 else image[lag:]
    b = image[:, :-lag] if axis == 1 else image[:-lag]
    step = cv2.absdiff(a, b)
    same = (step.max(axis=2) if step.ndim == 3 else step) <= SAME_LEVEL
    if axis == 1:
        out[:, lag:] |= same
        out[:, :-lag] |= same
    else:
        out[lag:] |= same
        out[:-lag] |= same
    return out


def _ends(profile: np.ndarray, lo: int, hi: int, pitch: int) -> tuple[int, int]:
    """Where the repeat along ``profile`` ends either side of the blob ``lo..hi`` (its
    rough extent, blurred by a cell): the first and past the last index at
    :data:`END_SHARE` of the median inside it."""
    inside = profile[lo + pitch : hi - pitch] if hi - lo > 2 * pitch else profile[lo:hi]
    level = END_SHARE * float(np.median(inside)) if inside.size else 0.0
    a, b = max(lo - pitch, 0), min(hi + pitch, profile.size)
    idx = np.flatnonzero(profile[a:b] >= level) + a
    if level <= 0 or not idx.size:
        raise LatticeError("no repeating cell pattern found")
    return int(idx[0]), int(idx[-1]) + 1


def tiled_lattice(image: np.ndarray, pitch_x: int, pitch_y: int, min_cells: int = 4) -> Lattice:
    """The board whose cells repeat one tile at ``pitch_x`` by ``pitch_y`` px, or
    :class:`LatticeError`: none, fewer than ``min_cells`` a side, or a rectangle not a whole
    number of cells."""
    import cv2

    pixels = image[..., :3] if image.ndim == 3 else image
    both = _repeats(pixels, pitch_x, 1) & _repeats(pixels, pitch_y, 0)
    half = _repeats(pixels, pitch_x // 2, 1) & _repeats(pixels, pitch_y // 2, 0)
    window = (pitch_x, pitch_y)
    share = cv2.blur(both.astype(np.float32), window)
    share_half = cv2.blur((both & half).astype(np.float32), window)
    board = (share >= REPEAT_SHARE) & (share_half <= HALF_SHARE * share)
    count, _, stats, _ = cv2.connectedComponentsWithStats(board.astype(np.uint8))
    if count <= 1:
        raise LatticeError("no repeating cell pattern found")
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[k, :4])
    # Along rows and columns, only the pixels that repeat at the pitch alone: a flat desktop
    # round the board repeats at every distance.
    tile = both & ~half
    left, right = _ends(tile[y : y + h].mean(axis=0), x, x + w, pitch_x)
    top, bottom = _ends(tile[:, left:right].mean(axis=1), y, y + h, pitch_y)
    cols, rows = round((right - left) / pitch_x), round((bottom - top) / pitch_y)
    if cols < min_cells or rows < min_cells:
        raise LatticeError(
            f"the repeating pattern found is only {cols}x{rows} cells: no board in the image"
        )
    off_x = abs((right - left) / pitch_x - cols)
    off_y = abs((bottom - top) / pitch_y - rows)
    if max(off_x, off_y) > WHOLE_CELLS:
        raise LatticeError(
            f"the repeating pattern found is {(right - left) / pitch_x:.2f}x"
            f"{(bottom - top) / pitch_y:.2f} cells, not a whole number: part of a board"
        )
    return Lattice.regular(left, top, (right - left) / cols, (bottom - top) / rows, cols, rows)
