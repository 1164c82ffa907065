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
    pixels = u8.reshape(k, d // 3, 3)
    counted = tol.reshape(k, d // 3, 3)[:, :, 0] < 255
    twice = _counted_medians(pixels, counted)  # [K, 3], twice the median: whole numbers
    # |pixel - median| > tol, in whole numbers: |2 pixel - 2 median| > 2 tol.
    twice_tol = 2 * tol.reshape(k, d // 3, 3).astype(np.int16)
    off = np.abs(2 * pixels.astype(np.int16) - twice[:, None]) > twice_tol
    out = ((off[..., 0] | off[..., 1] | off[..., 2]) & counted).astype(np.uint8)
    colours = np.round(twice / 2.0).astype(np.uint8)  # (halves to even, as numpy rounds)
    common = np.broadcast_to(colours[:, None], (k, d // 3, 3))
    return out, np.ascontiguousarray(common).reshape(k, d)


def _counted_medians(pixels: np.ndarray, counted: np.ndarray) -> np.ndarray:
    """Twice each row's median colour (``[K, 3]`` int16, per channel; the median as
    :func:`numpy.median` takes it: the mean of the two middle values of an even count) over
    its ``counted`` pixels; 0 where none is. ``pixels`` ``[K, P, 3]`` uint8, ``counted``
    ``[K, P]`` bool.

    Counted from each channel's histogram of levels: one count for every row at once, where a
    median per row sorts each row's pixels.

    >>> _counted_medians(np.array([[[1, 5, 9], [3, 5, 0], [250, 0, 0]]], np.uint8),
    ...                  np.array([[True, True, False]])).tolist()
    [[4, 10, 9]]
    """
    k = pixels.shape[0]
    # Each value's bin: its row's, its channel's, its level.
    offsets = ((np.arange(k, dtype=np.int32)[:, None] * 3 + np.arange(3)) * 256)[:, None]
    bins = pixels + offsets  # [K, P, 3] int32
    chosen = bins if counted.all() else bins[counted]
    histogram = np.bincount(chosen.reshape(-1), minlength=k * 3 * 256).reshape(k, 3, 256)
    below = np.cumsum(histogram, axis=2)  # how many values are at most each level
    n = below[:, :, -1:]
    # The levels of the middle values (ranks (n - 1) // 2 and n // 2, from 0).
    low = (below <= (n - 1) // 2).sum(axis=2)
    high = (below <= n // 2).sum(axis=2)
    return np.where(n[:, :, 0] > 0, low + high, 0).astype(np.int16)


def kept_detail(
    detail: np.ndarray, images: np.ndarray, common: np.ndarray, tol: np.ndarray, counted: int
) -> tuple[np.ndarray, np.ndarray]:
    """The detail pixels ``detail`` (``[K, P]``, 0/1) that stay beyond the tolerance ``tol``
    from the commonest colour ``common`` in ``images`` (``[K, D]`` uint8 each: templates as a
    screen's tone curve shows them), and how many (``[K]``; 0 where fewer than
    :data:`MIN_DETAIL_SHARE` of the ``counted`` pixels). A curve that clips merges a tile
    and the gap round it into one white: neither is detail any more, and a template judged on
    detail it no longer draws scores nothing on a cell that shows just what it draws.

    >>> detail = np.array([[1, 1, 0]], np.uint8)
    >>> images = np.array([[255, 255, 255, 200, 200, 200, 254, 254, 254]], np.uint8)
    >>> common = np.full((1, 9), 254, np.uint8)
    >>> kept, count = kept_detail(detail, images, common, np.full((1, 9), 6, np.uint8), 3)
    >>> kept.tolist(), count.tolist()
    ([[0, 1, 0]], [1])
    """
    import cv2

    kept = detail & far_pixel_map(cv2.absdiff(images, common), tol)
    count = kept.sum(axis=1, dtype=np.int32)
    count[count < MIN_DETAIL_SHARE * counted] = 0
    return kept, count


#: A cell matching fewer than this share of its template's detail pixels (see
#: :func:`detail_pixels`) is scored by that share at most, however many of
#: its flat pixels match: a flat patch is not a bevelled tile.
DETAIL_FLOOR = 0.5


def detail_cap(far: np.ndarray, detail: np.ndarray, count: np.ndarray) -> np.ndarray:
    """The most each comparison may score (``[M]``): the share of its template's detail pixels
    it matches where that is under :data:`DETAIL_FLOOR`, else 1 (also where the template has
    too few detail pixels to judge by, ``count`` 0). ``far`` ``[M, P]`` marks the pixels off
    (0/1, :func:`far_pixel_map`), ``detail`` ``[M, P]`` the template's
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
    return (_largest_channel(to_template) >= _largest_channel(to_common)).astype(np.uint8)


def _largest_channel(values: np.ndarray) -> np.ndarray:
    """Each pixel's largest channel of ``values`` ``[M, P * 3]`` (channels interleaved):
    ``[M, P]``. Two maxima of strided views: a reduction over an axis of 3 is many times slower
    (it was a quarter of the locator's time on a big board).

    >>> _largest_channel(np.array([[1, 5, 2, 9, 0, 3]], np.uint8)).tolist()
    [[5, 9]]
    """
    return np.maximum(np.maximum(values[:, 0::3], values[:, 1::3]), values[:, 2::3])


#: Per-channel difference from a template's commonest colour past which a pixel is ink: a
#: digit's stroke, a flag, a mine, a pointer (noise of sigma 8 stays below it).
INK_LEVEL = 48
#: Ink within this share of the cell's size of where the template draws its own counts as
#: the template's (a stroke a pixel or two off on a scaled desktop, a bevel drawn thinner).
INK_REACH = 0.08
#: Ink in the band of this share of the cell round its edge is not judged (a neighbour's
#: colour bled in, a bevel a pixel off).
INK_BORDER = 0.12
#: Share of a cell's counted pixels of ink that its template draws nowhere near, past which
#: the cell is not that template's class: scored ``EXTRA_INK / share`` at most. A digit drawn
#: on a flat tile of another game's open colour is not that flat tile.
EXTRA_INK = 0.03
#: A cell showing less ink near its template's glyph than this share of the glyph is scored
#: by that share at most: a plain tile is no mine, however well it matches the tile round it.
GLYPH_FLOOR = 0.25


def glyph_pixels(
    u8: np.ndarray, common: np.ndarray, detail: np.ndarray, counted: np.ndarray, h: int, w: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each template's glyph: its ink (pixels past :data:`INK_LEVEL` from its commonest colour)
    among its detail pixels inside the border band (:data:`INK_BORDER`: a bevel, a line round
    the cell are drawn there) that fewer than half of the templates share (the tile's outline,
    a gap round it, are every class's); as ``(near, count)``: where a cell's ink shows the
    glyph (the glyph widened by :data:`INK_REACH`, ``[K, P]`` uint8) and how many pixels the
    glyph has (``[K]``, 0 where fewer than :data:`MIN_DETAIL_SHARE` of the ``counted`` ones).
    ``u8``, ``common`` ``[K, D]``: the templates and their commonest colours; ``detail``
    ``[K, P]`` (:func:`detail_pixels`); ``h`` x ``w`` samples a cell.

    >>> u8 = np.full((3, 108), 100, np.uint8); u8[0, 42:48] = 0; u8[:, 105:] = 250
    >>> detail, common = detail_pixels(u8, np.full((3, 108), 8, np.uint8))
    >>> near, count = glyph_pixels(u8, common, detail, np.ones(36, bool), 6, 6)
    >>> count.tolist(), near[0].reshape(6, 6)[1].tolist()
    ([2, 0, 0], [0, 1, 1, 1, 1, 0])
    """
    import cv2

    shared = 2 * detail.sum(axis=0, dtype=np.int32) >= len(u8)
    ink = _ink(cv2.absdiff(u8, common)).astype(bool)
    glyph = ink & detail.astype(bool) & ~shared[None] & inside_border(counted, h, w)[None]
    count = glyph.sum(axis=1, dtype=np.int32)
    count[count < MIN_DETAIL_SHARE * counted.sum()] = 0
    return _widened(glyph, h, w), count


def ink_free_pixels(detail: np.ndarray, counted: np.ndarray, h: int, w: int) -> np.ndarray:
    """Where a cell's ink is none of its template's (``[K, P]`` uint8, 0/1): counted pixels
    (``counted`` ``[P]`` bool) inside the border band (:data:`INK_BORDER`) and beyond
    :data:`INK_REACH` of the template's detail pixels (``detail`` ``[K, P]``, samples ``h`` x
    ``w``).

    >>> detail = np.zeros((1, 100), np.uint8); detail[0, 55] = 1
    >>> free = ink_free_pixels(detail, np.ones(100, bool), 10, 10).reshape(10, 10)
    >>> int(free.sum()), int(free[5, 5]), int(free[2, 2]), int(free[0, 0])
    (55, 0, 1, 0)
    """
    near = _widened(detail.astype(bool), h, w).astype(bool)
    return (inside_border(counted, h, w)[None] & ~near).astype(np.uint8)


def inside_border(counted: np.ndarray, h: int, w: int) -> np.ndarray:
    """The ``counted`` pixels (``[P]`` bool, ``h`` x ``w``) inside the border band
    (:data:`INK_BORDER`), where a cell's glyph is drawn: ``[P]`` bool."""
    inside = counted.reshape(h, w).copy()
    band_y, band_x = max(1, int(round(INK_BORDER * h))), max(1, int(round(INK_BORDER * w)))
    inside[:band_y], inside[-band_y:], inside[:, :band_x], inside[:, -band_x:] = (False,) * 4
    return inside.reshape(-1)


def _widened(pixels: np.ndarray, h: int, w: int) -> np.ndarray:
    """``pixels`` (``[K, P]``, each ``h`` x ``w``) widened by :data:`INK_REACH` of the cell
    each way, as uint8 0/1."""
    import cv2

    reach = max(1, int(round(INK_REACH * max(h, w))))
    kernel = np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)
    out = np.zeros(pixels.shape, np.uint8)
    for k in range(pixels.shape[0]):
        out[k] = cv2.dilate(pixels[k].reshape(h, w).astype(np.uint8), kernel).reshape(-1)
    return out


#: :data:`INK_LEVEL` per channel in BGR, and in YCrCb (whose colour axes are about half as
#: wide: Cr = 0.71 (R - Y), Cb = 0.56 (B - Y)).
BGR_INK = (INK_LEVEL,) * 3
YCRCB_INK = (INK_LEVEL, INK_LEVEL // 2, INK_LEVEL // 2)


def _ink(to_common: np.ndarray, levels: tuple[int, ...] = BGR_INK) -> np.ndarray:
    """Which pixels of ``to_common`` (``[M, P * 3]`` uint8, differences from a commonest
    colour; overwritten) are ink, a channel past its level in ``levels``: ``[M, P]`` uint8, 0
    or 1.

    >>> _ink(np.array([[49, 0, 0, 0, 30, 30]], np.uint8), YCRCB_INK).tolist()
    [[1, 1]]
    """
    import cv2

    if tuple(levels) != BGR_INK:  # each channel scaled to the one level
        m, d = to_common.shape
        scale = tuple(INK_LEVEL / level for level in levels) + (0.0,)  # a per-channel scalar
        pixels = to_common.reshape(m, d // 3, 3)
        cv2.multiply(pixels, scale, dst=pixels)  # type: ignore[call-overload]
    return far_pixel_map(to_common, INK_LEVEL)


def shown_cap(
    to_common: np.ndarray,
    glyph_near: np.ndarray,
    glyph_count: np.ndarray,
    ink_free: np.ndarray,
    counted: int,
    lent: np.ndarray | None = None,
    levels: tuple[int, ...] = BGR_INK,
) -> np.ndarray:
    """The most each cell may score (``[N]``) as the class it is read as, for the ink it shows
    (pixels past :data:`INK_LEVEL` from its template's commonest colour): near the template's
    glyph, at least :data:`GLYPH_FLOOR` of the glyph's size (else that share at most), and
    where the template draws nothing near, at most :data:`EXTRA_INK` of the cell (else
    ``EXTRA_INK / share`` at most). ``to_common`` (``[N, D]`` uint8, overwritten): each cell's
    difference from its template's commonest colour; ``glyph_near``, ``ink_free`` (``[N, P]``)
    and ``glyph_count`` (``[N]``): the templates' (see :class:`~bot.reading.banks.TemplateBank`);
    ``counted``: how many pixels of a cell are compared; ``lent`` (``[N, D]``): how far its
    neighbours' colours may have moved each sample (a lossy frame's bleed,
    :func:`~bot.reading.lossy.neighbour_bleed`), which is no ink beyond the glyph; ``levels``:
    the ink level of each channel of the colour space compared.

    >>> near, free = np.array([[1, 1, 0, 0]], np.uint8), np.array([[0, 0, 1, 1]], np.uint8)
    >>> plain = np.zeros((1, 12), np.uint8)  # a plain tile read as a mine
    >>> shown_cap(plain, near, np.array([2]), free, 4).tolist()
    [0.0]
    >>> stroke = plain.copy(); stroke[0, 9:] = 150  # a flat tile with a stroke on it
    >>> shown_cap(stroke, near, np.array([0]), free, 4).tolist()
    [0.12]
    """
    import cv2

    own = None if lent is None else cv2.subtract(to_common, lent)
    ink = _ink(to_common, levels)
    near = cv2.reduce(ink & glyph_near, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]
    share = near / np.maximum(glyph_count, 1)
    cap = np.where((glyph_count > 0) & (share < GLYPH_FLOOR), share, 1.0)
    if own is not None:  # what a neighbour may have lent is no ink of the cell's own
        ink = _ink(own, levels)
    return np.minimum(cap, ink_cap(ink, ink_free, counted))


def ink_cap(ink: np.ndarray, free: np.ndarray, counted: int) -> np.ndarray:
    """The most each comparison may score (``[M]``) for the ink it shows where its template
    draws none: ``ink`` ``[M, P]`` (0/1, pixels past :data:`INK_LEVEL` from the template's
    commonest colour), ``free`` ``[M, P]`` (:func:`ink_free_pixels` of each comparison's
    template), ``counted`` the cell's counted pixels. 1 up to :data:`EXTRA_INK` of them, then
    ``EXTRA_INK / share``.

    >>> ink = np.zeros((2, 100), np.uint8); ink[1, :12] = 1
    >>> ink_cap(ink, np.ones((2, 100), np.uint8), 100).round(3).tolist()
    [1.0, 0.25]
    """
    import cv2

    extra = cv2.reduce(ink & free, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0] / max(counted, 1)
    return np.where(extra > EXTRA_INK, EXTRA_INK / np.maximum(extra, 1e-9), 1.0)


def far_pixels(diff: np.ndarray, tol: np.ndarray | int) -> np.ndarray:
    """Per row of ``diff`` ``[M, P * 3]`` (BGR samples), how many pixels have a channel off by
    more than ``tol`` (an array like ``diff`` or one number; masked samples carry a tolerance
    of 255, so they never count). ``diff`` is overwritten.

    >>> diff = np.array([[0, 9, 0, 3, 3, 3], [255, 0, 0, 0, 0, 0]], np.uint8)
    >>> far_pixels(diff.copy(), np.full(diff.shape, 4, np.uint8)).tolist()
    [1, 1]
    >>> far_pixels(diff, 4).tolist()
    [1, 1]
    """
    import cv2

    return cv2.reduce(far_pixel_map(diff, tol), 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[:, 0]


def far_pixel_map(diff: np.ndarray, tol: np.ndarray | int) -> np.ndarray:
    """Which pixels of each row of ``diff`` (as :func:`far_pixels`) have a channel off:
    ``[M, P]`` uint8, 0 or 1. ``diff`` is overwritten.

    >>> far_pixel_map(np.array([[0, 9, 0, 3, 3, 3]], np.uint8), 4).tolist()
    [[1, 0]]
    """
    import cv2

    # OpenCV, not numpy: each step is one pass (numpy's strided per-channel views cost 4x).
    # A grey conversion of the 0/255 masks is nonzero exactly where some channel is (every
    # channel has a positive weight), so it is the "any channel" of each pixel.
    m, d = diff.shape
    if isinstance(tol, int):
        cv2.threshold(diff, tol, 255, cv2.THRESH_BINARY, dst=diff)
    else:
        cv2.compare(diff, tol, cv2.CMP_GT, dst=diff)
    pixel = cv2.cvtColor(diff.reshape(m, d // 3, 3), cv2.COLOR_BGR2GRAY)
    cv2.threshold(pixel, 0, 1, cv2.THRESH_BINARY, dst=pixel)
    return pixel
