"""Detail pixels: what tells a drawn cell from a flat patch of its colour.

A covered cell is mostly one flat colour inside a thin bevel; a window's margin, a header or a
desktop of that colour matches most of its pixels and none of the bevel's. Scored by the share
of pixels alone, such a patch passes for a cell (a ring of "covered cells" round a board in a
grey window), so a cell is also judged on its template's detail pixels: those beyond the
tolerance from the template's commonest colour (:func:`detail_pixels`). A cell that shows
fewer than :data:`DETAIL_FLOOR` of them scores that share at most (:func:`detail_cap`).
"""

from __future__ import annotations

import numpy as np

#: Fewest detail pixels (a share of the counted ones) a template must have to be judged on
#: them: a nearly flat cell (an open cell) has nothing that tells it from a flat patch.
MIN_DETAIL_SHARE = 0.03


def detail_pixels(u8: np.ndarray, tol: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which pixels of each template (``u8`` ``[K, D]`` BGR samples, ``tol`` their tolerances,
    255 where not counted) lie beyond their tolerance from the template's commonest colour (its
    median per channel over the counted pixels): ``[K, D / 3]`` uint8, 0 or 1; and that colour
    in every pixel (``[K, D]``).

    A covered cell is mostly one flat colour inside a thin bevel: a flat patch of that colour
    (a window's margin round the board) matches most of its pixels, none of the bevel's.

    >>> u8 = np.full((1, 12), 100, np.uint8); u8[0, :3] = 250
    >>> detail, common = detail_pixels(u8, np.full((1, 12), 8, np.uint8))
    >>> detail.tolist(), common[0, :3].tolist()
    ([[1, 0, 0, 0]], [100, 100, 100])
    """
    k, d = u8.shape
    pixels = u8.reshape(k, d // 3, 3).astype(np.int16)
    counted = tol.reshape(k, d // 3, 3)[:, :, 0] < 255
    out = np.zeros((k, d // 3), np.uint8)
    common = np.zeros((k, d // 3, 3), np.uint8)
    for row in range(k):
        inside = pixels[row][counted[row]]
        if not len(inside):
            continue
        colour = np.median(inside, axis=0)
        far = np.abs(pixels[row] - colour) > tol.reshape(k, d // 3, 3)[row]
        out[row] = far.any(axis=1) & counted[row]
        common[row] = np.round(colour).astype(np.uint8)
    return out, common.reshape(k, d)


#: A cell matching fewer than this share of its template's detail pixels (see
#: :func:`detail_pixels`) is scored by that share at most, however many of
#: its flat pixels match: a flat patch is not a bevelled tile.
DETAIL_FLOOR = 0.5


def detail_cap(far: np.ndarray, detail: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The most each comparison may score (``[M]``): the share of its template's detail pixels
    it matches where that is under :data:`DETAIL_FLOOR`, else 1 (also where the template has
    too few detail pixels to judge by, ``count`` 0). ``far`` ``[M, P]`` marks the pixels off
    (0/1, :func:`~bot.reading.matching.far_pixel_map`), ``detail`` ``[M, P]`` the template's
    detail pixels (0/1).

    >>> far = np.array([[1, 1, 0, 0], [0, 0, 0, 1]], np.uint8)
    >>> detail = np.array([[1, 1, 1, 0], [1, 1, 1, 0]], np.uint8)
    >>> detail_cap(far, detail, np.array([3, 3])).round(3).tolist()
    [0.333, 1.0]
    """
    import cv2

    missed = cv2.reduce(far & detail, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]
    share = 1.0 - missed / np.maximum(count, 1)
    return np.where((count > 0) & (share < DETAIL_FLOOR), share, 1.0)


def absent_pixels(to_template: np.ndarray, to_common: np.ndarray) -> np.ndarray:
    """Which pixels (``[M, P]``, 0/1) are no nearer the template than its commonest colour,
    from the absolute differences ``[M, P * 3]`` of each cell to its template and to that
    colour (the larger channel of each pixel): a detail pixel not shown. Judged so where the
    tolerance was widened at edges (a lossy frame's), within which a flat patch would pass.

    >>> to_template = np.array([[20, 20, 20, 2, 2, 2]], np.uint8)
    >>> to_common = np.array([[3, 3, 3, 30, 30, 30]], np.uint8)
    >>> absent_pixels(to_template, to_common).tolist()
    [[1, 0]]
    """
    m, d = to_template.shape
    near_template = to_template.reshape(m, d // 3, 3).max(axis=2)
    return (near_template >= to_common.reshape(m, d // 3, 3).max(axis=2)).astype(np.uint8)
